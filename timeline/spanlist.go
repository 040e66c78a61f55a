package timeline

import "math"

// spanList keeps the stopped user spans, in order of their STOPs, in 10
// bytes each where a record of its own took 32 (a log of user events holds
// millions): in chunks of chunkSize spans, each span's end as a 4-byte
// offset from its chunk's first end, its length in 4 bytes, and its label,
// instance id, capability and thread as an index into the few distinct
// ones of its chunk. A chunk whose spans do not fit so (ends out of order
// or far apart, spans longer than 4.29 s) keeps whole records instead.
// Like the other lists it is append-only: a view shares its chunks.
type spanList struct {
	full []spanChunk
	cur  spanChunk
	n    int
	// where is cur's index of each of its contexts.
	where map[spanContext]uint16
}

// spanChunk holds up to chunkSize spans: narrow, or wide when one does not
// fit.
type spanChunk struct {
	base     uint64
	ends     []uint32 // end - base
	lengths  []uint32 // end - start
	contexts []uint16 // index in distinct
	distinct []spanContext
	wide     []spanRecord // the chunk's spans, when they do not fit narrow
}

// spanContext is what a span shares with many others: its label, instance
// id, capability and the thread that began it.
type spanContext struct {
	label  int32
	id     uint32
	cap    int32
	thread uint32
}

// spanRecord is a stopped user span as a wide chunk keeps it: a UserSpan
// without Open (always false for a stopped span).
type spanRecord struct {
	start, end uint64
	label      int32
	id         uint32
	cap        int32
	thread     uint32
}

// span returns the record as a UserSpan.
func (r *spanRecord) span() UserSpan {
	return UserSpan{Start: r.start, End: r.end, Label: r.label, ID: r.id, Cap: r.cap, Thread: r.thread}
}

func (c *spanChunk) len() int {
	if c.wide != nil {
		return len(c.wide)
	}
	return len(c.ends)
}

// at returns the chunk's i-th span.
func (c *spanChunk) at(i int) UserSpan {
	if c.wide != nil {
		return c.wide[i].span()
	}
	end := c.base + uint64(c.ends[i])
	x := &c.distinct[c.contexts[i]]
	return UserSpan{Start: end - uint64(c.lengths[i]), End: end, Label: x.label, ID: x.id, Cap: x.cap, Thread: x.thread}
}

// add appends r.
func (l *spanList) add(r spanRecord) {
	if l.cur.len() == chunkSize {
		l.full = append(l.full, l.cur)
		l.cur = spanChunk{
			ends:     make([]uint32, 0, chunkSize),
			lengths:  make([]uint32, 0, chunkSize),
			contexts: make([]uint16, 0, chunkSize),
		}
		clear(l.where)
	}
	l.n++
	c := &l.cur
	if c.wide != nil {
		c.wide = append(c.wide, r)
		return
	}
	if len(c.ends) == 0 {
		c.base = r.end
	}
	if r.end < c.base || r.end-c.base > math.MaxUint32 || r.end-r.start > math.MaxUint32 {
		c.widen(r)
		return
	}
	x := spanContext{label: r.label, id: r.id, cap: r.cap, thread: r.thread}
	k, ok := l.where[x]
	if !ok {
		if l.where == nil {
			l.where = map[spanContext]uint16{}
		}
		k = uint16(len(c.distinct))
		c.distinct = append(c.distinct, x)
		l.where[x] = k
	}
	c.ends = append(c.ends, uint32(r.end-c.base))
	c.lengths = append(c.lengths, uint32(r.end-r.start))
	c.contexts = append(c.contexts, k)
}

// widen turns the chunk into whole records, r last. The narrow slices are
// let go, not changed: a view may hold them.
func (c *spanChunk) widen(r spanRecord) {
	w := make([]spanRecord, len(c.ends), chunkSize)
	for i := range w {
		sp := c.at(i)
		w[i] = spanRecord{start: sp.Start, end: sp.End, label: sp.Label, id: sp.ID, cap: sp.Cap, thread: sp.Thread}
	}
	*c = spanChunk{wide: append(w, r)}
}

// view returns an immutable view of the spans added so far.
func (l *spanList) view() spanView {
	cur := l.cur
	cur.ends = cur.ends[:len(cur.ends):len(cur.ends)]
	cur.lengths = cur.lengths[:len(cur.lengths):len(cur.lengths)]
	cur.contexts = cur.contexts[:len(cur.contexts):len(cur.contexts)]
	cur.distinct = cur.distinct[:len(cur.distinct):len(cur.distinct)]
	cur.wide = cur.wide[:len(cur.wide):len(cur.wide)]
	return spanView{full: l.full[:len(l.full):len(l.full)], cur: cur, n: l.n}
}

// spanView is an immutable list of stopped user spans.
type spanView struct {
	full []spanChunk
	cur  spanChunk
	n    int
}

// Len returns the number of spans.
func (v spanView) Len() int { return v.n }

// At returns the i-th span.
func (v spanView) At(i int) UserSpan {
	if c := i >> chunkShift; c < len(v.full) {
		return v.full[c].at(i & chunkMask)
	}
	return v.cur.at(i - len(v.full)<<chunkShift)
}
