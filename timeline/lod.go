package timeline

import (
	"slices"
	"sync"
	"sync/atomic"
)

// Level of detail: a row of W pixel columns is summarised column by column.
// Each column boundary is located with a galloping search from the previous
// one, and the time per state up to it comes from the nearest checkpoint plus
// at most 32 marks, so a row costs O(W · (log(marks per column) + 32))
// however many marks the view holds.

// Column is what one pixel column of a track row shows.
type Column struct {
	// Time holds the ns spent in each state within the column.
	Time Durations
	// State is the state with the most time, Share its fraction of the
	// column (0 for a column outside the run).
	State State
	Share float32
	// Marks is the number of marks inside the column: more than one means
	// several spans share the pixel.
	Marks int32
	// Arg and Reason are those of the mark in force at the column's start.
	Arg    uint32
	Reason uint8
	// Unknown is the ns of the column past the track's frontier and before
	// its horizon (Track.Unknown): time whose state is not known, which
	// Time leaves out rather than give it the last state known.
	Unknown uint64
}

// MostlyUnknown reports whether more of the column lies past its track's
// frontier than before it: the views draw it as not known, not in a
// state.
func (c *Column) MostlyUnknown() bool { return c.Unknown > 0 && c.Unknown > c.Time.Total() }

// searchFrom returns the number of marks at or before tm, given that at
// least lo are; it gallops forward from lo.
func (t *Track) searchFrom(lo int, tm uint64) int {
	v := t.marks
	n := v.Len()
	step := 1
	hi := lo
	for hi < n && v.ptr(hi).Time <= tm {
		lo = hi + 1
		hi += step
		step <<= 1
	}
	if hi > n {
		hi = n
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if v.ptr(m).Time <= tm {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// advance returns the time per state from 0 to te, given prev, the same up
// to tb ≤ te, and that idx marks lie at or before tb and j at or before te.
// It walks the marks in between, so it suits short steps.
func (t *Track) advance(prev *Durations, tb uint64, idx int, te uint64, j int) Durations {
	cur := *prev
	if idx > 0 && idx < j {
		// The mark in force at tb holds until the first mark after it; the
		// part before tb is already in prev.
		m := t.marks.ptr(idx - 1)
		next := t.marks.ptr(idx).Time
		var a, b Durations
		t.spanOf(&a, m, tb)
		t.spanOf(&b, m, next)
		b = b.sub(&a)
		cur.add(&b)
	} else if idx == 0 && idx < j {
		cur[StateIdle] += t.marks.ptr(0).Time - tb
	}
	for k := idx; k < j; k++ {
		m := t.marks.ptr(k)
		if k+1 < j {
			t.spanOf(&cur, m, t.marks.ptr(k+1).Time)
		} else if te > m.Time {
			t.spanOf(&cur, m, te)
		}
	}
	if idx == j {
		// No mark in between: the mark in force (if any) from tb to te.
		if idx == 0 {
			cur[StateIdle] += te - tb
		} else {
			m := t.marks.ptr(idx - 1)
			var a, b Durations
			t.spanOf(&a, m, tb)
			t.spanOf(&b, m, te)
			b = b.sub(&a)
			cur.add(&b)
		}
	}
	return cur
}

// Columns summarises the track over the axis's range in n columns, one per
// pixel, reusing dst's storage.
func (t *Track) Columns(ax Axis, n int, dst []Column) []Column {
	if n < 0 {
		n = 0
	}
	if cap(dst) < n {
		dst = make([]Column, n)
	} else {
		dst = dst[:n]
		clear(dst)
	}
	if t.horizon > t.end {
		for i := range dst {
			dst[i].Unknown = t.Unknown(ax.ColumnTime(i), ax.ColumnTime(i+1))
		}
	}
	if t.Len() == 0 && t.end == 0 {
		return dst
	}
	tb := min(ax.ColumnTime(0), t.end)
	idx := t.searchFrom(0, tb)
	prev := t.cumulative(tb, idx)
	nm := t.Len()
	starts := t.walkStarts(ax, n)
	if starts != nil {
		defer walkStartsPool.Put(starts)
	}
	for i := 0; i < n; i++ {
		te := min(ax.ColumnTime(i+1), t.end)
		c := &dst[i]
		var in *Mark
		if idx > 0 {
			in = t.marks.ptr(idx - 1)
			c.Arg, c.Reason = in.Arg, in.Reason
			if in.summary {
				s := t.sums().at(int(in.Arg))
				c.Arg, c.Reason = s.endArg, s.endReason
			}
		}
		if (idx == nm || t.marks.ptr(idx).Time > te) && (in == nil || !in.summary) {
			// No mark in the column: one state throughout.
			state := StateIdle
			if in != nil {
				state = in.State
			}
			if te > tb {
				c.Time[state] = te - tb
				prev[state] += te - tb
				c.State, c.Share = state, 1
			}
			tb = te
			continue
		}
		var cur Durations
		var j int
		if k := max(idx-1, 0)/checkpointEvery + 1; k <= t.cps().Len() && t.checkpointAt(k) <= te {
			// A checkpoint in the column: walk from the last one.
			if starts != nil {
				cur, j = t.walkFrom(int((*starts)[i]), te)
			} else {
				cur, j = t.cumulativeFrom(idx, te)
			}
		} else {
			j = t.searchFrom(idx, te)
			cur = t.advance(&prev, tb, idx, te, j)
		}
		c.Marks = int32(j - idx)
		for k := max(idx-1, 0); k < j && t.sums().Len() > 0; k++ {
			if m := t.marks.ptr(k); m.summary {
				c.Marks += t.stretchMarks(m, tb, te)
			}
		}
		c.Time = cur.sub(&prev)
		st, share := c.Time.Dominant()
		c.State, c.Share = st, float32(share)
		prev, idx, tb = cur, j, te
	}
	return dst
}

// walkStartsPool holds the scratch of walkStarts.
var walkStartsPool = sync.Pool{New: func() any { return new([]int32) }}

// touched keeps what walkStarts reads ahead of need, so that the reads are
// not optimised away.
var touched atomic.Uint64

// walkStarts returns, for a track with more marks than twice its columns
// (nil for others), the checkpoint each column's end is walked from, and
// reads the first mark and durations of each such walk before any is
// walked. The reads are independent, so the processor overlaps their cache
// misses, which Columns, walking column after column, would wait for one
// at a time: on the HECs of a 10M-event run over the whole run, most of
// its time. Put the result back in walkStartsPool.
func (t *Track) walkStarts(ax Axis, n int) *[]int32 {
	nm := t.marks.Len()
	if nm == 0 || t.cps().Len() == 0 || nm < 2*n {
		return nil
	}
	p := walkStartsPool.Get().(*[]int32)
	ks := slices.Grow((*p)[:0], n)[:n]
	first := t.marks.ptr(0).Time
	lo := 0
	for i := range ks {
		te := min(ax.ColumnTime(i+1), t.end)
		if te < first {
			ks[i] = -1
			continue
		}
		k := t.checkpointBefore(lo, te)
		ks[i], lo = int32(k), k*checkpointEvery+1
	}
	var sum uint64
	for _, k := range ks {
		if k > 0 {
			sum += t.marks.ptr(int(k)*checkpointEvery).Time + t.cps().durations(int(k) - 1)[0]
		}
	}
	touched.Store(sum)
	*p = ks
	return p
}

// stretchMarks estimates how many of the changes summarised by the summary
// mark m fall in [tb, te): its changes in proportion to the overlap, and at
// least 2 where they overlap (the column shows a mix).
func (t *Track) stretchMarks(m *Mark, tb, te uint64) int32 {
	span, n := t.sums().spanChanges(int(m.Arg))
	lo, hi := max(tb, m.Time), min(te, m.Time+uint64(span))
	if hi <= lo || span == 0 {
		return 0
	}
	return int32(max(2, uint64(n)*(hi-lo)/uint64(span)))
}

// InstantColumn counts the instant events of one pixel column.
type InstantColumn struct {
	Count int32
	// First is the index of the first instant in the column (for its kind
	// and argument); meaningful when Count > 0.
	First int32
	// Kinds has bit k set when an instant of kind k is in the column.
	Kinds uint16
}

// InstantColumns counts the HEC's instant events per pixel column over the
// axis's range (a summary instant of an overview counts as the instants it
// stands for, in the column of its bucket's start). Kinds is exact for
// columns of up to 16 instants and left to the first instant's kind for
// busier ones; First indexes (HEC.Instant) the column's first thread,
// GC-request or shutdown instant, or else its first message or marker.
func (h *HEC) InstantColumns(ax Axis, n int, dst []InstantColumn) []InstantColumn {
	dst = append(dst[:0], make([]InstantColumn, max(n, 0))...)
	v := h.instants
	lo := v.search(0, func(in *Instant) bool { return in.Time >= ax.ColumnTime(0) })
	for i := range dst {
		te := ax.ColumnTime(i + 1)
		hi := gallopBy(v, lo, te)
		c := &dst[i]
		if hi > lo {
			c.First = int32(lo)
			for k := lo; k < hi; k++ {
				in := v.ptr(k)
				c.Count += int32(in.Count())
				if k < lo+16 {
					c.Kinds |= in.Kinds()
				}
			}
		}
		lo = hi
	}
	// Then the messages and markers, one instant each.
	base, mv := v.Len(), h.msgs
	lo = countBefore(mv.times, 0, ax.ColumnTime(0))
	if !mv.summarised() {
		for i := range dst {
			hi := gallop(mv.times, lo, ax.ColumnTime(i+1))
			c := &dst[i]
			if hi > lo {
				if c.Count == 0 {
					c.First = int32(base + lo)
				}
				c.Count += int32(hi - lo)
				for k := lo; k < min(hi, lo+16); k++ {
					kind, _ := mv.kind(k)
					c.Kinds |= 1 << kind
				}
			}
			lo = hi
		}
		return dst
	}
	// An overview's summary of user messages counts in each column its
	// messages reach (see msgList): one in each after its first, the rest
	// in the first. One begun before the range may reach into it.
	spread := func(k, i int, s *msgSum) int32 {
		t, n := mv.times.At(k), int32(0)
		for j := i; j < len(dst) && ax.ColumnTime(j) <= t+uint64(s.last); j++ {
			if s.reaches(t, ax.ColumnTime(j), ax.ColumnTime(j+1)) {
				d := &dst[j]
				if d.Count == 0 {
					d.First = int32(base + k)
				}
				d.Count++
				d.Kinds |= 1 << InstantUserMessage
				n++
			}
		}
		return n
	}
	for k := lo - 1; k >= 0 && k >= lo-64; k-- {
		if _, s := mv.kind(k); s != nil {
			spread(k, 0, s)
			break
		}
	}
	for i := range dst {
		hi := gallop(mv.times, lo, ax.ColumnTime(i+1))
		c := &dst[i]
		if hi > lo {
			if c.Count == 0 {
				c.First = int32(base + lo)
			}
			for k := lo; k < hi; k++ {
				kind, s := mv.kind(k)
				if k < lo+16 {
					c.Kinds |= 1 << kind
				}
				if s == nil {
					c.Count++
					continue
				}
				c.Count += max(int32(s.n)-spread(k, i+1, s), 1)
			}
		}
		lo = hi
	}
	return dst
}

// InstantsIn calls fn with each of the HEC's instants in [from, to): its
// thread, GC-request and shutdown instants in time order, then its messages
// and markers in time order, until fn returns false.
func (h *HEC) InstantsIn(from, to uint64, fn func(Instant) bool) {
	v := h.instants
	for i := v.search(0, func(in *Instant) bool { return in.Time >= from }); i < v.Len(); i++ {
		in := v.ptr(i)
		if in.Time >= to || !fn(*in) {
			break
		}
	}
	mv := h.msgs
	for i := countBefore(mv.times, 0, from); i < mv.Len(); i++ {
		in := mv.At(i)
		if in.Time >= to || !fn(in) {
			break
		}
	}
}

// CountInstants returns how many instants the HEC has in [from, to), a
// summary counting as the instants it stands for.
func (h *HEC) CountInstants(from, to uint64) int {
	n := 0
	h.InstantsIn(from, to, func(in Instant) bool { n += in.Count(); return true })
	return n
}

// gallopBy returns how many instants have Time < t, given that lo do.
func gallopBy(v chunkView[Instant], lo int, t uint64) int {
	n := v.Len()
	step := 1
	hi := lo
	for hi < n && v.ptr(hi).Time < t {
		lo = hi + 1
		hi += step
		step <<= 1
	}
	if hi > n {
		hi = n
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if v.ptr(m).Time < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// SparkColumns counts the HEC's spark events of kind k per pixel column
// (an overview's busy buckets are shared out in proportion).
func (h *HEC) SparkColumns(ax Axis, n int, k SparkKind, dst []int32) []int32 {
	dst = append(dst[:0], make([]int32, max(n, 0))...)
	if k >= NumSparkKinds {
		return dst
	}
	v := h.sparks[k]
	if v.busy.Len() > 0 {
		for i := range dst {
			dst[i] = int32(v.count(ax.ColumnTime(i), ax.ColumnTime(i+1)))
		}
		return dst
	}
	lo := countBefore(v.exact, 0, ax.ColumnTime(0))
	for i := range dst {
		hi := gallop(v.exact, lo, ax.ColumnTime(i+1))
		dst[i] = int32(hi - lo)
		lo = hi
	}
	return dst
}

// Busy is what the activity profile shows of one stretch of time, in ns
// summed over the HECs: running Haskell code, in a GC phase, known at all
// (before each HEC's frontier), and not known (from a HEC's frontier to
// the run's end). A HEC with no data at a time is neither busy nor idle
// there: it is left out of Known, the utilisation's denominator.
type Busy struct {
	Running, GC, Known, Unknown uint64
}

// BusyOf returns the activity of pixel column i from the columns of the
// HECs (each HEC's Track.Columns over one axis).
func BusyOf(cols [][]Column, i int) Busy {
	var b Busy
	for _, c := range cols {
		col := &c[i]
		b.Running += col.Time[StateRunning]
		b.GC += col.Time.GC()
		b.Known += col.Time.Total()
		b.Unknown += col.Unknown
	}
	return b
}

// Activity returns, per pixel column, the HECs' activity there
// (ThreadScope's activity profile: Running over the column's length is
// the mean number of HECs running Haskell code).
func (m *Model) Activity(ax Axis, n int) []Busy {
	cols := make([][]Column, len(m.HECs))
	for c := range m.HECs {
		cols[c] = m.HECs[c].Track.Columns(ax, n, nil)
	}
	out := make([]Busy, max(n, 0))
	for i := range out {
		out[i] = BusyOf(cols, i)
	}
	return out
}
