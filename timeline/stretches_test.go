package timeline

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// TestStretchesPackedRoundTrip: stretches of every kind — no time, time
// in every state, large times, Args and Reasons, a span that is not the
// sum of the times — read back as they were added, from the list, from
// its views (taken as it grows, and unchanged by what is added after),
// from their subranges, and from a list they were all added to. A second
// list filled beside the first (the chunks being filled come from a pool)
// keeps its own.
func TestStretchesPackedRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var l, twin stretchList
	var want []stretch
	var views []stretchView
	for i := range 3*chunkSize + 17 {
		var s stretch
		for j := range s.d {
			if rng.IntN(3) == 0 {
				s.d[j] = rng.Uint32N(1 << uint(rng.IntN(32)))
				s.span += s.d[j]
			}
		}
		if rng.IntN(50) == 0 {
			s.span += 1 + rng.Uint32N(100)
		}
		s.n = rng.Uint32N(1 << uint(rng.IntN(25)))
		if rng.IntN(2) == 0 {
			s.endArg = rng.Uint32()
		}
		if rng.IntN(3) == 0 {
			s.endReason = uint8(rng.IntN(256))
		}
		s.endState = State(rng.IntN(int(NumStates)))
		l.add(&s)
		want = append(want, s)
		u := s
		u.endArg ^= 1
		twin.add(&u)
		if i%997 == 0 {
			views = append(views, l.view())
		}
	}
	var all stretchList
	all.addAll(&l)
	whole := l.view()
	for _, v := range append(views, whole, all.view()) {
		for i := range v.Len() {
			if got := v.at(i); got != want[i] {
				t.Fatalf("stretch %d of a view of %d is %+v, want %+v", i, v.Len(), got, want[i])
			}
		}
	}
	tv := twin.view()
	for i := range tv.Len() {
		if got := tv.at(i); got.endArg != want[i].endArg^1 {
			t.Fatalf("stretch %d of the list filled beside ends in Arg %d, want %d", i, got.endArg, want[i].endArg^1)
		}
	}
	sub := whole.sub(chunkSize-3, 10)
	for i := range sub.Len() {
		if got := sub.at(i); got != want[chunkSize-3+i] {
			t.Fatalf("stretch %d of a subrange is %+v, want %+v", i, got, want[chunkSize-3+i])
		}
	}
	l.reset()
	if l.len() != 0 || whole.at(whole.Len()-1) != want[len(want)-1] {
		t.Fatal("reset changed a view or left stretches")
	}
}

// modelOn builds the model of a log on grid g (the zero Grid: exact).
func modelOn(t *testing.T, data []byte, g Grid) *Model {
	t.Helper()
	ix, err := ingest.NewIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	b := NewOverviewBuilder(g)
	m := ingest.NewMerge(bytes.NewReader(data), ix, ingest.MergeOptions{})
	defer m.Close()
	for e := m.Next(); e != nil; e = m.Next() {
		b.Add(e)
	}
	b.Finish()
	return b.Snapshot()
}

// sameStretches fails the test unless every summarised stretch of track
// got is what the exact track want says of its span: the time in each
// state, the changes of state, and the mark in force at its end. It adds
// each to all.
func sameStretches(t *testing.T, what string, got, want *Track, all *[]stretch) {
	t.Helper()
	for i := range got.Len() {
		m := got.Mark(i)
		if !m.Summary() {
			continue
		}
		*all = append(*all, got.sums().at(int(m.Arg)))
		s := got.Stretch(m)
		end := m.Time + s.Time.Total()
		if s.End.Time != end {
			t.Fatalf("%s: the stretch at %d ends at %d, its times add up to %d", what, m.Time, s.End.Time, end)
		}
		if d := want.Durations(m.Time, end); d != s.Time {
			t.Fatalf("%s: the stretch at %d has times %v, the exact track %v", what, m.Time, s.Time, d)
		}
		// Its changes: the exact marks from its start, before its end
		// (and at it, for a stretch that ends at its last changes: several
		// marks may share that time, as two of a thread of
		// ThreadScope__parlist5.eventlog do, or all of them, as the eight
		// of ThreadScope__sudoku3b.eventlog's thread 1, created, run and
		// finished within the log's microsecond).
		lo, hi := want.marks.search(0, func(x *Mark) bool { return x.Time >= m.Time }), want.Search(end-1)
		for hi < want.Len() && want.Mark(hi).Time == end && hi-lo < s.Changes {
			hi++
		}
		if hi == 0 {
			t.Fatalf("%s: the stretch at %d ends at %d, before the exact track's first mark", what, m.Time, end)
		}
		last := want.Mark(hi - 1)
		if hi-lo != s.Changes {
			t.Fatalf("%s: the stretch at %d summarises %d changes, the exact track has %d", what, m.Time, s.Changes, hi-lo)
		}
		last.Time, last.woken = end, false
		if last != s.End {
			t.Fatalf("%s: the stretch at %d ends in %+v, the exact track in %+v", what, m.Time, s.End, last)
		}
	}
}

// TestStretchesEqualExact: on every test log and on grids coarse and
// fine, every summarised stretch of every HEC and thread read back from
// its packed form says what the exact model says of its span: the time in
// each state, how many changes it summarises, and the state, Arg and
// Reason in force at its end. The test logs' tracks are short, their
// stretches kept whole; all of them put in one list, whose full chunks
// are packed, read back the same.
func TestStretchesEqualExact(t *testing.T) {
	var all []stretch
	for _, path := range testLogs(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		exact := modelOn(t, data, Grid{})
		for _, buckets := range []int{1 << 6, 1 << 10, 1 << 14} {
			g := GridFor(exact.End, buckets)
			m := modelOn(t, data, g)
			name := fmt.Sprintf("%s on %d-ns buckets", filepath.Base(path), g.Width())
			for i := range m.HECs {
				h := &m.HECs[i]
				sameStretches(t, fmt.Sprintf("%s, HEC %d", name, h.Cap), &h.Track, &exact.HEC(h.Cap).Track, &all)
			}
			for i, th := range m.Threads() {
				w := exact.Thread(exact.ThreadIndex(th.ID))
				sameStretches(t, fmt.Sprintf("%s, thread %d (%d)", name, th.ID, i), &th.Track, &w.Track, &all)
			}
		}
	}
	if len(all) <= chunkSize {
		t.Fatalf("%d stretches checked, not enough to fill a chunk: the test proves little", len(all))
	}
	var l stretchList
	for i := range all {
		l.add(&all[i])
	}
	v := l.view()
	for i := range all {
		if got := v.at(i); got != all[i] {
			t.Fatalf("stretch %d of the test logs is %+v packed, %+v whole", i, got, all[i])
		}
	}
	t.Logf("%d stretches checked", len(all))
}
