package timeline

import (
	"math"

	"github.com/hecscope/hecscope/ingest"
)

// RowKind says which row of the "timeline" view a point falls on.
type RowKind uint8

// Rows of the "timeline" view.
const (
	RowNone     RowKind = iota // outside every row (gutter, key, margins)
	RowAxis                    // the time ruler at the top
	RowActivity                // the activity profile
	RowHEC                     // a HEC's row (Hit.HEC says which)
)

// Hit is what lies under a point of a "timeline" picture drawn by Render
// with the same Options: the row, the time, and on a HEC row the span in
// force at that time and what the pixel column holds.
type Hit struct {
	Row RowKind
	// HEC is the capability of a RowHEC hit.
	HEC int
	// Time is the time under the point (ns); ColFrom and ColTo bound the
	// time its pixel column covers.
	Time, ColFrom, ColTo uint64
	// Span is the mark in force at Time on the HEC (RowHEC; a zero mark
	// before the first one); it lasts from SpanStart to SpanEnd.
	Span               Mark
	SpanStart, SpanEnd uint64
	// Stop is why the thread running in Span stopped at SpanEnd (0 if Span
	// is not a running span or the track ends there).
	Stop ingest.StopStatus
	// Marks is how many changes of state fall inside the pixel column: more
	// than one means the column shows a mix (Times says how much of each).
	Marks int
	// Times is the time spent in each state during the pixel column.
	Times Durations
}

// timelineRows is where drawTimeline puts its rows in a w×h picture at
// scale s for n HECs: the plot's left edge and width, the ruler's bottom,
// the activity graph's band and each HEC's band [y0, y1).
type timelineRows struct {
	gutter, plotW    int
	top              int
	actY0, actY1     int
	hecY0, hecY1     []int
	rowH, firstHECAt int
}

// layoutTimeline computes the rows as drawTimeline lays them out.
func layoutTimeline(w, h int, s float64, n int) timelineRows {
	if !(s > 0) {
		s = 1
	}
	var l timelineRows
	l.gutter = min(int(110*s), w/4)
	l.plotW = max(w-l.gutter-int(8*s), 1)
	l.top = int(24 * s)
	bottom := h - int(22*s)
	avail := bottom - l.top
	nn := max(n, 1)
	actH := min(int(90*s), avail/4)
	pad := int(4 * s)
	l.rowH = min(max((avail-pad-actH)/nn, int(8*s)), int(60*s))
	y := l.top + pad
	l.actY0, l.actY1 = y, y+actH-int(6*s)
	y += actH
	l.firstHECAt = y
	for c := 0; c < n; c++ {
		if y+l.rowH > bottom {
			break
		}
		l.hecY0 = append(l.hecY0, y+int(3*s))
		l.hecY1 = append(l.hecY1, y+l.rowH-int(3*s))
		y += l.rowH
	}
	return l
}

// HECRowBounds returns the pixel rows [y0, y1) of HEC c's band in a
// "timeline" picture drawn with opt, and false if the picture has no room
// for it.
func HECRowBounds(m *Model, opt Options, c int) (y0, y1 int, ok bool) {
	l := layoutTimeline(opt.Width, opt.Height, opt.Scale, len(m.HECs))
	if c < 0 || c >= len(l.hecY0) {
		return 0, 0, false
	}
	return l.hecY0[c], l.hecY1[c], true
}

// HitTimeline returns what lies at device pixel (x, y) of the "timeline"
// view that Render draws for opt (opt.View must be "" or "timeline"; other
// views give a RowNone hit). A point between rows belongs to the nearer
// HEC row's gap as RowNone.
func HitTimeline(m *Model, opt Options, x, y float64) Hit {
	if m == nil || (opt.View != "" && opt.View != "timeline") {
		return Hit{}
	}
	to := opt.To
	if to == 0 {
		to = m.End
	}
	if to <= opt.From {
		return Hit{}
	}
	l := layoutTimeline(opt.Width, opt.Height, opt.Scale, len(m.HECs))
	if x < float64(l.gutter) || x >= float64(l.gutter+l.plotW) {
		return Hit{}
	}
	ax := NewAxis(opt.From, to, float64(l.gutter), float64(l.plotW))
	col := math.Floor(x - float64(l.gutter))
	h := Hit{Time: ax.Time(x), ColFrom: ax.Time(float64(l.gutter) + col), ColTo: ax.Time(float64(l.gutter) + col + 1)}
	yi := int(math.Floor(y))
	switch {
	case yi >= 0 && yi < l.top:
		h.Row = RowAxis
		return h
	case yi >= l.actY0 && yi < l.actY1:
		h.Row = RowActivity
		for c := range m.HECs {
			d := m.HECs[c].Track.Durations(h.ColFrom, h.ColTo)
			h.Times.add(&d)
		}
		return h
	}
	for c := range l.hecY0 {
		if yi >= l.hecY0[c] && yi < l.hecY1[c] {
			h.Row, h.HEC = RowHEC, c
			m.HECs[c].Track.fillHit(&h)
			return h
		}
	}
	return Hit{}
}

// fillHit sets the span in force at h.Time and what the column holds.
func (t *Track) fillHit(h *Hit) {
	i := t.Search(h.Time)
	if i > 0 {
		h.Span = t.Mark(i - 1)
		h.SpanStart = h.Span.Time
	}
	h.SpanEnd = t.End()
	if i < t.Len() {
		next := t.Mark(i)
		h.SpanEnd = next.Time
		if h.Span.State == StateRunning {
			h.Stop = next.Stop()
		}
	}
	if h.SpanEnd < h.SpanStart {
		h.SpanEnd = h.SpanStart
	}
	h.Marks = t.Search(h.ColTo) - t.Search(h.ColFrom)
	h.Times = t.Durations(h.ColFrom, h.ColTo)
}

// ThreadByID returns the thread with the given id, or nil.
func (m *Model) ThreadByID(id uint32) *Thread {
	if i := m.ThreadIndex(id); i >= 0 {
		return &m.Threads[i]
	}
	return nil
}
