package timeline

import (
	"sync"

	"github.com/hecscope/hecscope/ingest"
)

// Live is a model that grows while a program runs: one goroutine adds events,
// any number take snapshots and read them without locks. A snapshot never
// changes; a new one costs time in the number of threads and HECs only.
type Live struct {
	mu    sync.Mutex
	b     *Builder
	snap  *Model
	stale bool
}

// NewLive returns an empty live model.
func NewLive() *Live { return &Live{b: NewBuilder(), stale: true} }

// Add adds a batch of events, in file order.
func (l *Live) Add(evs []ingest.Event) {
	l.mu.Lock()
	for i := range evs {
		l.b.Add(&evs[i])
	}
	l.stale = l.stale || len(evs) > 0
	l.mu.Unlock()
}

// AddOne adds one event (Add is cheaper per event).
func (l *Live) AddOne(ev *ingest.Event) {
	l.mu.Lock()
	l.b.Add(ev)
	l.stale = true
	l.mu.Unlock()
}

// Snapshot returns the model of the events added so far; it is the same
// *Model until more events arrive.
func (l *Live) Snapshot() *Model {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stale || l.snap == nil {
		l.snap = l.b.Snapshot()
		l.stale = false
	}
	return l.snap
}
