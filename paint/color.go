package paint

import (
	"image/color"
	"math"
)

// OKLCH converts an OKLCH colour (lightness 0–1, chroma, hue in radians)
// to 8-bit sRGB, clamping colours outside the sRGB gamut.
func OKLCH(l, c, h float64) color.RGBA {
	a, b := c*math.Cos(h), c*math.Sin(h)
	// OKLab → LMS (cube roots) → LMS → linear sRGB (Ottosson's matrices).
	lc := l + 0.3963377774*a + 0.2158037573*b
	mc := l - 0.1055613458*a - 0.0638541728*b
	sc := l - 0.0894841775*a - 1.2914855480*b
	lq, mq, sq := lc*lc*lc, mc*mc*mc, sc*sc*sc
	r := 4.0767416621*lq - 3.3077115913*mq + 0.2309699292*sq
	g := -1.2684380046*lq + 2.6097574011*mq - 0.3413193965*sq
	bl := -0.0041960863*lq - 0.7034186147*mq + 1.7076147010*sq
	return color.RGBA{srgb8(r), srgb8(g), srgb8(bl), 0xff}
}

// srgb8 gamma-encodes a linear channel value into 0–255.
func srgb8(v float64) uint8 {
	v = math.Max(0, math.Min(1, v))
	if v <= 0.0031308 {
		v *= 12.92
	} else {
		v = 1.055*math.Pow(v, 1/2.4) - 0.055
	}
	return uint8(math.Round(v * 255))
}

// linear gamma-decodes an 8-bit sRGB channel.
func linear(v uint8) float64 {
	x := float64(v) / 255
	if x <= 0.04045 {
		return x / 12.92
	}
	return math.Pow((x+0.055)/1.055, 2.4)
}

// OKLab returns the OKLab coordinates (lightness, a, b) of an sRGB colour.
func OKLab(c color.RGBA) (l, a, b float64) {
	r, g, bl := linear(c.R), linear(c.G), linear(c.B)
	lq := math.Cbrt(0.4122214708*r + 0.5363325363*g + 0.0514459929*bl)
	mq := math.Cbrt(0.2119034982*r + 0.6806995451*g + 0.1073969566*bl)
	sq := math.Cbrt(0.0883024619*r + 0.2817188376*g + 0.6299787005*bl)
	return 0.2104542553*lq + 0.7936177850*mq - 0.0040720468*sq,
		1.9779984951*lq - 2.4285922050*mq + 0.4505937099*sq,
		0.0259040371*lq + 0.7827717662*mq - 0.8086757660*sq
}

// Distance is how far apart two colours look: the Euclidean distance of
// their OKLab coordinates (0 for equal colours, about 0.02 for a barely
// visible difference, 1 from black to white).
func Distance(x, y color.RGBA) float64 {
	l1, a1, b1 := OKLab(x)
	l2, a2, b2 := OKLab(y)
	return math.Sqrt((l1-l2)*(l1-l2) + (a1-a2)*(a1-a2) + (b1-b2)*(b1-b2))
}

// Mix returns x mixed with a fraction f (0–1) of y, channel by channel.
func Mix(x, y color.RGBA, f float64) color.RGBA {
	f = math.Max(0, math.Min(1, f))
	m := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*(1-f) + float64(b)*f)) }
	return color.RGBA{m(x.R, y.R), m(x.G, y.G), m(x.B, y.B), m(x.A, y.A)}
}

// WithAlpha returns c with opacity a (0–255), premultiplication left to
// the canvas: Canvas methods take straight (non-premultiplied) colours.
func WithAlpha(c color.RGBA, a uint8) color.RGBA { c.A = a; return c }
