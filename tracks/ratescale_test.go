package tracks

import (
	"image"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/hecscope/hecscope/internal/painttest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// The linear scale puts 0 at the bottom and the peak at the top; the log
// scale spans logDecades powers of ten up to the peak's, with 0 and what
// is below its floor at the bottom.
func TestRateScale(t *testing.T) {
	lin := newRateScale(false, 200, 100, 300)
	if lin.y(0) != 300 || lin.y(200) != 100 || lin.y(50) != 250 || lin.logTicks(false) != nil {
		t.Errorf("linear: %g %g %g", lin.y(0), lin.y(200), lin.y(50))
	}
	lg := newRateScale(true, 200, 100, 300) // 10^3 down to 10^-1
	if lg.hi != 1000 || math.Abs(lg.lo-0.1) > 1e-12 || lg.y(1000) != 100 || lg.y(0) != 300 || lg.y(0.01) != 300 ||
		math.Abs(lg.y(10)-200) > 1e-9 || math.Abs(lg.y(1)-250) > 1e-9 {
		t.Errorf("log: [%g, %g], y(1000) %g y(10) %g y(1) %g", lg.lo, lg.hi, lg.y(1000), lg.y(10), lg.y(1))
	}
	if got := lg.logTicks(false); len(got) != 4 || got[0] != 1 || got[3] != 1000 {
		t.Errorf("decades %v", got)
	}
	bytes := newRateScale(true, 3e9, 0, 100) // 10^10 down to 10^6 B/s
	got := bytes.logTicks(true)
	if len(got) != 3 || got[0] != 1<<20 || got[1] != 32<<20 || got[2] != 1<<30 {
		t.Errorf("byte ticks %v", got)
	}
}

// The spark tracks of a real run: the "log" box in their header puts
// them on a log scale (a hit says so), which draws what the linear scale
// squashes against the baseline higher up; zoomed in, the note gives the
// peak in view and the run's, in the overview's bins.
func TestSparkTracksLogScale(t *testing.T) {
	m := realModel(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	v := New(timeline.Exact(m))
	v.SetSize(1280, 800, 1)
	id := TrackID{KindSparks, 1}
	v.Reveal(id)
	r, ok := v.TrackRect(id)
	if !ok {
		t.Fatal("no spark track")
	}
	g := v.geometry()
	f := v.hitFrame(g, m.Start, m.End)
	box := g.scalePart(r.Min.Y, r.Max.Y, f.small)
	if box.Empty() {
		t.Fatalf("no log box in the header %v", r)
	}
	c := box.Min.Add(box.Max).Div(2)
	if h := v.Hit(float64(c.X)+0.5, float64(c.Y)+0.5); h.Part != PartScale || h.Track != id || !strings.Contains(h.Tip[0], "log scale") {
		t.Fatalf("hit on the log box: %+v", h)
	}
	// How many plot columns a curve reaches the upper half of the track
	// in.
	reach := func() (int, []string) {
		img := image.NewRGBA(image.Rect(0, 0, 1280, 800))
		rec := &painttest.TextRecorder{Canvas: paint.NewRaster(img)}
		v.Draw(rec)
		var texts []string
		for _, d := range rec.Texts {
			texts = append(texts, d.S)
		}
		th := v.Theme()
		inks := map[[4]uint8]bool{}
		for _, k := range sparkCurves {
			c := th.Ink(sparkInk(k))
			inks[[4]uint8{c.R, c.G, c.B, c.A}] = true
		}
		n := 0
		for x := v.PlotRect().Min.X; x < v.PlotRect().Max.X; x++ {
			for y := r.Min.Y + 2; y < (r.Min.Y+r.Max.Y)/2; y++ {
				if c := img.RGBAAt(x, y); inks[[4]uint8{c.R, c.G, c.B, c.A}] {
					n++
					break
				}
			}
		}
		return n, texts
	}
	linear, texts := reach()
	if !containsText(texts, "peak ") || containsText(texts, "log scale") || containsText(texts, "in view") {
		t.Errorf("whole run, linear: %q", texts)
	}
	v.SetLogScale(KindSparks, true)
	logged, texts := reach()
	if !v.LogScale(KindSparks) || logged < linear*3/2 || !containsText(texts, "· log scale") {
		t.Errorf("the curves reach the upper half in %d columns on the log scale, %d on the linear one; %q", logged, linear, texts)
	}
	v.SetLogScale(KindSparks, false)
	v.SetRange(m.Start+(m.End-m.Start)/5, m.Start+(m.End-m.Start)*2/5)
	if _, texts = reach(); !containsText(texts, " in view · run's ") || !containsText(texts, " bins") {
		t.Errorf("zoomed in: %q", texts)
	}
}

// containsText reports whether any of texts contains s.
func containsText(texts []string, s string) bool {
	for _, t := range texts {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

// The rows of a frame are drawn in parallel, so two HECs' spark tracks
// may ask for their run's peak at once: the cache they share is locked
// (a data race under -race otherwise, as `hecscope render` met in 1 of 5
// runs).
func TestSparkRunPeakFromParallelRows(t *testing.T) {
	m := realModel(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	v := New(timeline.Exact(m))
	v.SetSize(1280, 800, 1)
	f := v.hitFrame(v.geometry(), m.Start, m.End)
	peaks := make([]float64, 2)
	var wg sync.WaitGroup
	for c := range peaks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wf := *f
			peaks[c], _ = wf.sparkRunPeak(c, 4)
		}()
	}
	wg.Wait()
	for c, p := range peaks {
		if again, _ := f.sparkRunPeak(c, 4); again != p {
			t.Errorf("HEC %d: peak %g, then %g from the cache", c, p, again)
		}
	}
}
