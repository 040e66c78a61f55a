package tracks

import (
	"context"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
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
