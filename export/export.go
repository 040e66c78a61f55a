// Package export writes a run in the formats other tools open: the Chrome
// trace-event JSON that Perfetto and chrome://tracing load (a track per HEC
// and per thread, GC, user spans, markers, heap counters), a speedscope
// profile of the cost-centre samples, and CSV of the spans, GC pauses and
// heap samples. Every format is written while the log's events stream past
// in time order: memory follows the number of capabilities, threads alive
// and spans open, never the log's size.
package export

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hecscope/hecscope/ingest"
)

// Format is an export format.
type Format string

// The formats.
const (
	Chrome     Format = "chrome"
	Speedscope Format = "speedscope"
	CSV        Format = "csv"
)

// Formats lists the formats.
var Formats = []Format{Chrome, Speedscope, CSV}

// ParseFormat returns the format named s.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == strings.ToLower(s) {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown export format %q (chrome, speedscope or csv)", s)
}

// Options says what to export.
type Options struct {
	// From and To select [From, To) of the run (To 0: to the end). Slices
	// (thread runs, GCs) are cut to the range; spans that start in it are
	// written whole; samples and markers are those taken in it.
	From, To uint64
	// Offset and Length, if Length > 0, are the bytes of the file File
	// exports: one eventlog of a file holding several one after another
	// (see ingest.FindSegments); otherwise it exports the whole file.
	Offset, Length int64
}

// writer is one format's writer: it gets the events in time order, then
// finish with the time of the last.
type writer interface {
	event(ev *ingest.Event)
	finish(end uint64) error
}

// File exports the eventlog at path to w (see Write).
func File(ctx context.Context, f Format, path string, w io.Writer, opt Options) (ingest.Status, error) {
	in, err := os.Open(path)
	if err != nil {
		return ingest.Status{}, fmt.Errorf("exporting: %w", err)
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return ingest.Status{}, fmt.Errorf("exporting: %w", err)
	}
	var r io.ReaderAt = in
	size := st.Size()
	if opt.Length > 0 {
		r, size = io.NewSectionReader(in, opt.Offset, opt.Length), opt.Length
	}
	status, err := Write(ctx, f, w, r, size, opt)
	if err != nil {
		return status, fmt.Errorf("%s: %w", path, err)
	}
	return status, nil
}

// Write exports the eventlog in r (size bytes) to w in format f. A
// truncated or corrupt log is exported up to the damage (the status says
// where); an error means the log could not be read, w could not be
// written, or ctx was cancelled.
func Write(ctx context.Context, f Format, w io.Writer, r io.ReaderAt, size int64, opt Options) (ingest.Status, error) {
	bw := bufio.NewWriterSize(w, 256<<10)
	var wr writer
	switch f {
	case Chrome:
		wr = newChromeWriter(bw, opt)
	case Speedscope:
		wr = newSpeedscopeWriter(bw, opt)
	case CSV:
		wr = newCSVWriter(bw, opt)
	default:
		return ingest.Status{}, fmt.Errorf("unknown export format %q", f)
	}
	var end uint64
	status, err := ingest.Each(ctx, r, size, ingest.MergeOptions{Sorted: true}, func(ev *ingest.Event) bool {
		if opt.To != 0 && ev.Time >= opt.To && past(wr) {
			return false
		}
		end = max(end, ev.Time)
		wr.event(ev)
		return true
	})
	if err != nil {
		return status, fmt.Errorf("exporting: %w", err)
	}
	if opt.To != 0 {
		end = min(end, opt.To)
	}
	if err := wr.finish(end); err != nil {
		return status, fmt.Errorf("exporting %s: %w", f, err)
	}
	if err := bw.Flush(); err != nil {
		return status, fmt.Errorf("exporting %s: %w", f, err)
	}
	return status, nil
}

// past reports whether a writer needs no events after the range's end:
// those that write spans need them until the spans that started in the
// range have ended.
func past(w writer) bool {
	if d, ok := w.(interface{ done() bool }); ok {
		return d.done()
	}
	return true
}

// clip cuts [a, b] to the range; ok is false if nothing is left.
func (o Options) clip(a, b uint64) (uint64, uint64, bool) {
	a = max(a, o.From)
	if o.To != 0 {
		b = min(b, o.To)
	}
	return a, b, a < b || (a == b && o.in(a))
}

// in reports whether t is in the range.
func (o Options) in(t uint64) bool { return t >= o.From && (o.To == 0 || t < o.To) }

// heapCounter returns the name (from names: heap size, live, allocated)
// and value of the heap counter a heap event sets; allocated is summed
// over the capabilities, whose totals alloc keeps.
func heapCounter(ev *ingest.Event, alloc map[int32]uint64, names [3]string) (string, uint64) {
	switch ev.Kind {
	case ingest.KindHeapSize:
		return names[0], ev.Args[1]
	case ingest.KindHeapLive:
		return names[1], ev.Args[1]
	}
	alloc[ev.Cap] = ev.Args[1]
	var sum uint64
	for _, v := range alloc {
		sum += v
	}
	return names[2], sum
}

// stopReason names a thread's stop status ("stopped" where it gives no
// reason), in ingest's words (StopStatus.Reason).
func stopReason(s ingest.StopStatus) string {
	if r := s.Reason(); r != "" {
		return r
	}
	return "stopped"
}
