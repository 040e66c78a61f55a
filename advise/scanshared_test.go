package advise

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
)

// TestScanSharedAsOneWalk checks that the threads' sums are the same
// whether one walk adds them up or several ranges of threads, cut
// anywhere, each add up theirs: on every test log, loaded whole and with a
// grid (as a big log is), over the whole run and over its middle third.
func TestScanSharedAsOneWalk(t *testing.T) {
	logs, err := filepath.Glob("../testdata/ghc-9.0.2/*.eventlog")
	if err != nil || len(logs) == 0 {
		t.Fatalf("no test logs: %v", err)
	}
	blocked := 0
	for _, path := range logs {
		for _, exactBelow := range []int64{0, -1} {
			l, err := eventlog.Open(context.Background(), path, eventlog.Options{NoEventList: true, ExactBelow: exactBelow})
			if err != nil {
				t.Fatal(err)
			}
			m := l.Overview()
			third := (m.End - m.Start) / 3
			for _, rng := range [][2]uint64{{0, 0}, {m.Start + third, m.End - third}} {
				one := newRun(Input{Model: m, Heap: l.Heap, From: rng[0], To: rng[1]})
				if one == nil {
					continue
				}
				one.scanShared(1)
				for w := range one.threadFigs.blocked {
					blocked += one.threadFigs.blocked[w].n
				}
				for _, parts := range []int{2, 3, 7, m.NumThreads() + 1} {
					shared := *one
					shared.scanShared(parts)
					for w := range one.threadFigs.blocked {
						one.threadFigs.blocked[w].keepTop(wait(w))
						shared.threadFigs.blocked[w].keepTop(wait(w))
					}
					if !reflect.DeepEqual(one.runnable, shared.runnable) || !reflect.DeepEqual(one.userRunning, shared.userRunning) ||
						!reflect.DeepEqual(one.blocked, shared.blocked) || !reflect.DeepEqual(one.threadFigs, shared.threadFigs) {
						t.Errorf("%s (exactBelow %d, range %v): the sums of %d ranges of threads differ from one walk's", filepath.Base(path), exactBelow, rng, parts)
					}
				}
			}
			l.Close()
		}
	}
	if blocked == 0 {
		t.Fatal("no test log has a mostly blocked thread: the groups are not compared")
	}
}
