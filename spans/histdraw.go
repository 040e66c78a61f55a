package spans

import (
	"image"
	"image/color"
	"math"

	"github.com/hecscope/hecscope/paint"
)

// HistogramOptions says how to draw a duration histogram.
type HistogramOptions struct {
	// Theme gives the colours (zero: paint.Light) and Scale the device
	// pixel ratio (0: 1).
	Theme paint.Theme
	Scale float64
	// Bar is the bars' colour (zero: the label's band colour).
	Bar color.RGBA
	// Mark, if non-zero, is a duration to draw a line at (the instance
	// picked in a list).
	Mark uint64
}

// DrawHistogram draws bins (from Label.Histogram) as bars over c's bounds,
// with the count of the fullest bin and the durations of the bins' bounds
// along the bottom. It returns the rectangle of each bar's column, for
// hit-testing.
func DrawHistogram(c paint.Canvas, bins []Bin, opt HistogramOptions) []image.Rectangle {
	b := c.Bounds()
	th := opt.Theme
	if th.Background == (color.RGBA{}) {
		th = paint.Light
	}
	c.Fill(b, th.Background)
	face := paint.FaceFor(paint.Regular, 10, opt.Scale)
	if len(bins) == 0 {
		paint.TextCentered(c, face, "no spans", float64(b.Min.X+b.Dx()/2), float64(b.Min.Y+b.Dy()/2), th.Dim)
		return nil
	}
	bar := opt.Bar
	if bar == (color.RGBA{}) {
		bar = paint.OKLCH(0.62, 0.12, 250*math.Pi/180)
	}
	pad := int(6*max(opt.Scale, 1) + 0.5)
	textH := face.Height() + pad
	plot := image.Rect(b.Min.X+pad, b.Min.Y+textH, b.Max.X-pad, b.Max.Y-textH)
	if plot.Dx() < len(bins) || plot.Dy() < 4 {
		return nil
	}
	most := 0
	for _, bin := range bins {
		most = max(most, bin.Count)
	}
	c.Fill(image.Rect(plot.Min.X, plot.Max.Y, plot.Max.X, plot.Max.Y+1), th.Axis)
	cols := make([]image.Rectangle, len(bins))
	for i, bin := range bins {
		x0 := plot.Min.X + i*plot.Dx()/len(bins)
		x1 := plot.Min.X + (i+1)*plot.Dx()/len(bins)
		cols[i] = image.Rect(x0, plot.Min.Y, x1, plot.Max.Y)
		if bin.Count == 0 || most == 0 {
			continue
		}
		h := max(1, bin.Count*plot.Dy()/most)
		r := image.Rect(x0, plot.Max.Y-h, x1, plot.Max.Y)
		if r.Dx() > 3 {
			r.Max.X--
		}
		c.Fill(r, bar)
	}
	c.Text(face, paint.CountOf(int64(most), "span", "spans"), plot.Min.X, face.Baseline(float64(b.Min.Y+textH/2)), th.Dim)
	drawBoundLabels(c, face, bins, cols, plot, pad, face.Baseline(float64(plot.Max.Y+textH/2+1)), th)
	if opt.Mark != 0 {
		for i, bin := range bins {
			if opt.Mark >= bin.Lo && (opt.Mark < bin.Hi || i == len(bins)-1) {
				x := (cols[i].Min.X + cols[i].Max.X) / 2
				c.Fill(image.Rect(x, plot.Min.Y, x+max(1, int(opt.Scale+0.5)), plot.Max.Y), th.Cursor)
				break
			}
		}
	}
	return cols
}

// drawBoundLabels writes the durations along the bottom of the plot: the
// shortest under its left end, the longest under its right end and the
// middle bin's lower bound under it, each only where it keeps gap pixels
// clear of those already written (the shortest first, then the longest),
// and none twice.
func drawBoundLabels(c paint.Canvas, face *paint.Face, bins []Bin, cols []image.Rectangle, plot image.Rectangle, gap, base int, th paint.Theme) {
	type label struct {
		text   string
		x0, x1 int
		col    color.RGBA
	}
	var written []label
	put := func(text string, x int, col color.RGBA) {
		w := face.Width(text)
		// Inside the plot, or the margins around it for a label wider.
		x = max(min(x, plot.Max.X-w), min(plot.Min.X, plot.Max.X+gap-w), plot.Min.X-gap)
		for _, l := range written {
			if l.text == text || x < l.x1+gap && l.x0 < x+w+gap {
				return
			}
		}
		written = append(written, label{text, x, x + w, col})
		c.Text(face, text, x, base, col)
	}
	put(paint.Duration(bins[0].Lo), plot.Min.X, th.Text)
	hi := paint.Duration(bins[len(bins)-1].Hi)
	put(hi, plot.Max.X-face.Width(hi), th.Text)
	mid := paint.Duration(bins[len(bins)/2].Lo)
	put(mid, cols[len(bins)/2].Min.X-face.Width(mid)/2, th.Dim)
}
