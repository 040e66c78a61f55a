package timeline

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// TestBuilderSnapshotsWhileGrowing feeds a real log to a Builder in batches,
// publishing a snapshot after each batch as the live loader does
// (eventlog's follow: one goroutine adds and stores b.Snapshot() in an
// atomic pointer), while readers load and check the published snapshots;
// run with -race. Every snapshot must be internally consistent and stay
// unchanged while the model grows, and the last must equal the model built
// in one go.
func TestBuilderSnapshotsWhileGrowing(t *testing.T) {
	paths := []string{"../testdata/ghc-9.0.2/parwork-N2.eventlog", "../testdata/corpus/ThreadScope__SumEulerPar1_sparks_detailed.eventlog"}
	for _, path := range paths {
		whole, evs := build(t, path)
		if len(evs) == 0 {
			continue
		}
		b := NewOverviewBuilder(Grid{})
		var published atomic.Pointer[Model]
		done := make(chan struct{})
		var wg sync.WaitGroup
		type frozen struct {
			m      *Model
			hecDur []Durations
			thrDur []Durations
		}
		var mu sync.Mutex
		var kept []frozen
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				checked := 0
				for {
					select {
					case <-done:
						if checked > 0 {
							return
						}
					default:
					}
					m := published.Load()
					if m == nil || m.Events == 0 {
						continue
					}
					f := frozen{m: m}
					for c := range m.HECs {
						// Known to its frontier, unknown from there on.
						tr := &m.HECs[c].Track
						d := tr.Durations(0, m.End)
						if u := tr.Unknown(0, m.End); d.Total()+u != m.End || d.Total() != min(tr.End(), m.End) {
							t.Errorf("snapshot at %d events: HEC %d adds up to %d + %d unknown, end %d, frontier %d", m.Events, c, d.Total(), u, m.End, tr.End())
						}
						f.hecDur = append(f.hecDur, d)
					}
					for i := range m.NumThreads() {
						tr := new(m.Thread(i).Track)
						for j := 1; j < tr.Len(); j++ {
							if tr.Mark(j).Time < tr.Mark(j-1).Time {
								t.Errorf("snapshot thread %d out of order", m.Thread(i).ID)
							}
						}
						f.thrDur = append(f.thrDur, tr.Durations(0, m.End))
					}
					checked++
					mu.Lock()
					if len(kept) < 50 {
						kept = append(kept, f)
					}
					mu.Unlock()
				}
			}()
		}
		for i := 0; i < len(evs); {
			n := min(1+i%97, len(evs)-i)
			for j := i; j < i+n; j++ {
				b.Add(&evs[j])
			}
			published.Store(b.Snapshot())
			i += n
			if i%7 == 0 {
				runtime.Gosched()
			}
		}
		close(done)
		wg.Wait()
		// Snapshots taken earlier still show what they showed.
		for _, f := range kept {
			for c := range f.hecDur {
				if d := f.m.HECs[c].Track.Durations(0, f.m.End); d != f.hecDur[c] {
					t.Errorf("snapshot at %d events changed: HEC %d %v -> %v", f.m.Events, c, f.hecDur[c], d)
				}
			}
			for i := range f.thrDur {
				if d := new(f.m.Thread(i).Track).Durations(0, f.m.End); d != f.thrDur[i] {
					t.Errorf("snapshot at %d events changed: thread %d", f.m.Events, f.m.Thread(i).ID)
				}
			}
		}
		if len(kept) == 0 {
			t.Errorf("%s: no snapshot was checked", path)
		}
		b.Finish()
		last := b.Snapshot()
		if last.Events != whole.Events || last.End != whole.End || last.NumThreads() != whole.NumThreads() {
			t.Fatalf("%s: live model differs: %d events, end %d, %d threads; want %d, %d, %d", path,
				last.Events, last.End, last.NumThreads(), whole.Events, whole.End, whole.NumThreads())
		}
		for c := range whole.HECs {
			if a, b := last.HECs[c].Track.Durations(0, whole.End), whole.HECs[c].Track.Durations(0, whole.End); a != b {
				t.Errorf("%s HEC %d: live %v, whole %v", path, c, a, b)
			}
		}
		for i := range whole.NumThreads() {
			a, b := new(last.Thread(i).Track), new(whole.Thread(i).Track)
			if a.Len() != b.Len() {
				t.Fatalf("%s thread %d: live has %d marks, whole %d", path, whole.Thread(i).ID, a.Len(), b.Len())
			}
			for j := 0; j < a.Len(); j++ {
				if a.Mark(j) != b.Mark(j) {
					t.Fatalf("%s thread %d mark %d: live %+v, whole %+v", path, whole.Thread(i).ID, j, a.Mark(j), b.Mark(j))
				}
			}
		}
	}
}

// TestThreadMarkCopyOnWrite checks that inserting an out-of-order mark into
// a thread seen by a snapshot leaves the snapshot alone.
func TestThreadMarkCopyOnWrite(t *testing.T) {
	b := NewOverviewBuilder(Grid{})
	ev := func(tm uint64, cap int32, k ingest.Kind, args ...uint64) {
		e := ingest.Event{Time: tm, Cap: cap, Kind: k}
		copy(e.Args[:], args)
		b.Add(&e)
	}
	for i := uint64(0); i < 100; i++ {
		ev(i*100, 0, ingest.KindRunThread, 1)
		ev(i*100+50, 0, ingest.KindStopThread, 1, uint64(ingest.StopBlockedMVar))
	}
	s1 := b.Snapshot()
	before := new(s1.Thread(0).Track).Durations(0, s1.End)
	n := new(s1.Thread(0).Track).Len()
	ev(75, 1, ingest.KindThreadWakeup, 1, 0) // from another HEC's block, far back in time
	s2 := b.Snapshot()
	if got := new(s1.Thread(0).Track).Durations(0, s1.End); got != before || new(s1.Thread(0).Track).Len() != n {
		t.Errorf("old snapshot changed: %v -> %v", before, got)
	}
	if new(s2.Thread(0).Track).Len() != n+1 {
		t.Fatalf("new snapshot has %d marks, want %d", new(s2.Thread(0).Track).Len(), n+1)
	}
	if m := new(s2.Thread(0).Track).StateAt(80); m.State != StateRunnable {
		t.Errorf("at 80: %v, want runnable", m.State)
	}
	d := new(s2.Thread(0).Track).Durations(0, s2.End)
	if d[StateRunnable] != 25 || d[StateBlocked] != before[StateBlocked]-25 {
		t.Errorf("durations after insert: %v (before %v)", d, before)
	}
	// A wakeup inside a running span is ignored.
	ev(120, 1, ingest.KindThreadWakeup, 1, 0)
	if s3 := b.Snapshot(); new(s3.Thread(0).Track).Len() != n+1 {
		t.Errorf("wakeup of a running thread added a mark")
	}
}
