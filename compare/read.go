package compare

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// Open loads segment seg (0-based; 0 for an ordinary file) of the eventlog
// file at path through the one loader (eventlog.Open: every capability's
// events in time order, so that user spans pair as the app pairs them) into
// a Run named after the file, with an exact model, and returns its heap
// counters too. A truncated or corrupt log gives the run of what decodes
// (Summary.Status says where it ends, counted from the start of the file).
func Open(ctx context.Context, path string, seg int) (*Run, *heapview.Heap, error) {
	l, err := eventlog.Open(ctx, path, eventlog.Options{Segment: seg, ExactBelow: math.MaxInt64, NoEventList: true})
	if err != nil {
		return nil, nil, err
	}
	defer l.Close()
	if l.SummaryErr != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, l.SummaryErr)
	}
	r := &Run{Name: filepath.Base(path), Summary: l.Summary, Model: l.Overview(), Path: path}
	if len(l.Segments) > 1 {
		s := l.Segments[l.Segment]
		r.Offset, r.Length = s.Offset, s.End-s.Offset
	}
	return r, l.Heap, nil
}

// OpenStream loads a whole eventlog that comes as a stream (a FIFO,
// standard input) into a Run named name, through the same loader as Open:
// a stream can be read only once and the loader needs a file it can index
// (to merge the capabilities' blocks by time, and to read a stretch again
// for CompareCovered), so the stream is first recorded, as it comes, into
// a new file in dir, which the Run's Path names. The caller removes dir
// when done with the run. A stream cut short gives the run of what
// decodes, as for a file.
func OpenStream(ctx context.Context, src io.Reader, name, dir string) (*Run, *heapview.Heap, error) {
	f, err := os.CreateTemp(dir, "stream-*.eventlog")
	if err != nil {
		return nil, nil, fmt.Errorf("recording %s: %w", name, err)
	}
	_, err = io.Copy(f, src)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, nil, fmt.Errorf("recording %s: %w", name, err)
	}
	r, h, err := Open(ctx, f.Name(), 0)
	if err != nil {
		// The loader names the recording; the user knows the stream.
		return nil, nil, fmt.Errorf("%s (recorded to %s): %w", name, f.Name(), err)
	}
	r.Name = filepath.Base(name)
	return r, h, nil
}

// open opens the run's file and returns its eventlog's bytes (the whole
// file, or Length bytes from Offset) and the file to close.
func (r *Run) open() (io.Reader, *os.File, error) {
	f, err := os.Open(r.Path)
	if err != nil {
		return nil, nil, err
	}
	if r.Length > 0 {
		return io.NewSectionReader(f, r.Offset, r.Length), f, nil
	}
	return f, f, nil
}

// Covered is a comparison over the time both runs cover: from each run's
// alignment point, as long as the shorter of the two lasts from its own.
type Covered struct {
	// FromA and FromB are where the stretch begins in each run, and Length
	// how long it is (ns).
	FromA, FromB, Length uint64
	// Comparison compares the two runs' summaries of their stretches (no
	// distributions or HEC rows: those need models of the stretch).
	*Comparison
}

// CompareCovered compares a and b over the time both cover, from alignA in
// a and alignB in b on (0 and 0: from the start): the figures of each run's
// summary of that stretch (timeline.SummarizeRange), read from the runs'
// files again. A partial run's stretch ends where its log stops holding
// every capability's events (Run.wholeUntil), so that it is compared only over
// what it logged whole.
func CompareCovered(a, b *Run, alignA, alignB uint64, opt Options) (*Covered, error) {
	if a.Path == "" || b.Path == "" {
		return nil, fmt.Errorf("comparing the time both runs cover: a run has no file")
	}
	endA, endB := a.wholeUntil(), b.wholeUntil()
	if alignA > endA || alignB > endB {
		return nil, fmt.Errorf("comparing the time both runs cover: an alignment point is after a run's end")
	}
	length := min(endA-alignA, endB-alignB)
	if length == 0 {
		return nil, fmt.Errorf("comparing the time both runs cover: they share no time")
	}
	part := func(r *Run, from uint64) (*Run, error) {
		src, f, err := r.open()
		if err != nil {
			return nil, fmt.Errorf("comparing the time both runs cover: %w", err)
		}
		defer f.Close()
		s, err := timeline.SummarizeRange(bufio.NewReaderSize(src, 1<<20), from, from+length)
		if err != nil {
			return nil, fmt.Errorf("comparing the time both runs cover: %s: %w", r.Path, err)
		}
		// The stretch is whole: its figures hold for it.
		s.Status = ingest.Status{State: ingest.StateComplete, Offset: s.Status.Offset}
		return &Run{Name: r.Name, Summary: s, Path: r.Path, Offset: r.Offset, Length: r.Length}, nil
	}
	pa, err := part(a, alignA)
	if err != nil {
		return nil, err
	}
	pb, err := part(b, alignB)
	if err != nil {
		return nil, err
	}
	return &Covered{FromA: alignA, FromB: alignB, Length: length, Comparison: Compare(pa, pb, opt)}, nil
}
