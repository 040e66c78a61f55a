package timeline_test

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/timeline"
)

// TestSettledStatesSumTheirTracks checks, on every test log loaded with a
// grid (as a big log is), that a model's SettledStates is the sum of the
// tracks of the threads UnsettledThreads leaves out, each read back from
// the model, and that those are finished threads: the sum, made as each
// retired, stands for exactly the threads it leaves out.
func TestSettledStatesSumTheirTracks(t *testing.T) {
	logs, err := filepath.Glob("../testdata/ghc-9.0.2/*.eventlog")
	if err != nil || len(logs) == 0 {
		t.Fatalf("no test logs: %v", err)
	}
	settledLogs := 0
	for _, path := range logs {
		l, err := eventlog.Open(context.Background(), path, eventlog.Options{ExactBelow: -1})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		m := l.Overview()
		unsettled := map[int]bool{}
		for i := range m.UnsettledThreads() {
			unsettled[i] = true
		}
		var want timeline.SettledStates
		want.FirstMin, want.LastMin = math.MaxUint64, math.MaxUint64
		for i, th := range m.Threads() {
			if unsettled[i] {
				continue
			}
			tr := &th.Track
			if th.Finished == 0 || tr.Len() == 0 {
				t.Fatalf("%s: thread %d is settled, but finished at %d with %d marks", path, i, th.Finished, tr.Len())
			}
			want.Threads++
			first, last := tr.Mark(0), tr.Mark(tr.Len()-1)
			want.FirstMin, want.FirstMax = min(want.FirstMin, first.Time), max(want.FirstMax, first.Time)
			want.LastMin, want.LastMax = min(want.LastMin, last.Time), max(want.LastMax, last.Time)
			want.Last |= 1 << last.State
			d := tr.Durations(first.Time, last.Time)
			blocked := false
			for s, v := range d {
				if v > 0 {
					want.Spent |= 1 << s
					blocked = blocked || timeline.State(s) == timeline.StateBlocked
				}
			}
			if !blocked {
				continue
			}
			want.BlockedMarks += tr.Len()
			for j := range tr.Len() {
				if mk := tr.Mark(j); mk.State == timeline.StateBlocked {
					want.BlockedStops[mk.Reason/64] |= 1 << (mk.Reason % 64)
				}
			}
		}
		if want.Threads == 0 {
			want = timeline.SettledStates{}
		} else {
			settledLogs++
		}
		if got := m.SettledStates(); got != want {
			t.Errorf("%s: SettledStates %+v, its threads' tracks sum to %+v", filepath.Base(path), got, want)
		}
		l.Close()
	}
	if settledLogs == 0 {
		t.Fatal("no test log has a settled thread: the test compares nothing")
	}
}
