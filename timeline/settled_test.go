package timeline_test

import (
	"context"
	"math"
	"path/filepath"
	"slices"
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

// TestThreadRangesMakeThreads checks that ranges of threads side by side,
// cut inside blocks and at their edges, yield the threads Threads yields,
// mark for mark, and that a range past the model's threads yields none.
func TestThreadRangesMakeThreads(t *testing.T) {
	l, err := eventlog.Open(context.Background(), "../testdata/ghc-9.0.2/gcstorm-N2.eventlog", eventlog.Options{ExactBelow: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	m := l.Overview()
	n := m.NumThreads()
	if n < 200 {
		t.Fatalf("%d threads: too few to cut in blocks", n)
	}
	type seen struct {
		i     int
		id    uint32
		marks []timeline.Mark
	}
	var want []seen
	for i, th := range m.Threads() {
		s := seen{i: i, id: th.ID}
		for j := range th.Track.Len() {
			s.marks = append(s.marks, th.Track.Mark(j))
		}
		want = append(want, s)
	}
	for _, cuts := range [][]int{{0, n}, {0, 1, n}, {0, 64, 128, n}, {0, 63, 65, 130, n - 1, n}, {0, n / 3, n / 2, n}} {
		var got []seen
		for c := 1; c < len(cuts); c++ {
			for i, th := range m.ThreadRange(cuts[c-1], cuts[c]) {
				s := seen{i: i, id: th.ID}
				for j := range th.Track.Len() {
					s.marks = append(s.marks, th.Track.Mark(j))
				}
				got = append(got, s)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("cuts %v: %d threads, Threads yields %d", cuts, len(got), len(want))
		}
		for k := range got {
			g, w := got[k], want[k]
			if g.i != w.i || g.id != w.id || !slices.Equal(g.marks, w.marks) {
				t.Fatalf("cuts %v: thread %d is %d (id %d, %d marks), Threads yields %d (id %d, %d marks)", cuts, k, g.i, g.id, len(g.marks), w.i, w.id, len(w.marks))
			}
		}
	}
	for range m.ThreadRange(n, n+100) {
		t.Fatal("a range past the threads yields a thread")
	}
}
