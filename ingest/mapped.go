package ingest

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"unsafe"
)

// Mapped is a section of a file mapped into memory (MapSection), read in
// place: a Merge over it decodes the events straight from the mapping,
// without copying the file's bytes into buffers of its own.
//
// A file cut shorter while it is mapped makes reading its lost pages
// fault: every read of a Mapped turns such a fault into an error (see
// guard), never a crash.
type Mapped struct {
	data  []byte // the section
	unmap func() error
	// drop lets go of the whole pages of data[lo:hi] (they are read
	// again from the file if touched again).
	drop func(lo, hi int64)
}

// ReadAt copies the section's bytes from off on into p (io.ReaderAt).
func (m *Mapped) ReadAt(p []byte, off int64) (n int, err error) {
	if off < 0 {
		return 0, fmt.Errorf("reading mapped eventlog at byte %d: negative offset", off)
	}
	if off >= int64(len(m.data)) {
		return 0, io.EOF
	}
	defer m.guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	n = copy(p, m.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// bytes returns the section's bytes from off to end (clamped to the
// section). They stay valid until Close; read them only under guard.
func (m *Mapped) bytes(off, end int64) []byte {
	end = min(end, int64(len(m.data)))
	if off < 0 || off >= end {
		return nil
	}
	return m.data[off:end:end]
}

// release lets go of the pages that lie wholly in the section's bytes
// from lo to hi, so that a load does not hold the whole file in memory.
func (m *Mapped) release(lo, hi int64) {
	if m.drop != nil && lo < hi {
		m.drop(lo, min(hi, int64(len(m.data))))
	}
}

// Close unmaps the section; nothing may read it afterwards.
func (m *Mapped) Close() error {
	if m.unmap == nil {
		return nil
	}
	err := m.unmap()
	m.data, m.unmap = nil, nil
	return err
}

// errFault is the error of a read that faulted: the file was cut shorter
// while it was mapped.
var errFault = errors.New("the file was cut short while it was being read")

// guard, deferred itself (recover works only so) by a function that reads
// the mapping with faults made to panic (debug.SetPanicOnFault), turns a
// fault of that reading into errFault in *err. Any other panic goes on.
func (m *Mapped) guard(err *error) {
	if r := recover(); r != nil {
		if f, ok := r.(interface{ Addr() uintptr }); ok && m.holds(f.Addr()) {
			*err = errFault
			return
		}
		panic(r)
	}
}

// holds reports whether address a lies in the mapping.
func (m *Mapped) holds(a uintptr) bool {
	if len(m.data) == 0 {
		return false
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(m.data)))
	return a >= lo && a-lo < uintptr(len(m.data))
}
