package ingest

import "encoding/binary"

// blockMarkerSize is the payload size of a block marker: block size (u32),
// end time (u64) and capability (u16).
const blockMarkerSize = 14

// Replay remembers what a reader that joins a stream late needs to make sense
// of the rest: the header and the events that define state rather than
// report activity — capability sets and capabilities, the process's
// identity, arguments and wall clock, the threads still alive and their
// labels, heap information, heap-profile and cost-centre definitions,
// interned strings and perf and ticky definitions. Prefix turns them into
// the start of a valid eventlog that the live stream can follow.
type Replay struct {
	header []byte
	events []replayEvent
	// threadEvents lists the indexes in events of each live thread's
	// creation and labels, so that they can be dropped when it finishes.
	threadEvents map[uint32][]int
	dropped      int
	// finishedEarly holds threads whose end came before their creation: in
	// a file, one capability's buffer can be written after another's.
	finishedEarly map[uint32]bool
	// markers is set when the header declares block markers in the layout
	// Prefix writes; without it, replayed events lose their capability.
	markers bool

	blockCap     int32
	blockEnd     int64 // stream offset where the current block ends
	blockEndTime uint64
	blockTime    uint64
}

type replayEvent struct {
	raw  []byte
	time uint64
	cap  int32
	gone bool
}

// NewReplay returns an empty Replay for a stream with header h, whose bytes
// ("datb" included) are raw.
func NewReplay(h *Header, raw []byte) *Replay {
	t, ok := h.Lookup(uint16(KindBlockMarker))
	return &Replay{
		header:        append([]byte(nil), raw...),
		threadEvents:  map[uint32][]int{},
		finishedEarly: map[uint32]bool{},
		blockCap:      NoCap,
		markers:       ok && t.Size == blockMarkerSize,
	}
}

// defines reports whether events of kind k define state a late reader needs.
func defines(k Kind) bool {
	switch k {
	case KindCapsetCreate, KindCapsetDelete, KindCapsetAssignCap, KindCapsetRemoveCap,
		KindRTSIdentifier, KindProgramArgs, KindProgramEnv, KindOSProcessPid, KindOSProcessPpid,
		KindWallClockTime, KindStartup, KindCapCreate, KindCapDelete, KindCapDisable, KindCapEnable,
		KindHeapInfoGHC, KindHeapProfBegin, KindHeapProfCostCentre, KindProfBegin, KindInternString,
		KindPerfName, KindTickyCounterDef, KindIPE, KindEdenVersion,
		KindCreateThread, KindThreadLabel:
		return true
	}
	return false
}

// Add takes the next event of the stream, in stream order.
func (r *Replay) Add(ev *Event) {
	if ev.Kind == KindBlockMarker {
		r.blockCap = ev.Cap
		r.blockEnd = ev.Offset + int64(ev.Args[0])
		r.blockTime, r.blockEndTime = ev.Time, ev.Args[1]
		return
	}
	switch {
	case ev.Kind == KindStopThread && ev.StopStatus() == StopFinished:
		is, ok := r.threadEvents[ev.Thread()]
		if !ok {
			r.finishedEarly[ev.Thread()] = true
		}
		for _, i := range is {
			r.events[i].gone = true
			r.events[i].raw = nil
			r.dropped++
		}
		delete(r.threadEvents, ev.Thread())
		if r.dropped > 1024 && r.dropped > len(r.events)/2 {
			r.compact()
		}
		return
	case !defines(ev.Kind):
		return
	}
	if ev.Kind == KindCreateThread || ev.Kind == KindThreadLabel {
		if r.finishedEarly[ev.Thread()] {
			if ev.Kind == KindCreateThread {
				delete(r.finishedEarly, ev.Thread())
			}
			return
		}
		r.threadEvents[ev.Thread()] = append(r.threadEvents[ev.Thread()], len(r.events))
	}
	r.events = append(r.events, replayEvent{raw: append([]byte(nil), ev.Raw...), time: ev.Time, cap: ev.Cap})
}

// compact forgets the events of finished threads.
func (r *Replay) compact() {
	kept := r.events[:0]
	index := make([]int, len(r.events))
	for i, e := range r.events {
		index[i] = len(kept)
		if !e.gone {
			kept = append(kept, e)
		}
	}
	clear(r.events[len(kept):])
	r.events = kept
	for t, is := range r.threadEvents {
		for j, i := range is {
			is[j] = index[i]
		}
		r.threadEvents[t] = is
	}
	r.dropped = 0
}

// Events returns how many events Prefix would replay (block markers not
// counted).
func (r *Replay) Events() int { return len(r.events) - r.dropped }

// Prefix returns the bytes a reader joining at stream offset at (an event
// boundary) receives before the stream itself: the header, the state events
// — each run of one capability's events in a block of its own, so that they
// keep their capability — and, if at falls inside a capability's block, a
// block marker for the rest of that block.
func (r *Replay) Prefix(at int64) []byte {
	out := append([]byte(nil), r.header...)
	for i := 0; i < len(r.events); {
		e := r.events[i]
		if e.gone {
			i++
			continue
		}
		j, size, last := i, 0, e.time
		for ; j < len(r.events) && (r.events[j].gone || r.events[j].cap == e.cap); j++ {
			if !r.events[j].gone {
				size += len(r.events[j].raw)
				last = r.events[j].time
			}
		}
		if e.cap != NoCap && r.markers {
			out = appendBlockMarker(out, e.time, size, last, e.cap)
		}
		for k := i; k < j; k++ {
			out = append(out, r.events[k].raw...)
		}
		i = j
	}
	if r.markers && r.blockCap != NoCap && at < r.blockEnd {
		out = appendBlockMarker(out, r.blockTime, int(r.blockEnd-at), r.blockEndTime, r.blockCap)
	}
	return out
}

// appendBlockMarker appends a block marker for a block of size bytes of
// events (the marker's own bytes are added to the size it declares).
func appendBlockMarker(b []byte, time uint64, size int, end uint64, cap int32) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(KindBlockMarker))
	b = binary.BigEndian.AppendUint64(b, time)
	b = binary.BigEndian.AppendUint32(b, uint32(10+blockMarkerSize+size))
	b = binary.BigEndian.AppendUint64(b, end)
	return binary.BigEndian.AppendUint16(b, uint16(cap))
}
