package timeline

import (
	"fmt"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// TestInternSharedSlot interns messages that share a slot of the recent
// table (same length, same first and last 8 bytes) in turns: each keeps
// its own entry, and user spans whose messages share a slot pair up as
// without the table.
func TestInternSharedSlot(t *testing.T) {
	a, c := []byte("START job-AAAA-the-end"), []byte("START job-BBBB-the-end")
	if recentHash(a) != recentHash(c) {
		t.Fatal("the two messages were meant to share a slot")
	}
	b := NewOverviewBuilder(Grid{})
	ia, ic := b.intern(a), b.intern(c)
	if ia == ic {
		t.Fatalf("%q and %q share entry %d", a, c, ia)
	}
	for i := range 5 {
		if got := b.intern(a); got != ia {
			t.Fatalf("round %d: %q is entry %d, was %d", i, a, got, ia)
		}
		if got := b.intern(c); got != ic {
			t.Fatalf("round %d: %q is entry %d, was %d", i, c, got, ic)
		}
	}
	if n := len(b.strs); n != 2 {
		t.Fatalf("%d strings in the table, want 2", n)
	}

	// Spans of two labels whose STARTs (and STOPs) share a slot.
	b = NewOverviewBuilder(Grid{})
	tm := uint64(0)
	msg := func(s string) {
		tm += 10
		b.Add(&ingest.Event{Time: tm, Kind: ingest.KindUserMsg, Cap: 0, Data: []byte(s)})
	}
	for i := range 100 {
		msg("START job-AAAA-the-end")
		msg(fmt.Sprintf("tick %d", i)) // one of many that come once
		msg("START job-BBBB-the-end")
		msg("STOP job-BBBB-the-end")
		msg("STOP job-AAAA-the-end")
	}
	b.Finish()
	m := b.Snapshot()
	if len(m.Labels) != 2 {
		t.Fatalf("%d labels, want 2", len(m.Labels))
	}
	for _, s := range m.Labels {
		want := uint64(40) // job-AAAA-the-end: START at 10, STOP at 50
		if m.String(s.Label) == "job-BBBB-the-end" {
			want = 10
		}
		if s.Count != 100 || s.Min != want || s.Max != want || s.Unmatched != 0 || s.Open != 0 {
			t.Errorf("label %q: %+v, want 100 spans of %d ns", m.String(s.Label), s, want)
		}
	}
}
