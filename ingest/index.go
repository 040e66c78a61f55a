package ingest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// A Piece is a stretch of an eventlog's data section that decodes on its
// own: an event block (the events one capability, or the RTS's global
// buffer, wrote between two flushes, behind a block marker) or a run of
// events outside any block. A capability's blocks follow each other in
// time, so a capability's pieces, read in file order, are in time order;
// the pieces of different capabilities interleave in time.
type Piece struct {
	// Offset is the piece's first byte (a block's marker) and End the byte
	// after its last; a truncated log's last piece ends at the end of the
	// file.
	Offset, End int64
	// Cap is a block's capability; NoCap for the RTS's global block and for
	// events outside blocks.
	Cap int32
	// Block says whether the piece is a block (it begins with its marker).
	Block bool
	// Declared is where a block ends as its marker declares: past End for
	// the last block of a file cut short (or still being written).
	Declared int64
	// BlockStart and BlockEnd are the times a block's marker declares for
	// its first and last event (0 for loose pieces). Nothing checks them.
	BlockStart, BlockEnd uint64
	// Events counts the piece's events (its block marker included), and
	// First and Last are the earliest and latest time in it of the events
	// that span the run (SpansRun: not a marker declaring an impossible
	// range). They are known once the piece has been decoded (Known).
	Events      int64
	First, Last uint64
	Known       bool
	// Timed says whether First and Last hold times: whether the piece has
	// an event that spans the run (a block of nothing but a corrupt marker
	// has none).
	Timed bool
	// Stretches cut a block of more than stretchEvents events into runs of
	// that many, in file order, so that a merge of a stretch of time
	// decodes only the runs that hold events in it (nil for a smaller
	// block, a loose piece, or one not yet decoded whole with
	// MergeOptions.Learn).
	Stretches []Stretch
}

// A Stretch is a run of consecutive events of a block at which decoding
// can start, with the decoder's state there: a block of GHC's default
// 2 MiB holds ~170 k events, seconds of a capability's run, and a view of
// a millisecond needs a few hundred of them.
type Stretch struct {
	// Offset is the byte at which its first event begins, and Remaining
	// how many bytes of the block are left from there on (as the
	// decoder counts them).
	Offset, Remaining int64
	// First and Last are the earliest and latest times of its events, as
	// the decoder hands them out (any kind, a block marker's too).
	First, Last uint64
	// good is the latest good time in the block before the stretch, which
	// the decoder gives an event whose time is impossible (blockTimes.last).
	good uint64
}

// stretchEvents is how many events a Stretch holds: 32 bytes for every
// 4096 events (under 1 MB for a 1 GB log), and a view of a millisecond
// decodes a few thousand events per capability instead of a whole block.
// A variable so that tests can cut small logs into stretches.
var stretchEvents int64 = 4096

// overlapping returns the stretches [first, last) of p that may hold an
// event with a time in [from, to] (to 0: no upper bound); first == last if
// none does.
func (p *Piece) overlapping(from, to uint64) (first, last int) {
	first, last = len(p.Stretches), 0
	for i, st := range p.Stretches {
		if st.Last >= from && (to == 0 || st.First <= to) {
			first, last = min(first, i), i+1
		}
	}
	if last == 0 {
		return 0, 0
	}
	return first, last
}

// An Index locates the pieces of an eventlog's data section, so that any
// capability's events, or the events of any stretch of time, can be decoded
// from the file without reading the rest. Making one reads the header and
// then only the block markers, following their sizes from one to the next
// (events outside blocks are decoded to find their extent).
type Index struct {
	// Header is the log's header.
	Header *Header
	// Data is the offset of the first event, and End where the data section
	// stops: the end marker, or the end of what could be read.
	Data, End int64
	// Pieces are the data section's pieces in file order, without gaps.
	Pieces []Piece
	// Status is how the data section ends as far as the index can tell
	// without decoding every event: complete (the end marker follows the
	// last piece), truncated, or corrupt where a loose stretch cannot be
	// decoded.
	Status Status
	// Size is the size of the file indexed.
	Size int64

	plans []plan
}

// maxIndexHeader bounds the header an index reads: GHC's headers are a few
// tens of KiB.
const maxIndexHeader = 16 << 20

// NewIndex indexes the eventlog in r, whose size is size bytes. It returns
// an error if r cannot be read or does not begin with an eventlog header.
func NewIndex(r io.ReaderAt, size int64) (*Index, error) {
	d, err := readHead(r, size)
	if err != nil {
		return nil, err
	}
	ix := &Index{Header: d.Header(), Data: d.Offset(), Size: size, plans: d.plans}
	if err := ix.scan(r, size); err != nil {
		return nil, err
	}
	return ix, nil
}

// readHead decodes the header of the log in r: it returns a decoder standing
// at the first event.
func readHead(r io.ReaderAt, size int64) (*Decoder, error) {
	for n := int64(64 << 10); ; n *= 4 {
		b := make([]byte, min(n, size))
		if _, err := r.ReadAt(b, 0); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("reading eventlog header: %w", err)
		}
		d := sliceDecoder(b)
		if d.readHeader() {
			return d, nil
		}
		if st := d.status; st.State == StateCorrupt || int64(len(b)) == size || n >= maxIndexHeader {
			if st.State == StateDecoding || st.State == StateTruncated {
				if len(b) == 0 {
					return nil, errors.New("empty file: not an eventlog")
				}
				return nil, fmt.Errorf("eventlog header truncated at byte %d", len(b))
			}
			return nil, fmt.Errorf("eventlog %s", st)
		}
	}
}

// blockHead is the size of a block marker event (id, time, size, end
// time, capability), or 0 if the header declares no usable block marker.
func (ix *Index) blockHead() int64 {
	const id = uint16(KindBlockMarker)
	if int(id) >= len(ix.plans) || ix.plans[id].kind != KindBlockMarker || ix.plans[id].size == VariableSize || ix.plans[id].size < 14 {
		return 0
	}
	return int64(10 + ix.plans[id].size)
}

// scan finds the pieces from Data on.
func (ix *Index) scan(r io.ReaderAt, size int64) error {
	head := ix.blockHead()
	m := make([]byte, 24)
	pos := size
	for pos = ix.Data; pos < size; {
		n := min(int64(len(m)), size-pos)
		if _, err := r.ReadAt(m[:n], pos); err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("indexing eventlog at byte %d: %w", pos, err)
		}
		if n >= 2 && binary.BigEndian.Uint16(m) == idDataEnd {
			ix.End = pos
			ix.Status = Status{State: StateComplete, Offset: pos + 2, Trailing: size - pos - 2}
			return nil
		}
		if head > 0 && n >= head && binary.BigEndian.Uint16(m) == uint16(KindBlockMarker) {
			bsize := int64(binary.BigEndian.Uint32(m[10:]))
			if bsize >= head {
				c := int32(binary.BigEndian.Uint16(m[22:]))
				if c == 0xFFFF {
					c = NoCap
				}
				end := pos + bsize
				if end > size || (end < size && !ix.blockOrEndAt(r, end)) {
					// The size is wrong (a corrupt marker) or the log is cut
					// inside the block: find where the block really ends.
					var err error
					if end, err = ix.blockEnd(r, size, pos, pos+bsize); err != nil {
						return err
					}
				}
				ix.Pieces = append(ix.Pieces, Piece{Offset: pos, End: end, Declared: pos + bsize, Cap: c, Block: true,
					BlockStart: binary.BigEndian.Uint64(m[2:]), BlockEnd: binary.BigEndian.Uint64(m[14:])})
				pos = end
				continue
			}
		}
		// Events outside blocks (or a block marker too small to be one):
		// decode them to find where the next block begins.
		end, st, err := ix.looseEnd(r, size, pos)
		if err != nil {
			return err
		}
		if end > pos {
			ix.Pieces = append(ix.Pieces, Piece{Offset: pos, End: end, Cap: NoCap})
		}
		if st.State != StateDecoding {
			ix.End, ix.Status = end, st
			return nil
		}
		pos = end
	}
	ix.End = pos
	ix.Status = Status{State: StateTruncated, Offset: pos}
	return nil
}

// blockOrEndAt reports whether a block marker or the end marker begins at
// byte pos, as one does where every block of a healthy log ends.
func (ix *Index) blockOrEndAt(r io.ReaderAt, pos int64) bool {
	var b [2]byte
	if n, _ := r.ReadAt(b[:], pos); n < 2 {
		return false
	}
	id := binary.BigEndian.Uint16(b[:])
	return id == idDataEnd || id == uint16(KindBlockMarker)
}

// blockEnd finds where the block whose marker is at pos ends when its
// declared end (pos plus its size) does not fall where the next block or
// the end marker begins: at the next block marker, or at the first event
// boundary from declared on (where a decoder reading the file in order
// leaves the block), or where the data ends. A corrupt size so takes the
// block no further than its own events: one declaring 4 GiB swallowed every
// later block of its capability, and one pointing inside an event made the
// index stop there, as if the log were cut.
func (ix *Index) blockEnd(r io.ReaderAt, size, pos, declared int64) (int64, error) {
	end, _, err := ix.eventsEnd(r, size, pos, declared)
	return min(end, size), err
}

// looseEnd decodes events from pos until a block marker, the end marker or
// the end of the data, and returns where they stop. The status is
// StateDecoding if a block marker follows, else how the data section ends.
func (ix *Index) looseEnd(r io.ReaderAt, size, pos int64) (int64, Status, error) {
	return ix.eventsEnd(r, size, pos, math.MaxInt64)
}

// eventsEnd decodes events from pos until a block marker after pos, the
// first event boundary from limit on, the end marker or the end of the
// data, and returns where they stop. The status is StateDecoding if a block
// marker or limit stopped them, else how the data section ends.
func (ix *Index) eventsEnd(r io.ReaderAt, size, pos, limit int64) (int64, Status, error) {
	pr := newPieceReader(r, ix)
	pr.reset(Piece{Offset: pos, End: size, Cap: NoCap})
	var ev Event
	for {
		at := pr.d.Offset()
		if at >= limit && at > pos {
			return at, Status{}, nil
		}
		if !pr.next(&ev) {
			if pr.err != nil {
				return 0, Status{}, pr.err
			}
			st := pr.d.status
			if st.State == StateDecoding { // the piece ran out: end of data
				st = Status{State: StateTruncated, Offset: pr.d.Offset()}
			}
			return pr.d.Offset(), st, nil
		}
		if ev.Kind == KindBlockMarker && at > pos && ix.blockHead() > 0 {
			return at, Status{}, nil
		}
	}
}

// pieceReader decodes one piece at a time from a file, through a window
// that grows only to hold an event larger than it.
type pieceReader struct {
	r   io.ReaderAt
	ix  *Index
	d   *Decoder
	p   Piece
	fed int64 // bytes of the piece fed to the decoder
	err error
	// direct, if set, is the mapping the decoder reads the pieces from in
	// place (r, mapped): only from a goroutine that guards against its
	// faults (Merge.read).
	direct *Mapped
	freed  int64 // where the piece's pages decoded in place have been let go up to
}

// pieceWindow is how much a pieceReader reads at a time.
const pieceWindow = 256 << 10

// directWindow is how much a pieceReader decodes in place (direct) before
// it lets the pages go (a variable for the tests of windows that end
// inside an event).
var directWindow int64 = 1 << 20

func newPieceReader(r io.ReaderAt, ix *Index) *pieceReader {
	return &pieceReader{r: r, ix: ix, d: &Decoder{header: *ix.Header, plans: ix.plans, phase: phaseData, blockCap: NoCap}}
}

// reset starts decoding piece p from its first byte.
func (pr *pieceReader) reset(p Piece) { pr.resetAt(p, p.Offset, NoCap, 0) }

// resetAt starts decoding piece p at byte off, which must be where an event
// of it begins; blockCap and remaining are the decoder's block state there
// (NoCap and 0 at the start of a piece).
func (pr *pieceReader) resetAt(p Piece, off int64, blockCap int32, remaining int64) {
	d := pr.d
	d.buf = d.buf[:0]
	if pr.direct != nil {
		d.buf = nil // the mapping, which is not to be written
	}
	d.pos = 0
	d.base = off
	d.phase = phaseData
	d.ended = false
	d.status = Status{}
	d.blockCap, d.remaining = blockCap, remaining
	pr.p, pr.fed, pr.freed = p, off-p.Offset, off
}

// resume starts decoding block p at stretch st, in the state the decoder
// was in there when it decoded the block from its marker: in the block
// its marker declares, the latest good time st's.
func (pr *pieceReader) resume(p Piece, st Stretch) {
	pr.resetAt(p, st.Offset, p.Cap, st.Remaining)
	d := pr.d
	d.times.enter(p.Cap, p.BlockStart, p.BlockEnd)
	if st.Remaining <= 0 {
		d.blockCap = NoCap
		d.times.leave()
	}
	d.times.last = st.good
}

// next decodes the piece's next event into ev; false at the piece's end, or
// when it cannot go on (d.status says why, or err).
func (pr *pieceReader) next(ev *Event) bool {
	// The data section's events, as Next decodes them (a piece holds no
	// header). Merge.read, which decodes most events, spells this out.
	if pr.d.phase == phaseData && pr.d.readEvent(ev) {
		return true
	}
	return pr.more(ev)
}

// more is next when the decoder's input holds no whole event: it feeds it
// the piece's next bytes, if any, and decodes the event.
func (pr *pieceReader) more(ev *Event) bool {
	d := pr.d
	for {
		if d.Next(ev) {
			return true
		}
		if d.status.State != StateDecoding || pr.err != nil {
			return false
		}
		left := pr.p.End - pr.p.Offset - pr.fed
		if left <= 0 {
			if pr.direct != nil {
				pr.direct.release(pr.freed, pr.p.End)
				pr.freed = pr.p.End
			}
			if d.Buffered() > 0 {
				// An event runs past the piece's end: decode it as the file
				// holds it only if this is the data's end.
				d.End()
				d.Next(ev)
			}
			return false
		}
		if pr.direct != nil {
			// The next window of the piece, in place, from the event the
			// decoder stopped in; the pages before it are let go (read
			// again from the page cache if another stream's block shares
			// them).
			from, to := d.Offset(), pr.p.Offset+pr.fed+min(left, directWindow)
			pr.direct.release(pr.freed, from)
			pr.freed = from
			d.buf, d.pos, d.base = pr.direct.bytes(from, to), 0, from
			got := from + int64(len(d.buf))
			pr.fed = got - pr.p.Offset
			if got < to {
				pr.p.End = got // the file is shorter than the piece
			}
			continue
		}
		n := min(left, pieceWindow)
		buf := d.spare(int(n))
		k, err := pr.r.ReadAt(buf[:n], pr.p.Offset+pr.fed)
		d.commit(k)
		pr.fed += int64(k)
		if int64(k) < n {
			if err != nil && !errors.Is(err, io.EOF) {
				pr.err = fmt.Errorf("reading eventlog at byte %d: %w", pr.p.Offset+pr.fed, err)
				return false
			}
			pr.p.End = pr.p.Offset + pr.fed // the file is shorter than the piece
		}
	}
}

// DecoderAt returns a Decoder of the log's data section from byte off on,
// which must be where an event begins: a decoder to feed the bytes from off
// on as they come (a file that is still being written). cap and remaining
// are the block the byte lies in — its capability and how many of its bytes
// are left from off on — or NoCap and 0 outside blocks.
func (ix *Index) DecoderAt(off int64, cap int32, remaining int64) *Decoder {
	d := &Decoder{header: *ix.Header, plans: ix.plans, phase: phaseData, base: off, blockCap: cap, remaining: remaining}
	d.times.within(ix, off, remaining > 0)
	return d
}

// Streams groups the pieces by capability: one stream per capability that
// has blocks, in capability order, and a last one (Cap NoCap) for the RTS's
// global blocks and the events outside blocks, if there are any. Each
// stream lists indices into Pieces in file order.
func (ix *Index) Streams() []Stream {
	var out []Stream
	at := map[int32]int{}
	for i := range ix.Pieces {
		c := ix.Pieces[i].Cap
		k, ok := at[c]
		if !ok {
			k = len(out)
			at[c] = k
			out = append(out, Stream{Cap: c})
		}
		out[k].Pieces = append(out[k].Pieces, int32(i))
	}
	// Capabilities in order, the global stream last.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && streamLess(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func streamLess(a, b Stream) bool {
	if (a.Cap == NoCap) != (b.Cap == NoCap) {
		return b.Cap == NoCap
	}
	return a.Cap < b.Cap
}

// A Stream is the pieces of one capability (or of none), in file order,
// which is their time order.
type Stream struct {
	Cap    int32
	Pieces []int32
}
