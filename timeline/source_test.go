package timeline

import "testing"

func TestThreadIndex(t *testing.T) {
	m, _ := build(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if m.NumThreads() == 0 {
		t.Fatal("no threads")
	}
	for i := range m.NumThreads() {
		if got := m.ThreadIndex(m.Thread(i).ID); got != i {
			t.Fatalf("ThreadIndex(%d) = %d, want %d", m.Thread(i).ID, got, i)
		}
	}
	if got := m.ThreadIndex(1 << 31); got != -1 {
		t.Fatalf("ThreadIndex of an absent id = %d, want -1", got)
	}
	s := Exact(m)
	if s.Overview() != m || s.Detail(0, m.End, 1, true, nil) != nil || ModelFor(s, 0, m.End, 1, true, nil) != m {
		t.Fatal("Exact source does not serve its model")
	}
}

// TestThreadByID finds every thread by its id and nothing for an unknown id.
func TestThreadByID(t *testing.T) {
	m, _ := build(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	for i := range m.NumThreads() {
		if got := m.ThreadByID(m.Thread(i).ID); got == nil || got.ThreadRecord != m.ThreadRecord(i) {
			t.Fatalf("thread %d not found", m.Thread(i).ID)
		}
	}
	if m.ThreadByID(1<<31) != nil {
		t.Error("found a thread that does not exist")
	}
}

// TestRecordsByID finds every thread's record by its id, in the model's
// order, backwards and from block to block at random, and nothing for an
// unknown id (between two known ones too).
func TestRecordsByID(t *testing.T) {
	m, _ := build(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	n := m.NumThreads()
	if n <= 2*threadsPerBlock {
		t.Fatalf("%d threads: too few to cross blocks", n)
	}
	record := m.RecordsByID()
	check := func(i int) {
		t.Helper()
		if got, ok := record(m.ThreadRecord(i).ID); !ok || got != m.ThreadRecord(i) {
			t.Fatalf("thread %d (id %d): %+v, %v; want %+v", i, m.ThreadRecord(i).ID, got, ok, m.ThreadRecord(i))
		}
	}
	for i := range n {
		check(i)
	}
	for i := n - 1; i >= 0; i-- {
		check(i)
	}
	for k := range n {
		check(k * 7919 % n)
	}
	ids := map[uint32]bool{}
	for i := range n {
		ids[m.ThreadRecord(i).ID] = true
	}
	for _, id := range []uint32{0, 1 << 31, m.ThreadRecord(n/2).ID + 1} {
		if _, ok := record(id); ok != ids[id] {
			t.Errorf("id %d found: %v, want %v", id, ok, ids[id])
		}
	}
}
