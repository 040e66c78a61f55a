package ingest

import (
	"bytes"
	"encoding/binary"
	"io"
)

// A GHC 9.0 RTS that starts event logging again (startEventLogging after
// endEventLogging, as the eventlog-socket library does for every client,
// and as a program that restarts its logging to flush it does) writes a
// block marker before the new eventlog's header: endEventLogging leaves the
// global buffer holding the empty block marker posted after its last flush,
// and the header is written after it. So a stream, or the next eventlog of
// a file of several, can begin with such markers (event type 18, 24 bytes,
// capability 0xFFFF) before "hdrb". They carry nothing; they are skipped.

// strayMarkerLen is the size of a block marker as every GHC writes it: id
// (2), time (8), block size (4), end time (8), capability (2).
const strayMarkerLen = 24

// MaxStrayMarkers bounds how many block markers may come before an
// eventlog's header. GHC writes one; more than a few is not a restart but
// something else, and is not skipped.
const MaxStrayMarkers = 4

// strayPrefix reports how many bytes at the start of b are block markers
// written before an eventlog's header (see above). more is set when b is
// too short to tell: the bytes so far are markers, or the start of one.
// Only markers are counted: whether the header follows them is for the
// caller to check.
func strayPrefix(b []byte) (n int, more bool) {
	for k := 0; ; k++ {
		rest := b[n:]
		if len(rest) < 2 {
			// A marker's id begins with a zero byte; "hdrb" does not.
			return n, len(rest) == 0 || rest[0] == 0
		}
		if binary.BigEndian.Uint16(rest) != uint16(KindBlockMarker) || k == MaxStrayMarkers {
			return n, false
		}
		if len(rest) < strayMarkerLen {
			return n, true
		}
		n += strayMarkerLen
	}
}

// HeaderAt reports whether an eventlog's header begins at byte off of r
// (size bytes), after at most MaxStrayMarkers block markers, and where:
// at is the byte of "hdrb" (off itself unless markers precede it).
func HeaderAt(r io.ReaderAt, off, size int64) (at int64, ok bool) {
	if off < 0 || off >= size {
		return 0, false
	}
	b := make([]byte, min(size-off, MaxStrayMarkers*strayMarkerLen+int64(len(eventlogMagic))))
	n, _ := r.ReadAt(b, off)
	b = b[:n]
	skip, _ := strayPrefix(b)
	if !bytes.HasPrefix(b[skip:], []byte(eventlogMagic)) {
		return 0, false
	}
	return off + int64(skip), true
}
