package paint

import (
	"image"
	"image/color"
	"math"
)

// Bars is a histogram to draw: bins side by side along x, and in each bin
// a bar per series, side by side, on one scale from the plot's bottom.
// The span picker's durations and the comparison's distributions are
// drawn by DrawBars, on any Canvas (so in SVG too).
type Bars struct {
	// Values[k][i] is series k's value in bin i; every series has the same
	// bins. Colours[k] is series k's colour.
	Values  [][]float64
	Colours []color.RGBA
	// Top is the value at the top of the plot (0: the largest value).
	Top float64
	// Edges label the bins' bounds under the plot, written in their order,
	// each centred on its bound but kept inside the plot (or in a margin
	// of Gap device pixels around it, for a label wider than the plot),
	// and left out where it would come nearer than Gap to one written
	// before, or say the same.
	Edges []EdgeLabel
	Gap   int
	// Ticks marks the labelled bounds on the base line.
	Ticks bool
}

// EdgeLabel labels the bound of a histogram's bins At (0: the first bin's
// left bound; the number of bins: the last one's right bound), in the
// theme's dim text colour if Dim.
type EdgeLabel struct {
	At   int
	Text string
	Dim  bool
}

// DrawBars draws b with its bars in plot and its base line along plot's
// bottom, in th's axis colour, and the bounds' labels under it in face, at
// scale s. It returns each bin's column, for hit-testing; none when plot
// is narrower than a pixel a bin.
func DrawBars(c Canvas, plot image.Rectangle, b Bars, face *Face, th Theme, s float64) []image.Rectangle {
	bins := 0
	if len(b.Values) > 0 {
		bins = len(b.Values[0])
	}
	if bins == 0 || plot.Dx() < bins || plot.Dy() < 1 {
		return nil
	}
	top := b.Top
	for _, vs := range b.Values {
		for _, v := range vs {
			top = math.Max(top, v)
		}
	}
	one := max(1, int(math.Round(s))) // a device pixel, or a point
	c.Fill(image.Rect(plot.Min.X, plot.Max.Y, plot.Max.X, plot.Max.Y+1), th.Axis)
	cols := make([]image.Rectangle, bins)
	for i := range bins {
		x0 := plot.Min.X + i*plot.Dx()/bins
		x1 := plot.Min.X + (i+1)*plot.Dx()/bins
		cols[i] = image.Rect(x0, plot.Min.Y, x1, plot.Max.Y)
		if x1-x0 > 3*one {
			x1 -= one // a gap between neighbouring bins
		}
		n := len(b.Values)
		for k, vs := range b.Values {
			v := vs[i]
			if !(v > 0) || !(top > 0) {
				continue
			}
			h := max(1, int(math.Round(float64(plot.Dy())*v/top)))
			bx0, bx1 := x0+k*(x1-x0)/n, x0+(k+1)*(x1-x0)/n
			c.Fill(image.Rect(bx0, plot.Max.Y-h, max(bx1, bx0+1), plot.Max.Y), b.Colours[k%len(b.Colours)])
		}
	}
	tick := 0
	if b.Ticks {
		tick = int(math.Round(4 * s))
	}
	base := face.Baseline(float64(plot.Max.Y+1+tick+one) + float64(face.Height())/2)
	type span struct {
		text   string
		x0, x1 int
	}
	var written []span
	for _, l := range b.Edges {
		if l.At < 0 || l.At > bins {
			continue
		}
		ex := plot.Min.X + l.At*plot.Dx()/bins
		w := face.Width(l.Text)
		x := ex - w/2
		x = max(min(x, plot.Max.X-w), min(plot.Min.X, plot.Max.X+b.Gap-w), plot.Min.X-b.Gap)
		clear := true
		for _, o := range written {
			if o.text == l.Text || x < o.x1+b.Gap && o.x0 < x+w+b.Gap {
				clear = false
				break
			}
		}
		if !clear {
			continue
		}
		written = append(written, span{l.Text, x, x + w})
		col := th.Text
		if l.Dim {
			col = th.Dim
		}
		if b.Ticks {
			c.Fill(image.Rect(ex, plot.Max.Y, ex+one, plot.Max.Y+tick), th.Axis)
		}
		c.Text(face, l.Text, x, base, col)
	}
	return cols
}
