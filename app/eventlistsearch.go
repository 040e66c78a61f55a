package app

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
	buf = ingest.AppendEventText(buf[:0], h, ev)
	lowerASCII(buf)
	return bytes.Contains(buf, q.text), buf
}

// findEvents returns the rows of x matching q, in order. It calls progress
// (if not nil) every 2^18 rows with the rows scanned, and gives up,
// returning false, as soon as stop returns true.
func findEvents(x *eventIndex, q *eventQuery, progress func(done int), stop func() bool) ([]int32, bool) {
	dec := x.newRowDecoder()
	var ev ingest.Event
	var buf []byte
	var hits []int32
	stopped := false
	// One guard over the whole scan: a row that faults (the file was cut
	// short on disk) is skipped and the scan resumes after it.
	for i := 0; i < x.Len() && !stopped; i++ {
		x.safely(func() {
			for ; i < x.Len(); i++ {
				if i&(1<<18-1) == 0 && i > 0 {
					if stop != nil && stop() {
						stopped = true
						return
					}
					if progress != nil {
						progress(i)
					}
				}
				if dec.row(i, &ev) != nil {
					continue
				}
				var ok bool
				if ok, buf = q.match(x.header, &ev, buf); ok {
					hits = append(hits, int32(i))
				}
			}
		})
		dec.d = nil
	}
	if stopped {
		return nil, false
	}
	return hits, true
}

// eventSearch is the search bar over the event list: a text box, filters
// for kind, thread and HEC, Previous and Next; status (shown under the list)
// says how far a search has got or how many hits it found.
type eventSearch struct {
	l              *eventList
	text           *keyEntry
	kind           *keySelect
	thread, hec    *keyEntry
	status         *widget.Label
	bar            fyne.CanvasObject
	mu             sync.Mutex // guards gen
	gen            int        // counts searches; a running one stops when it changes
	hits           []int32    // rows of the last search, on the UI goroutine
	key            string     // the query hits answer
	pendingForward bool
	// onDone (tests) hears when a search has finished.
	onDone func()
	// do runs a function on the UI goroutine: fyne.Do, or in tests (whose
	// driver runs fyne.Do on the calling goroutine) the test's own loop.
	do func(func())
}

// newEventSearch returns the search bar of l.
func newEventSearch(l *eventList) *eventSearch {
	s := &eventSearch{l: l, do: onUI}
	s.text = newKeyEntry()
	s.text.SetPlaceHolder("Find in events (Enter: next)")
	s.text.OnSubmitted = func(string) { s.step(true) }
	kinds := []string{anyKind}
	for _, k := range l.x.kinds {
		kinds = append(kinds, k.String())
	}
	s.kind = newKeySelect(kinds, nil)
	s.kind.SetSelected(anyKind)
	s.thread = newKeyEntry()
	s.thread.SetPlaceHolder("thread")
	s.thread.OnSubmitted = func(string) { s.step(true) }
	s.hec = newKeyEntry()
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
		for _, kk := range s.l.x.kinds {
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
	x := s.l.x
	stale := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.gen != gen
	}
	go func() {
		hits, ok := findEvents(x, q, func(done int) {
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
			s.hits = hits
			if hits == nil {
				s.hits = []int32{}
			}
			s.jump(s.pendingForward)
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
		from, _ := s.l.nav.View()
		start := int32(s.l.x.Search(from))
		h, _ = slices.BinarySearch(s.hits, start)
		if !forward {
			h--
		}
	} else if forward {
		h, _ = slices.BinarySearch(s.hits, int32(cur+1))
	} else {
		h, _ = slices.BinarySearch(s.hits, int32(cur))
		h--
	}
	h = (h + len(s.hits)) % len(s.hits)
	s.l.selectRow(int(s.hits[h]))
	s.status.SetText(fmt.Sprintf("%d of %d hits", h+1, len(s.hits)))
}
