package timeline

import (
	"image/color"
	"math"
)

// line draws an anti-aliased line from (x0, y0) to (x1, y1), width pixels
// thick, straight into the image with Xiaolin Wu's algorithm: each step along
// the major axis covers the two pixels nearest the ideal line in proportion to
// their distance from it. Thickness is made by repeating the line across the
// minor axis. It costs a few pixel writes per pixel of length, where a
// general path rasterizer costs far more for the many short segments of a
// curve.
func (r *renderer) line(x0, y0, x1, y1, width float64, c color.RGBA) {
	steep := math.Abs(y1-y0) > math.Abs(x1-x0)
	if steep {
		x0, y0, x1, y1 = y0, x0, y1, x1
	}
	if x0 > x1 {
		x0, x1, y0, y1 = x1, x0, y1, y0
	}
	plot := func(major, minor int, a float64) {
		if steep {
			r.blend(minor, major, c, a)
		} else {
			r.blend(major, minor, c, a)
		}
	}
	gradient := 1.0
	if dx := x1 - x0; dx > 0 {
		gradient = (y1 - y0) / dx
	}
	extra := max(int(math.Round(width))-1, 0) // whole pixels added across the line
	xs, xe := int(math.Round(x0)), int(math.Round(x1))
	y := y0 + gradient*(float64(xs)-x0) - float64(extra)/2
	for x := xs; x <= xe; x++ {
		base := math.Floor(y)
		frac := y - base
		plot(x, int(base), 1-frac)
		for k := 1; k <= extra; k++ {
			plot(x, int(base)+k, 1)
		}
		plot(x, int(base)+extra+1, frac)
		y += gradient
	}
}
