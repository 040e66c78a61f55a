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

// eventQuery is what a search looks for; an empty field matches anything.
type eventQuery struct {
	text   []byte // lower-case substring of the event text
	kind   ingest.Kind
	byKind bool
	thread uint32
	byThr  bool
	cap    int32
	byCap  bool
}

// threadOf returns the thread an event is about, if it is a thread event.
func threadOf(ev *ingest.Event) (uint32, bool) {
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
func (q *eventQuery) match(h *ingest.Header, ev *ingest.Event, buf []byte) (bool, []byte) {
	if q.byKind && ev.Kind != q.kind {
		return false, buf
	}
	if q.byCap && ev.Cap != q.cap {
		return false, buf
	}
	if q.byThr {
		if th, ok := threadOf(ev); !ok || th != q.thread {
			return false, buf
		}
	}
	if len(q.text) == 0 {
		return true, buf
	}
	buf = appendShownText(buf[:0], h, ev)
	lowerASCII(buf)
	return bytes.Contains(buf, q.text), buf
}

// maxHits is the most hits a search keeps (8 bytes each): a query that
// matches more keeps the first maxHits and says so.
const maxHits = 1 << 20

// findEvents returns the rows of x (a log with header h) matching q, in
// order, at most maxHits of them (more reports whether there were more). It
// calls progress (if not nil) every 2^18 rows with the rows scanned, and
// gives up, returning ok false, as soon as stop returns true. It reads the
// whole log from the file, a bucket at a time, in bounded memory.
func findEvents(x *eventlog.Events, h *ingest.Header, q *eventQuery, progress func(done int64), stop func() bool) (hits []int64, more, ok bool, err error) {
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

// eventSearch is the search bar over the event list: a text box, filters
// for kind, thread and HEC, Previous and Next; status (shown under the list)
// says how far a search has got or how many hits it found.
type eventSearch struct {
	l              *EventList
	text           *kit.KeyEntry
	kind           *kit.KeySelect
	thread, hec    *kit.KeyEntry
	status         *widget.Label
	bar            fyne.CanvasObject
	mu             sync.Mutex // guards gen
	gen            int        // counts searches; a running one stops when it changes
	hits           []int64    // rows of the last search, on the UI goroutine
	more           bool       // the search found more than maxHits
	key            string     // the query hits answer
	pendingForward bool
	// onDone (tests) hears when a search has finished.
	onDone func()
	// do runs a function on the UI goroutine: fyne.Do, or in tests (whose
	// driver runs fyne.Do on the calling goroutine) the test's own loop.
	do func(func())
}

// newEventSearch returns the search bar of l.
func newEventSearch(l *EventList) *eventSearch {
	s := &eventSearch{l: l, do: kit.OnUI}
	s.text = kit.NewKeyEntry()
	s.text.SetPlaceHolder("Find in events (Enter: next)")
	s.text.OnSubmitted = func(string) { s.step(true) }
	kinds := []string{anyKind}
	for _, k := range l.kinds {
		kinds = append(kinds, k.String())
	}
	s.kind = kit.NewKeySelect(kinds, nil)
	s.kind.SetSelected(anyKind)
	s.thread = kit.NewKeyEntry()
	s.thread.SetPlaceHolder("thread")
	s.thread.OnSubmitted = func(string) { s.step(true) }
	s.hec = kit.NewKeyEntry()
	s.hec.SetPlaceHolder("HEC")
	s.hec.OnSubmitted = func(string) { s.step(true) }
	s.status = widget.NewLabel("")
	prev := widget.NewButton("Previous", func() { s.step(false) })
	next := widget.NewButton("Next", func() { s.step(true) })
	filters := container.NewHBox(s.kind, container.NewGridWrap(fyne.NewSize(90, s.thread.MinSize().Height), s.thread),
		container.NewGridWrap(fyne.NewSize(70, s.hec.MinSize().Height), s.hec), prev, next)
	s.bar = container.NewBorder(nil, nil, nil, filters, s.text)
	return s
}

// query reads the bar; it returns an error for a thread or HEC that is not
// a number.
func (s *eventSearch) query() (*eventQuery, error) {
	q := &eventQuery{text: []byte(strings.TrimSpace(s.text.Text))}
	lowerASCII(q.text)
	if k := s.kind.Selected; k != "" && k != anyKind {
		for _, kk := range s.l.kinds {
			if kk.String() == k {
				q.kind, q.byKind = kk, true
			}
		}
	}
	if t := strings.TrimSpace(s.thread.Text); t != "" {
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
func (q *eventQuery) key() string {
	return fmt.Sprintf("%q/%v%d/%v%d/%v%d", q.text, q.byKind, q.kind, q.byThr, q.thread, q.byCap, q.cap)
}

// step goes to the next (forward) or previous hit of the bar's query,
// searching first, off the UI goroutine, if the query has changed.
func (s *eventSearch) step(forward bool) {
	q, err := s.query()
	if err != nil {
		s.status.SetText(err.Error())
		return
	}
	if !q.byKind && !q.byThr && !q.byCap && len(q.text) == 0 {
		s.status.SetText("Type text or choose a filter")
		return
	}
	if k := q.key(); k == s.key && s.hits != nil {
		s.jump(forward)
		return
	}
	s.mu.Lock()
	s.gen++
	gen := s.gen
	s.mu.Unlock()
	s.key, s.hits, s.pendingForward = q.key(), nil, forward
	s.status.SetText("Searching…")
	x, h := s.l.x, s.l.header
	stale := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.gen != gen
	}
	go func() {
		hits, more, ok, err := findEvents(x, h, q, func(done int64) {
			pct := 100 * done / max(1, x.Len())
			s.do(func() {
				if !stale() {
					s.status.SetText(fmt.Sprintf("Searching… %d%%", pct))
				}
			})
		}, stale)
		if !ok {
			return
		}
		s.do(func() {
			if stale() {
				return
			}
			s.hits, s.more = hits, more
			if hits == nil {
				s.hits = []int64{}
			}
			s.jump(s.pendingForward)
			if err != nil {
				s.status.SetText(s.status.Text + fmt.Sprintf(" (the search stopped: %v)", err))
			}
			if s.onDone != nil {
				s.onDone()
			}
		})
	}()
}

// jump selects the hit after (forward) or before the selected row, or
// after the view's start if no row is selected, wrapping around.
func (s *eventSearch) jump(forward bool) {
	if len(s.hits) == 0 {
		s.status.SetText("No hits")
		return
	}
	cur := s.l.selected
	var h int
	if cur < 0 {
		from, _ := s.l.Nav.View()
		start := int64(s.l.rowAt(from))
		h, _ = slices.BinarySearch(s.hits, start)
		if !forward {
			h--
		}
	} else if forward {
		h, _ = slices.BinarySearch(s.hits, int64(cur+1))
	} else {
		h, _ = slices.BinarySearch(s.hits, int64(cur))
		h--
	}
	h = (h + len(s.hits)) % len(s.hits)
	s.l.selectRow(int(s.hits[h]))
	if s.more {
		s.status.SetText(fmt.Sprintf("%d of the first %d hits", h+1, len(s.hits)))
		return
	}
	s.status.SetText(fmt.Sprintf("%d of %d hits", h+1, len(s.hits)))
}
