package ingest

import (
	"fmt"
	"io"
	"math"
)

// A Segment is one eventlog of a file that holds several one after another:
// a program that restarts its logging (as a FIFO or socket stream of
// successive runs, recorded, does) writes a whole new eventlog, header
// first, after the last one's end marker. A GHC 9.0 RTS writes a block
// marker or two before that header (see strayPrefix); the segment begins
// with them.
type Segment struct {
	// Offset is the segment's first byte (its header) and End the byte
	// after its last (its end marker, or the end of the file).
	Offset, End int64
	// Status is how the segment's data ends, offsets counted from the
	// start of the file.
	Status Status
}

// MaxSegments bounds how many segments FindSegments reports; the rest of a
// file past them is the last one's trailing bytes.
const MaxSegments = 1 << 12

// FindSegments splits the eventlog in r (size bytes) into its segments: the
// first one from byte 0, and another wherever the bytes after an end
// marker begin with an eventlog header. A file of one eventlog is one
// segment. Each segment is indexed, not decoded (see NewIndex), so this
// reads little more than the block markers. The error is that of the first
// segment's index (not an eventlog, unreadable); a later segment that
// cannot be indexed ends the list, its bytes counted as the previous
// segment's trailing bytes.
func FindSegments(r io.ReaderAt, size int64) ([]Segment, error) {
	if size <= 0 {
		return nil, fmt.Errorf("finding eventlog segments: the file is empty")
	}
	var out []Segment
	for at := int64(0); at < size && len(out) < MaxSegments; {
		ix, err := NewIndex(io.NewSectionReader(r, at, size-at), size-at)
		if err != nil {
			if len(out) == 0 {
				return nil, err
			}
			break
		}
		st := ix.Status
		st.Offset += at
		if st.State != StateComplete && endsInBlock(r, at+ix.End) {
			// GHC ≥ 9.2 counts the end marker in its last block: the index
			// sees the next segment's header where a block should follow.
			st = Status{State: StateComplete, Offset: at + ix.End}
		}
		seg := Segment{Offset: at, End: size, Status: st}
		if st.State == StateComplete {
			seg.End = st.Offset
		}
		out = append(out, seg)
		next := seg.End
		if st.State != StateComplete || next >= size {
			break
		}
		if _, ok := HeaderAt(r, next, size); !ok {
			break
		}
		at = next
	}
	// The last segment's trailing bytes are what no segment holds.
	if last := &out[len(out)-1]; last.Status.State == StateComplete {
		last.Status.Trailing = size - last.End
	}
	for i := 0; i+1 < len(out); i++ {
		out[i].Status.Trailing = 0
	}
	return out, nil
}

// endsInBlock reports whether the bytes at off are the start of an
// eventlog's header (after block markers, see HeaderAt) right after an end
// marker (0xFFFF).
func endsInBlock(r io.ReaderAt, off int64) bool {
	if off < 2 {
		return false
	}
	b := make([]byte, 2)
	n, _ := r.ReadAt(b, off-2)
	if n < 2 || b[0] != 0xFF || b[1] != 0xFF {
		return false
	}
	_, ok := HeaderAt(r, off, math.MaxInt64)
	return ok
}
