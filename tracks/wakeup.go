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
	m := timeline.ModelFor(v.src, from, to, float64(to-from)/float64(max(g.plot.Dx(), 1)), v.ready)
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

// drawWakeup draws the wakeup link: a line from the middle of the waker's
// track (its thread's, else its HEC's) to the woken thread's at the time of
// the wakeup, with a dot where it starts and an arrowhead where it ends.
func (f *frame) drawWakeup(l *layout) {
	w := f.v.wakeup
	if w == nil || w.Time < f.from || w.Time > f.to {
		return
	}
	ty0, ty1, ok := f.rowSpan(l, TrackID{Kind: KindThread, ID: w.Thread})
	if !ok {
		return
	}
	sy0, sy1, ok := 0, 0, false
	if w.By != 0 {
		sy0, sy1, ok = f.rowSpan(l, TrackID{Kind: KindThread, ID: w.By})
	}
	if !ok {
		if sy0, sy1, ok = f.rowSpan(l, TrackID{Kind: KindHEC, ID: uint32(w.HEC)}); !ok {
			return
		}
	}
	x := f.ax.X(w.Time)
	ys, ye := float64(sy0+sy1)/2, float64(ty0+ty1)/2
	ink := f.th.Text
	c := f.c
	clip := image.Rect(f.g.plot.Min.X, min(f.g.pinned.Min.Y, f.g.tracks.Min.Y), f.g.plot.Max.X, f.g.tracks.Max.Y)
	if x < float64(clip.Min.X) || x > float64(clip.Max.X) {
		return
	}
	ys = clampF(ys, float64(clip.Min.Y), float64(clip.Max.Y))
	ye = clampF(ye, float64(clip.Min.Y), float64(clip.Max.Y))
	lw := 1.5 * f.s
	head := 6 * f.s
	dir := 1.0
	if ye < ys {
		dir = -1
	}
	c.Line(x, ys, x, ye-dir*head, lw, ink)
	r := 3 * f.s
	c.Polygon([]paint.Point{{X: x - r, Y: ys}, {X: x, Y: ys - r}, {X: x + r, Y: ys}, {X: x, Y: ys + r}}, ink)
	c.Polygon([]paint.Point{{X: x - head/2, Y: ye - dir*head}, {X: x + head/2, Y: ye - dir*head}, {X: x, Y: ye}}, ink)

	// What woke it, beside where the link starts (which may be the edge
	// of the area when the waker's track is scrolled away).
	label := w.Text(f.ov)
	fc := f.small
	pad := px(3, f.s)
	tw, th := fc.Width(label)+2*pad, fc.Height()+2*pad
	lx := int(x) + px(8, f.s)
	if lx+tw > clip.Max.X {
		lx = int(x) - px(8, f.s) - tw
	}
	ly := int(ys) - th/2
	ly = max(clip.Min.Y, min(ly, clip.Max.Y-th))
	box := image.Rect(lx, ly, lx+tw, ly+th)
	c.Fill(box, f.th.Tooltip)
	paint.StrokeRect(c, box, f.th.TooltipEdge)
	c.Text(fc, label, lx+pad, fc.Baseline(float64(ly)+float64(th)/2), f.th.TooltipText)
}

// clampF returns v within [lo, hi].
func clampF(v, lo, hi float64) float64 { return max(lo, min(v, hi)) }
