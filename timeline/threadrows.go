package timeline

import (
	"fmt"
)

// AliveIn reports whether a thread has a row in a view of [from, to]: it
// has marks, the first before to, and did not finish before from.
func AliveIn(th *Thread, from, to uint64) bool {
	return th.Track.Len() > 0 && th.First < to && (th.Finished == 0 || th.Finished > from)
}

// threadRowLayout is where the "threads" view puts its rows at scale s: the
// first row's top and the row height.
func threadRowLayout(s float64) (y0, rowH int) {
	if !(s > 0) {
		s = 1
	}
	return int(24*s) + int(2*s), int(14 * s)
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
		r.hatchColumns(y+1, func(i int) int {
			if cols[i].MostlyUnknown() {
				return y + rowH - 1
			}
			return y + 1
		})
		name := m.ThreadName(th)
		if th.Label >= 0 {
			name = uitoa(uint64(th.ID)) + " " + name
		}
		r.rowLabel(r.fit(name, float64(r.gutter)-10*r.s), y, y+rowH)
		y += rowH
	}
	if total := len(rows); total > fit {
		r.text(fmt.Sprintf("%d of %d threads shown", min(fit, len(rows)), total), float64(r.w)-6*r.s, float64(r.bottom)+10*r.s, 1, 0.35, r.pal.Text)
	}
	r.key = append(r.key, keyItem{ColourRunning, "running"}, keyItem{ColourRunnable, "runnable"},
		keyItem{BlockedColour(7), "MVar"}, keyItem{BlockedColour(8), "black hole"}, keyItem{BlockedColour(12), "STM"},
		keyItem{BlockedColour(9), "I/O, delay"}, keyItem{BlockedColour(6), "foreign call"}, keyItem{BlockedColour(18), "throwTo"})
	r.drawMarkers(r.top, y)
	r.drawKey()
}
