//go:build unix

package ingest

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f into memory, read-only. The
// returned function unmaps them.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	if size == 0 {
		return nil, func() error { return nil }, nil
	}
	if int64(int(size)) != size {
		return nil, nil, fmt.Errorf("mapping %s: %d bytes is too large for this machine", f.Name(), size)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("mapping %s: %w", f.Name(), err)
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}
