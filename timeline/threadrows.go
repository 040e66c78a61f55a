package timeline

import (
	"fmt"
	"image"
	"math"
	"sort"
)

// ThreadOrder is how thread rows are sorted.
type ThreadOrder uint8

// Thread row orders.
const (
	ThreadsByFirst ThreadOrder = iota // order of first appearance (the "threads" view's)
	ThreadsByID                       // thread id, ascending
	ThreadsByLabel                    // label (unlabelled last), then id
	ThreadsByBusy                     // time running in the range, most first
)

// ThreadOrders names the orders for a chooser, indexed by ThreadOrder.
var ThreadOrders = []string{"first seen", "id", "label", "busy time"}

// ThreadRows returns the indices into m.Threads of the threads alive in
// [from, to] (as the "threads" view picks them), sorted by order.
func ThreadRows(m *Model, from, to uint64, order ThreadOrder) []int {
	if to == 0 {
		to = m.End
	}
	var rows []int
	for i := range m.Threads {
		if AliveIn(&m.Threads[i], from, to) {
			rows = append(rows, i)
		}
	}
	switch order {
	case ThreadsByID:
		sort.SliceStable(rows, func(a, b int) bool { return m.Threads[rows[a]].ID < m.Threads[rows[b]].ID })
	case ThreadsByLabel:
		sort.SliceStable(rows, func(a, b int) bool {
			ta, tb := &m.Threads[rows[a]], &m.Threads[rows[b]]
			if (ta.Label >= 0) != (tb.Label >= 0) {
				return ta.Label >= 0
			}
			if la, lb := m.String(ta.Label), m.String(tb.Label); la != lb {
				return la < lb
			}
			return ta.ID < tb.ID
		})
	case ThreadsByBusy:
		busy := make(map[int]uint64, len(rows))
		for _, i := range rows {
			d := m.Threads[i].Track.Durations(from, to)
			busy[i] = d[StateRunning]
		}
		sort.SliceStable(rows, func(a, b int) bool { return busy[rows[a]] > busy[rows[b]] })
	}
	return rows
}

// AliveIn reports whether a thread has a row in a view of [from, to]: it
// has marks, the first before to, and did not finish before from.
func AliveIn(th *Thread, from, to uint64) bool {
	return th.Track.Len() > 0 && th.First < to && (th.Finished == 0 || th.Finished > from)
}

// threadRowLayout is where RenderThreadRows puts its rows at scale s: the
// first row's top and the row height.
func threadRowLayout(s float64) (y0, rowH int) {
	if !(s > 0) {
		s = 1
	}
	return int(24*s) + int(2*s), int(14 * s)
}

// RenderThreadRows draws the threads rows[i] (indices into m.Threads) one
// per row in that order, coloured by state and by why they are blocked, as
// the "threads" view does (opt.View is ignored).
func RenderThreadRows(m *Model, opt Options, rows []int) (*image.RGBA, error) {
	for _, ti := range rows {
		if ti < 0 || ti >= len(m.Threads) {
			return nil, fmt.Errorf("rendering threads: no thread at index %d", ti)
		}
	}
	img, r, err := newFrame("rendering threads", m, opt)
	if err != nil {
		return nil, err
	}
	r.drawThreadRows(rows)
	return img, nil
}

// drawThreadRows draws the threads rows[i] (valid indices into
// r.m.Threads) one per row in that order, as many as fit: each coloured by
// state and, when blocked, by why; then the markers and the key.
func (r *renderer) drawThreadRows(rows []int) {
	m := r.m
	r.drawAxis()
	y, rowH := threadRowLayout(r.s)
	fit := max((r.bottom-y)/rowH, 0)
	var cols []Column
	for _, ti := range rows[:min(fit, len(rows))] {
		th := &m.Threads[ti]
		cols = th.Track.Columns(r.ax, r.plotW, cols)
		for i := range cols {
			c := &cols[i]
			if c.Share == 0 || c.State == StateIdle || c.State == StateFinished {
				continue
			}
			colour := StateColour(c.State)
			if c.State == StateBlocked {
				colour = BlockedColour(r.blockedReason(&th.Track, i))
			}
			x := r.colX(i)
			r.fill(x, y+1, x+1, y+rowH-1, colour)
		}
		name := m.ThreadName(th)
		if th.Label >= 0 {
			name = uitoa(uint64(th.ID)) + " " + name
		}
		r.rowLabel(r.fit(name, float64(r.gutter)-10*r.s), y, y+rowH)
		y += rowH
	}
	if total := max(len(rows), r.alive); total > fit {
		r.text(fmt.Sprintf("%d of %d threads shown", min(fit, len(rows)), total), float64(r.w)-6*r.s, float64(r.bottom)+10*r.s, 1, 0.35, r.pal.Text)
	}
	r.key = append(r.key, keyItem{ColourRunning, "running"}, keyItem{ColourRunnable, "runnable"},
		keyItem{BlockedColour(7), "MVar"}, keyItem{BlockedColour(8), "black hole"}, keyItem{BlockedColour(12), "STM"},
		keyItem{BlockedColour(9), "I/O, delay"}, keyItem{BlockedColour(6), "foreign call"}, keyItem{BlockedColour(18), "throwTo"})
	r.drawMarkers(r.top, y)
	r.drawKey()
}

// ThreadHit is what lies under a point of a RenderThreadRows picture.
type ThreadHit struct {
	// Thread is the index into Model.Threads, -1 if the point is on no row.
	Thread int
	// Time is the time under the point; Mark the thread's state then,
	// lasting from SpanStart to SpanEnd.
	Time               uint64
	Mark               Mark
	SpanStart, SpanEnd uint64
	// Marks is how many changes of state fall inside the pixel column, and
	// Times the time in each state there.
	Marks int
	Times Durations
}

// HitThreadRows returns what lies at device pixel (x, y) of the picture
// RenderThreadRows draws for opt and rows.
func HitThreadRows(m *Model, opt Options, rows []int, x, y float64) ThreadHit {
	to := opt.To
	if to == 0 {
		to = m.End
	}
	h := ThreadHit{Thread: -1}
	if to <= opt.From {
		return h
	}
	l := layoutTimeline(opt.Width, opt.Height, opt.Scale, 0)
	if x < float64(l.gutter) || x >= float64(l.gutter+l.plotW) {
		return h
	}
	y0, rowH := threadRowLayout(opt.Scale)
	s := opt.Scale
	if !(s > 0) {
		s = 1
	}
	fit := max((opt.Height-int(22*s)-y0)/rowH, 0)
	row := int(math.Floor((y - float64(y0)) / float64(rowH)))
	if y < float64(y0) || row >= min(fit, len(rows)) || rows[row] < 0 || rows[row] >= len(m.Threads) {
		return h
	}
	ax := NewAxis(opt.From, to, float64(l.gutter), float64(l.plotW))
	col := math.Floor(x - float64(l.gutter))
	var hh Hit
	hh.Time = ax.Time(x)
	hh.ColFrom, hh.ColTo = ax.Time(float64(l.gutter)+col), ax.Time(float64(l.gutter)+col+1)
	m.Threads[rows[row]].Track.fillHit(&hh)
	return ThreadHit{Thread: rows[row], Time: hh.Time, Mark: hh.Span, SpanStart: hh.SpanStart, SpanEnd: hh.SpanEnd,
		Marks: hh.Marks, Times: hh.Times}
}
