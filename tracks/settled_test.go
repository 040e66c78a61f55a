package tracks

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/paint"
)

// TestSettledInksAsWalked checks that the inks a model holds are the same
// read from the sum of its settled threads as from all of their tracks, on
// every test log loaded as the window loads a big log (with a grid: a
// small one keeps its threads' tracks whole, and settles none), with the
// limit on the
// blocked marks read far above, at and below what the logs hold: the sum
// must be read for some of them, and some must hold blocked threads.
func TestSettledInksAsWalked(t *testing.T) {
	logs, err := filepath.Glob("../testdata/ghc-9.0.2/*.eventlog")
	if err != nil || len(logs) == 0 {
		t.Fatalf("no test logs: %v", err)
	}
	summedLogs, blockedLogs := 0, 0
	for _, path := range logs {
		l, err := eventlog.Open(context.Background(), path, eventlog.Options{ExactBelow: -1})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		m := l.Overview()
		st := m.SettledStates()
		if st.BlockedMarks > 0 {
			blockedLogs++
		}
		summed := false
		for _, limit := range []int{markScanLimit, st.BlockedMarks + 1, st.BlockedMarks, st.BlockedMarks - 1, 3, 0} {
			want, _ := inksOf(m, false, max(limit, 0))
			got, s := inksOf(m, true, max(limit, 0))
			summed = summed || s
			if got != want {
				t.Errorf("%s, limit %d: inks from the sum of %d settled threads %v, from their tracks %v",
					filepath.Base(path), limit, st.Threads, names(got), names(want))
			}
		}
		if summed {
			summedLogs++
		}
		l.Close()
	}
	if summedLogs == 0 || blockedLogs == 0 {
		t.Fatalf("the sum was read for %d logs and %d held settled blocked threads, of %d: the test compares nothing", summedLogs, blockedLogs, len(logs))
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
