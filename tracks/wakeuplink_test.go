package tracks

import (
	"strings"
	"testing"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// linkChipAt finds the chip of the wakeup link beside x (at any height of
// the tracks), by hitting the view as a pointer would.
func linkChipAt(v *View, x int) (Hit, bool) {
	a := v.TracksRect()
	for y := a.Min.Y; y < a.Max.Y; y++ {
		if h := v.Hit(float64(x), float64(y)+0.5); h.Element == ElemLink {
			return h, true
		}
	}
	return Hit{}, false
}

// TestWakeupLinkToTrackOutOfView: on a real run with more threads than
// the view holds, the link from a waker scrolled out of view ends at the
// edge of the tracks on the waker's side, in an arrow head and a chip that
// names the waker; hitting the chip gives an ElemLink leading to the
// waker, whose tooltip says what the link is; revealing that track brings
// it into view and takes the chip away. The label of the link stays clear
// of the chip and of the woken thread's row. With the Threads group
// collapsed (the woken thread pinned) or the waker hidden, the chip says
// so.
func TestWakeupLinkToTrackOutOfView(t *testing.T) {
	m := realModel(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	v := New(timeline.Exact(m))
	v.SetSize(1400, 420, 1)
	w := linkOutOfView(t, m, v, false)
	waker, woken := TrackID{Kind: KindThread, ID: w.By}, TrackID{Kind: KindThread, ID: w.Thread}
	plain := v.Render()
	if _, ok := v.ShowWakeup(Hit{Track: woken, Element: ElemSpan, Time: w.Time + 1}); !ok {
		t.Fatal("ShowWakeup found nothing")
	}
	linked := v.Render()
	x := int(v.X(w.Time))
	h, ok := linkChipAt(v, x+px(12, 1))
	if !ok {
		t.Fatalf("no chip beside the link at x=%d", x)
	}
	if h.Goto != waker || h.Area != AreaPlot {
		t.Errorf("the chip leads to %v (area %v), want the waker %v", h.Goto, h.Area, waker)
	}
	tip := strings.Join(h.Tip, " | ")
	for _, want := range []string{"thread " + itoa(w.By), "woke thread " + itoa(w.Thread) + " ", " at ", "on HEC " + itoa(uint32(w.HEC)), "click to scroll to it"} {
		if !strings.Contains(tip, want) {
			t.Errorf("the chip's tooltip %q lacks %q", tip, want)
		}
	}
	// At the edge on the waker's side, its arrow head drawn there.
	tracksA := v.TracksRect()
	rw, _ := find(v.ensureLayout().rows, waker)
	rt, _ := find(v.ensureLayout().rows, woken)
	wakerAbove := rw.y < rt.y
	edge := tracksA.Max.Y - 3
	if wakerAbove {
		edge = tracksA.Min.Y + 2
		if h.Anchor.Min.Y < tracksA.Min.Y || h.Anchor.Min.Y > tracksA.Min.Y+3 {
			t.Errorf("the chip is at y %d, want at the top of the tracks (%d)", h.Anchor.Min.Y, tracksA.Min.Y)
		}
	} else if h.Anchor.Max.Y > tracksA.Max.Y || h.Anchor.Max.Y < tracksA.Max.Y-3 {
		t.Errorf("the chip ends at y %d, want at the bottom of the tracks (%d)", h.Anchor.Max.Y, tracksA.Max.Y)
	}
	if plain.RGBAAt(x, edge) == linked.RGBAAt(x, edge) {
		t.Errorf("no arrow head at the edge (%d, %d)", x, edge)
	}
	if !h.Anchor.In(v.PlotRect()) {
		t.Errorf("the chip %v leaves the plot %v", h.Anchor, v.PlotRect())
	}
	f := v.hitFrame(v.geometry(), w.Time-40_000, w.Time+40_000)
	k, ok := f.wakeupLink(v.ensureLayout())
	if !ok || len(k.chips) != 1 || k.label == "" {
		t.Fatalf("the link: %v, %d chips, label %q", ok, len(k.chips), k.label)
	}
	if k.labelBox.Overlaps(k.chips[0].box) {
		t.Errorf("the label %v overlaps the chip %v", k.labelBox, k.chips[0].box)
	}
	if r, _ := v.TrackRect(woken); k.labelBox.Overlaps(r) {
		t.Errorf("the label %v covers the woken thread's row %v", k.labelBox, r)
	}
	if !strings.HasPrefix(k.chips[0].text, map[bool]string{true: "↑ thread ", false: "↓ thread "}[wakerAbove]) {
		t.Errorf("the chip reads %q", k.chips[0].text)
	}

	// Followed: the waker is in view, and no chip leads to it.
	if !v.Reveal(h.Goto) {
		t.Fatal("Reveal of the chip's track failed")
	}
	if _, in := v.TrackRect(waker); !in {
		t.Error("the waker is not in view after Reveal")
	}
	if h, ok := linkChipAt(v, x+px(12, 1)); ok && h.Goto == waker {
		t.Error("a chip still leads to the waker in view")
	}

	// The woken thread pinned, the threads collapsed: the waker's chip
	// says the group is collapsed, and Reveal expands it.
	v.Pin(woken)
	v.SetCollapsed(GroupThreads, true)
	h, ok = linkChipAt(v, x+px(12, 1))
	if !ok || h.Goto != waker || !strings.Contains(strings.Join(h.Tip, " "), "in the collapsed Threads group") {
		t.Errorf("collapsed: chip %v leading to %v, tip %q", ok, h.Goto, h.Tip)
	}
	if v.Reveal(h.Goto); v.Collapsed(GroupThreads) {
		t.Error("Reveal left the threads collapsed")
	}
	// The waker hidden.
	v.Hide(waker)
	h, ok = linkChipAt(v, x+px(12, 1))
	if !ok || h.Goto != waker || !strings.Contains(strings.Join(h.Tip, " "), "hidden") {
		t.Errorf("hidden: chip %v leading to %v, tip %q", ok, h.Goto, h.Tip)
	}
	if _, ok := v.ShowWakeup(Hit{}); ok {
		t.Fatal("the link stayed")
	}
	if _, ok := linkChipAt(v, x+px(12, 1)); ok {
		t.Error("a chip without a link")
	}
}

// linkOutOfView finds, in m drawn by v, a wakeup (a creation if created)
// by a thread whose track is out of view once the woken thread's is
// revealed around the wakeup's time, further from it than the view is
// high, and leaves v so.
func linkOutOfView(t *testing.T, m *timeline.Model, v *View, created bool) Wakeup {
	t.Helper()
	for i := range m.NumThreads() {
		th := new(m.Thread(i))
		for j := 0; j < th.Track.Len(); j++ {
			mk := th.Track.Mark(j)
			if mk.State != timeline.StateRunnable {
				continue
			}
			w, ok := WokenBy(m, th.ID, mk.Time+1)
			if !ok || w.By == 0 || w.By == th.ID || w.Created != created {
				continue
			}
			v.SetRange(w.Time-40_000, w.Time+40_000)
			if !v.Reveal(TrackID{Kind: KindThread, ID: th.ID}) {
				continue
			}
			l := v.ensureLayout()
			rb, _ := find(l.rows, TrackID{Kind: KindThread, ID: w.By})
			rt, _ := find(l.rows, TrackID{Kind: KindThread, ID: th.ID})
			if _, in := v.TrackRect(TrackID{Kind: KindThread, ID: w.By}); !in && abs(rb.y-rt.y) > v.TracksRect().Dy() {
				return w
			}
		}
	}
	t.Fatalf("no wakeup (created %v) by a thread out of view", created)
	return Wakeup{}
}

// TestCreationLinkToTrackOutOfView: the link from a thread's creator out
// of view has its chip, whose tooltip says the creator created the thread
// and when; scrolled the other way, so that the created thread is out of
// view and its creator in, the chip leads to the created thread and says
// by whom and when it was created.
func TestCreationLinkToTrackOutOfView(t *testing.T) {
	m := realModel(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	v := New(timeline.Exact(m))
	v.SetSize(1400, 170, 1)
	w := linkOutOfView(t, m, v, true)
	creator, created := TrackID{Kind: KindThread, ID: w.By}, TrackID{Kind: KindThread, ID: w.Thread}
	if _, ok := v.ShowWakeup(Hit{Track: created, Element: ElemSpan, Time: w.Time + 1}); !ok {
		t.Fatal("ShowWakeup found nothing")
	}
	x := int(v.X(w.Time)) + px(12, 1)
	h, ok := linkChipAt(v, x)
	when := " at " + paint.Time(w.Time, PointStep(v.Axis().PixelsPerNs()))
	if tip := strings.Join(h.Tip, " | "); !ok || h.Goto != creator || !strings.Contains(tip, "created thread "+itoa(w.Thread)+" ") || !strings.Contains(tip, when) {
		t.Errorf("the creator's chip (%v) leads to %v, tip %q: want %v, \"created thread %d … %s\"", ok, h.Goto, tip, creator, w.Thread, when)
	}
	// The creator at the top of the view, the created thread below it.
	l := v.ensureLayout()
	rc, _ := find(l.rows, creator)
	rt, _ := find(l.rows, created)
	if rt.y < rc.y {
		rc, rt = rt, rc
	}
	if rt.y-rc.y < v.TracksRect().Dy() {
		t.Fatalf("threads %d and %d fit in one view: rows at %d and %d, view %v", w.By, w.Thread, rc.y, rt.y, v.TracksRect())
	}
	v.ScrollTo(rc.y)
	if _, in := v.TrackRect(created); in {
		v.ScrollTo(rt.y + rt.h)
	}
	h, ok = linkChipAt(v, x)
	if tip := strings.Join(h.Tip, " | "); !ok || h.Goto != created || !strings.Contains(tip, "created by thread "+itoa(w.By)) || !strings.Contains(tip, when) {
		t.Errorf("the created thread's chip (%v) leads to %v, tip %q: want %v, \"created by thread %d … %s\"", ok, h.Goto, tip, created, w.By, when)
	}
}
