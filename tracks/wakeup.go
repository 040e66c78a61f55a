package tracks

import (
	"image"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// Wakeup is what made a thread runnable: the event of a HEC that woke it
// (GHC's ThreadWakeup, or the thread's creation) and the thread that was
// running on that HEC at the time, which did it.
type Wakeup struct {
	// Thread is the woken thread, and Time when it became runnable.
	Thread uint32
	Time   uint64
	// HEC is the capability whose event made it runnable.
	HEC int
	// By is the thread running on HEC at Time, 0 if none was (the RTS
	// itself: the scheduler, a GC, the I/O manager's callback).
	By uint32
	// Created is true when the thread became runnable by being created,
	// false when it was woken.
	Created bool
}

// WokenBy finds what made the thread runnable for the runnable span of it
// that holds t, in m (a model exact at t: a detail or exact model; an
// overview's summarised stretches say nothing of single wakeups). It
// reports false when the thread was not runnable at t, or no HEC's event
// woke or created it then (it was preempted, or yielded: nobody woke it).
func WokenBy(m *timeline.Model, thread uint32, t uint64) (Wakeup, bool) {
	th := m.ThreadByID(thread)
	if th == nil {
		return Wakeup{}, false
	}
	mk := th.Track.StateAt(t)
	if mk.Summary() || mk.State != timeline.StateRunnable || th.Track.Search(t) == 0 {
		return Wakeup{}, false
	}
	w := Wakeup{Thread: thread, Time: mk.Time, HEC: -1}
	for c := range m.HECs {
		h := &m.HECs[c]
		h.InstantsIn(mk.Time, mk.Time+1, func(in timeline.Instant) bool {
			if in.Summary() || in.Arg != thread {
				return true
			}
			switch in.Kind {
			case timeline.InstantWakeupThread:
				w.HEC, w.Created = int(h.Cap), false
				return false
			case timeline.InstantCreateThread, timeline.InstantCreateSparkThread:
				w.HEC, w.Created = int(h.Cap), true
				return false
			}
			return true
		})
		if w.HEC >= 0 {
			break
		}
	}
	if w.HEC < 0 {
		return Wakeup{}, false
	}
	// The waker ran up to the wakeup: the state entering its time, so that
	// a thread that stops at that very instant still counts.
	if hm := m.HEC(int32(w.HEC)).Track.StateBefore(w.Time); !hm.Summary() && hm.State == timeline.StateRunning && hm.Arg != thread {
		w.By = hm.Arg
	}
	return w, true
}

// Text says what made the thread runnable: "woken by thread 12 on HEC 1"
// or "created by thread 3 on HEC 0" ("woken on HEC 1 by the RTS" when no
// thread ran there).
func (w Wakeup) Text(m *timeline.Model) string {
	verb := "woken"
	if w.Created {
		verb = "created"
	}
	if w.By == 0 {
		return verb + " on HEC " + itoa(uint32(w.HEC)) + " by the RTS"
	}
	return verb + " by " + threadTitle(m, w.By) + " on HEC " + itoa(uint32(w.HEC))
}

// ShowWakeup shows, for a hit on a thread's runnable span, what made it
// runnable as a link on the canvas (from the waking thread's track, or its
// HEC's if that thread has none shown, to the woken thread's) and returns
// it; for any other hit it removes the link shown and reports false.
func (v *View) ShowWakeup(h Hit) (Wakeup, bool) {
	v.wakeup = nil
	if h.Track.Kind != KindThread || h.Element != ElemSpan || v.src == nil {
		return Wakeup{}, false
	}
	from, to := v.Range()
	g := v.geometry()
	m := timeline.ModelFor(v.src, from, to, float64(to-from)/float64(max(g.plot.Dx(), 1)), true, v.ready)
	w, ok := WokenBy(m, h.Track.ID, h.Time)
	if ok {
		v.wakeup = &w
	}
	return w, ok
}

// Wakeup returns the wakeup the canvas links, nil if none.
func (v *View) Wakeup() *Wakeup { return v.wakeup }

// rowSpan returns the device y range of a track in the frame, and whether
// it is laid out (it may lie outside the area drawn).
func (f *frame) rowSpan(l *layout, id TrackID) (y0, y1 int, ok bool) {
	if r, ok := find(l.pinned, id); ok {
		return f.g.pinned.Min.Y + r.y, f.g.pinned.Min.Y + r.y + r.h, true
	}
	if r, ok := find(l.rows, id); ok {
		y := f.g.tracks.Min.Y + r.y - f.scrollY
		return y, y + r.h, true
	}
	return 0, 0, false
}

// linkEnd is where one end of the wakeup link is drawn: the middle of its
// track's row when the row is in view; else the edge of the scrolled
// tracks' area on the side the row is (or, for a track that has no row,
// on the side of its group's title, or that title's middle), where a chip
// names the track (linkChip).
type linkEnd struct {
	id TrackID
	y  float64
	// away is -1 when the row (or title) lies above the area shown, +1
	// when below, 0 when in view.
	away int
	// why says why the track has no row ("hidden", its group collapsed),
	// "" when it has one.
	why string
}

// shown reports whether the end's own row is in view.
func (e linkEnd) shown() bool { return e.away == 0 && e.why == "" }

// linkChip is the arrow head and name at an end of the link whose track
// is not in view: hit (ElemLink), it leads to the track.
type linkChip struct {
	end  linkEnd
	box  image.Rectangle // the name's box
	hit  image.Rectangle // the box and the arrow head beside it
	text string
	tip  []string
}

// wakeupLink is the wakeup link as a frame draws it: at x, from the
// waker's end src to the woken thread's end dst, with chips at the ends
// not in view and the text of what woke the thread in its box.
type wakeupLink struct {
	x        float64
	src, dst linkEnd
	chips    []linkChip
	label    string
	labelBox image.Rectangle
}

// linkEnd finds where the link reaches track id in the frame; false if
// the track is not in the layout at all (gone from the model, or in a
// panel without titles).
func (f *frame) linkEnd(l *layout, id TrackID) (linkEnd, bool) {
	e := linkEnd{id: id}
	if r, ok := find(l.pinned, id); ok {
		a := f.g.pinned
		y0, y1 := max(a.Min.Y+r.y, a.Min.Y), min(a.Min.Y+r.y+r.h, a.Max.Y)
		e.y = float64(y0+y1) / 2
		return e, true
	}
	r, ok := find(l.rows, id)
	if !ok {
		switch g := id.Group(); {
		case f.v.hidden[id]:
			e.why = "hidden"
		case f.v.Collapsed(g):
			e.why = "in the collapsed " + g.String() + " group"
		default:
			return e, false
		}
		if r, ok = groupTitle(l, id.Group()); !ok {
			return e, false
		}
	}
	a := f.g.tracks
	y0, y1 := a.Min.Y+r.y-f.scrollY, a.Min.Y+r.y+r.h-f.scrollY
	switch {
	case y1 <= a.Min.Y:
		e.away, e.y = -1, float64(a.Min.Y)
	case y0 >= a.Max.Y:
		e.away, e.y = 1, float64(a.Max.Y)
	default:
		e.y = float64(max(y0, a.Min.Y)+min(y1, a.Max.Y)) / 2
	}
	return e, true
}

// groupTitle returns the title row of group g, if laid out.
func groupTitle(l *layout, g Group) (row, bool) {
	for _, r := range l.rows {
		if r.title && r.group == g {
			return r, true
		}
	}
	return row{}, false
}

// wakeupLink works out the wakeup link of the frame; false if there is
// none to draw (no wakeup shown, its time out of view, or the woken
// thread's track not in the layout).
func (f *frame) wakeupLink(l *layout) (wakeupLink, bool) {
	w := f.v.wakeup
	var k wakeupLink
	if w == nil || w.Time < f.from || w.Time > f.to {
		return k, false
	}
	k.x = f.ax.X(w.Time)
	if k.x < float64(f.g.plot.Min.X) || k.x > float64(f.g.plot.Max.X) {
		return k, false
	}
	var ok bool
	if k.dst, ok = f.linkEnd(l, TrackID{Kind: KindThread, ID: w.Thread}); !ok {
		return k, false
	}
	if w.By != 0 {
		k.src, ok = f.linkEnd(l, TrackID{Kind: KindThread, ID: w.By})
	}
	if w.By == 0 || !ok {
		if k.src, ok = f.linkEnd(l, TrackID{Kind: KindHEC, ID: uint32(w.HEC)}); !ok {
			return k, false
		}
	}
	at := " at " + f.when(w.Time)
	what := "woke "
	if w.Created {
		what = "created "
	}
	woken := threadTitle(f.ov, w.Thread)
	srcTip := []string{threadTitle(f.ov, w.By), what + woken + at + " on HEC " + itoa(uint32(w.HEC))}
	if k.src.id.Kind == KindHEC {
		srcTip = []string{"HEC " + itoa(uint32(w.HEC)), "the RTS " + what + woken + " on it" + at}
		if w.By != 0 {
			srcTip[1] = threadTitle(f.ov, w.By) + " " + what + woken + " on it" + at
		}
	}
	dstTip := []string{woken, w.Text(f.ov) + at}
	sameSpot := !k.src.shown() && !k.dst.shown() && k.src.y == k.dst.y
	if !k.src.shown() && !sameSpot {
		k.chips = append(k.chips, f.linkChip(k.src, k.x, srcTip))
	}
	if !k.dst.shown() {
		k.chips = append(k.chips, f.linkChip(k.dst, k.x, dstTip))
	}
	if sameSpot {
		return k, true // nothing of the link in view but its chip
	}

	// What woke it, beside where the link starts (at the edge when the
	// waker is out of view, off the woken thread's row), clear of the
	// chips.
	k.label = w.Text(f.ov)
	fc := f.small
	pad := px(3, f.s)
	tw, th := fc.Width(k.label)+2*pad, fc.Height()+2*pad
	y := k.src.y
	lx := int(k.x) + px(8, f.s)
	if lx+tw > f.g.plot.Max.X {
		lx = int(k.x) - px(8, f.s) - tw
	}
	clip := f.linkClip()
	ly := max(clip.Min.Y, min(int(y)-th/2, clip.Max.Y-th))
	k.labelBox = image.Rect(lx, ly, lx+tw, ly+th)
	for _, c := range k.chips {
		if k.labelBox.Overlaps(c.box) {
			if c.end.away < 0 || (c.end.away == 0 && c.box.Min.Y < ly) {
				k.labelBox = k.labelBox.Add(image.Pt(0, c.box.Max.Y+pad-ly))
			} else {
				k.labelBox = k.labelBox.Sub(image.Pt(0, k.labelBox.Max.Y-c.box.Min.Y+pad))
			}
		}
	}
	return k, true
}

// linkClip is the area the link is drawn in: the plot's part of the
// pinned and scrolled tracks.
func (f *frame) linkClip() image.Rectangle {
	return image.Rect(f.g.plot.Min.X, min(f.g.pinned.Min.Y, f.g.tracks.Min.Y), f.g.plot.Max.X, f.g.tracks.Max.Y)
}

// linkChip makes the chip of end e of a link at x: "↑ thread 42 "name""
// at the edge the track lies beyond, or beside its group's title, with
// why it has no row; tip says what the link is, and the click is added.
func (f *frame) linkChip(e linkEnd, x float64, tip []string) linkChip {
	name := "HEC " + itoa(e.id.ID)
	if e.id.Kind == KindThread {
		name = threadTitle(f.ov, e.id.ID)
	}
	text := name
	switch e.away {
	case -1:
		text = "↑ " + name
	case 1:
		text = "↓ " + name
	}
	click := "click to scroll to it"
	if e.why != "" {
		text += " (" + e.why + ")"
		click = "it is " + e.why + ": click to show it"
	}
	tip = append(tip, click)
	fc := f.small
	pad := px(3, f.s)
	tw, th := fc.Width(text)+2*pad, fc.Height()+2*pad
	head := px(6, f.s)
	lx := int(x) + head + px(2, f.s)
	if lx+tw > f.g.plot.Max.X {
		lx = int(x) - head - px(2, f.s) - tw
	}
	var ly int
	switch e.away {
	case -1:
		ly = int(e.y) + 1
	case 1:
		ly = int(e.y) - th - 1
	default:
		ly = int(e.y) - th/2
	}
	box := image.Rect(lx, ly, lx+tw, ly+th)
	hit := box.Union(image.Rect(int(x)-head, ly, int(x)+head+1, ly+th))
	return linkChip{end: e, box: box, hit: hit, text: text, tip: tip}
}

// drawWakeup draws the wakeup link: a line from the middle of the waker's
// track (its thread's, else its HEC's) to the woken thread's at the time of
// the wakeup, with a dot where it starts and an arrowhead where it ends.
// An end whose track is out of view ends at the edge, in an arrow head
// pointing beyond it and a chip naming the track (linkChip).
func (f *frame) drawWakeup(l *layout) {
	k, ok := f.wakeupLink(l)
	if !ok {
		return
	}
	c, ink := f.c, f.th.Text
	x := k.x
	lw := 1.5 * f.s
	head := 6 * f.s
	arrow := func(tipY, dir float64) {
		c.Polygon([]paint.Point{{X: x - head/2, Y: tipY - dir*head}, {X: x + head/2, Y: tipY - dir*head}, {X: x, Y: tipY}}, ink)
	}
	if k.label != "" {
		ys, ye := k.src.y, k.dst.y
		dir := 1.0
		if ye < ys {
			dir = -1
		}
		start := ys
		if k.src.away != 0 {
			// Off the edge: an arrow head pointing beyond it.
			start = ys - float64(k.src.away)*head
			arrow(ys, float64(k.src.away))
		} else {
			r := 3 * f.s
			c.Polygon([]paint.Point{{X: x - r, Y: ys}, {X: x, Y: ys - r}, {X: x + r, Y: ys}, {X: x, Y: ys + r}}, ink)
		}
		if k.dst.away != 0 {
			dir = float64(k.dst.away) // beyond the edge, whichever way the waker is
		}
		c.Line(x, start, x, ye-dir*head, lw, ink)
		arrow(ye, dir)
	} else {
		// Only the chip: both ends lie beyond the same edge.
		arrow(k.dst.y, float64(k.dst.away))
	}
	fc := f.small
	pad := px(3, f.s)
	box := func(r image.Rectangle, text string) {
		c.Fill(r, f.th.Tooltip)
		paint.StrokeRect(c, r, f.th.TooltipEdge)
		c.Text(fc, text, r.Min.X+pad, fc.Baseline(float64(r.Min.Y)+float64(r.Dy())/2), f.th.TooltipText)
	}
	for _, ch := range k.chips {
		box(ch.box, ch.text)
	}
	if k.label != "" {
		box(k.labelBox, k.label)
	}
}

// hitLink fills in the chip of the wakeup link at (x, y), if there is one
// there: an ElemLink leading to its track (Hit.Goto).
func (f *frame) hitLink(h *Hit, l *layout, x, y int) bool {
	k, ok := f.wakeupLink(l)
	if !ok {
		return false
	}
	for _, c := range k.chips {
		if image.Pt(x, y).In(c.hit) {
			h.Area, h.Element, h.Goto = AreaPlot, ElemLink, c.end.id
			h.Group, h.Name = c.end.id.Group(), f.v.Name(c.end.id)
			h.Tip, h.Anchor = c.tip, c.box
			return true
		}
	}
	return false
}
