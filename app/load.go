package app

import (
	"context"
	"fmt"
	"time"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// snapshotEvery is the least time between two partial models handed to the
// progress report while a log loads.
const snapshotEvery = 250 * time.Millisecond

// progressEvery is the least time between two progress reports.
const progressEvery = 50 * time.Millisecond

// Progress is how far loading a file has got.
type Progress struct {
	// Bytes is how many bytes have been read, of Total (the file size).
	Bytes, Total int64
	// Events is how many events have been decoded.
	Events int64
	// Elapsed is the time since loading began.
	Elapsed time.Duration
	// Model is the timeline of the events decoded so far, when a new one has
	// been taken since the last report (at most every 250 ms); nil otherwise
	// and for heap profiles.
	Model *timeline.Model
}

// Fraction returns the share of the file read so far, from 0 to 1.
func (p Progress) Fraction() float64 {
	if p.Total <= 0 {
		return 0
	}
	return min(1, float64(p.Bytes)/float64(p.Total))
}

// EventsPerSecond returns the decoding rate so far.
func (p Progress) EventsPerSecond() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.Events) / p.Elapsed.Seconds()
}

// String describes the progress as "12.3 MB of 100 MB · 456k events · 2.1M events/s".
func (p Progress) String() string {
	return fmt.Sprintf("%s of %s · %s events · %s events/s",
		formatBytes(p.Bytes), formatBytes(p.Total), formatCount(float64(p.Events)), formatCount(p.EventsPerSecond()))
}

// Eventlog is what hecscope learned from reading an eventlog file.
type Eventlog struct {
	// Path is the file that was read, and Size its length in bytes.
	Path string
	Size int64
	// Status says whether the log was complete, truncated or corrupt, and where.
	Status ingest.Status
	// ReadErr is an error reading the file (not its contents), if one stopped
	// the load; Status then says truncated.
	ReadErr error
	// Events is the number of events decoded, block markers included.
	Events int64
	// Summary is the run's statistics (ThreadScope's definitions) and the
	// process that wrote it.
	Summary timeline.Summary
	// Model is the run's timeline: HECs, threads, instants, user spans.
	Model *timeline.Model
	// Heap is the RTS's heap counters and GCs; Profile the heap-profile
	// samples, nil if the log has none.
	Heap    *heapview.Heap
	Profile *heapview.Profile
	// LoadTime is how long reading and decoding took.
	LoadTime time.Duration
	// index is every event in time order, for the event list; nil if the
	// log could not be indexed (indexErr says why).
	index    *eventIndex
	indexErr error
}

// LoadEventlog reads and decodes the eventlog at path. It calls report
// (if not nil) from its own goroutine, at most every 50 ms and once at the
// end, with how far it has got. A log that is truncated or corrupt is not an
// error: what could be read is returned and Status says where and why. An
// error is returned if the file cannot be opened or ctx is cancelled.
func LoadEventlog(ctx context.Context, path string, report func(Progress)) (*Eventlog, error) {
	f, err := ingest.Open(path)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	defer f.Close()

	start := time.Now()
	out := &Eventlog{Path: path, Size: f.Size}
	var lastReport time.Time
	progress := func(read int64) Progress {
		return Progress{Bytes: read, Total: f.Size, Events: out.Events, Elapsed: time.Since(start)}
	}
	if report != nil {
		f.OnRead = func(read int64) {
			if now := time.Now(); now.Sub(lastReport) >= progressEvery {
				lastReport = now
				report(progress(read))
			}
		}
	}

	builder := timeline.NewBuilder()
	heap := heapview.NewCollector()
	summary := timeline.NewSummarizer()
	index := newEventIndexBuilder()
	var lastSnapshot time.Time
	var ev ingest.Event
	for f.Next(&ev) {
		out.Events++
		if out.Events&0xFFF == 0 {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("loading %s: %w", path, ctx.Err())
			}
			if report != nil && time.Since(lastSnapshot) >= snapshotEvery {
				lastSnapshot = time.Now()
				p := progress(ev.Offset)
				p.Model = builder.Snapshot()
				report(p)
			}
		}
		builder.Add(&ev)
		heap.Add(&ev)
		summary.Add(&ev)
		index.add(&ev)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	out.Status = f.Status()
	out.Model = builder.Snapshot()
	out.Summary = summary.Summary(f.Header(), out.Status)
	out.Heap, out.Profile = heap.Result()
	out.ReadErr = f.Err()
	out.index, out.indexErr = index.finish(path, f.Header())
	out.LoadTime = time.Since(start)
	if report != nil {
		report(progress(f.Offset()))
	}
	return out, nil
}
