package timeline

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// add appends the record of a thread without marks (or whose marks r
// places) to the table.
func (t *threadTable) add(r *threadRec) {
	if t.n&(threadsPerBlock-1) == 0 {
		t.blocks = append(t.blocks, &threadBlock{firstID: r.ID, first: r.First, lastFirst: r.First})
	}
	b := t.blocks[len(t.blocks)-1]
	b.note(r)
	c := recCursor{b: b}
	for range t.n & (threadsPerBlock - 1) {
		var skip threadRec
		c.next(&skip)
	}
	c.append(r)
	t.n++
}

// buildBoth feeds the events of a log, in time order, to two builders on
// grid g, one that packs short tracks and seals blocks of finished
// threads and one that keeps every track whole and every thread's
// builder, and calls check with their snapshots every step events (0:
// never) and with their models at the end (the packing one's by Final).
// It returns how many blocks the packing one sealed.
func buildBoth(t *testing.T, data []byte, g Grid, step int, check func(what string, packed, whole *Model)) int {
	t.Helper()
	ix, err := ingest.NewIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	packed, whole := NewOverviewBuilder(g), NewOverviewBuilder(g)
	whole.unpacked = true
	m := ingest.NewMerge(bytes.NewReader(data), ix, ingest.MergeOptions{})
	defer m.Close()
	n := 0
	for e := m.Next(); e != nil; e = m.Next() {
		packed.Add(e)
		whole.Add(e)
		if n++; step > 0 && n%step == 0 {
			check(fmt.Sprintf("snapshot at %d events", n), packed.Snapshot(), whole.Snapshot())
		}
	}
	packed.Finish()
	whole.Finish()
	sealed := 0
	for _, bb := range packed.tb {
		if bb.sealed != nil {
			sealed++
		}
	}
	check("final", packed.Final(), whole.Snapshot())
	return sealed
}

// sameThreads fails the test unless got's threads are want's: records,
// marks, ends, summaries, time per state and columns, found by index, by
// id and by time alike. It returns how many of got's tracks are packed.
func sameThreads(t *testing.T, what string, got, want *Model) int {
	t.Helper()
	if got.NumThreads() != want.NumThreads() || got.Anomalies != want.Anomalies {
		t.Fatalf("%s: %d threads and %d anomalies, want %d and %d", what, got.NumThreads(), got.Anomalies, want.NumThreads(), want.Anomalies)
	}
	var ws []Thread
	for i := range want.NumThreads() {
		ws = append(ws, want.Thread(i))
	}
	ax := NewAxis(want.Start, want.End+1, 0, 512)
	packed := 0
	for i, g := range got.Threads() {
		w := &ws[i]
		if r, _ := got.record(i); r.where == marksArena || r.where == marksLocal {
			packed++
		}
		one := got.Thread(i)
		for _, gt := range []*Thread{g, &one} {
			if gt.ThreadRecord != w.ThreadRecord {
				t.Fatalf("%s: thread %d is %+v, want %+v", what, i, gt.ThreadRecord, w.ThreadRecord)
			}
			a, b := &gt.Track, &w.Track
			if a.Len() != b.Len() || a.End() != b.End() || a.Horizon() != b.Horizon() {
				t.Fatalf("%s: thread %d has %d marks to %d (horizon %d), want %d to %d (%d)", what, w.ID,
					a.Len(), a.End(), a.Horizon(), b.Len(), b.End(), b.Horizon())
			}
			for j := range a.Len() {
				if am, bm := a.Mark(j), b.Mark(j); am != bm || a.Stretch(am) != b.Stretch(bm) {
					t.Fatalf("%s: thread %d mark %d is %+v, want %+v", what, w.ID, j, am, bm)
				}
			}
			if a.Durations(want.Start, want.End) != b.Durations(want.Start, want.End) {
				t.Fatalf("%s: thread %d's time per state differs", what, w.ID)
			}
			if !slices.Equal(a.Columns(ax, 512, nil), b.Columns(ax, 512, nil)) {
				t.Fatalf("%s: thread %d's columns differ", what, w.ID)
			}
		}
		if k := got.ThreadIndex(w.ID); k != want.ThreadIndex(w.ID) {
			t.Fatalf("%s: thread %d found at %d, want %d", what, w.ID, k, want.ThreadIndex(w.ID))
		}
	}
	for k := uint64(0); k <= 64; k++ {
		at := want.Start + (want.End-want.Start)*k/64
		if a, b := got.ThreadsAliveAt(at), want.ThreadsAliveAt(at); !slices.Equal(a, b) {
			t.Fatalf("%s: threads %v alive at %d, want %v", what, a, at, b)
		}
	}
	return packed
}

// TestPackedThreadsEqualWhole: a model that packs its short tracks gives
// every thread, record and mark for mark, as the one that keeps every
// track whole does: exact and on overviews coarse and fine, in the
// snapshots of a growing model and at the end, for every test log (among
// them a GC storm of 2,566 short-lived threads), whether or not the
// blocks of finished threads were sealed while it grew.
func TestPackedThreadsEqualWhole(t *testing.T) {
	packed, sealed := 0, 0
	for _, path := range testLogs(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var last uint64
		if m := overview(t, data, 1, false); m != nil {
			last = m.End
		}
		for _, g := range []Grid{{}, GridFor(last, 1<<6), GridFor(last, 1<<12)} {
			name := fmt.Sprintf("%s on %d-ns buckets", filepath.Base(path), g.Width())
			// About eight snapshots a log (an event takes ~16 bytes).
			sealed += buildBoth(t, data, g, max(len(data)/16/8, 101), func(what string, got, want *Model) {
				packed += sameThreads(t, name+", "+what, got, want)
			})
		}
	}
	if packed == 0 || sealed == 0 {
		t.Fatalf("%d tracks packed, %d blocks sealed: the test proves nothing", packed, sealed)
	}
}

// TestPackedMarksRoundTrip: tracks of every kind of mark — large Args
// (a black hole's owner), Reasons, woken marks, a first mark before the
// thread's First, a finish at the thread's Finished or not — read back
// as they were packed, by their shape (and by decodeShaped, which reads
// each shape once), and in full once the table of shapes is full.
func TestPackedMarksRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var p markShapes
	var tracks [][]Mark
	var firsts, finisheds []uint64
	var packed [][]byte
	for range 2000 {
		n := rng.IntN(checkpointEvery + 1)
		first := rng.Uint64N(1 << 40)
		tm := first - min(first, rng.Uint64N(3)*1000)
		var ms []Mark
		for range n {
			tm += rng.Uint64N(1 << uint(rng.IntN(40)))
			m := Mark{Time: tm, State: State(rng.IntN(int(NumStates))), woken: rng.IntN(2) == 0}
			switch rng.IntN(4) {
			case 1:
				m.Arg = uint32(rng.IntN(4))
			case 2:
				m.Arg = rng.Uint32()
			}
			if rng.IntN(3) == 0 {
				m.Reason = uint8(rng.IntN(20))
			}
			ms = append(ms, m)
		}
		// The thread's finish: none, its last mark, or another time.
		var finished uint64
		if n > 0 && rng.IntN(2) == 0 {
			ms[n-1].State = StateFinished
			switch rng.IntN(4) {
			case 0:
			case 1:
				finished = ms[n-1].Time + 1 + rng.Uint64N(100)
			default:
				finished = ms[n-1].Time
			}
		}
		if len(packed) == 1000 {
			// The table is full from here on: the rest are packed in full.
			for len(p.shapes) < maxShapes {
				p.shapes = append(p.shapes, "")
			}
		}
		tracks, firsts, finisheds = append(tracks, ms), append(firsts, first), append(finisheds, finished)
		packed = append(packed, p.appendMarks(nil, first, finished, ms))
	}
	for i, ms := range tracks {
		src := packed[i]
		if n := packedLen(src, p.view()); n != len(ms) {
			t.Fatalf("track %d: %d marks packed, want %d", i, n, len(ms))
		}
		if got := decodeMarks(nil, src, firsts[i], finisheds[i], p.view()); !slices.Equal(got, ms) {
			t.Fatalf("track %d: read back %+v, want %+v", i, got, ms)
		}
	}
	// Read back again with the shapes read once, after other tracks: the
	// same marks after those already read.
	var cache shapeCache
	var all []Mark
	for i, ms := range tracks {
		start := len(all)
		all = cache.decodeShaped(all, packed[i], firsts[i], finisheds[i], p.view())
		if got := all[start:]; !slices.Equal(got, ms) {
			t.Fatalf("track %d: read back by its shape %+v, want %+v", i, got, ms)
		}
	}
	if full := packed[len(packed)-1]; full[0] != 0 {
		t.Fatal("with the table full, tracks are still packed by shape")
	}
}

// TestRecordsRoundTrip: records of every kind — ids in order and not,
// labels, creation at First, before it, after it or unknown, finish times
// or none, ends of open buckets, marks in each place — read back from
// their blocks as they were written, in turn and one by one.
func TestRecordsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var tt threadTable
	var want []threadRec
	id, first, at := uint32(0), uint64(1e9), uint64(0)
	for range 5000 {
		if rng.IntN(10) == 0 {
			id = rng.Uint32()
		} else {
			id++
		}
		first += rng.Uint64N(1 << uint(rng.IntN(30)))
		r := threadRec{ThreadRecord: ThreadRecord{ID: id, Label: -1, First: first - min(first, rng.Uint64N(2)*rng.Uint64N(1000))}}
		if rng.IntN(5) == 0 {
			r.Label = rng.Int32N(1000)
		}
		switch rng.IntN(6) {
		case 0:
		case 1:
			r.Created = r.First + rng.Uint64N(1e6)
		case 2:
			r.Created = r.First - min(r.First, 1+rng.Uint64N(1e6))
		default:
			r.Created = r.First
		}
		if rng.IntN(4) != 0 {
			r.Finished = r.First + rng.Uint64N(1<<uint(rng.IntN(40)))
		}
		if rng.IntN(20) == 0 {
			r.end, r.hasEnd = r.First+rng.Uint64N(1e6), true
		}
		r.where = uint8(rng.IntN(marksStored + 1))
		switch r.where {
		case marksArena:
			at += rng.Uint64N(100)
			if rng.IntN(10) == 0 {
				at -= min(at, rng.Uint64N(1000))
			}
			r.at = at
		case marksLocal, marksWide, marksStored:
			r.at = rng.Uint64N(1 << 20)
		}
		tt.add(&r)
		want = append(want, r)
	}
	m := &Model{threads: tt}
	m.eachRecord(0, func(i int, r *threadRec) bool {
		if *r != want[i] {
			t.Fatalf("record %d reads back as %+v, want %+v", i, *r, want[i])
		}
		return true
	})
	for i := range want {
		if r, _ := m.record(i); r != want[i] {
			t.Fatalf("record %d alone reads back as %+v, want %+v", i, r, want[i])
		}
	}
}

// TestLabelAfterRetired: GHC logs a thread's label when it is labelled,
// often just after the thread finished. A label that comes once the
// thread has retired, its block of threads sealed even, still labels it in
// the snapshots made after, and leaves those made before as they were.
func TestLabelAfterRetired(t *testing.T) {
	b := NewOverviewBuilder(Grid{Shift: 4})
	add := func(k ingest.Kind, at uint64, args ...uint64) {
		ev := ingest.Event{Kind: k, Time: at, Cap: 0}
		copy(ev.Args[:], args)
		if k == ingest.KindThreadLabel {
			ev.Data = []byte("late")
		}
		b.Add(&ev)
	}
	for id := uint64(1); id <= threadsPerBlock; id++ {
		at := id * 100
		add(ingest.KindCreateThread, at, id)
		add(ingest.KindRunThread, at+10, id)
		add(ingest.KindStopThread, at+20, id, uint64(ingest.StopFinished))
	}
	// Time moves on: the threads retire, and their block is sealed.
	add(ingest.KindCreateThread, 100*threadsPerBlock+1000, 1000)
	if b.tb[0].sealed == nil {
		t.Fatalf("the block of %d finished threads was not sealed", threadsPerBlock)
	}
	before := b.Snapshot()
	add(ingest.KindThreadLabel, 100*threadsPerBlock+1001, 7)
	add(ingest.KindThreadLabel, 100*threadsPerBlock+1002, 1000)
	after := b.Snapshot()
	b.Finish()
	final := b.Final()
	for _, m := range []*Model{after, final} {
		for _, id := range []uint32{7, 1000} {
			th := m.ThreadByID(id)
			if th == nil || m.String(th.Label) != "late" {
				t.Fatalf("thread %d: %+v, want it labelled %q", id, th, "late")
			}
		}
		if th := m.ThreadByID(8); th == nil || th.Label != -1 || th.Track.Len() != 3 {
			t.Errorf("thread 8 after the label of 7: %+v", th)
		}
	}
	if th := before.ThreadByID(7); th == nil || th.Label != -1 || th.Track.Len() != 3 || th.Finished != 720 {
		t.Errorf("thread 7 in the snapshot before its label: %+v", th)
	}
}
