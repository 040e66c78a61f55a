package app

import (
	"context"
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// growingSnapshots decodes path and returns snapshots of a timeline.Live
// taken after each of parts equal shares of its events.
func growingSnapshots(t *testing.T, path string, parts int) []*timeline.Model {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []ingest.Event
	if _, _, err := ingest.ReadAll(f, func(ev *ingest.Event) error {
		evs = append(evs, ev.Clone())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	live := timeline.NewLive()
	var snaps []*timeline.Model
	step := max(len(evs)/(4*parts), 1)
	for lo := 0; lo < len(evs) && len(snaps) < parts; lo += step {
		live.Add(evs[lo:min(lo+step, len(evs))])
		// Keep only snapshots that end later than the one before.
		if m := live.Snapshot(); m.End > 0 && (len(snaps) == 0 || m.End > snaps[len(snaps)-1].End) {
			snaps = append(snaps, m)
		}
	}
	if len(snaps) < parts {
		t.Fatalf("%s: only %d growing snapshots, want %d", path, len(snaps), parts)
	}
	return snaps
}

// liveNav shows snapshot m on a growing scale in a test window.
func liveNav(t *testing.T, m *timeline.Model) *timelineNav {
	t.Helper()
	fa := test.NewApp()
	t.Cleanup(fa.Quit)
	sc := newNavScale(m.End)
	sc.grows = true
	n := newTimelineNav(m, sc, "timeline", nil)
	w := fa.NewWindow("live")
	w.SetContent(n)
	w.Resize(fyne.NewSize(1000, 400))
	return n
}

func TestLiveNavFollowsHoldsAndResumes(t *testing.T) {
	snaps := growingSnapshots(t, liveLog, 8)
	n := liveNav(t, snaps[0])
	sc := n.sc

	// Never moved: the whole run, growing with it.
	n.setModel(snaps[1])
	if from, to := n.View(); from != 0 || to != snaps[1].End || !sc.following() {
		t.Fatalf("untouched view %d–%d (following %v), want 0–%d", from, to, sc.following(), snaps[1].End)
	}

	// Following a width: the right edge moves with the end, the width stays.
	w := snaps[1].End / 4
	sc.followLast(w)
	n.setModel(snaps[2])
	if from, to := n.View(); to != snaps[2].End || to-from != w {
		t.Fatalf("followed view %d–%d, want the last %d ns up to %d", from, to, w, snaps[2].End)
	}
	// + zooms at the right edge while following, so it goes on following.
	n.TypedRune('+')
	_, to := n.View()
	if !sc.following() || to != snaps[2].End {
		t.Fatalf("+ while following: right edge %d, following %v; want %d, true", to, sc.following(), snaps[2].End)
	}
	n.setModel(snaps[3])
	if _, to := n.View(); to != snaps[3].End {
		t.Fatalf("after +, right edge %d, want the new end %d", to, snaps[3].End)
	}

	// Zoom into the past with the wheel: the view stays put as events arrive.
	scroll(n, fyne.NewPos(n.xAt(snaps[0].End/2, n.options()), 100), 0, 80)
	from0, to0 := n.View()
	if sc.following() || to0 >= snaps[3].End {
		t.Fatalf("zoomed into the past at %d–%d, still following (%v)", from0, to0, sc.following())
	}
	for _, m := range snaps[4:6] {
		n.setModel(m)
		if from, to := n.View(); from != from0 || to != to0 || sc.following() {
			t.Fatalf("held view moved to %d–%d (following %v) as the run grew to %d; want %d–%d", from, to, sc.following(), m.End, from0, to0)
		}
	}
	// Panning with the keyboard keeps it held too.
	n.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
	from1, to1 := n.View()
	n.setModel(snaps[6])
	if from, to := n.View(); from != from1 || to != to1 {
		t.Fatalf("panned view moved to %d–%d, want %d–%d", from, to, from1, to1)
	}

	// End resumes following at the same width.
	n.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
	from, to := n.View()
	if !sc.following() || to != snaps[6].End || to-from != to1-from1 {
		t.Fatalf("after End: %d–%d (following %v), want %d ns up to %d", from, to, sc.following(), to1-from1, snaps[6].End)
	}
	n.setModel(snaps[7])
	if from, to := n.View(); to != snaps[7].End || to-from != to1-from1 {
		t.Fatalf("following after End: %d–%d, want %d ns up to %d", from, to, to1-from1, snaps[7].End)
	}

	// The read-out reads the newest snapshot: the last pixel column is past
	// the end of every earlier snapshot.
	opt := n.options()
	g, pw := plot(opt)
	x := float32((g + pw - 1) / n.ratio(opt))
	var h timeline.Hit
	for y := float32(0); y < n.Size().Height && h.Row != timeline.RowHEC; y += 4 {
		h = n.hit(fyne.NewPos(x, y))
	}
	if h.Row != timeline.RowHEC || h.Time <= snaps[6].End || h.Time > snaps[7].End {
		t.Fatalf("hover at the right edge reads row %v at time %d, want a HEC row at a time in (%d, %d]", h.Row, h.Time, snaps[6].End, snaps[7].End)
	}
	if txt := hoverText(n.model(), h); txt == "" {
		t.Fatal("no hover read-out at the right edge")
	}
}

// TestLiveNavMainWindowEnd: in a finished run, End still goes to the end
// without changing the width, and + zooms at the middle.
func TestLiveNavMainWindowEnd(t *testing.T) {
	snaps := growingSnapshots(t, liveLog, 1)
	n := liveNav(t, snaps[0])
	n.sc.grows = false
	n.TypedRune('+')
	from, to := n.View()
	end := snaps[0].End
	if mid := from + (to-from)/2; mid < end/2-end/100 || mid > end/2+end/100 {
		t.Fatalf("+ zoomed to %d–%d, not around the middle %d", from, to, end/2)
	}
	n.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
	if f, t2 := n.View(); t2 != end || t2-f != to-from {
		t.Fatalf("End showed %d–%d, want %d ns up to %d", f, t2, to-from, end)
	}
}

// TestAttachWindowNavigates: the live window's timeline can be zoomed into
// the past while events arrive without moving; End follows again, and the
// Follow choice sets the followed width.
func TestAttachWindowNavigates(t *testing.T) {
	lw := attachLiveLog(t)
	v, gate, locked, waitFor := lw.v, lw.gate, lw.locked, lw.waitFor
	var halfEnd uint64
	waitFor("the first half", func() bool {
		if v.nav == nil || v.shown == nil {
			return false
		}
		halfEnd = v.shown.End
		_, to := v.nav.View()
		return v.sc.following() && to == halfEnd
	})
	// Zoom into the past.
	var from0, to0 uint64
	locked(func() {
		n := v.nav
		n.zoom(0.1, halfEnd/4)
		from0, to0 = n.View()
		if v.sc.following() || v.follow.Selected != "" {
			t.Errorf("after zooming into the past: following %v, Follow shows %q", v.sc.following(), v.follow.Selected)
		}
	})
	close(gate)
	waitFor("the end", func() bool { return strings.HasPrefix(v.status.Text, "ended") && v.shown.End > halfEnd })
	locked(func() {
		if from, to := v.nav.View(); from != from0 || to != to0 {
			t.Errorf("held view moved from %d–%d to %d–%d while events arrived", from0, to0, from, to)
		}
		if v.nav.model() != v.shown {
			t.Error("the timeline does not draw the newest snapshot")
		}
		if !strings.Contains(v.status.Text, "view held at") {
			t.Errorf("status %q does not say the view is held", v.status.Text)
		}
		v.nav.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
		if from, to := v.nav.View(); !v.sc.following() || to != v.shown.End || to-from != to0-from0 {
			t.Errorf("after End: %d–%d (following %v), want %d ns up to %d", from, to, v.sc.following(), to0-from0, v.shown.End)
		}
		v.follow.SetSelected("Last 100 ms")
		if from, to := v.nav.View(); !v.sc.following() || to != v.shown.End || (v.shown.End > 100e6 && to-from != 100e6) {
			t.Errorf("Last 100 ms shows %d–%d of a run ending at %d", from, to, v.shown.End)
		}
		v.follow.SetSelected("Whole run")
		if from, to := v.nav.View(); from != 0 || to != v.shown.End {
			t.Errorf("Whole run shows %d–%d of a run ending at %d", from, to, v.shown.End)
		}
	})
	// A selection and the pointer work on the live timeline.
	locked(func() {
		n := v.nav
		n.MouseDown(&desktop.MouseEvent{Modifier: fyne.KeyModifierShift})
		drag(n, fyne.NewPos(n.Size().Width/2, n.Size().Height/2), 100)
		if _, _, ok := n.Selection(); !ok {
			t.Error("Shift+drag made no selection")
		}
		// The first point down the middle with something to read.
		p := fyne.NewPos(n.Size().Width/2, 0)
		for ; p.Y < n.Size().Height && n.hoverText(p) == ""; p.Y += 4 {
		}
		n.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p}})
		if v.readout.Text == liveReadoutHelp || v.readout.Text == "" {
			t.Errorf("hover read-out %q at %v of %v (%q)", v.readout.Text, p, n.Size(), n.hoverText(p))
		}
	})
}

// BenchmarkLiveNavFrame is one refresh of the live window's timeline on
// the big GHC 9.0.2 log: take the snapshot, extend the scale and draw
// 1600×600, following the whole run, following its last second, and held
// on a second in the middle.
func BenchmarkLiveNavFrame(b *testing.B) {
	if _, err := os.Stat(bigLog); err != nil {
		b.Skipf("no big eventlog: %v", err)
	}
	l, err := loadEventlog(context.Background(), bigLog, nil)
	if err != nil {
		b.Fatal(err)
	}
	m := l.Model
	fa := test.NewApp()
	defer fa.Quit()
	for _, c := range []struct {
		name string
		set  func(n *timelineNav)
	}{
		{"whole", func(n *timelineNav) { n.sc.followLast(0) }},
		{"last1s", func(n *timelineNav) { n.sc.followLast(1e9) }},
		{"held", func(n *timelineNav) { n.showRange(m.End/2, m.End/2+1e9) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			sc := newNavScale(m.End / 2)
			sc.grows = true
			n := newTimelineNav(m, sc, "timeline", nil)
			c.set(n)
			for b.Loop() {
				n.setModel(m)
				if _, err := n.render(1600, 600, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestAttachWindowRowGroups: the live window offers the file window's row
// groups (threads, activity, sparks, user events) on the timeline's scale;
// ticking Threads shows one row per thread of the running program, which
// reads out under the pointer, and every row draws the newest snapshot as
// events arrive.
func TestAttachWindowRowGroups(t *testing.T) {
	lw := attachLiveLog(t)
	v, gate, locked, waitFor := lw.v, lw.gate, lw.locked, lw.waitFor
	waitFor("the first half", func() bool { return v.nav != nil && v.shown != nil })
	var threads *timelineNav
	locked(func() {
		views := map[string]*timelineNav{}
		for _, r := range v.rows {
			views[r.nav.view] = r.nav
			if r.nav.sc != v.sc {
				t.Errorf("row group %q is not on the timeline's scale", r.name)
			}
		}
		for _, want := range []string{"timeline", "threads", "activity", "sparks", userView} {
			if views[want] == nil {
				t.Errorf("no %q row group in the live window", want)
			}
		}
		threads = views["threads"]
		check := findCheck(v.timelineBox, "Threads (one row per thread)")
		if check == nil {
			t.Fatal("no Threads toggle in the side panel")
		}
		check.SetChecked(true)
	})
	close(gate)
	waitFor("the end", func() bool { return strings.HasPrefix(v.status.Text, "ended") })
	locked(func() {
		for _, r := range v.rows {
			if r.nav.model() != v.shown {
				t.Errorf("row group %q does not draw the newest snapshot", r.name)
			}
		}
		if !isShown(threads) {
			t.Fatal("ticking Threads did not show the thread rows")
		}
		if n := len(threads.threadRows(0, v.shown.End)); n < 10 {
			t.Errorf("%d thread rows for the whole run", n)
		}
		// Something to read on the thread rows.
		var text string
		for y := float32(0); y < threads.Size().Height && text == ""; y += 3 {
			for x := float32(0); x < threads.Size().Width && text == ""; x += threads.Size().Width / 40 {
				text = threads.hoverText(fyne.NewPos(x, y))
			}
		}
		if !strings.Contains(text, "thread") {
			t.Errorf("thread rows read out %q", text)
		}
	})
}

// findCheck returns the check box labelled text under o, if any.
func findCheck(o fyne.CanvasObject, text string) *widget.Check {
	switch o := o.(type) {
	case *keyCheck:
		if o.Text == text {
			return &o.Check
		}
	case *fyne.Container:
		for _, c := range o.Objects {
			if found := findCheck(c, text); found != nil {
				return found
			}
		}
	case *container.Split:
		if found := findCheck(o.Leading, text); found != nil {
			return found
		}
		return findCheck(o.Trailing, text)
	case *container.Scroll:
		return findCheck(o.Content, text)
	}
	return nil
}

// isShown reports whether o is laid out in a visible window: shown, with a
// size.
func isShown(o fyne.CanvasObject) bool {
	return o.Visible() && o.Size().Width > 0 && o.Size().Height > 0
}
