package heapview

import "sort"

// Series is a time series of byte counts: Value[i] was measured at Time[i]
// (ns). Times are non-decreasing.
type Series struct {
	Time  []uint64
	Value []uint64
}

// Len returns the number of points.
func (s *Series) Len() int { return len(s.Time) }

// At returns the last value measured at or before t, and false if there is
// none (t is before the first point). Heap counters keep their value until
// the next GC measures them again, so this is the value in force at t.
func (s *Series) At(t uint64) (uint64, bool) {
	i := sort.Search(len(s.Time), func(i int) bool { return s.Time[i] > t })
	if i == 0 {
		return 0, false
	}
	return s.Value[i-1], true
}

// Max returns the largest value, 0 for an empty series.
func (s *Series) Max() uint64 {
	var m uint64
	for _, v := range s.Value {
		m = max(m, v)
	}
	return m
}

func (s *Series) add(t, v uint64) {
	s.Time = append(s.Time, t)
	s.Value = append(s.Value, v)
}

// sortByTime orders the points by time, keeping equal times in file order.
func (s *Series) sortByTime() {
	if sort.SliceIsSorted(s.Time, func(i, j int) bool { return s.Time[i] < s.Time[j] }) {
		return
	}
	type point struct{ t, v uint64 }
	pts := make([]point, len(s.Time))
	for i := range pts {
		pts[i] = point{s.Time[i], s.Value[i]}
	}
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].t < pts[j].t })
	for i, p := range pts {
		s.Time[i], s.Value[i] = p.t, p.v
	}
}

// GC is one garbage collection: the time the world was stopped for it and
// what GC_STATS_GHC said about it. In the threaded RTS every capability
// reports its own GC start and end; a GC is the union of those intervals.
type GC struct {
	// Start and End bound the union in ns: from the first capability's GC
	// start to the last one's GC end (see Stopped).
	Start, End uint64
	// LeadPause is the GC's pause as the summary's GC table counts it (see
	// timeline.GCRowsDefinition): from GC start to GC end on the
	// capability that wrote the GC_STATS_GHC event, in ns. HasLead tells
	// whether that capability's GC was seen.
	LeadPause uint64
	HasLead   bool
	// HasStats tells whether a GC_STATS_GHC event was seen for this GC,
	// without which Gen and the byte counts are 0; Gen is the oldest
	// generation collected (0 = minor).
	HasStats bool
	Gen      uint16
	// ParThreads is the number of GC threads; ParMaxCopied and
	// ParTotalCopied the most bytes any one of them copied and the total.
	// (It lies beside the small fields above: a GC is 72 bytes, not 80,
	// and a GC-heavy run has hundreds of thousands.)
	ParThreads uint32
	// Copied, Slop and Frag are the bytes copied, the slop and the
	// fragmentation after the GC.
	Copied, Slop, Frag           uint64
	ParMaxCopied, ParTotalCopied uint64
}

// Pause returns the GC's pause in ns, as the summary's GC table counts it:
// LeadPause, or the union (Stopped) if that is not known.
func (g *GC) Pause() uint64 {
	if g.HasLead {
		return g.LeadPause
	}
	return g.Stopped()
}

// Stopped returns the time from the first capability's GC start to the
// last one's GC end, in ns: the bar the GC track draws.
func (g *GC) Stopped() uint64 { return g.End - g.Start }

// Major reports whether the GC collected more than the nursery's
// generation. Without statistics it reports false.
func (g *GC) Major() bool { return g.Gen > 0 }

// HeapInfo is the RTS's heap configuration (HEAP_INFO_GHC).
type HeapInfo struct {
	Generations uint16
	MaxHeapSize uint64 // 0 = unlimited
	AllocArea   uint64
	MBlockSize  uint64
	BlockSize   uint64
	Known       bool // a HEAP_INFO_GHC event was seen
}

// Heap is the RTS's view of the heap over a run, from the events it writes
// at every garbage collection.
type Heap struct {
	// Size is the heap size (megablocks allocated × megablock size).
	Size Series
	// Live is the live data after each major GC.
	Live Series
	// Blocks is the size of the allocated blocks (GHC 9.2+).
	Blocks Series
	// Allocated is the total of bytes allocated since the start, summed
	// over capabilities, one point per GC.
	Allocated Series
	// GCs lists the garbage collections in time order.
	GCs []GC
	// Info is the heap configuration.
	Info HeapInfo
}

// Empty reports whether the heap has no data at all.
func (h *Heap) Empty() bool {
	return h.Size.Len() == 0 && h.Live.Len() == 0 && h.Blocks.Len() == 0 &&
		h.Allocated.Len() == 0 && len(h.GCs) == 0
}

// Rate is the allocation rate between two measurements: from From to To
// (ns) the program allocated BytesPerSec bytes per second on average.
type Rate struct {
	From, To    uint64
	BytesPerSec float64
}

// AllocRate returns the allocation rate between consecutive points of
// Allocated. Points with the same time are skipped, and a total that went
// down (which the RTS never writes) counts as no allocation.
func (h *Heap) AllocRate() []Rate {
	a := &h.Allocated
	var out []Rate
	for i := 1; i < a.Len(); i++ {
		j := i - 1
		if a.Time[i] == a.Time[j] {
			continue
		}
		var d uint64
		if a.Value[i] > a.Value[j] {
			d = a.Value[i] - a.Value[j]
		}
		out = append(out, Rate{
			From:        a.Time[j],
			To:          a.Time[i],
			BytesPerSec: float64(d) / (float64(a.Time[i]-a.Time[j]) / 1e9),
		})
	}
	return out
}

// GCAt returns the index of the GC in progress at t, or -1.
func (h *Heap) GCAt(t uint64) int {
	i := sort.Search(len(h.GCs), func(i int) bool { return h.GCs[i].End >= t })
	if i < len(h.GCs) && h.GCs[i].Start <= t {
		return i
	}
	return -1
}

// PauseTotal returns the total time spent in GC pauses, in ns.
func (h *Heap) PauseTotal() uint64 {
	var t uint64
	for i := range h.GCs {
		t += h.GCs[i].Pause()
	}
	return t
}
