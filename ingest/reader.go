package ingest

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// readChunk is how much a Reader asks its source for at a time.
const readChunk = 1 << 20

// Reader decodes an eventlog from an io.Reader, reading in large chunks
// straight into the decoder's buffer. Its memory use does not grow with the
// size of the stream.
type Reader struct {
	d   *Decoder
	src io.Reader
	err error
	// OnRead, if set, is called after each read with the total bytes read so
	// far (for progress reports).
	OnRead func(total int64)
	read   int64
}

// NewReader returns a Reader that decodes src.
func NewReader(src io.Reader) *Reader {
	return &Reader{d: NewDecoder(), src: src}
}

// Next decodes the next event into ev; it returns false at the end of the
// stream (see Status and Err). ev's Data and Raw are valid until the next call.
func (r *Reader) Next(ev *Event) bool {
	for {
		if r.d.Next(ev) {
			return true
		}
		if r.d.status.State != StateDecoding {
			return false
		}
		buf := r.d.spare(readChunk)
		n, err := r.src.Read(buf)
		r.d.commit(n)
		r.read += int64(n)
		if n > 0 && r.OnRead != nil {
			r.OnRead(r.read)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				r.err = fmt.Errorf("reading eventlog at byte %d: %w", r.read, err)
			}
			r.d.End()
		}
	}
}

// Header returns the stream's header, or nil before it has been read.
func (r *Reader) Header() *Header { return r.d.Header() }

// Status returns how the stream ended; a read error ends it as truncated.
func (r *Reader) Status() Status { return r.d.Status() }

// Err returns the error that stopped reading from the source, if any.
func (r *Reader) Err() error { return r.err }

// File is an eventlog file open for decoding.
type File struct {
	*Reader
	f    *os.File
	Size int64
}

// Open opens an eventlog file for decoding.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening eventlog: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("opening eventlog: %w", err)
	}
	return &File{Reader: NewReader(f), f: f, Size: st.Size()}, nil
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }
