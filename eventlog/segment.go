package eventlog

import (
	"fmt"
	"io"

	"github.com/hecscope/hecscope/ingest"
)

// A Segment is one eventlog of a file that holds several one after another
// (a program that restarts its logging writes a whole new eventlog after
// the last one's end marker), with what tells it from the others.
type Segment struct {
	// Offset and End are the segment's bytes in the file, and Status how
	// its data ends, its offsets counted from the start of the file (see
	// ingest.Segment).
	ingest.Segment
	// Program is the program that wrote it (the first of its program
	// arguments), "" if its global events do not say (see programOf).
	Program string
	// Duration is the run's length in ns as its block markers declare it
	// (0 for a log without them).
	Duration uint64
	// Restarted is set when the segment does not say which program wrote
	// it, as an eventlog whose logging was restarted does not: Program is
	// then the first segment's (see timeline.Summary.Inherit).
	Restarted bool
}

// programLook bounds how much of a segment is decoded to find the program
// that wrote it (see programOf).
const programLook = 1 << 20

// mayHoldMore reports whether the file f (size bytes, indexed as ix) may
// hold another eventlog after the first: whether an eventlog's header
// begins (after the block markers a GHC 9.0 RTS writes before it, see
// ingest.HeaderAt) where the first one's data section or end marker ends.
func mayHoldMore(f io.ReaderAt, ix *ingest.Index, size int64) bool {
	at := []int64{ix.End}
	if ix.Status.State == ingest.StateComplete && ix.Status.Offset != ix.End {
		at = append(at, ix.Status.Offset)
	}
	for _, off := range at {
		if _, ok := ingest.HeaderAt(f, off, size); ok && off > 0 {
			return true
		}
	}
	return false
}

// selectSegment finds the segments of r's file (ix indexes the whole of
// it), sets r.Segments, and, for a file of several, makes r read segment k
// alone: it returns the index of that segment's bytes. k out of range is
// an error.
func (r *Log) selectSegment(ix *ingest.Index, k int) (*ingest.Index, error) {
	found, err := ingest.FindSegments(r.file, r.Size)
	if err != nil {
		return nil, fmt.Errorf("finding its segments: %w", err)
	}
	if k < 0 || k >= len(found) {
		return nil, fmt.Errorf("no segment %d: the file holds %s", k+1, eventlogs(len(found)))
	}
	r.Segments = make([]Segment, len(found))
	for i, g := range found {
		r.Segments[i] = Segment{Segment: g}
	}
	r.Segment = k
	if len(found) == 1 {
		// One eventlog and bytes after it that are not another: the file
		// is read whole, as an ordinary one.
		return ix, nil
	}
	for i := range r.Segments {
		g := &r.Segments[i]
		if err := g.describe(r.file); err != nil {
			return nil, fmt.Errorf("segment %d of %d: %w", i+1, len(found), err)
		}
		if i > 0 && g.Program == "" && r.Segments[0].Program != "" {
			g.Program, g.Restarted = r.Segments[0].Program, true
		}
	}
	g := found[k]
	sec := io.NewSectionReader(r.file, g.Offset, g.End-g.Offset)
	six, err := ingest.NewIndex(sec, g.End-g.Offset)
	if err != nil {
		return nil, fmt.Errorf("segment %d of %d: %w", k+1, len(found), err)
	}
	r.data, r.base, r.Size, r.Header = sec, g.Offset, g.End-g.Offset, six.Header
	return six, nil
}

// eventlogs says "1 eventlog" or "N eventlogs one after another".
func eventlogs(n int) string {
	if n == 1 {
		return "1 eventlog"
	}
	return fmt.Sprintf("%d eventlogs one after another", n)
}

// describe finds the segment's duration (from its block markers) and the
// program that wrote it in the file f.
func (g *Segment) describe(f io.ReaderAt) error {
	size := g.End - g.Offset
	sec := io.NewSectionReader(f, g.Offset, size)
	ix, err := ingest.NewIndex(sec, size)
	if err != nil {
		return err
	}
	_, g.Duration = span(ix)
	g.Program, err = programOf(sec, ix)
	return err
}

// programOf returns the program that wrote the log in r (indexed as ix):
// the first of its program arguments, which the RTS writes into its global
// block (flushed when full or at the end, so often last), or among the
// events outside blocks of a log from before blocks. It decodes at most
// programLook bytes of those pieces, and no capability's; "" if they do
// not say.
func programOf(r io.ReaderAt, ix *ingest.Index) (string, error) {
	budget := int64(programLook)
	var ev ingest.Event
	for _, p := range ix.Pieces {
		if p.Cap != ingest.NoCap || budget <= 0 {
			continue
		}
		buf := make([]byte, min(p.End-p.Offset, budget))
		budget -= int64(len(buf))
		if n, err := r.ReadAt(buf, p.Offset); n < len(buf) {
			return "", fmt.Errorf("reading its global events at byte %d: %w", p.Offset, err)
		}
		d := ix.DecoderAt(p.Offset, ingest.NoCap, 0)
		d.Feed(buf)
		for d.Next(&ev) {
			if ev.Kind == ingest.KindProgramArgs {
				if strs := ev.Strings(); len(strs) > 0 {
					return strs[0], nil
				}
			}
		}
	}
	return "", nil
}

// toFile turns the byte offsets of what a segment's load found into the
// file's: its status, time faults and summary's.
func (r *Log) toFile() {
	if len(r.Segments) < 2 {
		return
	}
	g := r.Segments[r.Segment]
	for _, st := range []*ingest.Status{&r.Status, &r.Summary.Status} {
		st.Offset += r.base
		if st.State == ingest.StateComplete {
			// The bytes after the last segment that are no eventlog.
			st.Trailing = g.Status.Trailing
		}
	}
	shiftFaults(&r.TimeFaults, r.base)
	shiftFaults(&r.Summary.TimeFaults, r.base)
	for _, t := range []*ingest.CapFaults{&r.CapFaults, &r.Summary.CapFaults} {
		for i := range t.First {
			t.First[i].Offset += r.base
		}
	}
}

// shiftFaults moves the offsets of t by base bytes.
func shiftFaults(t *ingest.TimeFaults, base int64) {
	for i := range t.First {
		t.First[i].Offset += base
	}
}
