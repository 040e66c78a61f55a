package spans

import (
	"image"
	"testing"

	"github.com/hecscope/hecscope/internal/painttest"
	"github.com/hecscope/hecscope/paint"
)

// TestHistogramLabelsNeverOverlap draws histograms of durations whose
// bounds write short and long ("1 ms", "2 min 3 s"), from a narrow to a
// wide picture and at scale 1 and 2, and checks that no two labels
// overlap, that none leaves the picture when there is room for it, and
// that the shortest duration is always written.
func TestHistogramLabelsNeverOverlap(t *testing.T) {
	cases := [][]Bin{
		{{Lo: 102e6, Hi: 102e6, Count: 1}}, // one span: every bound the same
		{{Lo: 1e6, Hi: 2e6, Count: 3}, {Lo: 2e6, Hi: 3e6, Count: 5}, {Lo: 3e6, Hi: 4e6, Count: 1}},
		{{Lo: 123e9, Hi: 124e9, Count: 1}, {Lo: 124e9, Hi: 3725e9, Count: 2}, {Lo: 3725e9, Hi: 7301e9, Count: 4}, {Lo: 7301e9, Hi: 8000e9, Count: 1}},
	}
	for _, scale := range []float64{1, 2} {
		for ci, bins := range cases {
			for w := 40; w <= 800; w += 7 {
				img := image.NewRGBA(image.Rect(0, 0, int(float64(w)*scale), int(90*scale)))
				c := &painttest.TextRecorder{Canvas: paint.NewRaster(img)}
				DrawHistogram(c, bins, HistogramOptions{Scale: scale})
				var bottom []painttest.DrawnText
				for _, d := range c.Texts {
					if d.Box.Min.Y > img.Bounds().Dy()/2 {
						bottom = append(bottom, d)
					}
				}
				if len(bottom) == 0 {
					if len(c.Texts) > 0 { // too small for a plot: nothing but the count
						t.Errorf("case %d, scale %g, width %d: no duration written", ci, scale, w)
					}
					continue
				}
				if first := paint.Duration(bins[0].Lo); bottom[0].S != first {
					t.Errorf("case %d, scale %g, width %d: first label %q, want %q", ci, scale, w, bottom[0].S, first)
				}
				for i, a := range bottom {
					if a.Box.Dx() <= img.Bounds().Dx() && !a.Box.In(img.Bounds()) {
						t.Errorf("case %d, scale %g, width %d: %q at %v leaves the picture %v", ci, scale, w, a.S, a.Box, img.Bounds())
					}
					for _, b := range bottom[i+1:] {
						if a.Box.Overlaps(b.Box) {
							t.Errorf("case %d, scale %g, width %d: %q at %v overlaps %q at %v", ci, scale, w, a.S, a.Box, b.S, b.Box)
						}
					}
				}
			}
		}
	}
}
