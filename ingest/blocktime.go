package ingest

import (
	"fmt"
	"slices"
)

// A block's marker declares the time of the block's first event and of its
// last: every event the block holds happened in between. An event whose
// timestamp lies outside that range is impossible (a flipped byte, a torn
// write); were it believed, one such event could make a run of a second
// last for centuries. The decoder reports each one (TimeFault) and hands
// it out with the latest possible time instead: that of the event before it
// in its block (the block's start time for its first), so that a
// capability's events stay in time order and never leave their block.

// TimeFault is an event whose timestamp lies outside the time range its
// block's marker declares.
type TimeFault struct {
	// Offset is the byte where the event begins.
	Offset int64
	// Type and Kind are the event's type id and what it decoded as; Cap its
	// block's capability (NoCap for the RTS's global block).
	Type uint16
	Kind Kind
	Cap  int32
	// Time is the timestamp as written, and Given the time the event was
	// handed out with.
	Time, Given uint64
	// BlockStart and BlockEnd are the range the block's marker declares.
	BlockStart, BlockEnd uint64
}

// String describes the fault: "byte N: RunThread at 9151314442.1 s, outside
// its block's 1.20–1.25 s (taken as 1.23 s)".
func (f TimeFault) String() string {
	return fmt.Sprintf("byte %d: %s (type %d) at %s, outside its block's %s–%s (taken as %s)",
		f.Offset, f.Kind, f.Type, seconds(f.Time), seconds(f.BlockStart), seconds(f.BlockEnd), seconds(f.Given))
}

// seconds formats a time in nanoseconds as seconds with nine decimals.
func seconds(ns uint64) string {
	return fmt.Sprintf("%d.%09d s", ns/1e9, ns%1e9)
}

// MaxTimeFaults is how many TimeFaults are kept in full; the others are
// only counted.
const MaxTimeFaults = 16

// TimeFaults is what decoding found of events with impossible timestamps:
// the first MaxTimeFaults of them in file order, and how many there were.
type TimeFaults struct {
	// First holds the earliest faults in the file, at most MaxTimeFaults.
	First []TimeFault
	// Count is the number of faults, including those not in First.
	Count int64
}

// add records f.
func (t *TimeFaults) add(f TimeFault) {
	t.Count++
	if len(t.First) < MaxTimeFaults {
		t.First = append(t.First, f)
		return
	}
	// Decoders of different stretches of a file report out of file order:
	// keep the earliest.
	if last := &t.First[len(t.First)-1]; f.Offset < last.Offset {
		*last = f
		slices.SortFunc(t.First, func(a, b TimeFault) int { return compareOffsets(a.Offset, b.Offset) })
	}
}

// Merge adds the faults of o to t.
func (t *TimeFaults) Merge(o TimeFaults) {
	count := t.Count + o.Count
	for _, f := range o.First {
		t.add(f)
	}
	slices.SortFunc(t.First, func(a, b TimeFault) int { return compareOffsets(a.Offset, b.Offset) })
	t.Count = count
}

func compareOffsets(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// String says how many events had impossible timestamps and where the first
// was; "" if none.
func (t TimeFaults) String() string {
	if t.Count == 0 {
		return ""
	}
	s := "1 event has an impossible timestamp"
	if t.Count > 1 {
		s = fmt.Sprintf("%d events have impossible timestamps", t.Count)
	}
	if len(t.First) > 0 {
		s += " (first: " + t.First[0].String() + ")"
	}
	return s
}

// SpansRun reports whether ev's time is one the run spans: every event's,
// and a block marker's when the range it declares is possible (its start
// not after its end). A marker declaring a start after its end is corrupt
// in one of them, and its time (the start) may be anything: one set to
// 2^56 ns would stretch a run of a second to 2.3 years.
func SpansRun(ev *Event) bool {
	return ev.Kind != KindBlockMarker || ev.Time <= ev.Args[1]
}

// blockTimes is a decoder's view of the block it is in: the range its
// marker declares, and the faults found so far.
type blockTimes struct {
	// in says whether the decoder is in a block whose range is known, and
	// lo and hi are that range.
	in     bool
	lo, hi uint64
	// last is the latest good time in the block, given to a faulty event.
	last uint64
	// faulty says whether the last event checked was a fault.
	faulty bool
	faults TimeFaults
}

// enter starts a block whose marker declares [start, end]. A marker whose
// end is before its start declares nothing to check against.
func (b *blockTimes) enter(start, end uint64) {
	b.faulty = false
	b.in, b.lo, b.hi, b.last = end >= start, start, end, start
}

// leave ends the block.
func (b *blockTimes) leave() { b.in, b.faulty = false, false }

// check looks at an event of the block (not its marker): a fault is
// recorded and the event given the block's latest good time. Eden writes
// a machine's creation with the machine's start time, which can be before
// its block: only a time after the block's end is impossible for it.
func (b *blockTimes) check(ev *Event) {
	if !b.in || ev.Time-b.lo <= b.hi-b.lo || (ev.Kind == KindEdenCreateMachine && ev.Time <= b.hi) {
		b.faulty = false
		b.last = max(b.last, ev.Time)
		return
	}
	b.faulty = true
	b.faults.add(TimeFault{Offset: ev.Offset, Type: ev.Type, Kind: ev.Kind, Cap: ev.Cap,
		Time: ev.Time, Given: b.last, BlockStart: b.lo, BlockEnd: b.hi})
	ev.Time = b.last
}

// TimeFaults returns the events this decoder found with impossible
// timestamps so far.
func (d *Decoder) TimeFaults() TimeFaults { return d.times.faults }

// blockRange returns the time range declared by the block holding byte
// off, if off lies in a block of the index.
func (ix *Index) blockRange(off int64) (lo, hi uint64, ok bool) {
	i, _ := slices.BinarySearchFunc(ix.Pieces, off, func(p Piece, off int64) int {
		switch {
		case p.End <= off:
			return -1
		case p.Offset > off:
			return 1
		}
		return 0
	})
	if i >= len(ix.Pieces) || !ix.Pieces[i].Block || ix.Pieces[i].Offset > off {
		return 0, 0, false
	}
	return ix.Pieces[i].BlockStart, ix.Pieces[i].BlockEnd, true
}

// within sets the block state of a decoder starting at byte off of the log
// ix indexes: that of the block holding off, if any. (The latest good time
// is then the block's start: a fault is given no later time than that.)
func (b *blockTimes) within(ix *Index, off int64) {
	if lo, hi, ok := ix.blockRange(off); ok {
		b.enter(lo, hi)
	}
}

// TimeFaults returns the events read so far whose timestamps lie outside
// their block's declared range.
func (r *Reader) TimeFaults() TimeFaults { return r.d.TimeFaults() }

// TimeFaults returns the events whose timestamps lie outside their block's
// declared range among those the merge read, every stream's. Call it after
// Next has returned nil.
func (m *Merge) TimeFaults() TimeFaults {
	var out TimeFaults
	for _, s := range m.streams {
		out.Merge(s.faults)
	}
	return out
}
