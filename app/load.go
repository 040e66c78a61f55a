package app

import (
	"context"
	"fmt"
	"time"

	"github.com/hecscope/hecscope/ingest"
)

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
	// Caps is the number of capabilities that events were attributed to
	// (the highest capability number plus one).
	Caps int
	// Threads is the number of Haskell threads created.
	Threads int
	// GCs is the number of garbage collections started.
	GCs int
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

	threads := make(map[uint32]struct{})
	var ev ingest.Event
	for f.Next(&ev) {
		out.Events++
		if out.Events&0xFFF == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("loading %s: %w", path, ctx.Err())
		}
		if out.Events == 1 || ev.Time < out.First {
			out.First = ev.Time
		}
		out.Last = max(out.Last, ev.Time)
		if ev.Cap >= 0 {
			out.Caps = max(out.Caps, int(ev.Cap)+1)
		}
		switch ev.Kind {
		case ingest.KindCreateThread:
			threads[ev.Thread()] = struct{}{}
		case ingest.KindGCStart:
			out.GCs++
		case ingest.KindUserMarker, ingest.KindUserMsg:
			out.Markers++
		default:
			out.Process.observe(&ev)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	out.Threads = len(threads)
	out.Status = f.Status()
	out.ReadErr = f.Err()
	out.LoadTime = time.Since(start)
	if report != nil {
		report(progress(f.Offset()))
	}
	return out, nil
}
