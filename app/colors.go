package app

import (
	"image/color"

	"fyne.io/fyne/v2/theme"
)

// withAlpha returns c with its opacity replaced by a (0–255), keeping its hue.
func withAlpha(c color.Color, a uint8) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = a
	return n
}

// darkTheme reports whether the theme's background is dark, so that the
// pictures are drawn to match it (paint.Dark) rather than as white
// panes in a dark window.
func darkTheme() bool {
	r, g, b, _ := theme.Color(theme.ColorNameBackground).RGBA()
	return 299*r+587*g+114*b < 1000*0x8000
}
