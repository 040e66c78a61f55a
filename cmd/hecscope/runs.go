package main

import (
	"context"
	"fmt"
	"os"

	"github.com/hecscope/hecscope/compare"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
)

// runOpener opens the runs a compare command reads, all through the one
// loader: a regular file (or one eventlog of it) directly, a stream (a FIFO,
// standard input) after recording it in a directory made when first
// needed. Call remove when the runs are no longer used.
type runOpener struct {
	dir string // where streams are recorded ("" until one is)
}

// open loads the run of part p and its heap counters.
func (o *runOpener) open(p logPart) (*compare.Run, *heapview.Heap, error) {
	ctx := context.Background()
	if isFile(p.path) {
		return compare.Open(ctx, p.path, p.index)
	}
	f, err := os.Open(p.path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if o.dir == "" {
		if o.dir, err = os.MkdirTemp("", "hecscope-streams-"); err != nil {
			return nil, nil, fmt.Errorf("recording %s: %w", p.path, err)
		}
	}
	return compare.OpenStream(ctx, f, p.path, o.dir)
}

// openChecked is open for a command that draws or compares the run: a
// corrupt log is an error (a truncated one is used as far as it goes).
func (o *runOpener) openChecked(p logPart) (*compare.Run, *heapview.Heap, error) {
	r, h, err := o.open(p)
	if err != nil {
		return nil, nil, err
	}
	if st := r.Summary.Status; st.State == ingest.StateCorrupt {
		return nil, nil, fmt.Errorf("%s: %s", p.path, st)
	}
	return r, h, nil
}

// remove deletes the recordings of the streams opened.
func (o *runOpener) remove() {
	if o.dir != "" {
		os.RemoveAll(o.dir)
		o.dir = ""
	}
}
