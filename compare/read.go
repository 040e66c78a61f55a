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

// ReadRun decodes a whole eventlog from src in one pass into a Run named
// name: its Summary and its Model, for a stream that cannot be indexed (a
// FIFO, standard input): the events go to the model in the order they come,
// each capability's in order, but not merged by time across capabilities as
// Open merges them. A truncated or corrupt log gives the run
// of what decodes (Summary.Status says where it ends); the error is non-nil
// if reading src failed or src is empty (timeline.ErrEmpty).
func ReadRun(src io.Reader, name string) (*Run, error) {
	r := ingest.NewReader(src)
	z := timeline.NewSummarizer()
	b := timeline.NewBuilder()
	var ev ingest.Event
	for r.Next(&ev) {
		z.Add(&ev)
		b.Add(&ev)
	}
	if r.Status().State != ingest.StateComplete {
		b.EndCapabilities(b.LastEvents()) // nothing is known past a capability's last event
	}
	run := &Run{Name: name, Summary: z.Summary(r.Header(), r.Status()), Model: b.Snapshot()}
	run.Summary.TimeFaults = r.TimeFaults()
	if err := r.Err(); err != nil {
		return run, fmt.Errorf("reading run %s: %w", name, err)
	}
	if st := run.Summary.Status; st.State == ingest.StateTruncated && st.Offset == 0 {
		return run, fmt.Errorf("reading run %s: %w", name, timeline.ErrEmpty)
	}
	return run, nil
}

// ReadFile reads the eventlog at path into a Run named after the file.
func ReadFile(path string) (*Run, error) {
	return ReadFilePart(path, 0, 0)
}

// ReadFilePart reads the eventlog in length bytes of the file at path from
// byte offset (one eventlog of a file holding several one after another,
// see ingest.FindSegments) into a Run named after the file; length 0 reads
// the whole file. The run's Summary.Status and TimeFaults count bytes from
// the start of the file.
func ReadFilePart(path string, offset, length int64) (*Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading run: %w", err)
	}
	defer f.Close()
	var src io.Reader = f
	if length > 0 {
		src = io.NewSectionReader(f, offset, length)
	} else {
		offset = 0
	}
	r, err := ReadRun(bufio.NewReaderSize(src, 1<<20), filepath.Base(path))
	if r != nil {
		r.Summary.Status.Offset += offset
		for i := range r.Summary.TimeFaults.First {
			r.Summary.TimeFaults.First[i].Offset += offset
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.Path, r.Offset, r.Length = path, offset, length
	return r, nil
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
