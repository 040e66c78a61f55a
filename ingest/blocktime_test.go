package ingest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// flipTime returns a copy of the real log at path in which one event's
// timestamp has one byte changed: the event half way through the log's
// events inside capability blocks, with byte 2 of its 8-byte time set to
// 0x7f (a time of centuries). It returns the copy, the event's offset and
// the declared range of its block.
func flipTime(t testing.TB, path string) (data []byte, off int64, lo, hi uint64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDecoder()
	d.Feed(data)
	d.End()
	type inBlock struct {
		off    int64
		lo, hi uint64
	}
	var evs []inBlock
	var ev Event
	var blo, bhi uint64
	for d.Next(&ev) {
		if ev.Kind == KindBlockMarker {
			blo, bhi = ev.Time, ev.Args[1]
			continue
		}
		if ev.Cap >= 0 && d.remaining > 0 {
			evs = append(evs, inBlock{ev.Offset, blo, bhi})
		}
	}
	if len(evs) == 0 {
		t.Fatalf("%s: no events in capability blocks", path)
	}
	e := evs[len(evs)/2]
	data = bytes.Clone(data)
	data[e.off+2+2] = 0x7f
	return data, e.off, e.lo, e.hi
}

// TestImpossibleTimestampReported: one flipped byte in one event's
// timestamp of a real log makes a Decoder, a Skim (in memory and from a
// file, cut into ranges of every size) and a Merge report that event at its
// offset, and none of them hands out a time outside the event's block.
func TestImpossibleTimestampReported(t *testing.T) {
	path := "../testdata/ghc-9.0.2/parwork-N2.eventlog"
	data, off, lo, hi := flipTime(t, path)
	if got := binary.BigEndian.Uint64(data[off+2:]); got <= hi {
		t.Fatalf("the flipped time %d is not past the block's end %d", got, hi)
	}
	check := func(name string, tf TimeFaults) {
		t.Helper()
		if tf.Count != 1 || len(tf.First) != 1 || tf.First[0].Offset != off {
			t.Fatalf("%s: faults %+v, want one at byte %d", name, tf, off)
		}
		if f := tf.First[0]; f.Given < lo || f.Given > hi || f.BlockStart != lo || f.BlockEnd != hi {
			t.Fatalf("%s: fault %+v: given a time outside [%d, %d]", name, f, lo, hi)
		}
	}

	d := NewDecoder()
	d.Feed(data)
	d.End()
	var ev Event
	var last uint64
	for d.Next(&ev) {
		if ev.Kind != KindBlockMarker {
			last = max(last, ev.Time)
		}
		if ev.Offset == off && (ev.Time < lo || ev.Time > hi) {
			t.Fatalf("decoder: the event at byte %d has time %d, outside [%d, %d]", off, ev.Time, lo, hi)
		}
	}
	check("decoder", d.TimeFaults())
	if d.Status().State != StateComplete {
		t.Fatalf("decoder: %v", d.Status())
	}

	file := filepath.Join(t.TempDir(), "flipped.eventlog")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, rb := range []int64{1, 4096, 1 << 20} {
		withRangeBytes(rb, func() {
			var at uint64
			r := Skim(data, Selection{Kinds: []Kind{KindRunThread, KindStopThread}}, func(e *Event) {
				if e.Offset == off {
					at = e.Time
				}
			})
			check("skim", r.TimeFaults)
			if r.Tally.LastNS != last {
				t.Fatalf("skim (ranges of %d): last time %d, the decoder's is %d", rb, r.Tally.LastNS, last)
			}
			if at != 0 && (at < lo || at > hi) {
				t.Fatalf("skim (ranges of %d): handed out the event with time %d", rb, at)
			}
			fr, err := SkimFile(file, Selection{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			check("skim file", fr.TimeFaults)
			if fr.Tally.LastNS != r.Tally.LastNS {
				t.Fatalf("file skim: last %d, memory skim %d", fr.Tally.LastNS, r.Tally.LastNS)
			}
		})
	}

	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ix, err := NewIndex(f, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	m := NewMerge(f, ix, MergeOptions{Learn: true})
	for e := m.Next(); e != nil; e = m.Next() {
		if e.Offset == off && (e.Time < lo || e.Time > hi) {
			t.Fatalf("merge: the event at byte %d has time %d", off, e.Time)
		}
	}
	check("merge", m.TimeFaults())
	for _, p := range ix.Pieces {
		if p.Block && p.Events > 1 && p.Last > p.BlockEnd {
			t.Fatalf("merge: piece at %d learned last time %d past its block's end %d", p.Offset, p.Last, p.BlockEnd)
		}
	}
}

// TestRealLogsHaveNoTimeFaults: the real logs of every GHC version in the
// test data keep every event within its block's range (Eden's machine
// creations, which GHC back-dates, included), so the check never fires on
// a sound log.
func TestRealLogsHaveNoTimeFaults(t *testing.T) {
	for name, data := range skimTestLogs(t) {
		d := NewDecoder()
		d.Feed(data)
		d.End()
		var ev Event
		for d.Next(&ev) {
		}
		if tf := d.TimeFaults(); tf.Count != 0 {
			t.Errorf("%s: %s", name, tf)
		}
	}
}

// ghcFlushed rewrites parwork-N2 as GHC writes a busy run: each
// capability's events in blocks of about size bytes, each marker declaring
// the time its block was opened (its events' earliest but for a GC end it
// opens with) and closed (its latest). A capability's full block is cut
// just before a GCEnd, which then opens the next block with a time before
// that block's start, in the range of the block before: as GHC's
// stat_endGC stamps GC_END before posting GC_GLOBAL_SYNC, GC_STATS_GHC and
// it, and one of those posts flushes the buffer. It returns the log and the
// offsets of the GC ends so back-dated.
func ghcFlushed(t testing.TB, size int) (data []byte, early []int64) {
	t.Helper()
	orig, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	d := NewDecoder()
	d.Feed(orig)
	d.End()
	type block struct {
		cap    int32
		events []Event
	}
	var blocks []block
	var ev Event
	first := int64(-1) // the data's first event
	for d.Next(&ev) {
		if first < 0 {
			first = ev.Offset
		}
		if ev.Kind == KindBlockMarker {
			continue
		}
		if n := len(blocks); n == 0 || blocks[n-1].cap != ev.Cap ||
			(ev.Cap != NoCap && ev.Kind == KindGCEnd && len(blocks[n-1].events)*16 >= size) {
			blocks = append(blocks, block{cap: ev.Cap})
		}
		b := &blocks[len(blocks)-1]
		b.events = append(b.events, ev.Clone())
	}
	data = bytes.Clone(orig[:first])
	for i, b := range blocks {
		lo, hi := uint64(math.MaxUint64), uint64(0)
		for k, e := range b.events {
			if k > 0 || e.Kind != KindGCEnd {
				lo = min(lo, e.Time)
			}
			hi = max(hi, e.Time)
		}
		if i+1 < len(blocks) && blocks[i+1].cap == b.cap && blocks[i+1].events[0].Kind == KindGCEnd {
			hi = max(hi, blocks[i+1].events[0].Time) // closed after the GC end was stamped
		}
		at := int64(len(data))
		m := make([]byte, 24)
		binary.BigEndian.PutUint16(m, uint16(KindBlockMarker))
		binary.BigEndian.PutUint64(m[2:], lo)
		binary.BigEndian.PutUint64(m[14:], hi)
		c := uint16(0xFFFF)
		if b.cap != NoCap {
			c = uint16(b.cap)
		}
		binary.BigEndian.PutUint16(m[22:], c)
		data = append(data, m...)
		for _, e := range b.events {
			if e.Time < lo {
				early = append(early, int64(len(data)))
			}
			data = append(data, e.Raw...)
		}
		binary.BigEndian.PutUint32(data[at+10:], uint32(int64(len(data))-at))
	}
	return append(data, 0xFF, 0xFF), early
}

// timesEverywhere reads the log data (written to a file too) with every
// reader that checks times: a Decoder, Skims in memory and from the file
// cut into ranges of several sizes, a Merge, a Merge from a time that skips
// the pieces before it, and a Decoder started by the index at each block
// marker. It fails the test unless each finds faults at exactly the offsets
// want, and returns the times each reader handed out the GCEnd events with,
// by offset.
func timesEverywhere(t *testing.T, data []byte, want ...int64) map[string]map[int64]uint64 {
	t.Helper()
	out := map[string]map[int64]uint64{}
	got := func(name string) map[int64]uint64 {
		if out[name] == nil {
			out[name] = map[int64]uint64{}
		}
		return out[name]
	}
	check := func(name string, tf TimeFaults) {
		t.Helper()
		var offs []int64
		for _, f := range tf.First {
			offs = append(offs, f.Offset)
		}
		if tf.Count != int64(len(want)) || !slices.Equal(offs, want) {
			t.Errorf("%s: faults %v, want at bytes %v", name, tf, want)
		}
	}
	d := NewDecoder()
	d.Feed(data)
	d.End()
	var ev Event
	for d.Next(&ev) {
		if ev.Kind == KindGCEnd {
			got("decoder")[ev.Offset] = ev.Time
		}
	}
	check("decoder", d.TimeFaults())

	file := filepath.Join(t.TempDir(), "log.eventlog")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sel := Selection{Kinds: []Kind{KindGCEnd}}
	for _, rb := range []int64{1, 4096, 1 << 20} {
		withRangeBytes(rb, func() {
			name := fmt.Sprintf("skim (ranges of %d)", rb)
			r := Skim(data, sel, func(e *Event) { got(name)[e.Offset] = e.Time })
			check(name, r.TimeFaults)
			name = fmt.Sprintf("file skim (ranges of %d)", rb)
			fr, err := SkimFile(file, sel, func(e *Event) { got(name)[e.Offset] = e.Time })
			if err != nil {
				t.Fatal(err)
			}
			check(name, fr.TimeFaults)
		})
	}

	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ix, err := NewIndex(f, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	merge := func(name string, opt MergeOptions) {
		m := NewMerge(f, ix, opt)
		for e := m.Next(); e != nil; e = m.Next() {
			if e.Kind == KindGCEnd {
				got(name)[e.Offset] = e.Time
			}
		}
		check(name, m.TimeFaults())
	}
	merge("merge", MergeOptions{Learn: true})
	// From half way: the pieces known to end before are skipped.
	merge("merge from half way", MergeOptions{From: ix.Pieces[len(ix.Pieces)/2].First})
	for _, p := range ix.Pieces {
		if !p.Block {
			continue
		}
		d := ix.DecoderAt(p.Offset, NoCap, 0)
		d.Feed(data[p.Offset:])
		d.End()
		var faults []int64
		for d.Next(&ev) {
		}
		for _, fl := range d.TimeFaults().First {
			faults = append(faults, fl.Offset)
		}
		for _, w := range want {
			if w >= p.Offset && !slices.Contains(faults, w) {
				t.Errorf("decoder from byte %d: faults %v, want %d among them", p.Offset, faults, w)
			}
		}
		for _, fl := range faults {
			if !slices.Contains(want, fl) {
				t.Errorf("decoder from byte %d: fault at %d", p.Offset, fl)
			}
		}
	}
	return out
}

// TestEarlyGCEndsArePlaced: GC ends that GHC stamped before the flush that
// opened their block (in the range of their capability's previous block)
// are no faults for any reader, and each hands them out at the time GHC
// wrote. Before, each was reported as an impossible timestamp, and every
// GHC 9.0.2 log of 166 MB or more was called damaged.
func TestEarlyGCEndsArePlaced(t *testing.T) {
	data, early := ghcFlushed(t, 16<<10)
	if len(early) < 3 {
		t.Fatalf("only %d early GC ends in the rewritten log", len(early))
	}
	for name, times := range timesEverywhere(t, data) {
		for _, off := range early {
			if tm, ok := times[off]; ok && tm != binary.BigEndian.Uint64(data[off+2:]) {
				t.Errorf("%s: the GC end at byte %d handed out at %d, written %d", name, off, tm, binary.BigEndian.Uint64(data[off+2:]))
			}
		}
		if name == "decoder" || name == "merge" || strings.HasPrefix(name, "skim") {
			for _, off := range early {
				if _, ok := times[off]; !ok {
					t.Errorf("%s: the GC end at byte %d not handed out", name, off)
				}
			}
		}
	}
}

// TestEarlyTimesOutsideThePreviousBlockReported: what GHC cannot write is
// still a fault: a GC end before its capability's previous block began (a
// flipped bit clearing a high one), and an event of a kind GHC stamps as it
// writes it (RunThread) in the previous block's range.
func TestEarlyTimesOutsideThePreviousBlockReported(t *testing.T) {
	data, early := ghcFlushed(t, 16<<10)
	if len(early) < 2 {
		t.Fatalf("only %d early GC ends in the rewritten log", len(early))
	}
	d := NewDecoder()
	d.Feed(data)
	d.End()
	var ev Event
	type span struct{ lo, hi uint64 }
	cur, prev := map[int32]span{}, map[int32]span{}
	var gcPrevLo, runTo uint64
	var run int64 = -1
	for d.Next(&ev) {
		if ev.Kind == KindBlockMarker {
			if s, ok := cur[ev.Cap]; ok {
				prev[ev.Cap] = s
			}
			cur[ev.Cap] = span{ev.Time, ev.Args[1]}
			continue
		}
		if ev.Offset == early[1] {
			gcPrevLo = prev[ev.Cap].lo
		}
		if p, ok := prev[ev.Cap]; ok && run < 0 && ev.Kind == KindRunThread && p.hi < cur[ev.Cap].lo {
			run, runTo = ev.Offset, p.hi
		}
	}
	gcEnd := bytes.Clone(data)
	binary.BigEndian.PutUint64(gcEnd[early[1]+2:], gcPrevLo-1)
	timesEverywhere(t, gcEnd, early[1])

	if run < 0 {
		t.Fatal("no RunThread in a block that begins after its capability's previous one ends")
	}
	runEarly := bytes.Clone(data)
	binary.BigEndian.PutUint64(runEarly[run+2:], runTo)
	timesEverywhere(t, runEarly, run)
}
