package tracks

import (
	"image"
	"math"
	"strconv"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// Area is the part of the frame a point falls in.
type Area uint8

// Areas of a frame.
const (
	AreaNone      Area = iota // outside the frame
	AreaAxis                  // the sticky time axis
	AreaHeader                // a track header or group title in the headers' column
	AreaPlot                  // a track's plot, where time runs
	AreaLegend                // the legend
	AreaScrollbar             // the scroll bar's gutter
)

// Part is the part of a header a point falls on.
type Part uint8

// Parts of a header.
const (
	PartNone   Part = iota
	PartToggle      // a group's title row (header and plot): a click collapses or expands it
	PartName        // a track's name
	PartPin         // a track's pin toggle
	PartResize      // the bottom edge of a track's header: dragging it resizes the track
	PartScale       // a rate track's log scale toggle (View.SetLogScale)
	PartSpans       // the User events title's switch of spans by thread or by label (View.SetSpansByLabel)
)

// Element is what lies under a point of a track's plot.
type Element uint8

// Elements of the tracks.
const (
	ElemNone     Element = iota
	ElemSpan             // one span of a HEC's or a thread's state
	ElemMixed            // a pixel column holding several spans
	ElemSummary          // a summarised stretch of an overview: zoom in for detail
	ElemInstant          // instant events of a HEC
	ElemActivity         // the utilisation of a pixel column
	ElemSparks           // spark rates and pool size at a time
	ElemUserSpan         // a START/STOP span
	ElemMarker           // a user marker, or a cluster of them
	ElemBookmark         // a bookmark, or a cluster of them
	ElemHeap             // heap values at a time
	ElemBand             // a heap-profile band at a time
	ElemGC               // a GC pause
	ElemUnknown          // time past a capability's frontier: not received yet, or past where a cut log ends
	ElemFinding          // a finding's flag on the axis, or a cluster of them (Hit.Findings)
	ElemLink             // the arrow and name at an end of the wakeup link whose track is out of view (Hit.Goto)
)

// Hit is what lies at a point of the frame: the area, the header part or
// the plot's element, with the lines of a tooltip and where to anchor it.
type Hit struct {
	Area Area
	Part Part
	// Group is the group of the row under the point (AreaHeader, AreaPlot).
	Group Group
	// Track is the track under the point (Kind 0 on a group's title and
	// outside the tracks).
	Track TrackID
	// Name is the full name of the track, group or legend entry under the
	// point (a header shows it cut to fit).
	Name string
	// Time is the time under the point, and HasTime whether the point is
	// over the axis or a plot.
	Time    uint64
	HasTime bool
	// Element is what lies under the point in a plot, over the time range
	// [From, To) (a span, a GC, the pixel column of a mix, a marker
	// cluster's extent); Thread is its thread's id when it has one.
	Element  Element
	From, To uint64
	Thread   uint32
	// Goto is the track an ElemLink leads to: View.Reveal (or a jump)
	// brings it into view.
	Goto TrackID
	// Findings are the findings of an ElemFinding flag, as indices in the
	// list given to SetFindings, in its order.
	Findings []int
	// Depth is a user span's nesting depth among the spans of its thread:
	// 0 for the outermost, the row its thread's track draws it in.
	Depth int
	// Tip holds the tooltip's lines, the first one its title; empty for
	// nothing to say.
	Tip []string
	// Anchor is the rectangle (device pixels) of what the tooltip is
	// about, to place the tooltip beside.
	Anchor image.Rectangle
}

// hitRow finds the row under device y: the row, its top's device y and
// the area it is drawn in.
func (v *View) hitRow(g geometry, l *layout, y int) (row, int, bool) {
	if y >= g.pinned.Min.Y && y < g.pinned.Max.Y {
		for _, r := range visible(l.pinned, y-g.pinned.Min.Y, y-g.pinned.Min.Y+1) {
			return r, g.pinned.Min.Y + r.y, true
		}
		return row{}, 0, false
	}
	if y >= g.tracks.Min.Y && y < g.tracks.Max.Y {
		cy := y - g.tracks.Min.Y + v.scrollY
		for _, r := range visible(l.rows, cy, cy+1) {
			return r, g.tracks.Min.Y + r.y - v.scrollY, true
		}
	}
	return row{}, 0, false
}

// Hit returns what lies at device pixel (x, y) of the frame as Draw drew
// it (or would draw it now): hover it to get the cursor's time, the
// tooltip and its anchor; click it to know which header part was hit.
func (v *View) Hit(x, y float64) Hit {
	g := v.geometry()
	l := v.ensureLayout()
	from, to := v.Range()
	f := v.hitFrame(g, from, to)
	xi, yi := int(math.Floor(x)), int(math.Floor(y))
	var h Hit
	if xi < 0 || yi < 0 || xi >= v.w || yi >= v.h {
		return h
	}
	inPlot := xi >= g.plot.Min.X && xi < g.plot.Max.X
	if inPlot {
		h.Time, h.HasTime = f.ax.Time(x), true
	}
	switch {
	case yi < g.axis.Max.Y:
		h.Area = AreaAxis
		if inPlot {
			f.hitAxis(&h, xi, yi)
		}
		return h
	case yi >= g.legend.Min.Y:
		// The legend is no place on the time axis: no cursor over it.
		h.Area, h.Time, h.HasTime = AreaLegend, 0, false
		f.hitLegend(&h, xi, yi)
		return h
	case xi >= g.scrollbar.Min.X && yi >= g.scrollbar.Min.Y:
		h.Area = AreaScrollbar
		return h
	case inPlot && v.wakeup != nil && f.hitLink(&h, l, xi, yi):
		return h // over the tracks it covers
	}
	r, top, ok := v.hitRow(g, l, yi)
	if !ok {
		if xi < g.header.Max.X {
			h.Area = AreaHeader
		} else if inPlot {
			h.Area = AreaPlot
		}
		return h
	}
	bottom := top + r.h
	h.Group = r.group
	if r.title {
		h.Area, h.Part, h.Name = AreaHeader, PartToggle, r.group.String()
		if inPlot {
			h.Area = AreaPlot
		} else if r.group == GroupUser && image.Pt(xi, yi).In(f.spansPart(top, bottom)) {
			h.Part = PartSpans
			h.Tip = []string{"spans by thread, nested: click to show a track per label"}
			if v.spansByLabel {
				h.Tip = []string{"spans by label: click to show them by thread, nested"}
			}
			h.Anchor = f.spansPart(top, bottom)
		}
		return h
	}
	h.Track, h.Name = r.id, v.Name(r.id)
	if xi < g.header.Max.X {
		h.Area = AreaHeader
		name, pin, resize := g.headerParts(top, bottom)
		p := image.Pt(xi, yi)
		switch {
		case p.In(resize):
			h.Part = PartResize
		case rateKind(r.id.Kind) && p.In(g.scalePart(top, bottom, f.small)):
			h.Part = PartScale
			h.Tip = []string{"log scale: click to put these tracks on one"}
			if v.LogScale(r.id.Kind) {
				h.Tip = []string{"log scale: click for the linear scale"}
			}
		case p.In(pin):
			h.Part = PartPin
			h.Tip = []string{"pin to top"}
			if v.Pinned(r.id) {
				h.Tip = []string{"unpin"}
			}
		default:
			h.Part = PartName
			h.Tip = f.headerTip(r.id)
		}
		h.Anchor = image.Rect(name.Min.X, top, name.Max.X, bottom)
		return h
	}
	if !inPlot {
		return h
	}
	h.Area = AreaPlot
	f.hitTrack(&h, r.id, xi, yi, top, bottom)
	return h
}

// hitFrame returns a frame for hit-testing over g: the model the view
// draws [from, to) with, no canvas.
func (v *View) hitFrame(g geometry, from, to uint64) *frame {
	f := &frame{v: v, th: v.theme, g: g, s: g.s, from: from, to: to, scrollY: v.scrollY}
	f.ax = g.ax(from, to)
	f.n = g.plot.Dx()
	f.ov = v.overview()
	if v.src != nil {
		pinned, rows := v.ensureLayout().shown(g, v.scrollY)
		f.m = timeline.ModelFor(v.src, from, to, float64(to-from)/float64(max(f.n, 1)), showsThreads(pinned, rows), v.ready)
	}
	f.face = paint.FaceFor(paint.Regular, textPt, f.s)
	f.small = paint.FaceFor(paint.Regular, smallPt, f.s)
	f.bold = paint.FaceFor(paint.Bold, textPt, f.s)
	return f
}

// headerTip is the tooltip of a track's name: the full name, and for a
// thread its life.
func (f *frame) headerTip(id TrackID) []string {
	tip := []string{f.v.Name(id)}
	if id.Kind == KindThread && f.ov != nil {
		if th := f.ov.ThreadByID(id.ID); th != nil {
			tip[0] = "thread " + itoa(id.ID)
			if th.Label >= 0 {
				tip[0] += " " + strconv.Quote(f.ov.String(th.Label))
			}
			life := "first seen at " + f.when(th.First)
			if th.Created > 0 {
				life = "created at " + f.when(th.Created)
			}
			if th.Finished > 0 {
				life += ", finished at " + f.when(th.Finished)
			}
			tip = append(tip, life)
		}
	}
	return tip
}

// hitTrack fills in the element of track id under (x, y), its row drawn
// from y0 to y1.
func (f *frame) hitTrack(h *Hit, id TrackID, x, y, y0, y1 int) {
	if k := id.Kind.info(); (f.m != nil || k.heapOnly) && k.hit != nil {
		k.hit(f, h, id.ID, x-f.g.plot.Min.X, y, y0, y1)
	}
}

// hitHEC fills in the element of HEC id's track at plot column col and
// device y: an instant event in its top third, else its state.
func (f *frame) hitHEC(h *Hit, id uint32, col, y, y0, y1 int) {
	c := f.hecIndex(id)
	if c < 0 {
		return
	}
	hec := &f.m.HECs[c]
	top, bottom := f.inset(y0, y1)
	if y1-y0 >= px(20, f.s) && y < top+(bottom-top)/3 && f.hitInstants(h, c, hec, col, y0, y1) {
		return
	}
	f.hitState(h, &hec.Track, "HEC "+itoa(id), false, col, y0, y1)
	if h.Element == ElemSpan && h.Thread == 0 {
		f.addGC(h)
	}
}

// hitThread fills in the state of thread id at plot column col, and who
// woke it.
func (f *frame) hitThread(h *Hit, id uint32, col, _, y0, y1 int) {
	tr, _, _ := f.threadTrack(id)
	if tr == nil {
		return
	}
	f.hitState(h, tr, threadTitle(f.ov, id), true, col, y0, y1)
	h.Thread = id
	if h.Element == ElemSpan {
		if w, ok := WokenBy(f.m, id, h.Time); ok {
			h.Tip = append(h.Tip, w.Text(f.ov))
		}
	}
}

// threadTitle names a thread for a tooltip: `thread 5 "worker"`.
func threadTitle(m *timeline.Model, id uint32) string {
	s := "thread " + itoa(id)
	if m != nil {
		if th := m.ThreadByID(id); th != nil && th.Label >= 0 {
			s += " " + strconv.Quote(m.String(th.Label))
		}
	}
	return s
}

// changesIn counts the changes of state of tr in [t0, t1): a mark each, a
// summarised stretch its changes. about says that a stretch begun before
// t0 or ending after t1 reaches into it, whose changes are counted whole
// or not at all: the count is then close, not exact.
func changesIn(tr *timeline.Track, t0, t1 uint64) (n int, about bool) {
	i0, i1 := tr.Search(t0), tr.Search(t1)
	if i0 > 0 {
		if mk := tr.Mark(i0 - 1); mk.Summary() {
			st := tr.Stretch(mk)
			about = mk.Time+st.Time.Total() > t0
		}
	}
	for j := i0; j < i1; j++ {
		mk := tr.Mark(j)
		if !mk.Summary() {
			n++
			continue
		}
		st := tr.Stretch(mk)
		n += int(st.Changes)
		about = about || mk.Time+st.Time.Total() > t1
	}
	return n, about
}

// colRange returns the time range pixel column col covers.
func (f *frame) colRange(col int) (uint64, uint64) {
	return f.ax.ColumnTime(col), f.ax.ColumnTime(col + 1)
}

// spanRect returns the anchor of a span [a, b) in a row: at least the
// pixel column it is hit in.
func (f *frame) spanRect(a, b uint64, col, y0, y1 int) image.Rectangle {
	x0 := int(math.Floor(math.Max(f.ax.X(a), float64(f.g.plot.Min.X))))
	x1 := int(math.Ceil(math.Min(f.ax.X(b), float64(f.g.plot.Max.X))))
	x := f.g.plot.Min.X + col
	return image.Rect(min(x0, x), y0, max(x1, x+1), y1)
}

// hitState describes what a state track (HEC or thread) holds at pixel
// column col: a summarised stretch, a mix of several spans, or one span
// with its state, start, length and why it ended.
func (f *frame) hitState(h *Hit, tr *timeline.Track, title string, thread bool, col, y0, y1 int) {
	t0, t1 := f.colRange(col)
	t := h.Time
	if end := tr.End(); t >= end && t < tr.Horizon() {
		// Past the track's frontier its state is not known, and no span
		// is described.
		c, ok := int32(-1), !thread
		if thread {
			c, ok = tr.LastCap()
		} else if i := f.hecIndex(h.Track.ID); i >= 0 {
			c = f.m.HECs[i].Cap
		}
		h.Element, h.From, h.To = ElemUnknown, end, tr.Horizon()
		if ok {
			h.Tip = f.unknownTip(title, c, end)
		} else {
			h.Tip = []string{title, "not known after " + f.when(end)}
		}
		h.Anchor = f.spanRect(end, tr.Horizon(), col, y0, y1)
		return
	}
	mk := tr.StateAt(t)
	inSummary := false
	if mk.Summary() {
		st := tr.Stretch(mk)
		end := mk.Time + st.Time.Total()
		if mk.Time <= t0 && end >= t1 {
			// The stretch holds the whole pixel.
			h.Element, h.From, h.To = ElemSummary, mk.Time, end
			h.Tip = []string{title,
				paint.Count(int64(st.Changes)) + " changes in " + paint.Duration(end-mk.Time) + " from " + f.when(mk.Time),
				mixText(&st.Time), "zoom in for detail"}
			h.Anchor = f.spanRect(mk.Time, end, col, y0, y1)
			return
		}
		// A stretch narrower than the pixel is one of what the pixel
		// holds, which the pixel's description counts.
		inSummary = true
	}
	if n, about := changesIn(tr, t0, t1); n > 1 || inSummary {
		d := tr.Durations(t0, t1)
		count := paint.Count(int64(n)) + " changes"
		if about {
			count = "about " + count
		}
		h.Element, h.From, h.To = ElemMixed, t0, t1
		h.Tip = []string{title, count + " in this pixel (" + paint.Duration(t1-t0) + ")",
			mixText(&d), "zoom in to see each span"}
		h.Anchor = f.spanRect(t0, t1, col, y0, y1)
		return
	}
	if tr.Search(t1)-tr.Search(t0) == 1 {
		// One change in the column: it is drawn in the state that holds
		// most of it, and so described.
		j := tr.Search(t1) - 1
		if tm := tr.Mark(j).Time; tm-t0 >= t1-tm && tm > t0 {
			t = t0
		} else {
			t = tm
		}
		mk = tr.StateAt(t)
	}
	i := tr.Search(t) - 1
	start, end := uint64(0), tr.End()
	var next timeline.Mark
	hasNext := false
	if i >= 0 {
		start = mk.Time
	}
	if i+1 < tr.Len() {
		next, hasNext = tr.Mark(i+1), true
		end = next.Time
	}
	if thread && mk.State == timeline.StateIdle {
		return // before the thread was created: nothing drawn
	}
	if !thread && mk.State == timeline.StateIdle && i < 0 {
		return
	}
	h.Element, h.From, h.To = ElemSpan, start, max(end, start)
	var what string
	if thread {
		what = threadStateText(mk)
		if mk.State == timeline.StateFinished {
			h.Tip = []string{title, "finished at " + f.when(start)}
			h.Anchor = f.spanRect(start, end, col, y0, y1)
			return
		}
	} else {
		switch mk.State {
		case timeline.StateRunning:
			what = "running " + threadTitle(f.ov, mk.Arg)
			h.Thread = mk.Arg
		default:
			what = stateName(mk.State)
		}
	}
	h.Tip = []string{title, what, "from " + f.when(start) + " for " + paint.Duration(h.To-start)}
	if hasNext && mk.State == timeline.StateRunning {
		if st := ingest.StopStatus(next.Reason).Reason(); st != "" {
			h.Tip = append(h.Tip, "stopped: "+st)
		}
	}
	h.Anchor = f.spanRect(start, h.To, col, y0, y1)
}

// addGC adds to a HEC span's tooltip the GC it is part of, from the heap's
// GCs.
func (f *frame) addGC(h *Hit) {
	hp := f.v.heap
	if hp == nil || len(h.Tip) < 2 {
		return
	}
	if i := hp.GCAt(h.Time); i >= 0 {
		g := &hp.GCs[i]
		h.Tip = append(h.Tip, gcText(g))
	}
}

// hitActivity describes the utilisation of pixel column col.
func (f *frame) hitActivity(h *Hit, id TrackID, col, y0, y1 int) {
	t0, t1 := f.colRange(col)
	if t1 <= t0 {
		return
	}
	var d timeline.Durations
	var unknown uint64
	n := 0
	var unlogged []string // HECs not known here
	for c := range f.m.HECs {
		if id.Kind == KindHECActivity && uint32(f.m.HECs[c].Cap) != id.ID {
			continue
		}
		hec := &f.m.HECs[c]
		tr := &hec.Track
		if u := tr.Unknown(t0, t1); u > 0 {
			unknown += u
			what := "log ends at " + f.when(tr.End())
			if f.m.Growing {
				what = "not received yet"
			}
			unlogged = append(unlogged, behindText(f.m, hec.Cap, tr.End())+" ("+what+")")
		}
		dc := tr.Durations(t0, t1)
		for s := range d {
			d[s] += dc[s]
		}
		n++
	}
	span := float64(t1 - t0)
	h.Element, h.From, h.To = ElemActivity, t0, t1
	title := "All HECs"
	if id.Kind == KindHECActivity {
		title = "HEC " + itoa(id.ID)
	}
	h.Tip = []string{title + " at " + f.when(h.Time)}
	// Of the HECs known here: one not known is neither busy nor idle.
	if known := float64(d.Total()) / span; known > 0 {
		run, gc := float64(d[timeline.StateRunning])/span, float64(d.GC())/span
		of := paint.CountOf(int64(n), "HEC", "HECs")
		if unknown > 0 {
			of = strconv.FormatFloat(known, 'f', 2, 64) + " HECs with data"
			if k := math.Round(known); math.Abs(known-k) < 0.005 {
				of = paint.CountOf(int64(k), "HEC with data", "HECs with data")
			}
		}
		h.Tip = append(h.Tip,
			strconv.FormatFloat(run, 'f', 2, 64)+" of "+of+" running Haskell code ("+paint.Percent(run/known)+")",
			strconv.FormatFloat(gc, 'f', 2, 64)+" in GC ("+paint.Percent(gc/known)+")")
	}
	h.Tip = append(h.Tip, unlogged...)
	h.Anchor = f.spanRect(t0, t1, col, y0, y1)
}

// hitInstants describes the instant events within a pixel or two of
// column col of HEC c; false if there are none.
func (f *frame) hitInstants(h *Hit, c int, hec *timeline.HEC, col, y0, y1 int) bool {
	if f.instantColumns(hec) == nil {
		return false
	}
	t0, _ := f.colRange(col - 1)
	_, t1 := f.colRange(col + 1)
	var first timeline.Instant
	n := 0
	hec.InstantsIn(t0, t1, func(in timeline.Instant) bool {
		if in.Kind == timeline.InstantUserMarker && !in.Summary() {
			return true
		}
		if n == 0 {
			first = in
		}
		n += in.Count()
		return n < 1000
	})
	if n == 0 {
		return false
	}
	h.Element, h.From, h.To = ElemInstant, t0, t1
	if n == 1 && !first.Summary() {
		h.From, h.To = first.Time, first.Time
		h.Tip = []string{"HEC " + itoa(uint32(hec.Cap)) + " at " + f.when(first.Time), f.instantText(first)}
	} else {
		h.Tip = []string{"HEC " + itoa(uint32(hec.Cap)), paint.Count(int64(n)) + " events around " + f.when(h.Time), "zoom in to see each"}
	}
	h.Anchor = f.spanRect(h.From, h.To, col, y0, y1)
	return true
}

// instantText describes an instant event.
func (f *frame) instantText(in timeline.Instant) string {
	name := instantInk(in.Kind).Name()
	switch in.Kind {
	case timeline.InstantCreateThread, timeline.InstantCreateSparkThread, timeline.InstantWakeupThread:
		s := name + ": " + threadTitle(f.ov, in.Arg)
		if in.Kind == timeline.InstantWakeupThread {
			s += " (its HEC " + strconv.Itoa(int(in.Arg2)) + ")"
		}
		return s
	case timeline.InstantMigrateThread:
		return name + ": " + threadTitle(f.ov, in.Arg) + " to HEC " + strconv.Itoa(int(in.Arg2))
	case timeline.InstantUserMessage, timeline.InstantLogMessage, timeline.InstantUserMarker:
		return name + ": " + f.m.String(int32(in.Arg))
	}
	return name
}

// PointStep is the precision a time read at the pointer is written to, at
// pxPerNs pixels per ns: the power of ten at or below the time one pixel
// spans, so that neighbouring pixels read differently and no digit is
// noise.
func PointStep(pxPerNs float64) uint64 {
	if !(pxPerNs > 0) {
		return 1
	}
	ns := 1 / pxPerNs
	step := uint64(1)
	for float64(step)*10 <= ns && step < 1e12 {
		step *= 10
	}
	return step
}

// when writes a point in time read at the pointer, to the precision of a
// pixel (PointStep), as the cursor's time on the axis is written.
func (f *frame) when(t uint64) string {
	return paint.Time(t, PointStep(f.ax.PixelsPerNs()))
}
