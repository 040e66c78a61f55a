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

// minNeighbourSpace is the least OKLab distance BandColors keeps between
// the colours of two bands stacked one on the other.
const minNeighbourSpace = 0.1

// BandColors returns the colour of each band of bd. Each band gets
// its name's colour (paint.BandColorFor; OTHER grey) unless a bigger band already took that colour's hue,
// or it is near (minNeighbourSpace) the colour of a band stacked next to
// it; then it steps through the palette (by a stride that changes hue at
// each step) to the first colour of a hue still free and apart from its
// neighbours', or, once every hue is taken, to the first colour still
// free and apart from them, or at last to the first colour still free.
// Bands are given colours largest first, so the big bands keep their
// name's colour whatever the small ones are called, and no two bands
// share a colour while the palette lasts.
func BandColors(bd *Bands) []color.RGBA {
	out := make([]color.RGBA, bd.Len())
	given := make([]bool, bd.Len())
	if o := bd.Other(); o >= 0 && o < len(out) {
		out[o], given[o] = otherColor, true // grey whatever its size
	}
	used := make([]bool, len(palette))
	var hueUsed [paint.BandHues]bool
	order := make([]int, bd.Len())
	for i := range order {
		order[i] = i
	}
	sortByIntegral(order, bd)
	for _, b := range order {
		if given[b] {
			continue // OTHER, given its grey above
		}
		given[b] = true
		apart := func(c color.RGBA) bool {
			for _, n := range [2]int{b - 1, b + 1} {
				if n >= 0 && n < len(out) && given[n] && paint.Distance(c, out[n]) < minNeighbourSpace {
					return false
				}
			}
			return true
		}
		start := paint.BandIndex(bd.Name(b))
		pick := -1
		for pass := 0; pass < 3 && pick < 0; pass++ {
			i := start
			for tries := 0; tries < len(palette); tries++ {
				if !used[i] && (pass == 2 || apart(palette[i].Color) && (pass == 1 || !hueUsed[palette[i].Hue])) {
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
