package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// TestClickingAWakeupLinksChipJumpsToTheThread: in a window, clicking a
// thread's runnable span whose waker is scrolled out of view links the
// two with a chip at the edge naming the waker; hovering the chip says
// what the link is; clicking it brings the waker's row into view, marked
// and pinned as the finder's jump leaves it, and the link stays.
func TestClickingAWakeupLinksChipJumpsToTheThread(t *testing.T) {
	w, v, abs := openNav(t, parworkN2)
	w.Fyne().Resize(fyne.NewSize(1200, 560))
	c, fc := v.canvas, w.Fyne().Canvas()
	m := v.log.Model
	type candidate struct {
		w        tracks.Wakeup
		from, to uint64 // the runnable span
	}
	var link candidate
	found := false
	c.With(func(tv *tracks.View) {
		tv.SetCollapsed(tracks.GroupThreads, false)
		for i := range m.Threads {
			th := &m.Threads[i]
			for j := 0; j+1 < th.Track.Len() && !found; j++ {
				mk := th.Track.Mark(j)
				if mk.State != timeline.StateRunnable {
					continue
				}
				lw, ok := tracks.WokenBy(m, th.ID, mk.Time+1)
				next := th.Track.Mark(j + 1).Time
				if !ok || lw.By == 0 || lw.By == th.ID || next-mk.Time < 2_000 {
					continue
				}
				tv.SetRange(lw.Time-(next-lw.Time), next+(next-lw.Time))
				tv.Reveal(tracks.TrackID{Kind: tracks.KindThread, ID: th.ID})
				if _, in := tv.TrackRect(tracks.TrackID{Kind: tracks.KindThread, ID: lw.By}); !in {
					link, found = candidate{lw, mk.Time, next}, true
				}
			}
			if found {
				return
			}
		}
	})
	if !found {
		t.Fatal("no runnable span whose waker is out of view")
	}
	c.Changed()
	waker := tracks.TrackID{Kind: tracks.KindThread, ID: link.w.By}
	woken := tracks.TrackID{Kind: tracks.KindThread, ID: link.w.Thread}
	test.TapCanvas(fc, abs.Add(trackAt(t, c, woken, link.from+(link.to-link.from)/2)))
	var wk *tracks.Wakeup
	c.With(func(tv *tracks.View) { wk = tv.Wakeup() })
	if wk == nil || wk.By != link.w.By {
		t.Fatalf("clicking the runnable span linked %+v, want the wakeup by thread %d", wk, link.w.By)
	}
	// The chip, right of the link.
	var chip tracks.Hit
	sc := c.PixelScale()
	c.With(func(tv *tracks.View) {
		x := tv.X(link.w.Time) + 12*sc
		a := tv.TracksRect()
		for y := a.Min.Y; y < a.Max.Y; y++ {
			if h := tv.Hit(x, float64(y)+0.5); h.Element == tracks.ElemLink {
				chip = h
				break
			}
		}
	})
	if chip.Goto != waker {
		t.Fatalf("the chip leads to %v, want the waker %v", chip.Goto, waker)
	}
	mid := chip.Anchor.Min.Add(chip.Anchor.Max).Div(2)
	at := fyne.NewPos(float32(float64(mid.X)/sc), float32(float64(mid.Y)/sc))
	test.MoveMouse(fc, abs.Add(at))
	if tip := strings.Join(canvasTexts(c), "\n"); !strings.Contains(tip, "thread "+itoa(link.w.By)) || !strings.Contains(tip, "woke thread "+itoa(link.w.Thread)) {
		t.Errorf("the chip's tooltip is %q", tip)
	}
	test.TapCanvas(fc, abs.Add(at))
	if _, in := canvasTrackRect(c, waker); !in {
		t.Error("after clicking the chip the waker's row is not in view")
	}
	if _, in := canvasTrackRect(c, woken); !in {
		t.Error("after clicking the chip the woken thread's row left the view")
	}
	var marked, pinned bool
	c.With(func(tv *tracks.View) { marked, pinned = tv.Marked() == waker, tv.Pinned(waker) })
	if !marked || !pinned {
		t.Errorf("the waker is marked %v, pinned %v: want both, as after the finder's jump", marked, pinned)
	}
	c.With(func(tv *tracks.View) { wk = tv.Wakeup() })
	if wk == nil {
		t.Error("clicking the chip took the link away")
	}
}
