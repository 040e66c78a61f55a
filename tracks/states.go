package tracks

import (
	"image"
	"image/color"
	"math"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// inset returns the band [y0, y1) of a track row that its bars fill: the
// row less a margin of 2 points (1 on short rows), never empty.
func (f *frame) inset(y0, y1 int) (int, int) {
	m := px(2, f.s)
	if y1-y0 < px(14, f.s) {
		m = max(1, px(1, f.s))
	}
	if y1-y0-2*m < 1 {
		return y0, y1
	}
	return y0 + m, y1 - m
}

// drawActivity draws the utilisation graph of HEC c (all HECs if c < 0):
// per pixel column, the mean number of HECs running Haskell code as a
// green area from the bottom, and on top of it the mean number in GC as
// its own orange layer; the mean number of HECs past their frontier, whose
// state is not known, hatched from the top; the rest is idle.
func (f *frame) drawActivity(c, y0, y1 int) {
	if f.m == nil || len(f.hecCols) == 0 {
		return
	}
	top, bottom := f.inset(y0, y1)
	top += px(2, f.s)
	h := float64(bottom - top)
	if c >= len(f.hecCols) {
		return
	}
	hecs := f.hecCols
	if c >= 0 {
		hecs = f.hecCols[c : c+1]
	}
	n := float64(max(len(hecs), 1))
	// Lines at each whole number of HECs, when few.
	if len(hecs) > 1 && len(hecs) <= 16 {
		for k := 1; k < len(hecs); k++ {
			y := int(float64(bottom) - float64(k)/n*h)
			f.c.Fill(image.Rect(f.g.plot.Min.X, y, f.g.plot.Max.X, y+1), f.th.Grid)
		}
	}
	x0 := f.g.plot.Min.X
	run, gc := f.th.Ink(paint.InkActivity), f.th.Ink(paint.InkGCWork)
	for i := 0; i < f.n; i++ {
		d := float64(f.colDur(i))
		if d == 0 {
			continue
		}
		b := timeline.BusyOf(hecs, i)
		r, g := float64(b.Running), float64(b.GC)
		ry := float64(bottom) - r/d/n*h
		gy := ry - g/d/n*h
		if r > 0 {
			f.c.Column(x0+i, ry, float64(bottom), run)
		}
		if g > 0 {
			f.c.Column(x0+i, gy, ry, gc)
		}
	}
	// Unknown: a hatch from the top, as tall as the HECs not known there.
	f.hatchColumns(top, func(i int) int {
		u := float64(timeline.BusyOf(hecs, i).Unknown)
		if d := float64(f.colDur(i)); u > 0 && d > 0 {
			return top + int(math.Round(u/d/n*h))
		}
		return top
	})
}

// hecInk returns the ink a single-state HEC column is drawn in.
func hecInk(s timeline.State) paint.Ink { return stateInk(s, 0) }

// drawHEC draws HEC c's track: a column within one span, or holding one
// change of state, in the colour of the state that holds most of it, full
// height, so that GC phases read as bars; a column holding several
// changes as the share running (green, from the bottom) and the share in
// GC (its main phase's colour, from the top).
// Then the running thread's id on spans wide enough for it, and instant
// events as ticks along the top.
func (f *frame) drawHEC(c, y0, y1 int) {
	if f.m == nil || c >= len(f.hecCols) {
		return
	}
	cols := f.hecCols[c]
	top, bottom := f.inset(y0, y1)
	h := float64(bottom - top)
	x0 := f.g.plot.Min.X
	var mixed []int
	f.fillRuns(top, bottom, func(i int) (color.RGBA, bool) {
		col := &cols[i]
		if col.Share == 0 || col.MostlyUnknown() {
			return color.RGBA{}, false
		}
		if col.Marks > 1 {
			mixed = append(mixed, i)
			return color.RGBA{}, false
		}
		k := hecInk(col.State)
		return f.th.Ink(k), drawn(k)
	})
	for _, i := range mixed {
		col := &cols[i]
		d := float64(f.colDur(i))
		if d == 0 {
			continue
		}
		if r := float64(col.Time[timeline.StateRunning]); r > 0 {
			f.c.Column(x0+i, float64(bottom)-r/d*h, float64(bottom), f.th.Ink(paint.InkRunning))
		}
		if g := float64(col.Time.GC()); g > 0 {
			phase, best := timeline.StateGCWork, uint64(0)
			for s := timeline.StateGCSync; s <= timeline.StateGCDone; s++ {
				if col.Time[s] > best {
					phase, best = s, col.Time[s]
				}
			}
			f.c.Column(x0+i, float64(top), float64(top)+g/d*h, f.th.Ink(hecInk(phase)))
		}
	}
	f.hatchRuns(top, bottom, func(i int) bool { return cols[i].MostlyUnknown() })
	hec := &f.m.HECs[c]
	f.drawFrontier(hec.Frontier(), y0, y1)
	f.drawThreadIDs(&hec.Track, top, bottom)
	if y1-y0 >= px(20, f.s) {
		f.drawInstants(hec, top, top+(bottom-top)/3)
	}
}

// drawThreadIDs writes the running thread's id on running spans wide
// enough for it, when the view holds few enough spans to look at each.
func (f *frame) drawThreadIDs(tr *timeline.Track, y0, y1 int) {
	if y1-y0 < f.small.Height() {
		return
	}
	a, b := tr.Search(f.from), tr.Search(f.to)
	if b-a > 2*f.n {
		return
	}
	minW := float64(f.small.Width("0") + px(6, f.s))
	for i := max(a-1, 0); i < b; i++ {
		m := tr.Mark(i)
		if m.State != timeline.StateRunning || m.Summary() {
			continue
		}
		end := tr.End()
		if i+1 < tr.Len() {
			end = tr.Mark(i + 1).Time
		}
		x0 := math.Max(f.ax.X(m.Time), float64(f.g.plot.Min.X))
		x1 := math.Min(f.ax.X(end), float64(f.g.plot.Max.X))
		if x1-x0 < minW {
			continue
		}
		s := itoa(m.Arg)
		w := float64(f.small.Width(s))
		if x1-x0 < w+float64(px(6, f.s)) {
			continue
		}
		paint.TextCentered(f.c, f.small, s, (x0+x1)/2, float64(y0+y1)/2, f.th.LabelOnBar)
	}
}

// instantOrder is the order in which a column's kinds choose its tick's
// colour: the rarest and most telling first.
var instantOrder = [...]timeline.InstantKind{timeline.InstantShutdown, timeline.InstantRequestSeqGC,
	timeline.InstantRequestParGC, timeline.InstantMigrateThread, timeline.InstantUserMessage,
	timeline.InstantLogMessage, timeline.InstantCreateThread, timeline.InstantCreateSparkThread,
	timeline.InstantWakeupThread}

// instantColumns returns a HEC's instant columns, or nil when more than
// a quarter of the columns hold some: ticks that dense say nothing, and
// are neither drawn nor hit.
func (f *frame) instantColumns(h *timeline.HEC) []timeline.InstantColumn {
	cols := h.InstantColumns(f.ax, f.n, f.inst)
	f.inst = cols
	busy := 0
	for i := range cols {
		if cols[i].Count > 0 && cols[i].Kinds != 1<<timeline.InstantUserMarker {
			busy++
		}
	}
	if busy > f.n/4 {
		return nil
	}
	return cols
}

// drawInstants draws a HEC's instant events as ticks between y0 and y1,
// one per pixel column holding any, in the colour of the column's most
// telling kind, when they are sparse enough to read. Markers are drawn
// along the axis instead.
func (f *frame) drawInstants(h *timeline.HEC, y0, y1 int) {
	cols := f.instantColumns(h)
	if cols == nil {
		return
	}
	var inks [timeline.NumInstantKinds]color.RGBA
	for k := range inks {
		inks[k] = f.th.Ink(instantInk(timeline.InstantKind(k)))
	}
	f.fillRuns(y0, y1, func(i int) (color.RGBA, bool) {
		ic := &cols[i]
		if ic.Count == 0 {
			return color.RGBA{}, false
		}
		for _, k := range instantOrder {
			if ic.Kinds&(1<<k) != 0 {
				return inks[k], true
			}
		}
		return color.RGBA{}, false
	})
}

// drawThread draws a thread's track: each pixel column in the colour of
// the state it spends most of the column in, blocked states by why.
func (f *frame) drawThread(id TrackID, y0, y1 int) {
	win, ok := f.cols[id]
	if !ok {
		return
	}
	top, bottom := f.inset(y0, y1)
	var tr *timeline.Track
	f.fillRuns(top, bottom, func(i int) (color.RGBA, bool) {
		col, ok := win.at(i)
		if !ok || col.Share == 0 || col.MostlyUnknown() {
			return color.RGBA{}, false
		}
		reason := col.Reason
		if col.State == timeline.StateBlocked && reason == 0 && col.Marks > 0 {
			// Blocked after the column's start: ask the mark in force at
			// its middle why.
			if tr == nil {
				tr, _, _ = f.threadTrack(id.ID)
			}
			reason = tr.StateAt(f.ax.ColumnTime(i) + f.colDur(i)/2).Reason
		}
		k := stateInk(col.State, reason)
		return f.th.Ink(k), drawn(k)
	})
	f.hatchRuns(top, bottom, func(i int) bool {
		col, ok := win.at(i)
		return ok && col.MostlyUnknown()
	})
}

// headerNote is a track header's second line, where it has room for one:
// a graph's scale, or how many levels a thread's spans nest.
func (f *frame) headerNote(id TrackID) string {
	if k := id.Kind.info(); k.note != nil {
		return k.note(f, id.ID)
	}
	return ""
}
