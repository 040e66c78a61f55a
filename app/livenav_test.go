package app

import (
	"context"
	"os"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
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
