//go:build unix

package app

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
)

// mapEventFile maps the file at path read-only for the event list; the
// mapping is released when the returned value is no longer used. A file
// that cannot be mapped is read with ReadAt instead.
func mapEventFile(path string) (eventFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening for the event list: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("opening for the event list: %w", err)
	}
	size := st.Size()
	if size == 0 || int64(int(size)) != size {
		return newFileReaderAt(f, size), nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return newFileReaderAt(f, size), nil
	}
	f.Close()
	m := &mappedFile{bytesReaderAt: b}
	runtime.AddCleanup(m, func(b []byte) { syscall.Munmap(b) }, b)
	return m, nil
}

// mappedFile is a memory-mapped eventlog.
type mappedFile struct{ bytesReaderAt }

// mappedBytes returns the mapped bytes of f, nil if it is not mapped.
func mappedBytes(f eventFile) []byte {
	if m, ok := f.(*mappedFile); ok {
		return m.bytesReaderAt
	}
	return nil
}
