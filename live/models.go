package live

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// pollEvery is the least time between two reads of a stream's recording
// into its models: the models are as fresh as that, and a busy stream is
// read in a few large steps a second instead of one per batch of events.
const pollEvery = 100 * time.Millisecond

// Models is the Sink the app's live window draws from: the timeline (the
// overview of the run, and detail decoded from the recording on demand),
// the heap counters and profile, and the event list, all kept by following
// the stream's recording with the one loader (eventlog.Follow), so that
// however long the program runs, memory stays bounded by the picture; and
// the run's summary, counted from the events as they are added. Every
// method is safe to call from any goroutine.
//
// The recording is read by a goroutine of its own, woken by each batch of
// events added and at most every pollEvery; it ends once the stream has
// ended and the recording has been read to its end. Close the Models when
// done with them (the stream does so as it closes) to release the
// recording's file.
type Models struct {
	stream *Stream
	path   func() string // the recording's file, "" if it has none

	wake   chan struct{}
	ended  chan struct{} // closed by End
	exited chan struct{} // closed when the following goroutine is done
	cancel context.CancelFunc

	mu      sync.Mutex
	summary *timeline.Summarizer
	end     bool
	status  ingest.Status
	snap    *Snapshot
	log     *eventlog.Log // closed by Close
	closed  bool
}

// Snapshot is the models of a stream at one moment. Its fields do not
// change; a later snapshot replaces it.
type Snapshot struct {
	// Log is the followed recording: the timeline.Source of the views
	// (Overview is Model; Detail decodes ranges from the recording) and
	// the reader of the event list's rows. Nil until the recording could
	// be opened, and for a stream recorded only in memory (Err says why).
	Log *eventlog.Log
	// Model is the overview of the run so far (nil with Log).
	Model *timeline.Model
	// Heap is the heap counters and GCs, Profile the heap-profile samples
	// (nil if none).
	Heap    *heapview.Heap
	Profile *heapview.Profile
	// List is every event read so far, in show order (nil with Log).
	List *eventlog.Events
	// Status is how far the recording has been read (StateDecoding while
	// the stream goes on), Events how many events, Size how many bytes.
	Status ingest.Status
	Events int64
	Size   int64
	// Version counts the snapshots of the stream, from 1.
	Version int64
	// Err is why the recording cannot be followed, if it cannot.
	Err error
}

// NewModels returns the models of stream s, following its recording (s
// may be nil: then only the summary is kept, and Summary has no header to
// name the event types with).
func NewModels(s *Stream) *Models {
	m := &Models{stream: s, summary: timeline.NewSummarizer(), wake: make(chan struct{}, 1),
		ended: make(chan struct{}), exited: make(chan struct{})}
	if s == nil {
		close(m.exited)
		return m
	}
	m.path = s.rec.Path
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	go m.follow(ctx)
	return m
}

// Add counts a batch of events into the summary and wakes the reading of
// the recording, which the events come from.
func (m *Models) Add(evs []ingest.Event) {
	m.mu.Lock()
	for i := range evs {
		m.summary.Add(&evs[i])
	}
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// End records how the stream ended, and returns once the recording has
// been read to its end: the models are then final.
func (m *Models) End(st ingest.Status) {
	m.mu.Lock()
	if m.end {
		m.mu.Unlock()
		return
	}
	m.end, m.status = true, st
	m.mu.Unlock()
	close(m.ended)
	<-m.exited
}

// Close stops following the recording and closes its file (the views'
// detail and event list then read nothing new); End then returns at once.
// It waits for the following goroutine to end.
func (m *Models) Close() error {
	if m.cancel != nil {
		m.cancel()
	}
	<-m.exited
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	if m.log != nil {
		return m.log.Close()
	}
	return nil
}

// follow reads the recording into the models until the stream has ended
// and everything recorded has been read, or ctx ends.
func (m *Models) follow(ctx context.Context) {
	defer close(m.exited)
	var log *eventlog.Log
	var openErr error
	var version int64
	publish := func() {
		version++
		snap := &Snapshot{Log: log, Version: version, Err: openErr}
		if log != nil {
			snap.Model, snap.Heap, snap.Profile, snap.List = log.Overview(), log.Heap, log.Profile, log.EventList()
			snap.Status, snap.Events, snap.Size = log.Status, log.Events, log.Size
		}
		m.mu.Lock()
		m.snap = snap
		m.mu.Unlock()
	}
	poll := func() {
		if log == nil {
			if m.stream.Header() == nil {
				return
			}
			path := m.path()
			if path == "" {
				if openErr == nil {
					openErr = errors.New("the stream is recorded only in memory: no timeline can be read from it")
					publish()
				}
				return
			}
			l, err := eventlog.Follow(ctx, path, eventlog.Options{})
			if err != nil {
				// The recording may have been renamed as it was opened
				// (it learns the program's name): tried again next time.
				openErr = fmt.Errorf("following the recording: %w", err)
				publish()
				return
			}
			log, openErr = l, nil
			m.mu.Lock()
			if m.closed {
				m.mu.Unlock()
				l.Close()
				log = nil
				return
			}
			m.log = l
			m.mu.Unlock()
			publish()
		}
		grew, err := log.Poll(ctx)
		if err != nil && ctx.Err() == nil {
			openErr = err
		}
		if grew || err != nil {
			publish()
		}
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	for {
		select {
		case <-ctx.Done():
			return
		case <-m.ended:
			// Everything recorded has been added: read what is left, to
			// the end marker or to the last whole event of a stream that
			// was cut, which then ends there.
			poll()
			if log != nil && log.Following() {
				log.EndFollow()
				publish()
			}
			return
		case <-m.wake:
		}
		poll()
		// At most one read per pollEvery; a wake that comes meanwhile
		// waits for it.
		timer.Reset(pollEvery)
		select {
		case <-ctx.Done():
			return
		case <-m.ended:
			timer.Stop()
			select {
			case m.wake <- struct{}{}:
			default:
			}
			continue
		case <-timer.C:
		}
	}
}

// Snapshot returns the models as last read (nil before the recording's
// header has been read).
func (m *Models) Snapshot() *Snapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.snap
}

// Timeline returns the overview of the run so far (the same *Model until
// more events are read), or nil before any.
func (m *Models) Timeline() *timeline.Model {
	if s := m.Snapshot(); s != nil {
		return s.Model
	}
	return nil
}

// Heap returns the heap counters and heap profile so far.
func (m *Models) Heap() (*heapview.Heap, *heapview.Profile) {
	if s := m.Snapshot(); s != nil && s.Heap != nil {
		return s.Heap, s.Profile
	}
	return &heapview.Heap{}, nil
}

// Summary returns the run's summary statistics so far; its Status is the
// stream's once it has ended, StateDecoding before.
func (m *Models) Summary() timeline.Summary {
	m.mu.Lock()
	defer m.mu.Unlock()
	var h *ingest.Header
	if m.stream != nil {
		h = m.stream.Header()
	}
	st := ingest.Status{State: ingest.StateDecoding}
	if m.end {
		st = m.status
	}
	return m.summary.Summary(h, st)
}

// Ended reports whether the stream has ended, and how.
func (m *Models) Ended() (ingest.Status, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.status, m.end
}
