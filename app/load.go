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
	// Events is the number of events decoded.
	Events int64
	// First and Last are the earliest and latest event times (ns); both are 0
	// when there are no events.
	First, Last uint64
	// Process describes the process that wrote the log.
	Process ProcessInfo
	// Model is the run's timeline: HECs, threads, instants, user spans.
	Model *timeline.Model
	// Heap is the RTS's heap counters and GCs; Profile the heap-profile
	// samples, nil if the log has none.
	Heap    *heapview.Heap
	Profile *heapview.Profile
	// Markers counts user markers and user messages.
	Markers int
	// LoadTime is how long reading and decoding took.
	LoadTime time.Duration
}

// Span returns the time between the first and the last event, in ns.
func (e *Eventlog) Span() uint64 { return e.Last - e.First }

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
		if out.Events == 1 || ev.Time < out.First {
			out.First = ev.Time
		}
		out.Last = max(out.Last, ev.Time)
		builder.Add(&ev)
		heap.Add(&ev)
		switch ev.Kind {
		case ingest.KindUserMarker, ingest.KindUserMsg:
			out.Markers++
		default:
			out.Process.observe(&ev)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	out.Model = builder.Snapshot()
	out.Heap, out.Profile = heap.Result()
	out.Status = f.Status()
	out.ReadErr = f.Err()
	out.LoadTime = time.Since(start)
	if report != nil {
		report(progress(f.Offset()))
	}
	return out, nil
}
