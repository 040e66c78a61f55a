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
	if s.Overview() != m || s.Detail(0, m.End, 1, nil) != nil || ModelFor(s, 0, m.End, 1, nil) != m {
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
