package app

import (
	"sync"

	"github.com/hecscope/hecscope/timeline"
)

// navScale is the one time scale and selection that every row of an
// eventlog view shares: zooming, panning or selecting on any row moves them
// all. The span is a timeline.Viewport over one run, so the main window
// and the compare window zoom and pan alike.
type navScale struct {
	mu   sync.Mutex // guards span, follow and followWidth (rows draw on the render loop)
	span timeline.Viewport
	// follow says the view's right edge stays at the run's end as the run
	// grows (a live view): true while the right edge is at the end.
	// followWidth is the width it then keeps (0: the whole run).
	follow      bool
	followWidth uint64
	// grows says the run is live: keyboard zooms of a view that follows
	// keep its right edge at the end, so it goes on following.
	grows bool

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
	return &navScale{span: timeline.Viewport{EndA: end, EndB: end}, follow: true}
}

// following reports whether the view follows the run's end as it grows.
func (sc *navScale) following() bool {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.follow
}

// followed returns the width kept while following (0: the whole run).
func (sc *navScale) followed() uint64 {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.followWidth
}

// noteFollow decides, after the view moved to sp, whether it follows the
// end: it does when its right edge is at the run's end, keeping its width
// (the whole run if it shows all of it). sc.mu is held.
func (sc *navScale) noteFollow(sp timeline.Viewport) {
	from, to := sp.View()
	sc.follow = to >= sp.Length()
	switch {
	case !sc.follow:
	case from == 0:
		sc.followWidth = 0
	default:
		sc.followWidth = to - from
	}
}

// followSpan gives the view of a run as it stands when following with
// width w (0: the whole run).
func followSpan(sp timeline.Viewport, w uint64) timeline.Viewport {
	n := sp.Length()
	if w == 0 || w >= n {
		sp.From, sp.To = 0, 0
		return sp
	}
	sp.From, sp.To = n-w, n
	return sp
}

// followLast shows the last width ns of the run (0: all of it) and follows
// the end with that width as the run grows.
func (sc *navScale) followLast(width uint64) {
	sc.mu.Lock()
	sp := followSpan(sc.span, width)
	sc.span, sc.follow, sc.followWidth = sp, true, width
	sc.mu.Unlock()
	sc.changed(sp)
}

// extend makes the run end at end (a live run has grown). A view that
// follows the end moves with it, keeping its width; any other view stays
// where it is.
func (sc *navScale) extend(end uint64) {
	sc.mu.Lock()
	sp := sc.span
	if from, to := sp.View(); !sc.follow && sp.To == 0 {
		sp.From, sp.To = from, to // pin a view that is not following
	}
	sp.EndA, sp.EndB = end, end
	if sc.follow {
		sp = followSpan(sp, sc.followWidth)
	}
	changed := sp != sc.span
	sc.span = sp
	sc.mu.Unlock()
	if changed {
		sc.changed(sp)
	}
}

// View returns the visible time range.
func (sc *navScale) View() (from, to uint64) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.span.View()
}

// get returns the span.
func (sc *navScale) get() timeline.Viewport {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.span
}

// set shows a new span on every row: the user moved the view. It follows
// the run's end from now on if its right edge is there.
func (sc *navScale) set(sp timeline.Viewport) {
	sc.mu.Lock()
	if sp != sc.span || !sc.follow {
		// Moving to where it already is (End at the end) keeps the
		// followed width.
		sc.noteFollow(sp)
	}
	sc.span = sp
	sc.mu.Unlock()
	sc.changed(sp)
}

// changed redraws every row for the span sp and tells the view.
func (sc *navScale) changed(sp timeline.Viewport) {
	from, to := sp.View()
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
