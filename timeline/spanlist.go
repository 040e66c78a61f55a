package timeline

import (
	"math"
	"slices"
)

// spanList keeps the stopped user spans, in order of their STOPs, in
// about 5 bytes each where a record of its own took 32 (a log of user
// events holds millions): in chunks of chunkSize spans, each span's end in
// 2 bytes, as an offset from the end of the first span of its block of
// endBlock (whose offset from the chunk's first end takes 4 bytes), its
// length in 2 bytes, and its label, instance id, capability and thread as
// a 1-byte index (2 in a chunk with more than 256) into the distinct ones
// of its chunk. An end or a length that does not fit 2 bytes (a span
// longer than 65 µs, one that ends 65 µs or more after the first of its
// block) is kept among its chunk's few exceptions. A chunk whose ends do
// not fit even so (out of order, or 4.29 s apart) keeps whole records
// instead. Like the other lists it is append-only: a view shares its
// chunks, and a chunk made wider is a copy.
type spanList struct {
	full []spanChunk
	cur  spanChunk
	n    int
	// where is cur's index of each of its contexts, and recent the last
	// found of a few of them (by a hash of their fields): a log's millions
	// of spans mostly share a handful, looked up more cheaply so.
	where  map[spanContext]uint16
	recent [recentContexts]recentContext
}

// recentContexts is how many contexts a spanList remembers outside its map.
const recentContexts = 16

// recentContext is a context of the current chunk and its index there
// (ok: the slot holds one).
type recentContext struct {
	x  spanContext
	k  uint16
	ok bool
}

// slot returns where x is remembered among the recent contexts.
func (x *spanContext) slot() int {
	return int((uint32(x.label)*0x9E3779B1 ^ x.id*0x85EBCA77 ^ uint32(x.cap)*0xC2B2AE3D ^ x.thread*0x27D4EB2F) >> 28)
}

// spanChunk holds up to chunkSize spans: narrow, or wide when one does not
// fit.
type spanChunk struct {
	base      uint64
	blocks    []uint32    // per block of endBlock spans: its first end - base
	ends      []uint16    // end - its block's first end, or beyond: see far
	far       []spanExtra // the ends (- base) of the spans beyond, by position
	lengths   []uint16    // end - start, or beyond: see long
	long      []spanExtra // the lengths of the spans beyond, by position
	contexts8 []uint8     // index in distinct, while there are few
	contexts  []uint16    // index in distinct, once there are more than 256
	distinct  []spanContext
	wide      []spanRecord // the chunk's spans, when they do not fit narrow
}

// endBlock is how many spans of a chunk share the offset of their ends.
const endBlock = 16

// beyond in a chunk's ends or lengths says the span's does not fit 2
// bytes: it is among the chunk's exceptions (far, long).
const beyond = math.MaxUint16

// spanExtra is the end or length of a chunk's span at position pos, when
// it does not fit 2 bytes.
type spanExtra struct {
	pos int
	v   uint64
}

// extra returns the exception of position i in l.
func extra(l []spanExtra, i int) uint64 {
	k, _ := slices.BinarySearchFunc(l, i, func(e spanExtra, i int) int { return e.pos - i })
	return l[k].v
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
	end := c.end(i)
	length := uint64(c.lengths[i])
	if length == beyond {
		length = extra(c.long, i)
	}
	var x *spanContext
	if c.contexts != nil {
		x = &c.distinct[c.contexts[i]]
	} else {
		x = &c.distinct[c.contexts8[i]]
	}
	return UserSpan{Start: end - length, End: end, Label: x.label, ID: x.id, Cap: x.cap, Thread: x.thread}
}

// appendFrom appends the chunk's spans from the i-th on to out, decoded
// in one pass: the exceptions are met in order, not searched for.
func (c *spanChunk) appendFrom(i int, out []UserSpan) []UserSpan {
	if c.wide != nil {
		for k := i; k < len(c.wide); k++ {
			out = append(out, c.wide[k].span())
		}
		return out
	}
	far, _ := slices.BinarySearchFunc(c.far, i, func(e spanExtra, i int) int { return e.pos - i })
	long, _ := slices.BinarySearchFunc(c.long, i, func(e spanExtra, i int) int { return e.pos - i })
	for k := i; k < len(c.ends); k++ {
		var end uint64
		if d := c.ends[k]; d != beyond {
			end = c.base + uint64(c.blocks[k/endBlock]) + uint64(d)
		} else {
			end = c.base + c.far[far].v
			far++
		}
		length := uint64(c.lengths[k])
		if length == beyond {
			length = c.long[long].v
			long++
		}
		var x *spanContext
		if c.contexts != nil {
			x = &c.distinct[c.contexts[k]]
		} else {
			x = &c.distinct[c.contexts8[k]]
		}
		out = append(out, UserSpan{Start: end - length, End: end, Label: x.label, ID: x.id, Cap: x.cap, Thread: x.thread})
	}
	return out
}

// end returns the end of the chunk's i-th span.
func (c *spanChunk) end(i int) uint64 {
	if c.wide != nil {
		return c.wide[i].end
	}
	if d := c.ends[i]; d != beyond {
		return c.base + uint64(c.blocks[i/endBlock]) + uint64(d)
	}
	return c.base + extra(c.far, i)
}

// add appends r.
func (l *spanList) add(r spanRecord) {
	if l.cur.len() == chunkSize {
		l.full = append(l.full, l.cur)
		l.cur = spanChunk{
			blocks:    make([]uint32, 0, chunkSize/endBlock),
			ends:      make([]uint16, 0, chunkSize),
			lengths:   make([]uint16, 0, chunkSize),
			contexts8: make([]uint8, 0, chunkSize),
		}
		clear(l.where)
		l.recent = [recentContexts]recentContext{}
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
	if r.end < c.base || r.end-c.base > math.MaxUint32 {
		c.widen(r)
		return
	}
	x := spanContext{label: r.label, id: r.id, cap: r.cap, thread: r.thread}
	rc := &l.recent[x.slot()]
	k := rc.k
	if !rc.ok || rc.x != x {
		var ok bool
		k, ok = l.where[x]
		if !ok {
			if l.where == nil {
				l.where = map[spanContext]uint16{}
			}
			k = uint16(len(c.distinct))
			c.distinct = append(c.distinct, x)
			l.where[x] = k
		}
		*rc = recentContext{x: x, k: k, ok: true}
	}
	pos, off := len(c.ends), r.end-c.base
	if pos%endBlock == 0 {
		c.blocks = append(c.blocks, uint32(off))
	}
	if first := uint64(c.blocks[pos/endBlock]); off >= first && off-first < beyond {
		c.ends = append(c.ends, uint16(off-first))
	} else {
		c.far = append(c.far, spanExtra{pos: pos, v: off})
		c.ends = append(c.ends, beyond)
	}
	if length := r.end - r.start; length < beyond {
		c.lengths = append(c.lengths, uint16(length))
	} else {
		c.long = append(c.long, spanExtra{pos: pos, v: length})
		c.lengths = append(c.lengths, beyond)
	}
	if c.contexts == nil && k > math.MaxUint8 {
		c.contexts = make([]uint16, len(c.contexts8), chunkSize)
		for i, x := range c.contexts8 {
			c.contexts[i] = uint16(x)
		}
		c.contexts8 = nil
	}
	if c.contexts != nil {
		c.contexts = append(c.contexts, k)
	} else {
		c.contexts8 = append(c.contexts8, uint8(k))
	}
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
	cur.blocks = cur.blocks[:len(cur.blocks):len(cur.blocks)]
	cur.ends = cur.ends[:len(cur.ends):len(cur.ends)]
	cur.far = cur.far[:len(cur.far):len(cur.far)]
	cur.lengths = cur.lengths[:len(cur.lengths):len(cur.lengths)]
	cur.long = cur.long[:len(cur.long):len(cur.long)]
	cur.contexts8 = cur.contexts8[:len(cur.contexts8):len(cur.contexts8)]
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
func (v *spanView) Len() int { return v.n }

// chunk returns the chunk holding the i-th span, and its place there.
func (v *spanView) chunk(i int) (*spanChunk, int) {
	if c := i >> chunkShift; c < len(v.full) {
		return &v.full[c], i & chunkMask
	}
	return &v.cur, i - len(v.full)<<chunkShift
}

// At returns the i-th span.
func (v *spanView) At(i int) UserSpan {
	c, j := v.chunk(i)
	return c.at(j)
}

// End returns the end of the i-th span.
func (v *spanView) End(i int) uint64 {
	c, j := v.chunk(i)
	return c.end(j)
}

// StoppedSpans is the stopped user spans of a model (Model.StoppedSpans),
// in order of their STOPs. It is immutable, and costs nothing to copy.
type StoppedSpans struct{ v spanView }

// Len returns the number of spans.
func (s StoppedSpans) Len() int { return s.v.n }

// From returns buf[:0] with the spans from the i-th on appended, as
// Model.UserSpan gives them, up to the end of the block of a few thousand
// that holds the i-th (none if i is out of range). A walk through all the
// spans that takes them so, a block at a time, decodes each in a few
// nanoseconds where Model.UserSpan takes tens.
func (s StoppedSpans) From(i int, buf []UserSpan) []UserSpan {
	if i < 0 || i >= s.v.n {
		return buf[:0]
	}
	c, j := s.v.chunk(i)
	return c.appendFrom(j, buf[:0])
}
