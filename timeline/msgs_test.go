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

// TestMsgListSummarisesBusyBuckets: with a grid, a bucket of collapseAt
// messages or more is kept as one summary counting them (at the time of
// the first, with their kinds), its markers whole around it; a quieter bucket
// keeps each message; the counts per bucket are those of every message.
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
		default:
			tm += uint64(rng.Intn(200))
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
		n, markers int
		kinds      uint16
		each       []Instant
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
		if in.Kind == InstantUserMarker {
			b.markers++
		} else {
			b.n++
			b.kinds |= 1 << in.Kind
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
		var markers []Instant
		firstTime := uint64(0)
		for _, in := range w.each {
			if in.Kind == InstantUserMarker {
				markers = append(markers, in)
			} else if firstTime == 0 {
				firstTime = in.Time
			}
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
		if len(got) != 1+w.markers || sum.Time != firstTime || sum.Count() != w.n || sum.Kinds() != w.kinds {
			t.Fatalf("bucket %d of %d messages and %d markers: %v, want a summary of them (kinds %b) at the first's time %d, and the markers", bk, w.n, w.markers, got, w.kinds, firstTime)
		}
		if !slices.Equal(kept, markers) {
			t.Fatalf("bucket %d keeps markers %v, want %v", bk, kept, markers)
		}
		if !slices.IsSortedFunc(got, func(a, b Instant) int { return int(a.Time) - int(b.Time) }) {
			t.Fatalf("bucket %d out of time order: %v", bk, got)
		}
	}
	// Counted per column as the instants they stand for.
	ax := NewAxis(ev.At(0).Time, ev.At(ev.Len()-1).Time+1, 0, 300)
	total := 0
	for _, c := range oh.InstantColumns(ax, 300, nil) {
		total += int(c.Count)
	}
	if total != ev.Len() {
		t.Fatalf("the columns count %d messages, want %d", total, ev.Len())
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
