package timeline

import (
	"encoding/binary"
	"iter"
	"math"
)

// A thread-heavy run has millions of threads, most of them short-lived,
// with a handful of marks each: a record of 72 bytes and marks of 16 bytes
// each made them most of a loaded log's memory (281 MB for a 172 MB log of
// 1.6 M threads). A model keeps them packed instead: each thread's record
// as a few varints in a block of threadsPerBlock threads, and the marks of
// a short track (no summarised stretch, at most checkpointEvery marks, so
// no checkpoints) as a few bytes a mark, decoded into a Track when it is
// asked for. A long or busy track, whose marks the grid bounds, is kept
// whole. Decoding is exact: a thread read back equals, mark for mark, the
// one the builder made.

// threadBlockShift sets how many threads a block of the thread table holds
// (threadsPerBlock): a thread is found by decoding the records before it
// in its block.
const (
	threadBlockShift = 6
	threadsPerBlock  = 1 << threadBlockShift
)

// ThreadRecord is what a model knows of a thread besides its track.
type ThreadRecord struct {
	ID uint32
	// Label is the ThreadLabel string (Model.String), -1 if none.
	Label int32
	// Created is the time of CreateThread (0 if the log does not have it);
	// Finished the time it finished (0 if it did not).
	Created, Finished uint64
	// First is the time of the thread's first mark (its first event).
	First uint64
}

// threadTable is a model's threads, in order of first appearance, packed
// in blocks; the blocks of one snapshot are shared by the next where no
// thread of theirs changed.
type threadTable struct {
	n      int
	blocks []*threadBlock
	// arena holds the packed marks of finished threads, which the
	// builder wrote once (packedArena): chunk c holds those at offsets
	// c<<arenaChunkShift on.
	arena [][]byte
	// wide holds the tracks of finished threads kept whole (marksStored).
	wide wideViews
	// shapes are the shapes of the packed tracks (markShapes).
	shapes []string
	// settled sums up the threads whose records settledRec accepts.
	settled SettledStates
}

// threadBlock is threadsPerBlock threads (fewer in a table's last block):
// their records one after another (see appendRecord), then the packed
// marks of tracks not in the arena; the tracks kept whole, which few
// blocks have, lie apart. A thread-heavy run has hundreds of thousands of
// blocks (150 k for 9.6 M threads), and a block is 64 bytes besides its
// bytes.
type threadBlock struct {
	// recs is the records, then from local on the packed marks.
	recs []byte
	// whole holds the tracks kept whole, nil if there are none.
	whole *wholeTracks
	// firstID and first are the ID and First of the block's first thread,
	// for the searches by id and by time; local is where the packed marks
	// begin in recs. lastFirst is its last thread's
	// First, or math.MaxUint64 if the block's Firsts are not in order, and
	// reach the longest life (Finished-First) of its threads with marks,
	// math.MaxUint64 if one of them has not finished: the index of the
	// threads alive at a time (aliveIndex) is made from these, and looks
	// only into the blocks that reach further than its span.
	firstID   uint32
	local     int32
	first     uint64
	lastFirst uint64
	reach     uint64
}

// note keeps what the index of the threads alive at a time needs of
// record r, the block's latest: lastFirst and reach.
func (b *threadBlock) note(r *threadRec) {
	if b.lastFirst != math.MaxUint64 {
		if r.First < b.lastFirst {
			b.lastFirst = math.MaxUint64
		} else {
			b.lastFirst = r.First
		}
	}
	if r.where != marksNone {
		life := uint64(math.MaxUint64)
		if r.Finished != 0 {
			life = r.Finished - min(r.First, r.Finished)
		}
		b.reach = max(b.reach, life)
	}
}

// wholeTracks is the tracks of a block's threads kept whole.
type wholeTracks struct {
	wide   []Track
	stored []storedWide
}

// localBytes returns the block's packed marks.
func (b *threadBlock) localBytes() []byte { return b.recs[b.local:] }

// Where a thread's marks are (bits recMarks of its record's flags).
const (
	marksNone   = iota // no marks
	marksArena         // packed in the arena, at the record's offset
	marksLocal         // packed in the block's local bytes, at the record's offset
	marksWide          // a whole Track, the block's wide[record's offset]
	marksStored        // a whole track of a finished thread, where the block's stored[record's offset] says
)

// storedWide is where the marks, summaries and checkpoints of a finished
// thread's track kept whole lie in its builder's arena (Builder.arena).
type storedWide struct {
	marks, nmarks, sums, nsums, cps, ncps int32
}

// The flags of a record, its first byte. Nearly every record of a
// thread-heavy run is the flags byte, then its First, its Finished and its
// marks' offset in the arena, each a delta of a byte or two: its id is
// the one before's plus one, it was created at its First, and it has no
// label.
const (
	recLabel    = 1 << iota // a label follows
	recFinished             // a finish time follows
	// recCreatedFirst: the thread was created at its First (as nearly
	// every thread is: its creation is its first event), and no creation
	// time follows.
	recCreatedFirst
	recIDNext         // the id is the record before's plus one, and does not follow
	recMarksShift = 4 // where the marks are: marksNone…marksStored (3 bits)
	// recMore: a second byte of flags follows (recCreated, recEnd).
	recMore = 1 << 7
)

// The second byte of flags of a record, if recMore.
const (
	recCreated = 1 << iota // a creation time follows
	recEnd                 // an end before the model's follows (an open bucket)
)

// threadRec is a record as decoded, with where its marks are.
type threadRec struct {
	ThreadRecord
	where uint8
	at    uint64 // the marks' offset (arena, local) or index (wide)
	// end is where the track is known to, if before the model's end
	// (hasEnd: a bucket still being filled).
	end    uint64
	hasEnd bool
}

// recCursor decodes a block's records in turn: each one's id, first time
// and arena offset are deltas from the one before, its finish time from
// the last finish before (threads that start one after another mostly
// finish so).
type recCursor struct {
	b      *threadBlock
	pos    int
	id     uint32
	first  uint64
	arenaA uint64
	fin    uint64
}

// finBase returns the time r's Finished is a delta from: the last finish
// before it in the block, or its First if none.
func (c *recCursor) finBase(r *threadRec) uint64 {
	if c.fin != 0 {
		return c.fin
	}
	return r.First
}

func zig(v int64) uint64   { return uint64(v<<1) ^ uint64(v>>63) }
func unzig(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// appendRecord appends the record of r to the block's records, the cursor
// being at the block's end.
func (c *recCursor) append(r *threadRec) {
	b := c.b
	flags := r.where << recMarksShift
	var more byte
	if r.Label >= 0 {
		flags |= recLabel
	}
	switch r.Created {
	case 0:
	case r.First:
		flags |= recCreatedFirst
	default:
		more |= recCreated
	}
	if r.Finished != 0 {
		flags |= recFinished
	}
	if r.ID == c.id+1 {
		flags |= recIDNext
	}
	if r.hasEnd {
		more |= recEnd
	}
	if more != 0 {
		flags |= recMore
	}
	p := append(b.recs, flags)
	if more != 0 {
		p = append(p, more)
	}
	if flags&recIDNext == 0 {
		p = binary.AppendUvarint(p, zig(int64(r.ID)-int64(c.id)))
	}
	if r.Label >= 0 {
		p = binary.AppendUvarint(p, uint64(r.Label))
	}
	p = binary.AppendUvarint(p, zig(int64(r.First-c.first)))
	if more&recCreated != 0 {
		p = binary.AppendUvarint(p, zig(int64(r.Created-r.First)))
	}
	if r.Finished != 0 {
		p = binary.AppendUvarint(p, zig(int64(r.Finished-c.finBase(r))))
		c.fin = r.Finished
	}
	if r.hasEnd {
		p = binary.AppendUvarint(p, zig(int64(r.end-r.First)))
	}
	switch r.where {
	case marksArena:
		p = binary.AppendUvarint(p, zig(int64(r.at-c.arenaA)))
		c.arenaA = r.at
	case marksLocal, marksWide, marksStored:
		p = binary.AppendUvarint(p, r.at)
	}
	b.recs = p
	c.id, c.first, c.pos = r.ID, r.First, len(p)
}

// uvarint reads a varint at the cursor.
func (c *recCursor) uvarint() uint64 {
	v, n := binary.Uvarint(c.b.recs[c.pos:])
	c.pos += n
	return v
}

// next decodes the record at the cursor into r.
func (c *recCursor) next(r *threadRec) {
	flags := c.b.recs[c.pos]
	c.pos++
	var more byte
	if flags&recMore != 0 {
		more = c.b.recs[c.pos]
		c.pos++
	}
	if flags&recIDNext != 0 {
		r.ID = c.id + 1
	} else {
		r.ID = uint32(int64(c.id) + unzig(c.uvarint()))
	}
	r.Label = -1
	if flags&recLabel != 0 {
		r.Label = int32(c.uvarint())
	}
	r.First = c.first + uint64(unzig(c.uvarint()))
	r.Created, r.Finished, r.end, r.hasEnd, r.at = 0, 0, 0, false, 0
	if more&recCreated != 0 {
		r.Created = r.First + uint64(unzig(c.uvarint()))
	} else if flags&recCreatedFirst != 0 {
		r.Created = r.First
	}
	if flags&recFinished != 0 {
		r.Finished = c.finBase(r) + uint64(unzig(c.uvarint()))
		c.fin = r.Finished
	}
	if more&recEnd != 0 {
		r.end, r.hasEnd = r.First+uint64(unzig(c.uvarint())), true
	}
	r.where = flags >> recMarksShift & 7
	switch r.where {
	case marksArena:
		r.at = c.arenaA + uint64(unzig(c.uvarint()))
		c.arenaA = r.at
	case marksLocal, marksWide, marksStored:
		r.at = c.uvarint()
	}
	c.id, c.first = r.ID, r.First
}

// A packed track is the varint 2(1+k)+s, k the index of its shape in the
// builder's table (markShapes): its marks' states, small Args and Reasons;
// then the Args too large for the shape, in order; then the time of its
// first mark from its thread's First (a zigzag varint), unless s is 1 (the
// first mark is at First, as it is for nearly every thread: its first
// event), and each next one's from the one before, but for a last mark
// that finishes a thread that has a finish time: it is at that time (a
// track whose finish mark is not is packed in full). The tracks of a thread-heavy run have a few dozen
// shapes (1.44 M of storm170's 1.6 M threads have one), and a track costs
// its id and its times. A track whose shape the table has no room for is
// 0 then its marks in full (appendLiteral).

// The header byte of a mark in a shape, or in full: its state in the low
// bits, then what follows it.
const (
	pmStateMask = 0x0F
	pmWoken     = 1 << 4
	pmReason    = 1 << 5 // a Reason byte follows
	pmArg       = 1 << 6 // an Arg follows: a byte in a shape, a varint in full
	// pmBig: in a shape, the Arg (256 or more) is in the track's bytes;
	// in full, the time lies before the previous one's (only a first
	// mark's can).
	pmBig = 1 << 7
)

// maxShapes bounds a builder's table of shapes: a log whose tracks have
// more (Args of black holes' owners, say) packs the rest in full.
const maxShapes = 1 << 16

// markShapes is the table of shapes of a builder's packed tracks: each
// the number of marks (a byte), then each one's header byte, Arg byte and
// Reason byte. Entries never change once added: the models share them.
type markShapes struct {
	idx    map[string]int32
	shapes []string
	// last is the index of the shape found last, plus one (0: none): most
	// tracks of a run have the shape the one before had, found without
	// hashing it.
	last int
}

// shape returns the index of the shape of marks, adding it; false if the
// table has no room for it.
func (p *markShapes) shape(marks []Mark) (int, bool) {
	var buf [1 + 3*checkpointEvery]byte
	s := append(buf[:0], byte(len(marks)))
	for i := range marks {
		m := &marks[i]
		h := byte(m.State)&pmStateMask | pmFlags(m)
		if m.Arg >= 256 {
			h = h&^pmArg | pmBig
		}
		s = append(s, h)
		if h&pmArg != 0 {
			s = append(s, byte(m.Arg))
		}
		if m.Reason != 0 {
			s = append(s, m.Reason)
		}
	}
	if p.last > 0 && p.shapes[p.last-1] == string(s) {
		return p.last - 1, true
	}
	if k, ok := p.idx[string(s)]; ok {
		p.last = int(k) + 1
		return int(k), true
	}
	if len(p.shapes) >= maxShapes {
		return 0, false
	}
	if p.idx == nil {
		p.idx = map[string]int32{}
	}
	key := string(s)
	p.idx[key] = int32(len(p.shapes))
	p.shapes = append(p.shapes, key)
	p.last = len(p.shapes)
	return len(p.shapes) - 1, true
}

// pmFlags returns the header bits of m besides its state: woken, and
// whether a Reason and an Arg follow.
func pmFlags(m *Mark) byte {
	var h byte
	if m.woken {
		h |= pmWoken
	}
	if m.Reason != 0 {
		h |= pmReason
	}
	if m.Arg != 0 {
		h |= pmArg
	}
	return h
}

// view returns the shapes added so far, for a model.
func (p *markShapes) view() []string { return p.shapes[:len(p.shapes):len(p.shapes)] }

// appendMarks appends the packed marks of a track (in time order) whose
// thread's First is first and its Finished finished.
func (p *markShapes) appendMarks(dst []byte, first, finished uint64, marks []Mark) []byte {
	last := len(marks) - 1
	atFinish := finishesAt(marks, finished)
	if atFinish && marks[last].Time != finished {
		return appendLiteral(append(dst, 0), first, marks)
	}
	k, ok := p.shape(marks)
	if !ok {
		return appendLiteral(append(dst, 0), first, marks)
	}
	atFirst := len(marks) > 0 && marks[0].Time == first
	code := (uint64(k) + 1) << 1
	if atFirst {
		code |= 1
	}
	dst = binary.AppendUvarint(dst, code)
	for i := range marks {
		if a := marks[i].Arg; a >= 256 {
			dst = binary.AppendUvarint(dst, uint64(a))
		}
	}
	prev := first
	for i := range marks {
		t := marks[i].Time
		switch {
		case i == 0 && atFirst, i == last && atFinish:
		case i == 0:
			dst = binary.AppendUvarint(dst, zig(int64(t-first)))
		default:
			dst = binary.AppendUvarint(dst, t-prev)
		}
		prev = t
	}
	return dst
}

// finishesAt reports whether marks end with a finish of a thread whose
// Finished, finished, is known: a packed track's last mark is then at
// finished, without a time of its own.
func finishesAt(marks []Mark, finished uint64) bool {
	n := len(marks)
	return finished != 0 && n > 0 && marks[n-1].State == StateFinished
}

// appendLiteral appends marks in full: their number, then each one's
// header byte, Arg, Reason and time from the mark before (the first's from
// first).
func appendLiteral(dst []byte, first uint64, marks []Mark) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(marks)))
	prev := first
	for i := range marks {
		m := &marks[i]
		h := byte(m.State)&pmStateMask | pmFlags(m)
		dt := m.Time - prev
		if m.Time < prev {
			h |= pmBig
			dt = prev - m.Time
		}
		dst = append(dst, h)
		if m.Arg != 0 {
			dst = binary.AppendUvarint(dst, uint64(m.Arg))
		}
		if m.Reason != 0 {
			dst = append(dst, m.Reason)
		}
		dst = binary.AppendUvarint(dst, dt)
		prev = m.Time
	}
	return dst
}

// packedLen returns the number of marks packed at src, shapes being the
// table of their shapes.
func packedLen(src []byte, shapes []string) int {
	code, p := binary.Uvarint(src)
	if code == 0 {
		n, _ := binary.Uvarint(src[p:])
		return int(n)
	}
	return int(shapes[code>>1-1][0])
}

// decodeMarks appends the marks packed at src (markShapes.appendMarks) of
// a thread whose First is first and its Finished finished to out, shapes
// being the table of their shapes.
func decodeMarks(out []Mark, src []byte, first, finished uint64, shapes []string) []Mark {
	code, p := binary.Uvarint(src)
	if code == 0 {
		return decodeLiteral(out, src[p:], first)
	}
	shape := shapes[code>>1-1]
	start := len(out)
	for q := 1; q < len(shape); {
		m, big, next := shapeMark(shape, q)
		if big {
			v, n := binary.Uvarint(src[p:])
			m.Arg, p = uint32(v), p+n
		}
		out = append(out, m)
		q = next
	}
	return decodeTimes(out, start, src[p:], code&1 != 0, first, finished)
}

// shapeMark reads the mark at byte q of a shape: its State, woken flag,
// Arg and Reason as far as the shape holds them, whether its Arg is in
// the track's bytes instead (big), and where the next mark begins.
func shapeMark(shape string, q int) (m Mark, big bool, next int) {
	h := shape[q]
	q++
	m = Mark{State: State(h & pmStateMask), woken: h&pmWoken != 0}
	if h&pmArg != 0 {
		m.Arg = uint32(shape[q])
		q++
	}
	if h&pmReason != 0 {
		m.Reason = shape[q]
		q++
	}
	return m, h&pmBig != 0, q
}

// shapeMarks is what decodeMarks reads from a shape, kept to decode the
// many tracks of one shape: a thread-heavy run's million tracks have a
// few dozen shapes.
type shapeMarks struct {
	// marks are the shape's marks without their times, big the indices of
	// those whose Arg is in the track's bytes.
	marks []Mark
	big   []int
}

// shapeCache keeps the shapes a walk over many tracks has read
// (decodeShaped), by their index in the table of shapes.
type shapeCache struct {
	shapes []*shapeMarks
}

// decodeShaped is decodeMarks, reading each shape once.
func (c *shapeCache) decodeShaped(out []Mark, src []byte, first, finished uint64, shapes []string) []Mark {
	code, p := binary.Uvarint(src)
	if code == 0 {
		return decodeLiteral(out, src[p:], first)
	}
	k := int(code>>1 - 1)
	if k >= len(c.shapes) {
		c.shapes = append(c.shapes, make([]*shapeMarks, k+1-len(c.shapes))...)
	}
	sh := c.shapes[k]
	if sh == nil {
		sh = &shapeMarks{}
		shape := shapes[k]
		for q := 1; q < len(shape); {
			m, big, next := shapeMark(shape, q)
			if big {
				sh.big = append(sh.big, len(sh.marks))
			}
			sh.marks = append(sh.marks, m)
			q = next
		}
		c.shapes[k] = sh
	}
	start := len(out)
	out = append(out, sh.marks...)
	for _, i := range sh.big {
		v, n := binary.Uvarint(src[p:])
		out[start+i].Arg, p = uint32(v), p+n
	}
	return decodeTimes(out, start, src[p:], code&1 != 0, first, finished)
}

// decodeTimes sets the times of the marks out[start:] of a packed track
// from src, its bytes after its Args: none for a first mark at first (if
// atFirst) or a last one that finishes the thread at finished.
func decodeTimes(out []Mark, start int, src []byte, atFirst bool, first, finished uint64) []Mark {
	t, p := first, 0
	last := len(out) - 1
	atFinish := finished != 0 && last >= start && out[last].State == StateFinished
	for i := start; i < len(out); i++ {
		if i == last && atFinish {
			t = finished
		} else if i > start || !atFirst {
			v, n := binary.Uvarint(src[p:])
			p += n
			if i == start {
				t = first + uint64(unzig(v))
			} else {
				t += v
			}
		}
		out[i].Time = t
	}
	return out
}

// decodeLiteral appends the marks packed in full at src (appendLiteral)
// to out.
func decodeLiteral(out []Mark, src []byte, first uint64) []Mark {
	n, p := binary.Uvarint(src)
	prev := first
	for range n {
		h := src[p]
		p++
		m := Mark{State: State(h & pmStateMask), woken: h&pmWoken != 0}
		if h&pmArg != 0 {
			v, k := binary.Uvarint(src[p:])
			m.Arg, p = uint32(v), p+k
		}
		if h&pmReason != 0 {
			m.Reason = src[p]
			p++
		}
		dt, k := binary.Uvarint(src[p:])
		p += k
		if h&pmBig != 0 {
			m.Time = prev - dt
		} else {
			m.Time = prev + dt
		}
		prev = m.Time
		out = append(out, m)
	}
	return out
}

// packs reports whether the builder packs a track of marks and sums
// summaries: one without a summarised stretch or a checkpoint.
func (b *Builder) packs(marks chunkView[Mark], sums int) bool {
	return !b.unpacked && sums == 0 && marks.Len() <= checkpointEvery
}

// arenaChunkShift sets the size of the chunks of packed marks: a track's
// marks never straddle two (at most checkpointEvery marks of at most 17
// bytes each, far less than a chunk).
const (
	arenaChunkShift = 16
	arenaChunkSize  = 1 << arenaChunkShift
)

// packedArena is where a builder packs the marks of finished threads, once
// each: an append-only list of chunks.
type packedArena struct {
	chunks [][]byte
}

// add packs marks (of a thread whose First is first), their shapes in
// shapes, and returns their offset.
func (a *packedArena) add(shapes *markShapes, first, finished uint64, marks []Mark) uint64 {
	k := len(a.chunks) - 1
	if k < 0 || len(a.chunks[k]) > arenaChunkSize-checkpointEvery*20-10 {
		a.chunks = append(a.chunks, make([]byte, 0, arenaChunkSize))
		k++
	}
	at := uint64(k)<<arenaChunkShift | uint64(len(a.chunks[k]))
	a.chunks[k] = shapes.appendMarks(a.chunks[k], first, finished, marks)
	return at
}

// view returns the chunks written so far, the one being filled copied (the
// builder goes on appending to it).
func (a *packedArena) view() [][]byte {
	out := make([][]byte, len(a.chunks))
	copy(out, a.chunks)
	if k := len(out) - 1; k >= 0 {
		out[k] = append([]byte(nil), out[k]...)
	}
	return out
}

// bytes returns the packed marks at offset at.
func (a *packedArena) bytes(at uint64) []byte {
	return a.chunks[at>>arenaChunkShift][at&(arenaChunkSize-1):]
}

// bytes returns the packed marks at offset at.
func (t *threadTable) bytes(at uint64) []byte {
	return t.arena[at>>arenaChunkShift][at&(arenaChunkSize-1):]
}

// marksOf returns the packed marks of record r of block b (nil for a wide
// track or none).
func (t *threadTable) marksOf(b *threadBlock, r *threadRec) []byte {
	switch r.where {
	case marksArena:
		return t.bytes(r.at)
	case marksLocal:
		return b.localBytes()[r.at:]
	}
	return nil
}

// NumThreads returns the number of threads, in order of first appearance
// (the index that Thread, ThreadRecord and ThreadIndex use).
func (m *Model) NumThreads() int { return m.threads.n }

// record decodes thread i's record, with the block it lies in.
func (m *Model) record(i int) (threadRec, *threadBlock) {
	b := m.threads.blocks[i>>threadBlockShift]
	return b.record(i & (threadsPerBlock - 1)), b
}

// record decodes the block's j-th record.
func (b *threadBlock) record(j int) threadRec {
	c := recCursor{b: b}
	var r threadRec
	for range j + 1 {
		c.next(&r)
	}
	return r
}

// ThreadRecord returns thread i's record, without its track.
func (m *Model) ThreadRecord(i int) ThreadRecord {
	r, _ := m.record(i)
	return r.ThreadRecord
}

// Thread returns thread i: its record and its track.
func (m *Model) Thread(i int) Thread {
	r, b := m.record(i)
	var tab [][]Mark
	n := 0
	if src := m.threads.marksOf(b, &r); src != nil {
		tab = [][]Mark{decodeMarks(make([]Mark, 0, packedLen(src, m.threads.shapes)), src, r.First, r.Finished, m.threads.shapes)}
		n = len(tab[0])
	}
	return m.thread(&r, b, &tab, 0, n)
}

// thread returns the thread of record r in block b, its n packed marks
// (if packed) decoded at off in the one chunk of tab.
func (m *Model) thread(r *threadRec, b *threadBlock, tab *[][]Mark, off, n int) Thread {
	th := Thread{ThreadRecord: r.ThreadRecord}
	switch r.where {
	case marksArena, marksLocal:
		th.Track = Track{marks: chunkView[Mark]{chunks: tab, off: int32(off), n: int32(n)}}
	case marksWide:
		th.Track = b.whole.wide[r.at]
	case marksStored:
		st, wv := &b.whole.stored[r.at], &m.threads.wide
		th.Track = newTrack(wv.marks.sub(int(st.marks), int(st.nmarks)), wv.sums.sub(int(st.sums), int(st.nsums)),
			wv.cps.sub(int(st.cps), int(st.ncps)))
	}
	m.endTrack(&th.Track, r)
	return th
}

// endTrack sets where the track of record r is known to (the run's end
// unless r says before it), and its horizon, the run's end: a thread last
// on a capability known only up to its frontier is not known past it
// either.
func (m *Model) endTrack(tr *Track, r *threadRec) {
	tr.end, tr.horizon = m.End, m.End
	if r.hasEnd {
		tr.end = r.end
	}
	if !m.partial {
		return
	}
	if c, ok := tr.LastCap(); ok {
		if h := m.HEC(c); h != nil {
			tr.end = max(tr.Mark(tr.Len()-1).Time, min(tr.end, h.Frontier()))
		}
	}
}

// Threads returns every thread in order, with its index, decoded a block
// at a time into storage that is used again: going through millions costs
// no allocation per thread. The Thread yielded, and its track's marks, are
// overwritten by the next ones (Model.Thread gives one to keep).
func (m *Model) Threads() iter.Seq2[int, *Thread] { return m.threadsWhere(0, m.threads.n, false) }

// ThreadRange is Threads from thread lo up to thread hi (not included):
// the goroutines that share out a model's threads each go through one
// range.
func (m *Model) ThreadRange(lo, hi int) iter.Seq2[int, *Thread] {
	return m.threadsWhere(max(lo, 0), min(hi, m.threads.n), false)
}

// threadsWhere is Threads from thread lo to hi, without the settled
// threads (settledRec) if unsettled.
func (m *Model) threadsWhere(lo, hi int, unsettled bool) iter.Seq2[int, *Thread] {
	return func(yield func(int, *Thread) bool) {
		var recs [threadsPerBlock]threadRec
		var offs [threadsPerBlock + 1]int
		var marks []Mark
		tab := &[][]Mark{nil}
		var th Thread
		var shapes shapeCache
		skip := func(i int, r *threadRec) bool { return i < lo || i >= hi || unsettled && settledRec(r) }
		for k := lo >> threadBlockShift; k<<threadBlockShift < hi; k++ {
			b := m.threads.blocks[k]
			c := recCursor{b: b}
			base := k << threadBlockShift
			n := min(threadsPerBlock, hi-base)
			marks = marks[:0]
			for j := range n {
				c.next(&recs[j])
				offs[j] = len(marks)
				if skip(base+j, &recs[j]) {
					continue
				}
				if src := m.threads.marksOf(b, &recs[j]); src != nil {
					marks = shapes.decodeShaped(marks, src, recs[j].First, recs[j].Finished, m.threads.shapes)
				}
			}
			offs[n] = len(marks)
			(*tab)[0] = marks
			for j := range n {
				if skip(base+j, &recs[j]) {
					continue
				}
				th = m.thread(&recs[j], b, tab, offs[j], offs[j+1]-offs[j])
				if !yield(base+j, &th) {
					return
				}
			}
		}
	}
}

// ThreadRecords returns every thread's record in order, with its index,
// without decoding their tracks; the ThreadRecord yielded is overwritten
// by the next.
func (m *Model) ThreadRecords() iter.Seq2[int, *ThreadRecord] {
	return func(yield func(int, *ThreadRecord) bool) {
		m.eachRecord(0, func(i int, r *threadRec) bool { return yield(i, &r.ThreadRecord) })
	}
}

// eachRecord calls fn with the records from thread i on, in order, until
// it returns false.
func (m *Model) eachRecord(i int, fn func(int, *threadRec) bool) {
	var r threadRec
	for k := i >> threadBlockShift; k < len(m.threads.blocks); k++ {
		c := recCursor{b: m.threads.blocks[k]}
		n := min(threadsPerBlock, m.threads.n-k<<threadBlockShift)
		for j := range n {
			c.next(&r)
			if at := k<<threadBlockShift + j; at >= i && !fn(at, &r) {
				return
			}
		}
	}
}

// wideViews is what the tracks of finished threads kept whole share: the
// views of the builder's arena of their marks, summaries and checkpoints.
type wideViews struct {
	marks chunkView[Mark]
	sums  stretchView
	cps   checkpointView
}

// relabel returns a copy of the block with its j-th thread's label set to
// label: the block is shared with the models already made.
func (b *threadBlock) relabel(j int, label int32) *threadBlock {
	out := *b
	out.recs = make([]byte, 0, len(b.recs)+binary.MaxVarintLen32)
	rc, wc := recCursor{b: b}, recCursor{b: &out}
	var r threadRec
	for k := 0; rc.pos < int(b.local); k++ {
		rc.next(&r)
		if k == j {
			r.Label = label
		}
		wc.append(&r)
	}
	out.local = int32(len(out.recs))
	out.recs = append(out.recs, b.localBytes()...)
	return &out
}

// makeBlock makes the k-th block of threads from their builders.
func (b *Builder) makeBlock(k int) *threadBlock {
	lo := k << threadBlockShift
	hi := min(lo+threadsPerBlock, b.nthreads)
	// The bytes are written in the builder's scratch space and copied out
	// at their exact size: grown by appending, they would hold a third
	// more.
	blk := &threadBlock{recs: b.scratch[0][:0]}
	local := b.scratch[1][:0]
	var whole wholeTracks
	c := recCursor{b: blk}
	open := !b.finished && b.g.On()
	// keep puts a track in the block: packed in its local bytes if it
	// can be, else whole.
	keep := func(r *threadRec, tr Track) {
		switch {
		case tr.marks.Len() == 0 && tr.sums().Len() == 0:
			return
		case b.packs(tr.marks, tr.sums().Len()):
			r.where, r.at = marksLocal, uint64(len(local))
			local = b.shapes.appendMarks(local, r.First, r.Finished, tr.marks.slice())
		default:
			r.where, r.at = marksWide, uint64(len(whole.wide))
			whole.wide = append(whole.wide, tr)
		}
	}
	for i := lo; i < hi; i++ {
		t := b.threadAt(int32(i))
		t.dirty = false
		r := threadRec{ThreadRecord: ThreadRecord{ID: t.id, Label: t.label, Created: t.created, Finished: t.finished, First: t.first}}
		switch {
		case t.retired && t.packed:
			if at := t.stored.packedAt(); packedLen(b.packed.bytes(at), b.shapes.shapes) > 0 {
				r.where, r.at = marksArena, at
			}
		case t.retired:
			var x storedExtra
			if len(b.storedMore) > 0 {
				x = b.storedMore[t.idx]
			}
			st := &t.stored
			r.where, r.at = marksStored, uint64(len(whole.stored))
			whole.stored = append(whole.stored, storedWide{marks: st.marks, nmarks: st.nmarks, sums: x.sums, nsums: x.nsums, cps: x.cps, ncps: x.ncps})
		case t.ml != nil:
			keep(&r, t.ml.track(b.end))
			if open && t.ml.open {
				// The marks of its bucket still being filled are not shown.
				r.end, r.hasEnd = min(b.end, max(b.g.start(t.ml.b), b.start)), true
			}
		case t.ex != nil:
			ex := t.ex
			if len(ex.marks) > 0 {
				r.First = ex.marks[0].Time
			}
			mv := sliceView(ex.marks)
			if b.packs(mv, 0) {
				keep(&r, newTrack(mv, stretchView{}, checkpointView{}))
				break
			}
			extendCheckpoints(mv, stretchView{}, &ex.cps)
			ex.shared = true
			keep(&r, newTrack(mv, stretchView{}, ex.cps.view()))
		}
		if i == lo {
			blk.firstID, blk.first, blk.lastFirst = r.ID, r.First, r.First
		}
		blk.note(&r)
		c.append(&r)
	}
	b.scratch = [2][]byte{blk.recs, local}
	blk.local = int32(len(blk.recs))
	blk.recs = append(append(make([]byte, 0, len(blk.recs)+len(local)), blk.recs...), local...)
	if len(whole.wide) > 0 || len(whole.stored) > 0 {
		blk.whole = &whole
	}
	return blk
}
