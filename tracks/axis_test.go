package tracks

import (
	"image"
	"slices"
	"testing"

	"github.com/hecscope/hecscope/internal/painttest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// TestTickLabelRectsAreWhereTheLabelsAreDrawn draws a real run's axis,
// whole and zoomed in, at scales 1 and 2 and several widths: the boxes
// TickLabelRects gives are those of the tick labels drawn, each inside the
// axis and the plot's columns, none overlapping another.
func TestTickLabelRectsAreWhereTheLabelsAreDrawn(t *testing.T) {
	m := realModel(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	for _, scale := range []float64{1, 2} {
		for _, w := range []int{500, 1280, 1920} {
			for _, zoom := range []uint64{1, 3, 1000} {
				v := New(timeline.Exact(m))
				v.SetSize(int(float64(w)*scale), int(600*scale), scale)
				from := m.Start + (m.End-m.Start)/3
				v.SetRange(from, from+(m.End-m.Start)/zoom)
				img := image.NewRGBA(image.Rect(0, 0, int(float64(w)*scale), int(600*scale)))
				c := &painttest.TextRecorder{Canvas: paint.NewRaster(img)}
				v.Draw(c)
				axis, plot := v.AxisRect(), v.PlotRect()
				var drawn []image.Rectangle
				for _, d := range c.Texts {
					if d.Box.In(axis) && d.Box.Min.X >= plot.Min.X {
						drawn = append(drawn, d.Box)
					}
				}
				got := v.TickLabelRects()
				if len(got) < 2 || !slices.Equal(got, drawn) {
					t.Errorf("scale %g, width %d, zoom %d: TickLabelRects %v, labels drawn at %v", scale, w, zoom, got, drawn)
				}
				for i, r := range got {
					if !r.In(axis) || r.Min.X < plot.Min.X || r.Max.X > plot.Max.X {
						t.Errorf("scale %g, width %d, zoom %d: label at %v outside the axis %v over the plot %v", scale, w, zoom, r, axis, plot)
					}
					if i > 0 && got[i-1].Overlaps(r) {
						t.Errorf("scale %g, width %d, zoom %d: labels at %v and %v overlap", scale, w, zoom, got[i-1], r)
					}
				}
			}
		}
	}
}
