package app

import (
	"sync"

	"github.com/hecscope/hecscope/timeline"
)

// navScale is the one time scale and selection that every row of an
// eventlog view shares: zooming, panning or selecting on any row moves them
// all. The span is a timeline.CompareSpan over one run, so the main window
// and the compare window zoom and pan alike.
type navScale struct {
	mu   sync.Mutex // guards span (rows draw on the render loop)
	span timeline.CompareSpan

	// Selection, in ns; hasSel says whether there is one.
	selFrom, selTo uint64
	hasSel         bool

	// rows are redrawn when the view or selection changes.
	rows []*timelineNav

	// Callbacks to the view; either may be nil.
	onView func(from, to uint64)
	// onSelect hears every change of the selection; final is false while
	// a Shift+drag is still moving it.
	onSelect func(from, to uint64, ok, final bool)
}

// newNavScale returns the scale of a run ending at end, showing it whole.
func newNavScale(end uint64) *navScale {
	return &navScale{span: timeline.CompareSpan{EndA: end, EndB: end}}
}

// View returns the visible time range.
func (sc *navScale) View() (from, to uint64) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.span.View()
}

// get returns the span.
func (sc *navScale) get() timeline.CompareSpan {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.span
}

// set shows a new span on every row.
func (sc *navScale) set(sp timeline.CompareSpan) {
	sc.mu.Lock()
	sc.span = sp
	from, to := sp.View()
	sc.mu.Unlock()
	for _, r := range sc.rows {
		r.pic.raster.Refresh()
		r.placeOverlays()
	}
	if sc.onView != nil {
		sc.onView(from, to)
	}
}

// setSelection selects [from, to] (ok false: clears it) on every row;
// final is false while a drag is still moving it.
func (sc *navScale) setSelection(from, to uint64, ok, final bool) {
	if from > to {
		from, to = to, from
	}
	sc.selFrom, sc.selTo, sc.hasSel = from, to, ok && to > from
	for _, r := range sc.rows {
		r.placeOverlays()
	}
	if sc.onSelect != nil {
		sc.onSelect(sc.selFrom, sc.selTo, sc.hasSel, final)
	}
}
