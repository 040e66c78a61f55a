package tracks

import (
	"context"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// TestGCTrackPauseIsTheSummarys hovers the GC track of whole runs and
// checks that its longest pause and its GC count are the GC table's (the
// app's summary, and `hecscope summary`'s, whose --json says the same):
// on parwork-N2 the track said "longest 3.37 ms" (the union of both HECs'
// GCs) while the table's max pause was 3.272 ms (ThreadScope's), and
// "GC 1 of 75" against 67 collections.
func TestGCTrackPauseIsTheSummarys(t *testing.T) {
	for _, path := range []string{
		"../testdata/ghc-9.0.2/parwork-N2.eventlog",
		"../testdata/corpus/ghc-events__parallelTest.eventlog",
	} {
		lg, err := eventlog.Open(context.Background(), path, eventlog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer lg.Close()
		cli, err := timeline.SummarizeFile(path)
		if err != nil {
			t.Fatal(err)
		}
		app := lg.Summary.GC.Reported
		if app != cli.GC.Reported || app.Collections == 0 {
			t.Fatalf("%s: the app's GC total %+v, the CLI's %+v", path, app, cli.GC.Reported)
		}
		v := New(lg)
		v.SetHeap(lg.Heap, lg.Profile)
		v.SetSize(1600, 1000, 1)
		m := lg.Overview()
		v.SetRange(m.Start, m.End)
		r, ok := v.TrackRect(TrackID{KindGC, 0})
		if !ok {
			t.Fatalf("%s: no GC track", path)
		}
		var longest uint64
		var tip []string
		for x := v.PlotRect().Min.X; x < v.PlotRect().Max.X; x++ {
			h := v.Hit(float64(x)+0.5, float64(r.Max.Y)-2.5)
			if h.Element != ElemGC {
				continue
			}
			if !strings.HasSuffix(h.Tip[0], " of "+paint.Count(int64(app.Collections))) {
				t.Fatalf("%s: GC tooltip %q, want the table's %d collections", path, h.Tip, app.Collections)
			}
			if g := lg.Heap.GCs[lg.Heap.GCAt(h.From)]; g.Pause() > longest {
				longest, tip = g.Pause(), h.Tip
			}
		}
		if longest != app.MaxPauseNS || !strings.Contains(strings.Join(tip, "\n"), "pause "+paint.Duration(app.MaxPauseNS)) {
			t.Errorf("%s: longest GC on the track %d ns (%q), the table's max pause %d ns", path, longest, tip, app.MaxPauseNS)
		}
	}
}

// TestGCTrackShowsTimeInGC draws a GC track whose columns are 5 ns each:
// twenty minor GCs of 1 ns in the first twenty columns (one a column: 20%
// of their time) and a major GC over [500, 600). Each column's bar is as
// tall as its share of time in GC: a fifth of the track for the busy minor
// columns (the track drew them a third of its height at least, as if
// each were a pause), all of it inside the major GC, nothing elsewhere;
// the tooltip gives the share.
func TestGCTrackShowsTimeInGC(t *testing.T) {
	heap := tinyHeap()
	heap.GCs = nil
	for k := range uint64(20) {
		heap.GCs = append(heap.GCs, heapview.GC{Start: 5*k + 2, End: 5*k + 3})
	}
	heap.GCs = append(heap.GCs, heapview.GC{Start: 500, End: 600, Gen: 1, HasStats: true})
	v := New(timeline.Exact(tinyUser()))
	v.SetHeap(heap, nil)
	// A narrow view's headers take a third of it: the width whose plot is
	// 200 px.
	for w := 300; w < 400 && v.Axis().Width != 200; w++ {
		v.SetSize(w, 1400, 1)
	}
	if ax := v.Axis(); ax.Width != 200 || ax.To != 1000 {
		t.Fatalf("axis %+v", ax)
	}
	img := v.Render()
	r, ok := v.TrackRect(TrackID{KindGC, 0})
	if !ok {
		t.Fatal("no GC track")
	}
	f := v.newFrame(paint.NewRaster(image.NewRGBA(image.Rect(0, 0, 1, 1))), v.geometry(), 0, 1000, 0, false, true)
	top, bottom := f.inset(r.Min.Y, r.Max.Y)
	h := bottom - top
	height := func(col int, ink color.RGBA) int {
		n := 0
		for y := top; y < bottom; y++ {
			if img.RGBAAt(v.PlotRect().Min.X+col, y) == ink {
				n++
			}
		}
		return n
	}
	th := v.Theme()
	minor, major := th.Ink(paint.InkMinorGC), th.Ink(paint.InkMajorGC)
	for col := range 200 {
		gotMin, gotMaj := height(col, minor), height(col, major)
		wantMin, wantMaj := 0, 0
		switch {
		case col < 20:
			wantMin = int(math.Round(0.2 * float64(h)))
		case col >= 100 && col < 120:
			wantMaj = h
		}
		// The label's plate may hide the top of a bar.
		if abs(gotMin-wantMin) > 1 || gotMaj > wantMaj || gotMaj < wantMaj-f.small.Height()-2 {
			t.Errorf("column %d: minor %d px, major %d px of %d; want %d and %d", col, gotMin, gotMaj, h, wantMin, wantMaj)
		}
	}
	hit := v.Hit(float64(v.PlotRect().Min.X+3)+0.5, float64(bottom)-1.5)
	if hit.Element != ElemGC || !strings.Contains(strings.Join(hit.Tip, "|"), "this pixel's 5 ns: 20% in GC, 1 GC") {
		t.Errorf("GC hit %q", hit.Tip)
	}
}

func abs(x int) int { return max(x, -x) }
