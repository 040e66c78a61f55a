package heapview

import (
	"image/color"
	"math"
)

// The band palette: 14 hues around the OKLCH colour wheel at three
// lightness levels, so that neighbouring bands in a stack stay apart and
// black text and lines remain readable over every colour.
const (
	paletteHues   = 14
	paletteLevels = 3
)

var palette = buildPalette()

// otherColor is the colour of the OTHER band: a neutral grey that no
// palette colour resembles.
var otherColor = color.RGBA{0xbd, 0xbd, 0xbd, 0xff}

func buildPalette() []color.RGBA {
	levels := [paletteLevels]struct{ l, c float64 }{
		{0.72, 0.13}, {0.58, 0.12}, {0.84, 0.09},
	}
	out := make([]color.RGBA, 0, paletteHues*paletteLevels)
	for _, lv := range levels {
		for h := 0; h < paletteHues; h++ {
			hue := (float64(h) + 0.5) * 2 * math.Pi / paletteHues
			out = append(out, oklch(lv.l, lv.c, hue))
		}
	}
	return out
}

// oklch converts an OKLCH colour (lightness 0–1, chroma, hue in radians) to
// 8-bit sRGB, clamping colours outside the sRGB gamut.
func oklch(l, c, h float64) color.RGBA {
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

// paletteIndex is where a band name's colour lives in the palette: a hash
// of the name, so that it does not depend on the file or the other bands.
func paletteIndex(name string) int {
	return int(hashName([]byte(name)) % uint32(len(palette)))
}

// ColorFor returns the colour of a band called name. It depends only on the
// name, so a band has the same colour in every file; OtherName is grey.
func ColorFor(name string) color.RGBA {
	if name == OtherName {
		return otherColor
	}
	return palette[paletteIndex(name)]
}

// BandColors returns the colour of each band of bd. Each band gets
// ColorFor(its name) unless a bigger band already took that colour's hue;
// then it steps through the palette (by a stride that changes hue at each
// step) to the first colour of a hue still free, or, once every hue is
// taken, to the first colour still free. Bands are given colours largest
// first, so the big bands keep their name's colour whatever the small ones
// are called, and no two bands share a colour while the palette lasts.
func BandColors(bd *Bands) []color.RGBA {
	out := make([]color.RGBA, bd.Len())
	used := make([]bool, len(palette))
	var hueUsed [paletteHues]bool
	order := make([]int, bd.Len())
	for i := range order {
		order[i] = i
	}
	sortByIntegral(order, bd)
	for _, b := range order {
		if b == bd.Other() {
			out[b] = otherColor
			continue
		}
		start := paletteIndex(bd.Name(b))
		pick := -1
		for pass := 0; pass < 2 && pick < 0; pass++ {
			i := start
			for tries := 0; tries < len(palette); tries++ {
				if !used[i] && (pass == 1 || !hueUsed[i%paletteHues]) {
					pick = i
					break
				}
				i = (i + 5) % len(palette)
			}
		}
		if pick < 0 {
			pick = start // more bands than colours
		}
		used[pick], hueUsed[pick%paletteHues] = true, true
		out[b] = palette[pick]
	}
	return out
}

// sortByIntegral orders band indices by integrated size, largest first,
// ties by index.
func sortByIntegral(order []int, bd *Bands) {
	for i := 1; i < len(order); i++ {
		for j := i; j > 0; j-- {
			a, b := order[j-1], order[j]
			if bd.Integral(a) > bd.Integral(b) || bd.Integral(a) == bd.Integral(b) && a < b {
				break
			}
			order[j-1], order[j] = b, a
		}
	}
}
