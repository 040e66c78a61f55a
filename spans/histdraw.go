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
	counts := make([]float64, len(bins))
	for i, bin := range bins {
		most = max(most, bin.Count)
		counts[i] = float64(bin.Count)
	}
	// The shortest duration, the longest, and the middle bin's lower bound.
	n := len(bins)
	edges := []paint.EdgeLabel{{At: 0, Text: paint.Duration(bins[0].Lo)}, {At: n, Text: paint.Duration(bins[n-1].Hi)},
		{At: n / 2, Text: paint.Duration(bins[n/2].Lo), Dim: true}}
	cols := paint.DrawBars(c, plot, paint.Bars{Values: [][]float64{counts}, Colours: []color.RGBA{bar}, Edges: edges, Gap: pad}, face, th, opt.Scale)
	c.Text(face, paint.CountOf(int64(most), "span", "spans"), plot.Min.X, face.Baseline(float64(b.Min.Y+textH/2)), th.Dim)
	if opt.Mark != 0 && cols != nil {
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
