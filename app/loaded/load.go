package loaded

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/hecscope/hecscope/advise"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// Progress is how far loading a file has got.
type Progress struct {
	// Bytes is how many bytes have been read, of Total (the file size).
	Bytes, Total int64
	// events is how many events have been decoded.
	events int64
	// elapsed is the time since loading began.
	elapsed time.Duration
	// Model is the overview of the events decoded so far, when a new one
	// has been taken since the last report; nil otherwise and for heap
	// profiles.
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
	if p.elapsed <= 0 {
		return 0
	}
	return float64(p.events) / p.elapsed.Seconds()
}

// String describes the progress as "12.3 MB of 100 MB · 456k events · 2.1M events/s".
func (p Progress) String() string {
	return fmt.Sprintf("%s of %s · %s events · %s events/s",
		kit.FormatBytes(p.Bytes), kit.FormatBytes(p.Total), kit.FormatCount(float64(p.events)), kit.FormatCount(p.EventsPerSecond()))
}

// Eventlog is a loaded eventlog as a view shows it: the loader's Log, which
// stays the timeline's Source (its overview, and detail decoded from the
// file on demand) and the event list's rows, and a snapshot of the run's
// figures. A followed log (a live session) grows; a view takes a new
// snapshot (newEventlog) whenever it refreshes, and keeps showing the old
// one while paused.
type Eventlog struct {
	// Log is the loaded log: the timeline.Source the timeline draws, and
	// where the event list reads its rows.
	Log *eventlog.Log
	// Path is the file that was read, and Size the length in bytes (so
	// far) of what was loaded: the file, or the segment.
	Path string
	Size int64
	// Segments are the eventlogs of a file holding several one after
	// another (nil or one for an ordinary file), and Segment the one shown
	// (0-based); see eventlog.Log.Segments.
	Segments []eventlog.Segment
	Segment  int
	// Status says whether the log was complete, truncated or corrupt, and where.
	Status ingest.Status
	// Events is the number of events decoded, block markers included.
	Events int64
	// Summary is the run's statistics (ThreadScope's definitions) and the
	// process that wrote it; SummaryErr says why there is none.
	Summary    timeline.Summary
	SummaryErr error
	// Model is the run's timeline: the Log's overview when the snapshot
	// was taken (exact for a small log; summarised per time bucket for a
	// large one, with Log.Detail giving the exact detail of a range).
	Model *timeline.Model
	// Heap is the RTS's heap counters and GCs; Profile the heap-profile
	// samples, nil if the log has none.
	Heap    *heapview.Heap
	Profile *heapview.Profile
	// List is every event in show order, read from the file when shown
	// (nil if the log has none).
	List *eventlog.Events
	// LoadTime is how long loading took.
	LoadTime time.Duration
	// Markers are the log's user markers, for the bookmarks and the finder.
	Markers []BookmarkMark
	// Findings are advise's findings over the whole run, and analysed
	// says whether they were looked for (the window does as it loads the
	// log, so that the canvas flags them from the start).
	Findings []advise.Finding
	Analysed bool
	// Prepared is what the timeline's view derives from Model before its
	// first picture (tracks.Prepare), made as the log loads; nil if not.
	Prepared *tracks.Prepared
}

// newEventlog takes a snapshot of l's figures. For a followed log it must
// be called from the goroutine that polls it (or with the polling stopped).
func newEventlog(l *eventlog.Log) *Eventlog {
	ev := &Eventlog{
		Log: l, Path: l.Path, Size: l.Size, Status: l.Status, Events: l.Events,
		Summary: l.Summary, SummaryErr: l.SummaryErr, Model: l.Overview(),
		Heap: l.Heap, Profile: l.Profile, List: l.EventList(), LoadTime: l.LoadTime,
		Segments: l.Segments, Segment: l.Segment,
	}
	ev.Markers = MarkersOf(ev.Model)
	return ev
}

// MarkersOf returns the user markers of m in time order (nil without m).
func MarkersOf(m *timeline.Model) []BookmarkMark {
	if m == nil {
		return nil
	}
	out := make([]BookmarkMark, m.NumMarkers())
	for i := range out {
		mk := m.Marker(i)
		out[i] = BookmarkMark{Time: mk.Time, Text: m.String(int32(mk.Arg))}
	}
	return out
}

// LoadEventlog loads the eventlog file at path through the one loader
// (eventlog.Open) with opt: the window gives the segment of the file to
// show (opt.Segment, 0-based; 0 for a file of one eventlog), and the
// loader's defaults otherwise. It calls report (if not nil; it replaces
// opt.Progress) from the loading goroutine, at most every 50 ms and once
// at the end, with how far it has got (the segment's bytes) and, now and
// then, an overview of what has been read (the first picture). A log that
// is truncated or corrupt is not an error: what could be read is returned
// and Status says where and why. An error is returned if the file cannot
// be read, is not an eventlog, has no such segment, or ctx is cancelled.
// The Log must be closed when its views are gone.
func LoadEventlog(ctx context.Context, path string, opt eventlog.Options, report func(Progress)) (*Eventlog, error) {
	if report != nil {
		opt.Progress = func(p eventlog.Progress) {
			report(Progress{Bytes: p.Bytes, Total: p.Total, events: p.Events, elapsed: p.Elapsed, Model: p.Model})
		}
	}
	l, err := eventlog.Open(ctx, path, opt)
	if err != nil {
		return nil, err
	}
	if report != nil { // the whole file has been read
		report(Progress{Bytes: l.Size, Total: l.Size, events: l.Events, elapsed: l.LoadTime})
	}
	return newEventlog(l), nil
}

// SegmentName says which eventlog of a file a window shows: "segment 2 of
// 4" (seg 0-based, of segments), "segment 2" while their number is not
// known, "" for the first of a file of one (or not known to hold more).
func SegmentName(seg, of int) string {
	switch {
	case of > 1:
		return fmt.Sprintf("segment %d of %d", seg+1, of)
	case seg > 0:
		return fmt.Sprintf("segment %d", seg+1)
	}
	return ""
}

// SegmentBytes returns the bytes of the file that ev shows, if it is one
// eventlog of several.
func (ev *Eventlog) SegmentBytes() (eventlog.Segment, bool) {
	if len(ev.Segments) < 2 {
		return eventlog.Segment{}, false
	}
	return ev.Segments[ev.Segment], true
}

// BookmarkKey is what the user's bookmarks of ev are kept under: its
// file, and which segment of it.
func (ev *Eventlog) BookmarkKey() string {
	if len(ev.Segments) < 2 {
		return ev.Path
	}
	return ev.Path + "#segment" + strconv.Itoa(ev.Segment+1)
}

// SummarizeLogRange is summarizeFileRange over the eventlog ev shows:
// its segment of the file only, for a file holding several.
func SummarizeLogRange(ev *Eventlog, from, to uint64) (timeline.Summary, error) {
	g, ok := ev.SegmentBytes()
	if !ok {
		return summarizeFileRange(ev.Path, from, to)
	}
	f, err := os.Open(ev.Path)
	if err != nil {
		return timeline.Summary{}, fmt.Errorf("summarising %s: %w", ev.Path, err)
	}
	defer f.Close()
	src := bufio.NewReaderSize(io.NewSectionReader(f, g.Offset, g.End-g.Offset), 1<<20)
	s, err := timeline.SummarizeRange(src, from, to)
	if err != nil {
		return s, fmt.Errorf("summarising %s %s: %w", ev.Path, SegmentName(ev.Segment, len(ev.Segments)), err)
	}
	return s, nil
}

// summarizeFileRange reads the eventlog at path again and summarises the
// events in [from, to].
func summarizeFileRange(path string, from, to uint64) (timeline.Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return timeline.Summary{}, fmt.Errorf("summarising %s: %w", path, err)
	}
	defer f.Close()
	s, err := timeline.SummarizeRange(bufio.NewReaderSize(f, 1<<20), from, to)
	if err != nil {
		return s, fmt.Errorf("summarising %s: %w", path, err)
	}
	return s, nil
}

// LoadHeapProfile parses the .hp file at path, reporting progress by bytes.
func LoadHeapProfile(ctx context.Context, path string, report func(Progress)) (*ingest.HeapProfile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening heap profile: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("opening heap profile: %w", err)
	}
	start := time.Now()
	var last time.Time
	cr := &countingReader{ctx: ctx, r: f, report: func(read int64) {
		if now := time.Now(); report != nil && now.Sub(last) >= progressEvery {
			last = now
			report(Progress{Bytes: read, Total: st.Size(), elapsed: time.Since(start)})
		}
	}}
	p, err := ingest.ParseHeapProfile(cr)
	if err != nil {
		return nil, fmt.Errorf("reading heap profile %s: %w", path, err)
	}
	return p, nil
}

// countingReader reports, from the goroutine that reads, how much of a file
// has been read; it fails the read once ctx is cancelled.
type countingReader struct {
	ctx    context.Context
	r      io.Reader
	read   int64
	report func(read int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.r.Read(p)
	c.read += int64(n)
	c.report(c.read)
	return n, err
}

// progressEvery is the least time between two progress reports of a heap
// profile being read.
const progressEvery = 50 * time.Millisecond

// BookmarkMark is a USER_MARKER of the log: its time and text.
type BookmarkMark struct {
	Time uint64
	Text string
}
