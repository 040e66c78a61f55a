//go:build linux || darwin || freebsd

package ingest

import (
	"fmt"
	"math"
	"os"

	"golang.org/x/sys/unix"
)

// MapSection maps the size bytes of f from byte off on into memory, read
// only. It fails where the system cannot map the file (then read it with
// ReadAt instead).
func MapSection(f *os.File, off, size int64) (*Mapped, error) {
	if size <= 0 || off < 0 {
		return nil, fmt.Errorf("mapping eventlog: empty section")
	}
	page := int64(os.Getpagesize())
	lead := off % page
	if size > math.MaxInt-lead {
		return nil, fmt.Errorf("mapping eventlog: %d bytes do not fit the address space", size)
	}
	data, err := unix.Mmap(int(f.Fd()), off-lead, int(lead+size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("mapping eventlog: %w", err)
	}
	_ = unix.Madvise(data, unix.MADV_SEQUENTIAL)
	drop := func(lo, hi int64) {
		// In the whole mapping, which begins at a page.
		lo, hi = (lead+lo+page-1)/page*page, (lead+hi)/page*page
		if lo < hi {
			_ = unix.Madvise(data[lo:hi], unix.MADV_DONTNEED)
		}
	}
	return &Mapped{data: data[lead:], unmap: func() error { return unix.Munmap(data) }, drop: drop}, nil
}
