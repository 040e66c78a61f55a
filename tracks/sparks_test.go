package tracks

import (
	"image"
	"strconv"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/internal/painttest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// TestSparkPoolCountsAreWhole draws the spark tracks of a real run, whole
// and zoomed into a rising pool, at scales 1 and 2: the pool's scale is a
// whole number of sparks at least the largest sample in view, written
// clear of the scroll bar's gutter, and the tooltip gives the pool's size
// in whole sparks too.
func TestSparkPoolCountsAreWhole(t *testing.T) {
	m := realModel(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	for _, scale := range []float64{1, 2} {
		for _, zoom := range []uint64{1, 7} {
			v := New(timeline.Exact(m))
			v.SetSize(int(1280*scale), int(800*scale), scale)
			from := m.Start + (m.End-m.Start)/3
			v.SetRange(from, from+(m.End-m.Start)/zoom)
			from, to := v.Range()
			ids := []TrackID{{KindSparks, 0}, {KindSparks, 1}}
			for _, id := range ids {
				v.Reveal(id)
			}
			img := image.NewRGBA(image.Rect(0, 0, int(1280*scale), int(800*scale)))
			c := &painttest.TextRecorder{Canvas: paint.NewRaster(img)}
			v.Draw(c)
			plot := v.PlotRect()
			labels := 0
			for _, d := range c.Texts {
				count, ok := strings.CutPrefix(d.S, "pool up to ")
				if !ok {
					continue
				}
				labels++
				n, err := strconv.Atoi(count)
				if err != nil {
					t.Errorf("scale %g, zoom %d: %q is not a whole number of sparks", scale, zoom, d.S)
				}
				if d.Box.Max.X > plot.Max.X-px(6, scale) || d.Box.Min.X < plot.Min.X {
					t.Errorf("scale %g, zoom %d: %q at %v, want inside the plot %v and %d px clear of its right end", scale, zoom, d.S, d.Box, plot, px(6, scale))
				}
				// Between the largest sample in view and the largest with
				// the samples either side of the view (between which the
				// pool's edges are drawn).
				if hec := labels - 1; hec < len(m.HECs) {
					least, most := poolBounds(&m.HECs[hec], from, to)
					if n < least || n > most {
						t.Errorf("scale %g, zoom %d: HEC %d's %q, want %d to %d", scale, zoom, hec, d.S, least, most)
					}
				}
			}
			if labels != len(ids) {
				t.Fatalf("scale %g, zoom %d: %d pool labels, want %d", scale, zoom, labels, len(ids))
			}
			for _, id := range ids {
				r, _ := v.TrackRect(id)
				for x := plot.Min.X; x < plot.Max.X; x += 5 {
					for _, line := range v.Hit(float64(x), float64(r.Max.Y-px(3, scale))).Tip {
						if size, ok := strings.CutPrefix(line, "spark pool size: "); ok && strings.ContainsAny(size, ".k") {
							t.Fatalf("scale %g, zoom %d, x %d: tooltip says %q", scale, zoom, x, line)
						}
					}
				}
			}
		}
	}
}

// poolBounds returns the largest pool of h's samples in [from, to], and
// the largest of those and the samples just before and after.
func poolBounds(h *timeline.HEC, from, to uint64) (inView, around int) {
	n := h.NumSparkSamples()
	for i := 0; i < n; i++ {
		s := h.SparkSample(i)
		before := i+1 < n && h.SparkSample(i+1).Time > from && s.Time < from
		after := i > 0 && h.SparkSample(i-1).Time < to && s.Time > to
		switch {
		case s.Time >= from && s.Time <= to:
			inView = max(inView, int(s.Pool))
			around = max(around, int(s.Pool))
		case before || after:
			around = max(around, int(s.Pool))
		}
	}
	return inView, around
}
