package app

import "image/color"

// withAlpha returns c with its opacity replaced by a (0–255), keeping its hue.
func withAlpha(c color.Color, a uint8) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = a
	return n
}
