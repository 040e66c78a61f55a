package ingest

import "encoding/binary"

// blockMarkerSize is the payload size of a block marker: block size (u32),
// end time (u64) and capability (u16).
const blockMarkerSize = 14

// DefaultReplayBudget bounds the memory of a Replay that is given no budget.
const DefaultReplayBudget = 32 << 20

// Bytes a Replay counts for each event it keeps besides the event's own
// bytes, for each live thread, and for each thread it remembers as finished
// before its creation came (estimates of the Go structures involved).
const (
	replayEventCost    = 40
	replayThreadCost   = 48
	replayFinishedCost = 24
)

// maxFinished is how many finished threads a Replay remembers, so as not to
// take their creation or label for a live thread's when it comes after
// their end.
const maxFinished = 1 << 16

// Replay remembers what a reader that joins a stream late needs to make sense
// of the rest: the header and the events that define state rather than
// report activity — capability sets and capabilities, the process's
// identity, arguments and wall clock, the threads still alive and their
// labels, heap information, heap-profile and cost-centre definitions,
// interned strings and perf and ticky definitions. Prefix turns them into
// the start of a valid eventlog that the live stream can follow.
//
// Its memory is bounded by Budget: when the threads alive are too many to
// keep, the oldest ones are forgotten (a late reader then sees their
// activity without their creation), and Forgotten counts them.
type Replay struct {
	// Budget bounds the bytes the Replay keeps (0: DefaultReplayBudget).
	Budget int

	header []byte
	// arena holds the bytes of the kept events, back to back; events
	// index into it.
	arena  []byte
	events []replayEvent
	live   int // bytes of arena still in use
	gone   int // events dropped but not yet compacted away
	// threads maps each live thread to the indexes in events of its
	// creation and its latest label (-1: none).
	threads map[uint32]threadEvents
	// finished holds the threads that ended most recently: in a stream,
	// one capability's block can be written after another's, so a
	// thread's creation or label can come after its end. finishedOrder
	// lists them oldest first, to forget the oldest beyond maxFinished.
	finished      map[uint32]bool
	finishedOrder []uint32
	// evict is where the search for the oldest live thread resumes.
	evict     int
	forgotten int
	// markers is set when the header declares block markers in the layout
	// Prefix writes; without it, replayed events lose their capability.
	markers bool
	marks   bool // the header declares Log messages (for the join mark)

	seen   bool   // an event other than a block marker has come
	newest uint64 // the latest time of any event so far

	blockCap     int32
	blockEnd     int64 // stream offset where the current block ends
	blockEndTime uint64
	blockTime    uint64
}

type replayEvent struct {
	time uint64
	off  int   // in arena
	n    int32 // bytes
	cap  int32
	gone bool
	// threadEv is set for a thread's creation or label, of thread.
	threadEv bool
	thread   uint32
}

type threadEvents struct{ create, label int32 }

// NewReplay returns an empty Replay for a stream with header h, whose bytes
// ("datb" included) are raw.
func NewReplay(h *Header, raw []byte) *Replay {
	t, ok := h.Lookup(uint16(KindBlockMarker))
	return &Replay{
		header:   append([]byte(nil), raw...),
		threads:  map[uint32]threadEvents{},
		finished: map[uint32]bool{},
		blockCap: NoCap,
		markers:  ok && t.Size == blockMarkerSize,
		marks:    canMark(h),
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
	if _, ok := JoinMark(ev); !ok {
		r.seen = true
		r.newest = max(r.newest, ev.Time)
	}
	switch {
	case ev.Kind == KindStopThread && ev.StopStatus() == StopFinished:
		r.finish(ev.Thread())
		return
	case !defines(ev.Kind):
		return
	}
	threadEv := ev.Kind == KindCreateThread || ev.Kind == KindThreadLabel
	th := ev.Thread()
	if threadEv && r.finished[th] {
		return
	}
	r.events = append(r.events, replayEvent{time: ev.Time, off: len(r.arena), n: int32(len(ev.Raw)), cap: ev.Cap, threadEv: threadEv, thread: th})
	r.arena = append(r.arena, ev.Raw...)
	r.live += len(ev.Raw)
	i := int32(len(r.events) - 1)
	if threadEv {
		te, ok := r.threads[th]
		if !ok {
			te = threadEvents{-1, -1}
		}
		if ev.Kind == KindCreateThread {
			r.drop(te.create)
			te.create = i
		} else {
			r.drop(te.label) // a new label replaces the old one
			te.label = i
		}
		r.threads[th] = te
	}
	r.keepWithin()
}

// finish forgets a thread that has ended.
func (r *Replay) finish(th uint32) {
	if te, ok := r.threads[th]; ok {
		r.drop(te.create)
		r.drop(te.label)
		delete(r.threads, th)
	}
	if !r.finished[th] {
		r.finished[th] = true
		r.finishedOrder = append(r.finishedOrder, th)
		if len(r.finishedOrder) > maxFinished {
			delete(r.finished, r.finishedOrder[0])
			r.finishedOrder = r.finishedOrder[1:]
		}
	}
	r.maybeCompact()
}

// drop marks event i (if any) as no longer replayed.
func (r *Replay) drop(i int32) {
	if i < 0 || r.events[i].gone {
		return
	}
	r.events[i].gone = true
	r.live -= int(r.events[i].n)
	r.gone++
}

// Size returns the bytes the Replay counts against its budget.
func (r *Replay) Size() int {
	return len(r.header) + r.live + (len(r.events)-r.gone)*replayEventCost +
		len(r.threads)*replayThreadCost + len(r.finishedOrder)*replayFinishedCost
}

// keepWithin forgets the oldest live threads while the Replay is over its
// budget. The process's own state (capsets, capabilities, identity) is
// never forgotten: it is small and does not grow with the run.
func (r *Replay) keepWithin() {
	budget := r.Budget
	if budget <= 0 {
		budget = DefaultReplayBudget
	}
	for r.Size() > budget && r.evict < len(r.events) {
		e := r.events[r.evict]
		r.evict++
		if e.gone || !e.threadEv {
			continue
		}
		te, ok := r.threads[e.thread]
		if !ok {
			continue
		}
		r.drop(te.create)
		r.drop(te.label)
		delete(r.threads, e.thread)
		r.forgotten++
	}
	r.maybeCompact()
}

// maybeCompact compacts once most kept events are gone.
func (r *Replay) maybeCompact() {
	if r.gone > 1024 && r.gone > len(r.events)/2 {
		r.compact()
	}
}

// compact forgets the events of finished and forgotten threads, and gives
// back the memory they held.
func (r *Replay) compact() {
	kept := make([]replayEvent, 0, len(r.events)-r.gone)
	arena := make([]byte, 0, r.live)
	index := make([]int32, len(r.events))
	evict := 0
	for i, e := range r.events {
		index[i] = -1
		if e.gone {
			continue
		}
		if i < r.evict {
			evict++
		}
		index[i] = int32(len(kept))
		arena = append(arena, r.arena[e.off:e.off+int(e.n)]...)
		e.off = len(arena) - int(e.n)
		kept = append(kept, e)
	}
	for th, te := range r.threads {
		if te.create >= 0 {
			te.create = index[te.create]
		}
		if te.label >= 0 {
			te.label = index[te.label]
		}
		r.threads[th] = te
	}
	r.events, r.arena, r.gone, r.evict = kept, arena, 0, evict
	if len(r.finishedOrder) < cap(r.finishedOrder)/4 {
		r.finishedOrder = append([]uint32(nil), r.finishedOrder...)
	}
}

// JoinedAt returns the time from which a reader joining now has every
// event: just after the latest time of any event so far (each capability's
// events after the join that are older come too, but not all of them);
// false if no event has come yet (a reader joining now misses nothing).
func (r *Replay) JoinedAt() (uint64, bool) { return r.newest + 1, r.seen }

// Prefix returns the bytes a reader joining at stream offset at (an event
// boundary) receives before the stream itself: the header; a join mark
// (see JoinMark) if events have gone by; the state events — each run of
// one capability's events in a block of its own, so that they keep their
// capability — and, if at falls inside a capability's block, a block marker
// for the rest of that block.
func (r *Replay) Prefix(at int64) []byte {
	out := append([]byte(nil), r.header...)
	if at, late := r.JoinedAt(); late && r.marks {
		out = appendJoinMark(out, at)
	}
	for i := 0; i < len(r.events); {
		e := r.events[i]
		if e.gone {
			i++
			continue
		}
		j, size, last := i, 0, e.time
		for ; j < len(r.events) && (r.events[j].gone || r.events[j].cap == e.cap); j++ {
			if !r.events[j].gone {
				size += int(r.events[j].n)
				last = r.events[j].time
			}
		}
		if e.cap != NoCap && r.markers {
			out = appendBlockMarker(out, e.time, size, last, e.cap)
		}
		for k := i; k < j; k++ {
			if ek := r.events[k]; !ek.gone {
				out = append(out, r.arena[ek.off:ek.off+int(ek.n)]...)
			}
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
