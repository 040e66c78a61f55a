package timeline

import (
	"math/rand"
	"testing"
)

// TestMsgListKeepsEveryMessage: messages kept in 8 bytes come back as the
// instants they were (a time earlier than the last moved up to it, as an
// instant list does), across chunks and across gaps too wide for 4-byte
// offsets; a HEC's columns and instants in a range count them as a list of
// whole instants did.
func TestMsgListKeepsEveryMessage(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var l msgList
	var want []Instant
	tm, last := uint64(5000), uint64(0)
	kinds := []InstantKind{InstantUserMessage, InstantUserMarker, InstantLogMessage}
	for i := 0; i < 3*chunkSize+17; i++ {
		switch rng.Intn(50) {
		case 0:
			tm += 5e9 // past a 4-byte offset
		case 1:
			tm -= min(tm, uint64(rng.Intn(100))) // out of order
		default:
			tm += uint64(rng.Intn(1000))
		}
		in := Instant{Time: tm, Arg: uint32(rng.Intn(1 << 20)), Kind: kinds[rng.Intn(len(kinds))]}
		l.add(in)
		in.Time = max(in.Time, last)
		last = in.Time
		want = append(want, in)
	}
	v := l.view()
	if v.Len() != len(want) {
		t.Fatalf("%d messages kept, want %d", v.Len(), len(want))
	}
	for i, w := range want {
		if got := v.At(i); got != w {
			t.Fatalf("message %d is %+v, want %+v", i, got, w)
		}
	}
	// As a HEC's: counted per column as instants one by one.
	h := &HEC{msgs: v, instants: sliceView([]Instant{{Time: 6000, Kind: InstantCreateThread}, {Time: last / 2, Kind: InstantMigrateThread}})}
	for _, n := range []int{1, 7, 1000, 5000} {
		ax := NewAxis(want[0].Time, last+1, 0, float64(n))
		cols := h.InstantColumns(ax, n, nil)
		total := 0
		for i, c := range cols {
			cnt := 0
			h.InstantsIn(ax.ColumnTime(i), ax.ColumnTime(i+1), func(Instant) bool { cnt++; return true })
			if int(c.Count) != cnt {
				t.Fatalf("%d columns: column %d counts %d, its range has %d", n, i, c.Count, cnt)
			}
			if c.Count > 0 {
				first := h.Instant(int(c.First))
				if first.Time < ax.ColumnTime(i) || first.Time >= ax.ColumnTime(i+1) {
					t.Fatalf("%d columns: column %d's first instant at %d is outside it", n, i, first.Time)
				}
				if c.Kinds&(1<<first.Kind) == 0 {
					t.Fatalf("%d columns: column %d's kinds %b lack its first's %v", n, i, c.Kinds, first.Kind)
				}
			}
			total += cnt
		}
		if total != h.NumInstants() {
			t.Fatalf("%d columns count %d instants of %d", n, total, h.NumInstants())
		}
	}
}
