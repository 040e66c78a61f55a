//go:build !unix

package app

import (
	"fmt"
	"os"
)

// mapEventFile opens the file at path for the event list, read with ReadAt
// (this system is not mapped).
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
	return newFileReaderAt(f, st.Size()), nil
}

// mappedBytes returns nil: files are not mapped on this system.
func mappedBytes(eventFile) []byte { return nil }
