package ingest

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
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
