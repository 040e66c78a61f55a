package ingest

import (
	"fmt"
	"io"
)

// SkimAt is SkimFile over the eventlog held in r, size bytes from its start:
// a part of a file (an io.SectionReader over one segment of several, see
// FindSegments) read as SkimFile reads a whole one. Offsets in the result
// count from r's start. It returns an error if r cannot be read to size.
func SkimAt(r io.ReaderAt, size int64, sel Selection, fn func(*Event)) (SkimResult, error) {
	res, err := skim(source{file: r, size: size}, sel, fn)
	if err != nil {
		return res, fmt.Errorf("skimming: %w", err)
	}
	return res, nil
}
