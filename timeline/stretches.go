package timeline

import (
	"math/bits"
	"sync"
)

// An overview keeps a busy bucket of a track as a stretch: the time in
// each of the nine states, of which a HEC's stretch has at most six and a
// thread's a few, the changes it summarises and the mark in force at its
// end. Kept as a struct of 52 bytes they were the largest part of a
// thread-heavy run's HEC rows (32 MB of the 165 MB a 1.15 GB log's models
// hold). A stretchList keeps the stretches of a full chunk packed instead:
// each field in as many bits as the chunk's largest value of it needs
// (none for a state no stretch of the chunk was in), ~17 bytes a stretch
// of a HEC, at a fixed stride, so that reading one is a few shifts, not a
// decoding; only the chunk being filled is kept whole.

// The fields of a packed stretch, in order: the span and the changes
// first, at the same place in every stretch of a chunk (a column of an
// overview reads them of every stretch it overlaps: stretchMarks), then
// the time in each state, then the mark in force at the end.
const (
	sfSpan   = 0
	sfN      = 1
	sfState  = 2 // the time in state k is field sfState+k
	sfArg    = sfState + int(NumStates)
	sfReason = sfArg + 1
	sfEnd    = sfArg + 2 // the end's State
	sfCount  = sfArg + 3
)

// stretchFields returns the fields of s.
func stretchFields(s *stretch) [sfCount]uint32 {
	var f [sfCount]uint32
	for i, v := range s.d {
		f[sfState+i] = v
	}
	f[sfSpan], f[sfN], f[sfArg], f[sfReason], f[sfEnd] = s.span, s.n, s.endArg, uint32(s.endReason), uint32(s.endState)
	return f
}

// stretchChunk is up to chunkSize stretches: whole while it is being
// filled, then packed (pack).
type stretchChunk struct {
	whole []stretch
	// words holds the packed stretches, stride bits each, field k in
	// width[k] bits at bit bitAt[k] of its stretch.
	words  []uint64
	stride uint32
	width  [sfCount]uint8
	bitAt  [sfCount]uint16
	// states has bit k set if some stretch of the chunk has time in
	// state k.
	states uint16
}

// pack packs the chunk's stretches, and gives its whole ones back to
// wholeChunks.
func (c *stretchChunk) pack() {
	// The fields are made twice, to find each one's width and then to
	// store them, rather than kept in between: that would be 56 bytes a
	// stretch of garbage.
	var most [sfCount]uint32
	for i := range c.whole {
		for k, v := range stretchFields(&c.whole[i]) {
			most[k] |= v
		}
	}
	c.stride = 0
	for k, v := range most {
		c.width[k] = uint8(bits.Len32(v))
		c.bitAt[k] = uint16(c.stride)
		c.stride += uint32(c.width[k])
		if k >= sfState && k < sfState+int(NumStates) && v != 0 {
			c.states |= 1 << (k - sfState)
		}
	}
	// One word more than the bits need: a field is read as two words.
	c.words = make([]uint64, (uint64(len(c.whole))*uint64(c.stride)+63)/64+1)
	for i := range c.whole {
		pos := uint64(i) * uint64(c.stride)
		for k, v := range stretchFields(&c.whole[i]) {
			w := c.width[k]
			c.words[pos>>6] |= uint64(v) << (pos & 63)
			if sh := pos & 63; w != 0 && sh+uint64(w) > 64 {
				c.words[pos>>6+1] |= uint64(v) >> (64 - sh)
			}
			pos += uint64(w)
		}
	}
	if cap(c.whole) == chunkSize {
		w := c.whole[:0]
		wholeChunks.Put(&w)
	}
	c.whole = nil
}

// wholeChunks holds the whole stretches of chunks just packed, for the
// next chunk to fill: a chunk filled from 4 stretches up left 2.5 times
// its final size of garbage behind (parwork170.eventlog's HEC rows: 37 MB
// of the 163 MB its load allocated).
var wholeChunks = sync.Pool{New: func() any { return new([]stretch) }}

// field reads field k of the stretch at bit pos. The words hold one more
// than the fields need, so that the two a field may straddle are read
// without a test (a shift by 64 gives 0).
func (c *stretchChunk) field(pos uint64, k int) uint32 {
	pos += uint64(c.bitAt[k])
	i, sh := pos>>6, pos&63
	v := c.words[i]>>sh | c.words[i+1]<<(64-sh)
	return uint32(v & (1<<c.width[k] - 1))
}

// at returns the chunk's i-th stretch.
func (c *stretchChunk) at(i int) stretch {
	if c.words == nil {
		return c.whole[i]
	}
	pos := uint64(i) * uint64(c.stride)
	s := stretch{span: c.field(pos, sfSpan), n: c.field(pos, sfN), endArg: c.field(pos, sfArg),
		endReason: uint8(c.field(pos, sfReason)), endState: State(c.field(pos, sfEnd))}
	for k := range s.d {
		s.d[k] = c.field(pos, sfState+k)
	}
	return s
}

// spanChanges returns the span and the changes of the chunk's i-th
// stretch.
func (c *stretchChunk) spanChanges(i int) (span, n uint32) {
	if c.words == nil {
		s := &c.whole[i]
		return s.span, s.n
	}
	pos := uint64(i) * uint64(c.stride)
	return c.field(pos, sfSpan), c.field(pos, sfN)
}

// addTimes adds to d the time per state of the first part ns of the
// chunk's i-th stretch (Track.spanOf): its times, shared out in
// proportion if part is shorter than its span, and past the span the
// state in force at its end.
func (c *stretchChunk) addTimes(i int, part uint64, d *Durations) {
	if c.words == nil {
		s := &c.whole[i]
		sd := s.durations(part)
		d.add(&sd)
		if part > uint64(s.span) {
			d[s.endState] += part - uint64(s.span)
		}
		return
	}
	pos := uint64(i) * uint64(c.stride)
	span := uint64(c.field(pos, sfSpan))
	whole := part >= span
	for m := c.states; m != 0; m &= m - 1 {
		k := bits.TrailingZeros16(m)
		v := uint64(c.field(pos, sfState+k))
		if !whole {
			v = v * part / span
		}
		d[k] += v
	}
	if part > span {
		d[c.field(pos, sfEnd)] += part - span
	}
}

// stretchList is an append-only list of stretches, its full chunks
// packed.
type stretchList struct {
	chunks []stretchChunk // full chunks, then the one being filled
	n      int
}

// add appends s.
func (l *stretchList) add(s *stretch) {
	k := len(l.chunks) - 1
	if k < 0 || l.chunks[k].words != nil {
		l.chunks = append(l.chunks, stretchChunk{})
		k++
	}
	c := &l.chunks[k]
	switch {
	case c.whole != nil:
	case k == 0:
		// A first chunk starts small (most lists are short) and grows.
		c.whole = make([]stretch, 0, 4)
	default:
		// The list is long: the next chunk will fill too.
		c.whole = *wholeChunks.Get().(*[]stretch)
		if c.whole == nil {
			c.whole = make([]stretch, 0, chunkSize)
		}
	}
	c.whole = append(c.whole, *s)
	if len(c.whole) == chunkSize {
		c.pack()
	}
	l.n++
}

// len returns the number of stretches.
func (l *stretchList) len() int { return l.n }

// addAll appends every stretch of o.
func (l *stretchList) addAll(o *stretchList) {
	v := o.peek()
	for i := range v.Len() {
		s := v.at(i)
		l.add(&s)
	}
}

// view returns a read-only view of the stretches stored so far, which
// later appends do not change: it shares the full chunks and copies the
// one being filled, so that the list may reuse it (reset).
func (l *stretchList) view() stretchView {
	if l.n == 0 {
		return stretchView{}
	}
	tab := make([]stretchChunk, len(l.chunks))
	for i, c := range l.chunks {
		if c.words == nil {
			c.whole = append([]stretch(nil), c.whole...)
		}
		tab[i] = c
	}
	return stretchView{chunks: &tab, n: int32(l.n)}
}

// peek returns a view of the stretches stored so far that shares the
// list's storage: to read at once, before the list changes.
func (l *stretchList) peek() stretchView {
	return stretchView{chunks: &l.chunks, n: int32(l.n)}
}

// reset empties the list, keeping the chunk being filled for reuse (views
// never share it) unless full chunks came before it.
func (l *stretchList) reset() {
	if len(l.chunks) == 1 && l.chunks[0].words == nil {
		l.chunks[0].whole = l.chunks[0].whole[:0]
	} else {
		l.chunks = nil
	}
	l.n = 0
}

// stretchView is an immutable list of stretches: n from the off-th on of
// a table of chunks, which several views can share.
type stretchView struct {
	chunks *[]stretchChunk
	off, n int32
}

// sub returns the n stretches from the off-th on.
func (v stretchView) sub(off, n int) stretchView {
	return stretchView{chunks: v.chunks, off: v.off + int32(off), n: int32(n)}
}

// Len returns the number of stretches.
func (v stretchView) Len() int { return int(v.n) }

// at returns the i-th stretch.
func (v stretchView) at(i int) stretch {
	j := int(v.off) + i
	return (*v.chunks)[j>>chunkShift].at(j & chunkMask)
}

// spanChanges returns the span and the changes of the i-th stretch.
func (v stretchView) spanChanges(i int) (span, n uint32) {
	j := int(v.off) + i
	return (*v.chunks)[j>>chunkShift].spanChanges(j & chunkMask)
}

// addTimes adds to d the time per state of the first part ns of the i-th
// stretch (stretchChunk.addTimes).
func (v stretchView) addTimes(i int, part uint64, d *Durations) {
	j := int(v.off) + i
	(*v.chunks)[j>>chunkShift].addTimes(j&chunkMask, part, d)
}
