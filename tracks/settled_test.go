package tracks

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// TestSettledInksAsWalked checks that the inks a model holds, read from
// the sum of its settled threads, are those a walk over all of their
// tracks finds (with no limit on the blocked marks it reads), on every
// test log loaded as the window loads a big log (with a grid: a small one
// keeps its threads' tracks whole, and settles none), with the limit far
// above, at and below the blocked marks of the threads not summed up
// (which the sum's reader still walks). Below what a walk reads, it names
// every reason of blocking where a thread blocked; the sum names only
// those the log holds, and misses none. The sum must be read for some of
// the logs, some must hold blocked threads, and for some a limit must
// make the walk name more than the sum.
func TestSettledInksAsWalked(t *testing.T) {
	logs, err := filepath.Glob("../testdata/ghc-9.0.2/*.eventlog")
	if err != nil || len(logs) == 0 {
		t.Fatalf("no test logs: %v", err)
	}
	summedLogs, blockedLogs, sharper := 0, 0, 0
	for _, path := range logs {
		l, err := eventlog.Open(context.Background(), path, eventlog.Options{ExactBelow: -1})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		m := l.Overview()
		st := m.SettledStates()
		if st.Spent&(1<<timeline.StateBlocked) != 0 {
			blockedLogs++
		}
		exact, _ := inksOf(m, false, math.MaxInt)
		// The blocked marks of the threads not summed up, which the sum's
		// reader still walks within its limit.
		unsettled := 0
		for _, th := range m.UnsettledThreads() {
			if th.Track.Durations(m.Start, m.End)[timeline.StateBlocked] > 0 {
				unsettled += th.Track.Len()
			}
		}
		summed := false
		for _, limit := range []int{markScanLimit, unsettled + 1, unsettled, unsettled - 1, 3, 0} {
			limit = max(limit, 0)
			walked, _ := inksOf(m, false, limit)
			got, s := inksOf(m, true, limit)
			summed = summed || s
			want := walked
			if s && limit >= unsettled {
				want = exact
			}
			if got != want {
				t.Errorf("%s, limit %d: inks from the sum of %d settled threads %v, want %v",
					filepath.Base(path), limit, st.Threads, names(got), names(want))
			}
			if s && got != walked {
				sharper++
			}
		}
		if summed {
			summedLogs++
		}
		l.Close()
	}
	if summedLogs == 0 || blockedLogs == 0 || sharper == 0 {
		t.Fatalf("the sum was read for %d logs, %d held settled blocked threads and %d limits made the walk name more, of %d logs: the test compares nothing",
			summedLogs, blockedLogs, sharper, len(logs))
	}
}

// names lists the names of the inks in.
func names(in [paint.NumInks]bool) []string {
	var out []string
	for k, ok := range in {
		if ok {
			out = append(out, paint.Ink(k).Name())
		}
	}
	return out
}
