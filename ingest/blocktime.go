package ingest

import (
	"fmt"
	"slices"
)

// A block's marker declares the time of the block's first event and of its
// last: the events the block holds happened in between, with one exception
// GHC's RTS makes (rts/eventlog/EventLog.c and rts/Stats.c, as of GHC 9.0).
// It stamps an event as it writes it into its capability's buffer, after
// making room for it; making room may flush the full buffer: close the
// block (its end time is taken then), write it out, and open a new block
// whose marker is stamped after the write. A few events are stamped before
// room is made for them (postEventAtTimestamp, postWallClockTime): GC_START
// with the time stat_startGC takes, GC_END with the time stat_endGC takes
// for its statistics before it posts GC_GLOBAL_SYNC and GC_STATS_GHC, and
// WALL_CLOCK_TIME. When a flush happens between such an event's stamp and
// its post, the event opens the new block (or follows those two) with a
// time before the block's start: as long before as the write took (a
// millisecond on a 170 MB log made here). Its time was taken while the
// capability's previous block was open, so it lies in that block's range.
//
// So an event is where GHC could have put it if its time lies in its
// block's range, or, for those kinds, in the range of the previous block of
// the same capability; it keeps its time. Any other event's timestamp is
// impossible (a flipped byte, a torn write); were it believed, one such
// event could make a run of a second last for centuries. The decoder
// reports each one (TimeFault) and hands it out with the latest possible
// time instead: that of the event before it in its block (the block's
// start time for its first), so that it never leaves its block.

// TimeFault is an event whose timestamp lies outside the time range its
// block's marker declares, where GHC could not have put it.
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

// blockRange is the time range a block marker declares.
type blockRange struct {
	lo, hi uint64
}

// possible reports whether the range's start is not after its end.
func (r blockRange) possible() bool { return r.lo <= r.hi }

// capRange is the range of the latest block of a capability (NoCap: of the
// RTS's global buffer) a decoder has met.
type capRange struct {
	cap int32
	blockRange
}

// blockTimes is a decoder's view of the block it is in: the range its
// marker declares, the range of the capability's block before it, and the
// faults found so far.
type blockTimes struct {
	// in says whether the decoder is in a block whose range is known, and
	// lo and hi are that range.
	in     bool
	lo, hi uint64
	// before is the range of the previous block of the block's capability,
	// if there was one with a possible range (hasBefore).
	before    blockRange
	hasBefore bool
	// seen is the latest block met of each capability (a few: a
	// capability's blocks are 2 MiB each).
	seen []capRange
	// last is the latest good time in the block, given to a faulty event.
	last uint64
	// faulty says whether the last event checked was a fault.
	faulty bool
	faults TimeFaults
}

// enter starts a block of capability c whose marker declares [start, end].
// A marker whose end is before its start declares nothing to check
// against.
func (b *blockTimes) enter(c int32, start, end uint64) {
	b.faulty = false
	b.before, b.hasBefore = b.latest(c)
	b.saw(c, blockRange{start, end})
	b.in, b.lo, b.hi, b.last = end >= start, start, end, start
}

// latest returns the range of the latest block of capability c met, if it
// is possible.
func (b *blockTimes) latest(c int32) (blockRange, bool) {
	for _, s := range b.seen {
		if s.cap == c {
			return s.blockRange, s.possible()
		}
	}
	return blockRange{}, false
}

// saw records r as the range of capability c's latest block.
func (b *blockTimes) saw(c int32, r blockRange) {
	for i := range b.seen {
		if b.seen[i].cap == c {
			b.seen[i].blockRange = r
			return
		}
	}
	b.seen = append(b.seen, capRange{c, r})
}

// forget drops what b knows of blocks met: a decoder started afresh. The
// faults found stay.
func (b *blockTimes) forget() {
	b.in, b.faulty, b.hasBefore, b.seen = false, false, false, b.seen[:0]
}

// clone returns a copy of b that shares no memory with it.
func (b blockTimes) clone() blockTimes {
	b.seen = slices.Clone(b.seen)
	b.faults.First = slices.Clone(b.faults.First)
	return b
}

// leave ends the block.
func (b *blockTimes) leave() { b.in, b.faulty = false, false }

// stampedBeforeRoom reports whether GHC's RTS takes the time of events of
// kind k before it makes room for them in its buffer (see above).
func stampedBeforeRoom(k Kind) bool {
	return k == KindGCStart || k == KindGCEnd || k == KindWallClockTime
}

// check looks at an event of the block (not its marker): a fault is
// recorded and the event given the block's latest good time. An event GHC
// stamps before making room for it may lie in the range of its
// capability's previous block instead (see above). Eden writes a machine's
// creation with the machine's start time, which can be before its block:
// only a time after the block's end is impossible for it.
func (b *blockTimes) check(ev *Event) {
	if !b.in || ev.Time-b.lo <= b.hi-b.lo ||
		(stampedBeforeRoom(ev.Kind) && b.hasBefore && ev.Time-b.before.lo <= b.before.hi-b.before.lo) ||
		(ev.Kind == KindEdenCreateMachine && ev.Time <= b.hi) {
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

// within sets the block state of a decoder starting at byte off of the log
// ix indexes: the latest block of each capability that begins before off,
// and, if inBlock, the block holding off as the one the decoder is in. (The
// latest good time is then the block's start: a fault is given no later
// time than that.)
func (b *blockTimes) within(ix *Index, off int64, inBlock bool) {
	b.forget()
	for i := range ix.Pieces {
		p := &ix.Pieces[i]
		if p.Offset >= off {
			break
		}
		if !p.Block {
			continue
		}
		if inBlock && p.End > off {
			b.enter(p.Cap, p.BlockStart, p.BlockEnd)
			continue
		}
		b.saw(p.Cap, blockRange{p.BlockStart, p.BlockEnd})
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
