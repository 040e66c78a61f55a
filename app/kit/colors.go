package kit

import (
	"image/color"

	"fyne.io/fyne/v2/theme"
)

// WithAlpha returns c with its opacity replaced by a (0–255), keeping its hue.
func WithAlpha(c color.Color, a uint8) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = a
	return n
}

// DarkTheme reports whether the theme's background is dark, so that the
// pictures are drawn to match it (paint.Dark) rather than as white
// panes in a dark window.
func DarkTheme() bool {
	r, g, b, _ := theme.Color(theme.ColorNameBackground).RGBA()
	return 299*r+587*g+114*b < 1000*0x8000
}
