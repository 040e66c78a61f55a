package timeline

import (
	"fmt"
	"io"
	"maps"
	"math/bits"
	"slices"

	"github.com/hecscope/hecscope/ingest"
)

// SummarizeRange decodes an eventlog from src and returns the Summary of a
// selection [from, to] (ns): every figure is of the events with
// from ≤ time ≤ to, or of the state of the run between them, and says so
// (Summary.Range). The app's Selection tab and `hecscope summary --from
// --to` both give this Summary. ThreadScope's rules for a selection hold
// where they give the range's own figures (see Summary):
//
//   - TotalNS is the range's length, from and to rounded up to whole
//     microseconds;
//   - the GC time is the collections' pauses within the range
//     (GCFromPauses: GC.Pauses clipped to it), the same whatever GHC wrote
//     the log; MutatorNS, Productivity and AllocRate follow from it
//     (ThreadScope counts only the collections its GCStart, GlobalSync and
//     GCEnd order puts in the range, which in GHC ≥ 8 logs is often none);
//   - Heap.Allocated and the spark counts are, per capability, its last
//     HeapAllocated or SparkCounters value in the range less its last one
//     before the range (0 if none): what the collections in the range
//     counted (ThreadScope takes the first in the range, and loses what
//     was counted at it);
//   - MaxLive, MaxSlop and Copied are of the samples in the range, and
//     absent without one; MaxSize is the largest heap size in force in the
//     range (the size at from, and the samples in it);
//   - Copied sums every GCStatsGHC in the range (ThreadScope leaves the
//     earliest out, as it does of the par-copied sums, which this keeps);
//   - ThreadScope's count (GC.Total) leaves out a collection a capability
//     had begun before from (it counts a collection from its GCStart);
//   - ThreadsRan are the threads that ran in the range; Threads those
//     created in it.
//
// The run's description (Program, Args, Env, RTS, StartWall, Capabilities)
// and Status are the whole log's. A range reaching past the run's last
// event ends with it (RangeTo). The error is non-nil only if reading src
// failed or the range is empty.
func SummarizeRange(src io.Reader, from, to uint64) (Summary, error) {
	if to < from {
		return Summary{}, fmt.Errorf("summarising range: empty range [%d, %d]", from, to)
	}
	r := ingest.NewReader(src)
	whole, part := NewSummarizer(), NewSummarizer()
	type capRange struct {
		// The cumulative counters' last value before the range and in it.
		hasAlloc, allocIn      bool
		allocBefore, allocLast uint64
		hasSparks, sparksIn    bool
		sparkBefore, sparkLast [6]uint64
		// The thread running on the capability when the range began.
		running   bool
		runningID uint32
	}
	var caps []capRange
	capOf := func(c int32) *capRange {
		for int(c) >= len(caps) {
			caps = append(caps, capRange{})
		}
		return &caps[c]
	}
	var sizeAt uint64 // the heap size in force at from
	hasSizeAt := false
	var ran threadSet
	var ev ingest.Event
	for r.Next(&ev) {
		whole.Add(&ev)
		if ev.Kind == ingest.KindBlockMarker {
			if from <= ev.Time && ev.Time <= to {
				part.Add(&ev) // counted, in BlockMarkers only
			}
			continue
		}
		if ev.Time > to {
			continue
		}
		var c *capRange
		if ev.Cap >= 0 && ev.Cap < maxCaps {
			c = capOf(ev.Cap)
		}
		if ev.Time < from {
			// The state of the run when the range begins. A capability's
			// events come in time order.
			switch {
			case ev.Kind == ingest.KindHeapSize:
				sizeAt, hasSizeAt = ev.Args[1], true
			case c == nil:
			case ev.Kind == ingest.KindHeapAllocated:
				c.hasAlloc, c.allocBefore = true, ev.Args[1]
			case ev.Kind == ingest.KindSparkCounters:
				c.hasSparks, c.sparkBefore = true, sparkOrder(ev.SparkCounters())
			case ev.Kind == ingest.KindRunThread:
				c.running, c.runningID = true, uint32(ev.Args[0])
			case ev.Kind == ingest.KindStopThread:
				c.running = false
			}
			continue
		}
		if c != nil {
			switch ev.Kind {
			case ingest.KindHeapAllocated:
				c.hasAlloc, c.allocIn, c.allocLast = true, true, ev.Args[1]
			case ingest.KindSparkCounters:
				c.hasSparks, c.sparksIn, c.sparkLast = true, true, sparkOrder(ev.SparkCounters())
			case ingest.KindRunThread:
				ran.add(uint32(ev.Args[0]))
			}
		}
		part.Add(&ev)
	}
	if err := r.Err(); err != nil {
		return Summary{}, fmt.Errorf("summarising range: %w", err)
	}
	w := whole.Summary(r.Header(), r.Status())
	s := part.Summary(r.Header(), r.Status())
	// A range reaching past the run's last event ends with it.
	if w.LastNS < to {
		to = max(w.LastNS, from)
	}
	s.Range, s.RangeFrom, s.RangeTo = true, from, to
	s.WithholdRTS("the figures are of a range; -s is of the whole run")
	s.Program, s.Args, s.Env, s.RTS, s.StartWall = w.Program, w.Args, w.Env, w.RTS, w.StartWall
	s.Capabilities, s.CapNumbers, s.CreatedCaps = w.Capabilities, w.CapNumbers, w.CreatedCaps
	s.TimeFaults = r.TimeFaults()

	s.TotalNS = (Micros(to) - Micros(from)) * 1000
	s.HasHeap = w.HasHeap
	s.GC.Pauses = whole.pausesIn(from, to)
	s.GCFrom = GCFromNone
	if w.GC.Pauses.Count > 0 {
		s.GCFrom = GCFromPauses
	}
	s.setMutator()

	if hasSizeAt {
		s.Heap.HasSize, s.Heap.MaxSize = true, max(s.Heap.MaxSize, sizeAt)
	}
	s.Heap.Allocated, s.Heap.HasAllocated = 0, w.Heap.HasAllocated
	s.Sparks = SparkSummary{}
	for i := range caps {
		c := &caps[i]
		if c.allocIn {
			s.Heap.Allocated += c.allocLast - min(c.allocBefore, c.allocLast)
		}
		if c.sparksIn {
			var d [6]uint64
			for k := range d {
				d[k] = c.sparkLast[k] - min(c.sparkBefore[k], c.sparkLast[k])
			}
			s.Sparks.addCap(i, d)
		}
		if c.running {
			ran.add(c.runningID)
		}
	}
	s.setAllocRate()
	s.ThreadsRan, s.ThreadsRanFirst = ran.count(), ran.lowest(MaxThreadsListed)
	return s, nil
}

// threadSet is a set of thread ids: a bitmap for the ids GHC gives (it
// counts up from 1), a map for any far beyond them (a corrupt id).
type threadSet struct {
	bits []uint64
	far  map[uint32]struct{}
	n    uint64
}

// threadBits bounds the ids the bitmap holds (2 MiB of it at most).
const threadBits = 1 << 24

func (t *threadSet) add(id uint32) {
	if id >= threadBits {
		if t.far == nil {
			t.far = map[uint32]struct{}{}
		}
		if _, ok := t.far[id]; !ok {
			t.far[id] = struct{}{}
			t.n++
		}
		return
	}
	w := int(id / 64)
	if w >= len(t.bits) {
		t.bits = append(t.bits, make([]uint64, w+1-len(t.bits))...)
	}
	if bit := uint64(1) << (id % 64); t.bits[w]&bit == 0 {
		t.bits[w] |= bit
		t.n++
	}
}

// count returns the number of ids in the set.
func (t *threadSet) count() uint64 { return t.n }

// lowest returns the set's k lowest ids, in increasing order.
func (t *threadSet) lowest(k int) []uint32 {
	var out []uint32
	for w, word := range t.bits {
		for ; word != 0 && len(out) < k; word &= word - 1 {
			out = append(out, uint32(w*64+bits.TrailingZeros64(word)))
		}
	}
	if len(out) < k {
		far := slices.Sorted(maps.Keys(t.far))
		out = append(out, far[:min(len(far), k-len(out))]...)
	}
	return out
}

// RangeTimes returns, per HEC, the time it spent in each state during
// [from, to): the model's own figures for a selection, exact to the ns.
func (m *Model) RangeTimes(from, to uint64) []Durations {
	out := make([]Durations, len(m.HECs))
	for c := range m.HECs {
		out[c] = m.HECs[c].Track.Durations(from, to)
	}
	return out
}
