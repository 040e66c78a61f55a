//go:build !unix

package ingest

import (
	"fmt"
	"io"
	"os"
)

// mapFile reads the first size bytes of f into memory (this platform has no
// mmap in Go's standard library). The returned function releases nothing.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", f.Name(), err)
	}
	return b, func() error { return nil }, nil
}
