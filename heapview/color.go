package heapview

import (
	"image/color"

	"github.com/hecscope/hecscope/paint"
)

// palette is paint's band palette: hues around the OKLCH colour wheel at
// several lightness levels, none near a state colour.
var palette = paint.BandPalette()

// otherColor is the colour of the OTHER band: a neutral grey that no
// palette colour resembles.
var otherColor = paint.OtherBand

// ColorFor returns the colour of a band called name. It depends only on the
// name, so a band has the same colour in every file; OtherName is grey.
func ColorFor(name string) color.RGBA {
	if name == OtherName {
		return otherColor
	}
	return paint.BandColorFor(name)
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
	var hueUsed [paint.BandHues]bool
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
		start := paint.BandIndex(bd.Name(b))
		pick := -1
		for pass := 0; pass < 2 && pick < 0; pass++ {
			i := start
			for tries := 0; tries < len(palette); tries++ {
				if !used[i] && (pass == 1 || !hueUsed[palette[i].Hue]) {
					pick = i
					break
				}
				i = (i + 5) % len(palette)
			}
		}
		if pick < 0 {
			pick = start // more bands than colours
		}
		used[pick], hueUsed[palette[pick].Hue] = true, true
		out[b] = palette[pick].Color
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
