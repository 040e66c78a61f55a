package heapview

import (
	"sort"
	"strconv"
	"strings"

	"github.com/hecscope/hecscope/ingest"
)

// Collector builds a Heap and a Profile from eventlog events, one event at a
// time, so that it can follow a log that is still being written. Events may
// arrive in file order, which is not time order across capabilities; Result
// sorts what needs sorting.
type Collector struct {
	heap Heap
	prof profileBuilder

	gcOpen  []uint64     // per capability (index cap+1): start of its open GC, 0 = none
	gcParts chunks[span] // one interval per capability and GC, unmerged
	// Per capability (index cap+1): its GC_STATS_GHC events (indexes in
	// stats) waiting for the end of its open GC, and its last GC.
	gcWaiting [][]int
	gcLast    []span
	stats     chunks[timedStats]
	allocs    chunks[allocEvent]

	ccNames names            // cost-centre names
	ccIndex map[uint32]int32 // cost-centre id → index in ccNames
	ipe     map[uint64]int32 // info-table address → index in ipeNames
	ipeName names
	scratch []byte

	// Censuses usually list their bands in the same order as the one
	// before: recent[k] is the name index of the k-th entry of the last
	// census, tried before the hash table. pos counts the open census's
	// entries.
	recent []int32
	pos    int
}

// timedStats is a GC_STATS_GHC event waiting to be attached to its GC.
// span is one capability's part of a GC.
type span struct{ start, end uint64 }

// chunks is an append-only list kept in chunks, so that growing it never
// copies what it holds.
type chunks[T any] struct {
	full [][]T
	cur  []T
	n    int
}

const collectChunk = 1 << 14

func (c *chunks[T]) add(v T) {
	if len(c.cur) == collectChunk {
		c.full, c.cur = append(c.full, c.cur), nil
	}
	if c.cur == nil {
		size := collectChunk
		if len(c.full) == 0 {
			size = 64 // most logs are small: the first chunk grows
		}
		c.cur = make([]T, 0, size)
	}
	c.cur = append(c.cur, v)
	c.n++
}

// at returns the i-th element.
func (c *chunks[T]) at(i int) *T {
	if k := i / collectChunk; k < len(c.full) {
		return &c.full[k][i%collectChunk]
	}
	return &c.cur[i-len(c.full)*collectChunk]
}

// each calls fn with every element in order.
func (c *chunks[T]) each(fn func(T)) {
	for _, f := range c.full {
		for _, v := range f {
			fn(v)
		}
	}
	for _, v := range c.cur {
		fn(v)
	}
}

// sortedEach calls fn with c's elements in the order less sorts them
// stably: in place when they already are (a loader gives them in time
// order), else through a sorted copy.
func sortedEach[T any](c *chunks[T], less func(a, b T) bool, fn func(T)) {
	sorted, first := true, true
	var prev T
	c.each(func(v T) {
		if !first && less(v, prev) {
			sorted = false
		}
		prev, first = v, false
	})
	if sorted {
		c.each(fn)
		return
	}
	all := c.all()
	sort.SliceStable(all, func(i, j int) bool { return less(all[i], all[j]) })
	for _, v := range all {
		fn(v)
	}
}

// all returns the elements in one new slice.
func (c *chunks[T]) all() []T {
	out := make([]T, 0, c.n)
	for _, f := range c.full {
		out = append(out, f...)
	}
	return append(out, c.cur...)
}

type timedStats struct {
	t  uint64
	gc GC
	// lead is the GC of the capability that wrote the event, if known.
	lead    span
	hasLead bool
}

// allocEvent is one HEAP_ALLOCATED event: capability slot and running total.
type allocEvent struct {
	t     uint64
	slot  int32
	bytes uint64
}

// NewCollector returns an empty Collector.
func NewCollector() *Collector {
	return &Collector{ccIndex: map[uint32]int32{}, ipe: map[uint64]int32{}}
}

// gcSlot returns the slot of a capability, growing the per-capability GC
// state to hold it.
func (c *Collector) gcSlot(cap int32) int {
	s := slot(cap)
	for len(c.gcOpen) <= s {
		c.gcOpen = append(c.gcOpen, 0)
		c.gcWaiting = append(c.gcWaiting, nil)
		c.gcLast = append(c.gcLast, span{})
	}
	return s
}

// slot maps a capability to a non-negative index (NoCap → 0).
func slot(cap int32) int {
	if cap < 0 {
		return 0
	}
	return int(cap) + 1
}

// Add takes in one event. Events that say nothing about the heap are
// Wants reports whether a Collector needs events of kind k (a loader that
// reads the other kinds elsewhere passes it only these).
func Wants(k ingest.Kind) bool {
	switch k {
	case ingest.KindHeapSize, ingest.KindHeapLive, ingest.KindBlocksSize, ingest.KindHeapAllocated,
		ingest.KindHeapInfoGHC, ingest.KindGCStart, ingest.KindGCEnd, ingest.KindGCStatsGHC,
		ingest.KindHeapProfBegin, ingest.KindHeapProfCostCentre, ingest.KindIPE,
		ingest.KindHeapProfSampleBegin, ingest.KindHeapBioProfSampleBegin, ingest.KindHeapProfSampleEnd,
		ingest.KindHeapProfSampleString, ingest.KindHeapProfSampleCostCentre:
		return true
	}
	return false
}

// ignored. ev's Data is copied where it is kept.
func (c *Collector) Add(ev *ingest.Event) {
	switch ev.Kind {
	case ingest.KindHeapSize:
		c.heap.Size.add(ev.Time, ev.Args[1])
	case ingest.KindHeapLive:
		c.heap.Live.add(ev.Time, ev.Args[1])
	case ingest.KindBlocksSize:
		c.heap.Blocks.add(ev.Time, ev.Args[1])
	case ingest.KindHeapAllocated:
		c.allocs.add(allocEvent{t: ev.Time, slot: int32(slot(ev.Cap)), bytes: ev.Args[1]})
	case ingest.KindHeapInfoGHC:
		c.heap.Info = HeapInfo{
			Generations: uint16(ev.Args[1]),
			MaxHeapSize: ev.Args[2],
			AllocArea:   ev.Args[3],
			MBlockSize:  ev.Args[4],
			BlockSize:   ev.Args[5],
			Known:       true,
		}
	case ingest.KindGCStart:
		s := c.gcSlot(ev.Cap)
		// Store start+1 so that a GC starting at time 0 is still "open".
		c.gcOpen[s] = ev.Time + 1
		c.gcWaiting[s] = c.gcWaiting[s][:0]
	case ingest.KindGCEnd:
		s := slot(ev.Cap)
		if s < len(c.gcOpen) && c.gcOpen[s] != 0 {
			start := c.gcOpen[s] - 1
			c.gcOpen[s] = 0
			part := span{start, max(start, ev.Time)}
			c.gcParts.add(part)
			c.gcLast[s] = part
			for _, i := range c.gcWaiting[s] {
				st := c.stats.at(i)
				st.lead, st.hasLead = part, true
			}
			c.gcWaiting[s] = c.gcWaiting[s][:0]
		}
	case ingest.KindGCStatsGHC:
		// GHC writes it before the (back-dated) end of its capability's
		// GC, or after it.
		s := c.gcSlot(ev.Cap)
		st := timedStats{t: ev.Time}
		if c.gcOpen[s] != 0 {
			c.gcWaiting[s] = append(c.gcWaiting[s], c.stats.n)
		} else if last := c.gcLast[s]; last.end != 0 {
			st.lead, st.hasLead = last, true
		}
		st.gc = GC{
			Gen:            uint16(ev.Args[1]),
			HasStats:       true,
			Copied:         ev.Args[2],
			Slop:           ev.Args[3],
			Frag:           ev.Args[4],
			ParThreads:     uint32(ev.Args[5]),
			ParMaxCopied:   ev.Args[6],
			ParTotalCopied: ev.Args[7],
		}
		c.stats.add(st)

	case ingest.KindHeapProfBegin:
		c.prof.p.Breakdown = ingest.Breakdown(ev.Args[2])
		c.prof.p.Period = ev.Args[1]
	case ingest.KindHeapProfCostCentre:
		c.costCentre(ev)
	case ingest.KindIPE:
		c.infoTable(ev)
	case ingest.KindHeapProfSampleBegin:
		c.prof.begin(ev.Time, ev.Args[0])
		c.pos = 0
	case ingest.KindHeapBioProfSampleBegin:
		c.prof.begin(ev.Args[1], ev.Args[0])
		c.pos = 0
	case ingest.KindHeapProfSampleEnd:
		c.prof.end()
	case ingest.KindHeapProfSampleString:
		c.prof.add(c.name(stripSetID(ev.Data)), ev.Args[1])
	case ingest.KindHeapProfSampleCostCentre:
		c.prof.add(c.prof.p.names.intern(c.stackName(ev)), ev.Args[1])
	}
}

// name returns the name index of a census entry's label, trying the name
// the entry at the same position in the last census had before the hash
// table.
func (c *Collector) name(label []byte) int {
	names := &c.prof.p.names
	k := c.pos
	c.pos++
	if k < len(c.recent) {
		if n := int(c.recent[k]); string(names.bytes(n)) == string(label) {
			return n
		}
	}
	n := names.intern(label)
	if k < len(c.recent) {
		c.recent[k] = int32(n)
	} else if k == len(c.recent) {
		c.recent = append(c.recent, int32(n))
	}
	return n
}

// costCentre records a cost centre's name: its label, or Module.CAF for a
// CAF, as the RTS writes it into .hp files.
func (c *Collector) costCentre(ev *ingest.Event) {
	s := ev.Strings()
	if len(s) == 0 {
		return
	}
	name := s[0]
	if ev.CAF() && len(s) > 1 {
		name = s[1] + ".CAF"
	}
	c.ccIndex[uint32(ev.Args[0])] = int32(c.ccNames.internString(name))
}

// infoTable records the name of an info table for -hi profiles: its table
// name and, when given, its Haskell type.
func (c *Collector) infoTable(ev *ingest.Event) {
	s := ev.Strings()
	if len(s) < 3 || s[0] == "" {
		return
	}
	name := s[0]
	if s[2] != "" {
		name += " :: " + s[2]
	}
	c.ipe[ev.Args[0]] = int32(c.ipeName.internString(name))
}

// stackName writes the name of a sample's cost-centre stack into c.scratch:
// the cost centres innermost first, joined by "/", or MAIN for the empty
// stack; an undefined cost centre shows as its number.
func (c *Collector) stackName(ev *ingest.Event) []byte {
	b := c.scratch[:0]
	n := ev.StackLen()
	if n == 0 {
		b = append(b, "MAIN"...)
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, '/')
		}
		id := ev.Stack(i)
		if k, ok := c.ccIndex[id]; ok {
			b = append(b, c.ccNames.bytes(int(k))...)
		} else {
			b = append(b, "cc#"...)
			b = strconv.AppendUint(b, uint64(id), 10)
		}
	}
	c.scratch = b
	return b
}

// Result returns the heap and the heap profile seen so far. The profile is
// nil if the log holds no heap-profile sample. The results share nothing
// with the Collector, which can go on taking events.
func (c *Collector) Result() (*Heap, *Profile) {
	return c.buildHeap(), c.buildProfile()
}

func (c *Collector) buildHeap() *Heap {
	h := &Heap{Info: c.heap.Info}
	for _, pair := range []struct{ dst, src *Series }{
		{&h.Size, &c.heap.Size}, {&h.Live, &c.heap.Live}, {&h.Blocks, &c.heap.Blocks},
	} {
		pair.dst.Time = append([]uint64(nil), pair.src.Time...)
		pair.dst.Value = append([]uint64(nil), pair.src.Value...)
		pair.dst.sortByTime()
	}

	// GCs: union of the per-capability intervals.
	h.GCs = make([]GC, 0, c.gcParts.n/2+1)
	sortedEach(&c.gcParts, func(a, b span) bool { return a.start < b.start }, func(p span) {
		if n := len(h.GCs); n > 0 && p.start <= h.GCs[n-1].End {
			h.GCs[n-1].End = max(h.GCs[n-1].End, p.end)
			return
		}
		h.GCs = append(h.GCs, GC{Start: p.start, End: p.end})
	})
	c.stats.each(func(s timedStats) {
		i := h.GCAt(s.t)
		if i < 0 {
			// Not inside any GC (an unpaired start): the last GC begun before.
			i = sort.Search(len(h.GCs), func(i int) bool { return h.GCs[i].Start > s.t }) - 1
		}
		if i < 0 {
			return
		}
		g := &h.GCs[i]
		start, end := g.Start, g.End
		*g = s.gc
		g.Start, g.End = start, end
		if s.hasLead {
			g.LeadPause, g.HasLead = s.lead.end-s.lead.start, true
		}
	})

	// Allocation: running total over capabilities, one point per GC.
	var perCap []uint64
	var total uint64
	lastGC := -1
	h.Allocated.Time = make([]uint64, 0, len(h.GCs)+1)
	h.Allocated.Value = make([]uint64, 0, len(h.GCs)+1)
	sortedEach(&c.allocs, func(a, b allocEvent) bool { return a.t < b.t }, func(a allocEvent) {
		for len(perCap) <= int(a.slot) {
			perCap = append(perCap, 0)
		}
		total = total - perCap[a.slot] + a.bytes
		perCap[a.slot] = a.bytes
		gc := h.GCAt(a.t)
		if n := h.Allocated.Len(); n > 0 && gc >= 0 && gc == lastGC {
			h.Allocated.Time[n-1] = a.t
			h.Allocated.Value[n-1] = total
			return
		}
		h.Allocated.add(a.t, total)
		lastGC = gc
	})
	return h
}

func (c *Collector) buildProfile() *Profile {
	if len(c.prof.p.time) == 0 {
		return nil
	}
	return c.completeProfile(c.prof.profile())
}

// completeProfile applies what can only be done once all events are in:
// naming -hi bands after their info tables.
func (c *Collector) completeProfile(p *Profile) *Profile {
	if p.Breakdown == ingest.BreakdownInfoTable && len(c.ipe) > 0 {
		p = p.rename(func(label []byte) []byte {
			addr, err := strconv.ParseUint(strings.TrimPrefix(string(label), "0x"), 16, 64)
			if err != nil {
				return label
			}
			if k, ok := c.ipe[addr]; ok {
				return c.ipeName.bytes(int(k))
			}
			return label
		})
	}
	return p
}

// rename returns a copy of p whose band names are passed through f; bands
// that end up with the same name are added together.
func (p *Profile) rename(f func([]byte) []byte) *Profile {
	var b profileBuilder
	b.p.Source, b.p.Breakdown, b.p.Period = p.Source, p.Breakdown, p.Period
	newIndex := make([]int, p.NumNames())
	for i := range newIndex {
		newIndex[i] = b.p.names.intern(f(p.names.bytes(i)))
	}
	for s := 0; s < p.Len(); s++ {
		b.begin(p.time[s], p.era[s])
		bands, bytes := p.Sample(s)
		for k, n := range bands {
			b.add(newIndex[n], bytes[k])
		}
		b.end()
	}
	return b.profile()
}
