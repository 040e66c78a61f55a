package eventlog

import (
	"context"
	"os"
	"testing"

	"github.com/hecscope/hecscope/timeline"
)

// BenchmarkWindow decodes from a big log (HECSCOPE_BIG) the windows
// `hecscope-gui --bench-zoom` needs at the places it zooms into, for a view
// a run/80 wide at 1920 pixels (the views that cost it the most) and one
// 1 ms wide, without the threads' tracks (as a view with the Threads group
// folded asks) and with them; it reports the events decoded per window.
func BenchmarkWindow(b *testing.B) {
	path := os.Getenv("HECSCOPE_BIG")
	if path == "" {
		b.Skip("set HECSCOPE_BIG to a big eventlog")
	}
	r, err := Open(context.Background(), path, Options{NoSummary: true, NoHeap: true, NoEventList: true})
	if err != nil {
		b.Skip(err)
	}
	defer r.Close()
	ov := r.Overview()
	span := ov.End - ov.Start
	for _, c := range []struct {
		name  string
		width uint64
	}{{"run/80", span / 80}, {"1ms", 1e6}} {
		for _, threads := range []bool{false, true} {
			name := c.name + "/hecs"
			if threads {
				name = c.name + "/threads"
			}
			b.Run(name, func(b *testing.B) {
				shift := detailShift(float64(c.width) / 1920)
				var events int64
				for i := 0; i < b.N; i++ {
					p := i % 10
					centre := ov.Start + uint64((float64(p)+0.5)/10*float64(span))
					from, to := r.windowFor(centre-c.width/2, centre+c.width/2, windowMargin)
					w, err := r.makeWindow(context.Background(), from, to, timeline.Grid{Shift: shift}, windowParts{threads: threads})
					if err != nil {
						b.Fatal(err)
					}
					events += w.model.Events
				}
				b.ReportMetric(float64(events)/float64(b.N), "events/window")
			})
		}
	}
}
