package panels

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/ingest"
)

// anyKind is the kind filter's choice that matches every kind.
const anyKind = "Any kind"

// EventQuery is what a search looks for; an empty field matches anything.
type EventQuery struct {
	Text   []byte // lower-case substring of the event text
	kind   ingest.Kind
	byKind bool
	thread uint32
	byThr  bool
	cap    int32
	byCap  bool
}

// ThreadOf returns the thread an event is about, if it is a thread event.
func ThreadOf(ev *ingest.Event) (uint32, bool) {
	switch ev.Kind {
	case ingest.KindCreateThread, ingest.KindRunThread, ingest.KindStopThread,
		ingest.KindThreadRunnable, ingest.KindMigrateThread, ingest.KindThreadWakeup,
		ingest.KindCreateSparkThread, ingest.KindThreadLabel:
		return ev.Thread(), true
	}
	return 0, false
}

// lowerASCII lower-cases the ASCII letters of b in place.
func lowerASCII(b []byte) {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}

// match reports whether ev matches q; buf is scratch space for its text,
// returned grown.
func (q *EventQuery) match(h *ingest.Header, ev *ingest.Event, buf []byte) (bool, []byte) {
	if q.byKind && ev.Kind != q.kind {
		return false, buf
	}
	if q.byCap && ev.Cap != q.cap {
		return false, buf
	}
	if q.byThr {
		if th, ok := ThreadOf(ev); !ok || th != q.thread {
			return false, buf
		}
	}
	if len(q.Text) == 0 {
		return true, buf
	}
	buf = appendShownText(buf[:0], h, ev)
	lowerASCII(buf)
	return bytes.Contains(buf, q.Text), buf
}

// maxHits is the most hits a search keeps (8 bytes each): a query that
// matches more keeps the first maxHits and says so.
const maxHits = 1 << 20

// FindEvents returns the rows of x (a log with header h) matching q, in
// order, at most maxHits of them (more reports whether there were more). It
// calls progress (if not nil) every 2^18 rows with the rows scanned, and
// gives up, returning ok false, as soon as stop returns true. It reads the
// whole log from the file, a bucket at a time, in bounded memory.
func FindEvents(x *eventlog.Events, h *ingest.Header, q *EventQuery, progress func(done int64), stop func() bool) (hits []int64, more, ok bool, err error) {
	var buf []byte
	stopped := false
	err = x.Scan(0, true, func(i int64, ev *ingest.Event) bool {
		if i&(1<<18-1) == 0 && i > 0 {
			if stop != nil && stop() {
				stopped = true
				return false
			}
			if progress != nil {
				progress(i)
			}
		}
		var m bool
		if m, buf = q.match(h, ev, buf); m {
			if len(hits) == maxHits {
				more = true
				return false
			}
			hits = append(hits, i)
		}
		return true
	})
	if stopped {
		return nil, false, false, nil
	}
	return hits, more, true, err
}

// EventSearch is the search bar over the event list: a text box, filters
// for kind, thread and HEC, Previous and Next; status (shown under the list)
// says how far a search has got or how many hits it found.
type EventSearch struct {
	l              *EventList
	Text           *kit.KeyEntry
	Kind           *kit.KeySelect
	Thread, hec    *kit.KeyEntry
	Status         *widget.Label
	bar            fyne.CanvasObject
	mu             sync.Mutex // guards gen
	gen            int        // counts searches; a running one stops when it changes
	Hits           []int64    // rows of the last search, on the UI goroutine
	more           bool       // the search found more than maxHits
	key            string     // the query hits answer
	pendingForward bool
	// OnDone (tests) hears when a search has finished.
	OnDone func()
	// Do runs a function on the UI goroutine: fyne.Do, or in tests (whose
	// driver runs fyne.Do on the calling goroutine) the test's own loop.
	Do func(func())
}

// newEventSearch returns the search bar of l.
func newEventSearch(l *EventList) *EventSearch {
	s := &EventSearch{l: l, Do: kit.OnUI}
	s.Text = kit.NewKeyEntry()
	s.Text.SetPlaceHolder("Find in events (Enter: next)")
	s.Text.OnSubmitted = func(string) { s.Step(true) }
	kinds := []string{anyKind}
	for _, k := range l.kinds {
		kinds = append(kinds, k.String())
	}
	s.Kind = kit.NewKeySelect(kinds, nil)
	s.Kind.SetSelected(anyKind)
	s.Thread = kit.NewKeyEntry()
	s.Thread.SetPlaceHolder("thread")
	s.Thread.OnSubmitted = func(string) { s.Step(true) }
	s.hec = kit.NewKeyEntry()
	s.hec.SetPlaceHolder("HEC")
	s.hec.OnSubmitted = func(string) { s.Step(true) }
	s.Status = widget.NewLabel("")
	prev := widget.NewButton("Previous", func() { s.Step(false) })
	next := widget.NewButton("Next", func() { s.Step(true) })
	filters := container.NewHBox(s.Kind, container.NewGridWrap(fyne.NewSize(90, s.Thread.MinSize().Height), s.Thread),
		container.NewGridWrap(fyne.NewSize(70, s.hec.MinSize().Height), s.hec), prev, next)
	s.bar = container.NewBorder(nil, nil, nil, filters, s.Text)
	return s
}

// query reads the bar; it returns an error for a thread or HEC that is not
// a number.
func (s *EventSearch) query() (*EventQuery, error) {
	q := &EventQuery{Text: []byte(strings.TrimSpace(s.Text.Text))}
	lowerASCII(q.Text)
	if k := s.Kind.Selected; k != "" && k != anyKind {
		for _, kk := range s.l.kinds {
			if kk.String() == k {
				q.kind, q.byKind = kk, true
			}
		}
	}
	if t := strings.TrimSpace(s.Thread.Text); t != "" {
		n, err := strconv.ParseUint(t, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("thread %q is not a number", t)
		}
		q.thread, q.byThr = uint32(n), true
	}
	if t := strings.TrimSpace(s.hec.Text); t != "" {
		n, err := strconv.ParseUint(t, 10, 16)
		if err != nil {
			return nil, fmt.Errorf("HEC %q is not a number", t)
		}
		q.cap, q.byCap = int32(n), true
	}
	return q, nil
}

// key identifies a query, to tell whether the last hits still answer it.
func (q *EventQuery) key() string {
	return fmt.Sprintf("%q/%v%d/%v%d/%v%d", q.Text, q.byKind, q.kind, q.byThr, q.thread, q.byCap, q.cap)
}

// Step goes to the next (forward) or previous hit of the bar's query,
// searching first, off the UI goroutine, if the query has changed.
func (s *EventSearch) Step(forward bool) {
	q, err := s.query()
	if err != nil {
		s.Status.SetText(err.Error())
		return
	}
	if !q.byKind && !q.byThr && !q.byCap && len(q.Text) == 0 {
		s.Status.SetText("Type text or choose a filter")
		return
	}
	if k := q.key(); k == s.key && s.Hits != nil {
		s.jump(forward)
		return
	}
	s.mu.Lock()
	s.gen++
	gen := s.gen
	s.mu.Unlock()
	s.key, s.Hits, s.pendingForward = q.key(), nil, forward
	s.Status.SetText("Searching…")
	x, h := s.l.X, s.l.header
	stale := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.gen != gen
	}
	go func() {
		hits, more, ok, err := FindEvents(x, h, q, func(done int64) {
			pct := 100 * done / max(1, x.Len())
			s.Do(func() {
				if !stale() {
					s.Status.SetText(fmt.Sprintf("Searching… %d%%", pct))
				}
			})
		}, stale)
		if !ok {
			return
		}
		s.Do(func() {
			if stale() {
				return
			}
			s.Hits, s.more = hits, more
			if hits == nil {
				s.Hits = []int64{}
			}
			s.jump(s.pendingForward)
			if err != nil {
				s.Status.SetText(s.Status.Text + fmt.Sprintf(" (the search stopped: %v)", err))
			}
			if s.OnDone != nil {
				s.OnDone()
			}
		})
	}()
}

// jump selects the hit after (forward) or before the selected row, or
// after the view's start if no row is selected, wrapping around.
func (s *EventSearch) jump(forward bool) {
	if len(s.Hits) == 0 {
		s.Status.SetText("No hits")
		return
	}
	cur := s.l.Selected
	var h int
	if cur < 0 {
		from, _ := s.l.Nav.View()
		start := int64(s.l.RowAt(from))
		h, _ = slices.BinarySearch(s.Hits, start)
		if !forward {
			h--
		}
	} else if forward {
		h, _ = slices.BinarySearch(s.Hits, int64(cur+1))
	} else {
		h, _ = slices.BinarySearch(s.Hits, int64(cur))
		h--
	}
	h = (h + len(s.Hits)) % len(s.Hits)
	s.l.SelectRow(int(s.Hits[h]))
	if s.more {
		s.Status.SetText(fmt.Sprintf("%d of the first %d hits", h+1, len(s.Hits)))
		return
	}
	s.Status.SetText(fmt.Sprintf("%d of %d hits", h+1, len(s.Hits)))
}
