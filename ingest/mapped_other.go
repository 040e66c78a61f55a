//go:build !(linux || darwin || freebsd)

package ingest

import (
	"errors"
	"os"
)

// MapSection fails on this system: read the file with ReadAt.
func MapSection(f *os.File, off, size int64) (*Mapped, error) {
	return nil, errors.New("mapping eventlog: not supported on this system")
}
