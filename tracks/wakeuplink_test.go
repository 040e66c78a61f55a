package tracks

import (
	"strings"
	"testing"

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
// of the chip and of the woken thread's row. With the Threads group collapsed (the woken thread pinned)
// or the waker hidden, the chip says so.
func TestWakeupLinkToTrackOutOfView(t *testing.T) {
	m := realModel(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	v := New(timeline.Exact(m))
	v.SetSize(1400, 420, 1)
	found := false
	var w Wakeup
	for i := range m.Threads {
		th := &m.Threads[i]
		for j := 0; j < th.Track.Len() && !found; j++ {
			mk := th.Track.Mark(j)
			if mk.State != timeline.StateRunnable {
				continue
			}
			lw, ok := WokenBy(m, th.ID, mk.Time+1)
			if !ok || lw.By == 0 || lw.By == th.ID {
				continue
			}
			v.SetRange(lw.Time-40_000, lw.Time+40_000)
			if !v.Reveal(TrackID{Kind: KindThread, ID: th.ID}) {
				continue
			}
			if _, in := v.TrackRect(TrackID{Kind: KindThread, ID: lw.By}); !in {
				w, found = lw, true
			}
		}
		if found {
			break
		}
	}
	if !found {
		t.Fatal("no wakeup by a thread out of view")
	}
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
