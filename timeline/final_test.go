package timeline

import (
	"os"
	"slices"
	"testing"
)

// TestFinalIsSnapshot: the model Final makes while letting the builder's
// thread records go is the model Snapshot makes, thread for thread and mark
// for mark, with the same time per state over the run and over every
// bucket, and the same threads found by id.
func TestFinalIsSnapshot(t *testing.T) {
	for _, path := range overviewLogs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, parallel := range []bool{false, true} {
			want := overviewBuilder(t, data, 1<<10, parallel).Snapshot()
			got := overviewBuilder(t, data, 1<<10, parallel).Final()
			if got.NumThreads() != want.NumThreads() || want.NumThreads() == 0 {
				t.Fatalf("%s: Final has %d threads, Snapshot %d", path, got.NumThreads(), want.NumThreads())
			}
			ax := NewAxis(want.Start, want.End+1, 0, 1024)
			for i := range want.NumThreads() {
				w, g := new(want.Thread(i)), new(got.Thread(i))
				if w.ID != g.ID || w.Label != g.Label || w.Created != g.Created || w.Finished != g.Finished || w.First != g.First {
					t.Fatalf("%s: thread %d is %+v, want %+v", path, i, *g, *w)
				}
				if g.Track.Len() != w.Track.Len() || g.Track.End() != w.Track.End() || g.Track.Horizon() != w.Track.Horizon() {
					t.Fatalf("%s: thread %d has %d marks to %d, want %d to %d", path, w.ID, g.Track.Len(), g.Track.End(), w.Track.Len(), w.Track.End())
				}
				for j := 0; j < w.Track.Len(); j++ {
					if g.Track.Mark(j) != w.Track.Mark(j) {
						t.Fatalf("%s: thread %d mark %d is %+v, want %+v", path, w.ID, j, g.Track.Mark(j), w.Track.Mark(j))
					}
				}
				if g.Track.Durations(want.Start, want.End) != w.Track.Durations(want.Start, want.End) {
					t.Fatalf("%s: thread %d's time per state differs", path, w.ID)
				}
				if !slices.Equal(g.Track.Columns(ax, 1024, nil), w.Track.Columns(ax, 1024, nil)) {
					t.Fatalf("%s: thread %d's columns differ", path, w.ID)
				}
				if k := got.ThreadIndex(w.ID); k != i {
					t.Fatalf("%s: thread %d found at %d, want %d", path, w.ID, k, i)
				}
			}
		}
	}
}

// TestThreadIndexUnsorted: threads whose ids do not come in order (a log
// that reuses or skips numbers), within a block or from block to block,
// are found by id all the same.
func TestThreadIndexUnsorted(t *testing.T) {
	var blocks, shuffled []uint32
	for i := range uint32(3 * threadsPerBlock) {
		blocks = append(blocks, 1000-i/threadsPerBlock*threadsPerBlock*3+i%threadsPerBlock*3)
		shuffled = append(shuffled, 1+i*37%211)
	}
	for _, ids := range [][]uint32{{5, 3, 9, 1, 7}, {1, 2, 3, 4}, {}, blocks, shuffled} {
		m := &Model{tidx: &threadIndex{}}
		for _, id := range ids {
			m.threads.add(&threadRec{ThreadRecord: ThreadRecord{ID: id, Label: -1}})
		}
		for i, id := range ids {
			if k := m.ThreadIndex(id); k != i {
				t.Errorf("ids %v: %d found at %d, want %d", ids, id, k, i)
			}
		}
		for _, id := range []uint32{0, 2, 8, 100} {
			if slices.Contains(ids, id) {
				continue
			}
			if k := m.ThreadIndex(id); k != -1 {
				t.Errorf("ids %v: %d found at %d, want none", ids, id, k)
			}
		}
	}
}

// TestThreadsAliveAt: the threads a window seeds, found through the index
// of long-lived threads, are those a look at every thread finds, at times
// all over the run (bucket boundaries, the ends, before the start).
func TestThreadsAliveAt(t *testing.T) {
	indexed := 0 // logs whose short-lived threads the index finds
	defer func() {
		if indexed == 0 {
			t.Error("no log's threads were found through the index: the test proves nothing")
		}
	}()
	for _, path := range overviewLogs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m := overview(t, data, 1<<10, true)
		var all []Thread
		for i := range m.NumThreads() {
			all = append(all, m.Thread(i))
		}
		naive := func(at uint64) []int {
			var out []int
			for i, th := range all {
				if th.Track.Len() > 0 && th.First < at && (th.Finished == 0 || th.Finished >= at) {
					out = append(out, i)
				}
			}
			return out
		}
		found := 0
		for k := uint64(0); k <= 1000; k++ {
			at := m.Start + (m.End-m.Start)*k/1000
			for _, tm := range []uint64{at, at + 1, max(at, 1) - 1} {
				want, got := naive(tm), m.ThreadsAliveAt(tm)
				if !slices.Equal(got, want) {
					t.Fatalf("%s at %d: threads %v alive, want %v", path, tm, got, want)
				}
				found += len(got)
			}
		}
		if found == 0 {
			t.Fatalf("%s: no thread alive anywhere: the test proves nothing", path)
		}
		if m.alive.sorted && len(m.alive.long) < m.NumThreads() {
			indexed++
		}
	}
}
