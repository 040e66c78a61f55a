package tracks

import (
	"sync"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// Prepared is what a view derives from a run's overview once and keeps:
// which inks the run holds (for the legend) and the user spans placed in
// their rows. A view makes them when first drawn; for a big log that is a
// few tenths of a second or more (they read the spans not laid out as the
// log loaded, SpanRows, and the tracks of the threads the model has not
// summed up, timeline.SettledStates), which
// Prepare lets a loader spend on its own goroutines, beside other work,
// before the window's first picture of the log.
type Prepared struct {
	ov      *timeline.Model
	present [paint.NumInks]bool
	users   *userIndex
}

// Prepare derives what a view of m needs for its first picture, the inks
// and the spans' rows at the same time. rows, if not nil, are the spans
// laid out as m's log loaded: only those they have not taken are laid out
// then (rows must not be used afterwards). It may be called from any
// goroutine; m must not change while it runs. Give the result to one view
// (View.UsePrepared): the view goes on adding to it.
func Prepare(m *timeline.Model, rows *SpanRows) *Prepared {
	p := &Prepared{ov: m}
	if m == nil {
		return p
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.present = presentInks(m)
	}()
	p.users = rows.index(m)
	wg.Wait()
	return p
}

// SpanRows lays out the user spans' rows of a log as it loads, from the
// spans stopped so far that its loader reports (eventlog.Progress.Spans),
// on a goroutine of its own beside the load: Prepare then has only those
// stopped since the last report to lay out. The layout is that of the
// spans, in the order the log has them; a log's spans are the first of
// those of its later snapshots and of its final model, at the same
// places.
type SpanRows struct {
	mu     sync.Mutex
	latest timeline.StoppedSpans // the most reported
	busy   bool                  // the goroutine is laying them out
	closed bool                  // Prepare has taken the rows
	stuck  bool                  // at a span only the final model can place
	idle   sync.WaitGroup        // done when the goroutine is not busy
	// rows and last are the goroutine's while busy, Prepare's once
	// closed: last is the latest span taken, to check that the final
	// model's spans are those laid out.
	rows *threadRows
	last timeline.UserSpan
}

// NewSpanRows returns rows with no spans taken yet.
func NewSpanRows() *SpanRows { return &SpanRows{rows: newThreadRows()} }

// Take hands r the spans a loading log has stopped so far, those of one of
// its reports; it returns at once, and may be called from any goroutine.
func (r *SpanRows) Take(s timeline.StoppedSpans) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.stuck || s.Len() <= r.latest.Len() {
		return
	}
	r.latest = s
	if !r.busy {
		r.busy = true
		r.idle.Add(1)
		go r.layOut()
	}
}

// layOut takes the latest spans reported until it has taken them all.
func (r *SpanRows) layOut() {
	defer r.idle.Done()
	for {
		r.mu.Lock()
		s := r.latest
		if r.closed || s.Len() <= r.rows.order.taken {
			r.busy = false
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
		r.rows.take(s)
		taken := r.rows.order.taken
		if taken > 0 {
			r.last = s.From(taken-1, r.rows.buf)[0]
		}
		if taken < s.Len() {
			// At a span only the final model can place.
			r.mu.Lock()
			r.busy, r.stuck = false, true
			r.mu.Unlock()
			return
		}
	}
}

// index returns the spans of m in their rows: those r has laid out (which
// m must have at the same places), then the rest. It lays them all out if
// r is nil or what it took is not m's.
func (r *SpanRows) index(m *timeline.Model) *userIndex {
	if r == nil {
		return newUserIndex(m)
	}
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.idle.Wait()
	if taken := r.rows.order.taken; taken > 0 && (taken > m.NumUserSpans() || m.UserSpan(taken-1) != r.last) {
		return newUserIndex(m)
	}
	return r.rows.index(m)
}

// UsePrepared gives the view what Prepare derived from its overview, so
// that it need not derive it again. It does nothing when p is nil or was
// made from another model than the one the view shows.
func (v *View) UsePrepared(p *Prepared) {
	ov := v.overview()
	if p == nil || ov == nil || p.ov != ov {
		return
	}
	v.present = presentCache{ov: ov, present: p.present}
	v.users = p.users
}
