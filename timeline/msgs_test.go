package timeline

import (
	"math/rand"
	"os"
	"slices"
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
		l.add(Grid{}, in)
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

// TestMsgListSummarisesBusyBuckets: with a grid, the user messages of a
// bucket holding collapseAt of them or more are kept as one summary
// counting them, at the time of the first, its markers and log messages
// whole around it; a quieter bucket keeps each message; the counts per
// bucket are those of every message. Drawn at any zoom an overview draws
// (pixel columns at least half a bucket wide, anywhere), each column holds
// a message, and a user message, exactly where every message kept says so,
// and the columns count every message.
func TestMsgListSummarisesBusyBuckets(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	g := Grid{Shift: 10}
	var exact, ov msgList
	tm := uint64(1 << 20)
	kinds := []InstantKind{InstantUserMessage, InstantUserMarker, InstantLogMessage}
	for i := 0; i < 3*chunkSize; i++ {
		switch rng.Intn(20) {
		case 0:
			tm += uint64(rng.Intn(1 << 14)) // a quiet stretch
		case 1:
			tm += uint64(rng.Intn(1 << 10)) // a gap within a bucket, or not
		default:
			tm += uint64(rng.Intn(100))
		}
		in := Instant{Time: tm, Arg: uint32(rng.Intn(1 << 20)), Kind: kinds[rng.Intn(len(kinds))]}
		if rng.Intn(4) > 0 {
			in.Kind = InstantUserMessage
		}
		exact.add(Grid{}, in)
		ov.add(g, in)
	}
	ov.settle(g, 0, true)
	ev, ovv := exact.view(), ov.view()
	if !ovv.summarised() {
		t.Fatal("no bucket summarised: the test says nothing")
	}
	eh, oh := &HEC{msgs: ev}, &HEC{msgs: ovv}
	type bucketOf struct {
		n     int
		first uint64
		each  []Instant
		whole []Instant // its markers and log messages
	}
	want := map[uint64]*bucketOf{}
	for i := 0; i < ev.Len(); i++ {
		in := ev.At(i)
		b := want[g.bucket(in.Time)]
		if b == nil {
			b = &bucketOf{}
			want[g.bucket(in.Time)] = b
		}
		b.each = append(b.each, in)
		if in.Kind != InstantUserMessage {
			b.whole = append(b.whole, in)
		} else if b.n++; b.n == 1 {
			b.first = in.Time
		}
	}
	for bk, w := range want {
		from, to := g.start(bk), g.start(bk)+g.Width()
		var got []Instant
		oh.InstantsIn(from, to, func(in Instant) bool { got = append(got, in); return true })
		if e, o := eh.CountInstants(from, to), oh.CountInstants(from, to); e != o {
			t.Fatalf("bucket %d counts %d, exact %d", bk, o, e)
		}
		if w.n < collapseAt {
			if !slices.Equal(got, w.each) {
				t.Fatalf("bucket %d of %d messages: %v, want each of %v", bk, w.n, got, w.each)
			}
			continue
		}
		var sum Instant
		var kept []Instant
		for _, in := range got {
			if in.Summary() {
				sum = in
			} else {
				kept = append(kept, in)
			}
		}
		if len(got) != 1+len(w.whole) || sum.Time != w.first || sum.Count() != w.n || sum.Kinds() != 1<<InstantUserMessage {
			t.Fatalf("bucket %d of %d user messages and %d others: %v, want a summary of them at the first's time %d, and the others", bk, w.n, len(w.whole), got, w.first)
		}
		if !slices.Equal(kept, w.whole) {
			t.Fatalf("bucket %d keeps %v whole, want %v", bk, kept, w.whole)
		}
		if !slices.IsSortedFunc(got, func(a, b Instant) int { return int(a.Time) - int(b.Time) }) {
			t.Fatalf("bucket %d out of time order: %v", bk, got)
		}
	}
	first, last := ev.At(0).Time, ev.At(ev.Len()-1).Time+1
	for _, perBucket := range []float64{0.5, 0.7, 1, 1.37, 3, 40} {
		for _, off := range []uint64{0, 1, 333, 511, 512, 777} {
			from := first - min(first, off)
			n := int(float64(last-from)/(perBucket*float64(g.Width()))) + 1
			ax := NewAxis(from, from+uint64(float64(n)*perBucket*float64(g.Width())), 0, float64(n))
			ec, oc := eh.InstantColumns(ax, n, nil), oh.InstantColumns(ax, n, nil)
			total := 0
			for i := range ec {
				total += int(oc[i].Count)
				um := uint16(1 << InstantUserMessage)
				if (ec[i].Count > 0) != (oc[i].Count > 0) || ec[i].Kinds&um != oc[i].Kinds&um {
					t.Fatalf("%.2f buckets a column from %d: column %d holds %d (kinds %b), exact %d (%b)", perBucket, from, i, oc[i].Count, oc[i].Kinds, ec[i].Count, ec[i].Kinds)
				}
			}
			if total != ev.Len() {
				t.Fatalf("%.2f buckets a column from %d: the columns count %d messages, want %d", perBucket, from, total, ev.Len())
			}
		}
	}
}

// TestOverviewSummarisesMessages: an overview of a log of user events
// keeps each HEC's messages per bucket as the exact model counts them,
// and every marker; a window of a range (KeepMessages) keeps each.
func TestOverviewSummarisesMessages(t *testing.T) {
	path := "../testdata/ghc-9.0.2/userheavy-N2.eventlog"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	exact, _ := build(t, path)
	for _, parallel := range []bool{false, true} {
		ov := overview(t, data, 512, parallel)
		g := ov.Grid
		sums := 0
		for c := range exact.HECs {
			eh, oh := &exact.HECs[c], &ov.HECs[c]
			for i := 0; i < oh.NumInstants(); i++ {
				if oh.Instant(i).Summary() {
					sums++
				}
			}
			for b := g.bucket(exact.Start); g.start(b) <= exact.End; b++ {
				from, to := g.start(b), g.start(b)+g.Width()
				if e, o := eh.CountInstants(from, to), oh.CountInstants(from, to); e != o {
					t.Fatalf("parallel=%v: HEC %d bucket %d: %d instants, exact %d", parallel, c, b, o, e)
				}
			}
			markers := func(m *Model, h *HEC) []string {
				var out []string
				h.InstantsIn(0, exact.End+1, func(in Instant) bool {
					if in.Kind == InstantUserMarker && !in.Summary() {
						out = append(out, uitoa(in.Time)+" "+m.String(int32(in.Arg)))
					}
					return true
				})
				return out
			}
			if e, o := markers(exact, eh), markers(ov, oh); !slices.Equal(e, o) || len(e) == 0 {
				t.Fatalf("parallel=%v: HEC %d keeps markers %v, exact %v", parallel, c, o, e)
			}
		}
		if sums == 0 {
			t.Fatalf("parallel=%v: no bucket of messages summarised: the test says nothing", parallel)
		}
	}
}
