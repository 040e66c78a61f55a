package timeline

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// An overview keeps a busy bucket of a track as a stretch: the time in
// each of the nine states, of which a HEC's stretch has at most six and a
// thread's a few, the changes it summarises and the mark in force at its
// end. Kept as a struct of 52 bytes they were the largest part of a
// thread-heavy run's HEC rows (32 MB of the 165 MB a 1.15 GB log's models
// hold). A stretchList keeps each packed instead (appendStretch), in
// chunks of chunkSize with each one's offset, ~25 bytes in all, and
// decodes one when it is read.

// The bits of a packed stretch's header, after the mask of its states
// with time (bits 0–8).
const (
	psStateShift = NumStates // the end's state (4 bits)
	psArg        = 1 << 13   // the end's Arg follows
	psReason     = 1 << 14   // the end's Reason follows
	psSpan       = 1 << 15   // the span follows: it is not the sum of the times
)

// appendStretch appends s packed: a header (two bytes: which states have
// time, the end's state, what follows), each state's time, the changes,
// then the end's Arg and Reason if not 0, and the span if it is not the
// sum of the times (never, as a markList makes them; kept exact anyway).
func appendStretch(dst []byte, s *stretch) []byte {
	var h uint16
	var sum uint32
	for i, v := range s.d {
		if v != 0 {
			h |= 1 << i
		}
		sum += v
	}
	h |= uint16(s.endState) << psStateShift
	if s.endArg != 0 {
		h |= psArg
	}
	if s.endReason != 0 {
		h |= psReason
	}
	if sum != s.span {
		h |= psSpan
	}
	dst = binary.LittleEndian.AppendUint16(dst, h)
	for _, v := range s.d {
		if v != 0 {
			dst = binary.AppendUvarint(dst, uint64(v))
		}
	}
	dst = binary.AppendUvarint(dst, uint64(s.n))
	if s.endArg != 0 {
		dst = binary.AppendUvarint(dst, uint64(s.endArg))
	}
	if s.endReason != 0 {
		dst = append(dst, s.endReason)
	}
	if sum != s.span {
		dst = binary.AppendUvarint(dst, uint64(s.span))
	}
	return dst
}

// decodeStretch returns the stretch packed at src (appendStretch).
func decodeStretch(src []byte) stretch {
	var s stretch
	h := binary.LittleEndian.Uint16(src)
	p := 2
	var sum uint32
	for mask := uint(h & (1<<NumStates - 1)); mask != 0; mask &= mask - 1 {
		v, n := binary.Uvarint(src[p:])
		p += n
		s.d[bits.TrailingZeros(mask)] = uint32(v)
		sum += uint32(v)
	}
	s.span = sum
	v, n := binary.Uvarint(src[p:])
	s.n, p = uint32(v), p+n
	s.endState = State(h >> psStateShift & 0xF)
	if h&psArg != 0 {
		v, n := binary.Uvarint(src[p:])
		s.endArg, p = uint32(v), p+n
	}
	if h&psReason != 0 {
		s.endReason = src[p]
		p++
	}
	if h&psSpan != 0 {
		v, _ := binary.Uvarint(src[p:])
		s.span = uint32(v)
	}
	return s
}

// stretchChunk is up to chunkSize packed stretches: the i-th at offs[i] in
// bytes.
type stretchChunk struct {
	offs  []uint32
	bytes []byte
}

// at returns the chunk's i-th stretch.
func (c *stretchChunk) at(i int) stretch { return decodeStretch(c.bytes[c.offs[i]:]) }

// packed returns the bytes of the chunk's i-th stretch.
func (c *stretchChunk) packed(i int) []byte {
	end := len(c.bytes)
	if i+1 < len(c.offs) {
		end = int(c.offs[i+1])
	}
	return c.bytes[c.offs[i]:end]
}

// stretchList is an append-only list of stretches, packed.
type stretchList struct {
	chunks []stretchChunk // full chunks, then the one being filled
	n      int
}

// add appends s.
func (l *stretchList) add(s *stretch) {
	c := l.next()
	c.bytes = appendStretch(c.bytes, s)
	l.added(c)
}

// addPacked appends the stretch packed in b.
func (l *stretchList) addPacked(b []byte) {
	c := l.next()
	c.bytes = append(c.bytes, b...)
	l.added(c)
}

// next returns the chunk the next stretch goes in, its offset added.
func (l *stretchList) next() *stretchChunk {
	k := len(l.chunks) - 1
	if k < 0 || len(l.chunks[k].offs) == chunkSize {
		l.chunks = append(l.chunks, stretchChunk{})
		k++
	}
	c := &l.chunks[k]
	c.offs = append(c.offs, uint32(len(c.bytes)))
	return c
}

// added counts the stretch just put in chunk c.
func (l *stretchList) added(c *stretchChunk) {
	if len(c.offs) == chunkSize {
		// Full, it never changes again: kept at its exact size, not with
		// the room its growth left.
		c.offs, c.bytes = slices.Clone(c.offs), slices.Clone(c.bytes)
	}
	l.n++
}

// len returns the number of stretches.
func (l *stretchList) len() int { return l.n }

// addAll appends every stretch of o.
func (l *stretchList) addAll(o *stretchList) {
	for k := range o.chunks {
		c := &o.chunks[k]
		for i := range c.offs {
			l.addPacked(c.packed(i))
		}
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
		if len(c.offs) < chunkSize {
			c = stretchChunk{offs: append([]uint32(nil), c.offs...), bytes: append([]byte(nil), c.bytes...)}
		}
		tab[i] = c
	}
	return stretchView{chunks: &tab, n: int32(l.n)}
}

// reset empties the list, keeping the chunk being filled for reuse (views
// never share it) unless full chunks came before it.
func (l *stretchList) reset() {
	if len(l.chunks) == 1 && len(l.chunks[0].offs) < chunkSize {
		l.chunks[0] = stretchChunk{offs: l.chunks[0].offs[:0], bytes: l.chunks[0].bytes[:0]}
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
