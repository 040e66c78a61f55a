package live

import (
	"sync"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// Sink takes a stream's events as they arrive. A Stream calls it from one
// goroutine; the Sink must let other goroutines read what it built.
type Sink interface {
	// Add takes the next events of the stream, in stream order. The
	// events, and their Data and Raw, are valid only during the call. A
	// stream joined mid-run begins with a join mark (ingest.JoinMark).
	Add(evs []ingest.Event)
	// End says that the stream is over and every event has been added;
	// st is how the stream ended.
	End(st ingest.Status)
}

// Models is the Sink the app's live window draws from today: the timeline
// (a timeline.Live), the heap counters and profile, and the run's summary,
// all as they grow. Every method is safe to call from any goroutine.
type Models struct {
	live *timeline.Live

	mu      sync.Mutex
	stream  *Stream
	heap    *heapview.Collector
	summary *timeline.Summarizer
	ended   bool
	status  ingest.Status
}

// NewModels returns empty models for stream s (it may be nil: then
// Summary has no header to name the event types with).
func NewModels(s *Stream) *Models {
	return &Models{live: timeline.NewLive(), stream: s, heap: heapview.NewCollector(), summary: timeline.NewSummarizer()}
}

// Add adds a batch of events to every model.
func (m *Models) Add(evs []ingest.Event) {
	m.live.Add(evs)
	m.mu.Lock()
	for i := range evs {
		m.heap.Add(&evs[i])
		m.summary.Add(&evs[i])
	}
	m.mu.Unlock()
}

// End records how the stream ended.
func (m *Models) End(st ingest.Status) {
	m.mu.Lock()
	m.ended, m.status = true, st
	m.mu.Unlock()
}

// Timeline returns a snapshot of the timeline so far (the same *Model
// until more events arrive).
func (m *Models) Timeline() *timeline.Model { return m.live.Snapshot() }

// Heap returns the heap counters and heap profile so far.
func (m *Models) Heap() (*heapview.Heap, *heapview.Profile) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.heap.Result()
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
	if m.ended {
		st = m.status
	}
	return m.summary.Summary(h, st)
}

// Ended reports whether the stream has ended, and how.
func (m *Models) Ended() (ingest.Status, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.status, m.ended
}
