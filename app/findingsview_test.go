package app

import (
	"fmt"
	"image"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"github.com/hecscope/hecscope/advise"
	"github.com/hecscope/hecscope/app/internal/apptest"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/tracks"
)

const (
	adviseSequentialLog = "../testdata/ghc-9.0.2/advise-sequential.eventlog"
	adviseHealthyLog    = "../testdata/ghc-9.0.2/advise-healthy.eventlog"
)

// TestFindingsTabOnHealthyRun opens the healthy run in a window: its
// Findings tab says there is nothing to find, from the findings the window
// looked for as it loaded the log (showing the tab looks for none again).
func TestFindingsTabOnHealthyRun(t *testing.T) {
	_, v, _ := openNav(t, adviseHealthyLog)
	selectTab(t, v, "Findings")
	if len(v.findings.Findings) != 0 || !strings.Contains(v.findings.Status.Text, "No findings in the whole run") || v.findings.Gen != 0 {
		t.Errorf("healthy run: %v (%s), %d loads", v.findings.Findings, v.findings.Status.Text, v.findings.Gen)
	}
}

// findingsWindow opens path in a window whose canvas flags the findings
// the window found as it loaded the log; it fails if there are none.
func findingsWindow(t *testing.T, path string) (*Window, *eventlogView) {
	t.Helper()
	w, v, _ := openNav(t, path)
	if len(v.findings.Findings) == 0 {
		t.Fatalf("%s: no findings: %s", path, v.findings.Status.Text)
	}
	return w, v
}

// highlighted returns the canvas's highlight and its tracks.
func highlighted(c *trackcanvas.Canvas) (*tracks.Highlight, []tracks.TrackID) {
	var h *tracks.Highlight
	c.With(func(tv *tracks.View) { h = tv.Highlight() })
	if h == nil {
		return nil, nil
	}
	return h, h.Tracks
}

// TestFindingsTabZoomsTheCanvas picks a finding in the window's Findings
// tab: the canvas shows its range and highlights its tracks (both HECs
// and the main thread, for the sequential period), until another finding
// is picked or Esc clears it.
func TestFindingsTabZoomsTheCanvas(t *testing.T) {
	_, v := findingsWindow(t, adviseSequentialLog)
	selectTab(t, v, "Findings")
	fv, c := v.findings, v.canvas
	f := fv.Findings[0]
	fv.List.Select(0)
	from, to := c.View()
	if from > f.From || to < f.To || 10*(to-from) > 13*(f.To-f.From) {
		t.Errorf("canvas shows %s for a finding over %s", rangeText(from, to), rangeText(f.From, f.To))
	}
	h, ids := highlighted(c)
	main := tracks.TrackID{Kind: tracks.KindThread, ID: f.Tracks.Threads[0]}
	for _, id := range []tracks.TrackID{{Kind: tracks.KindHEC, ID: 0}, {Kind: tracks.KindHEC, ID: 1}, main} {
		if !slices.Contains(ids, id) {
			t.Errorf("after picking %q the canvas highlights %v, not %v", f.Title, ids, id)
		}
	}
	if h == nil || h.From != f.From || h.To != f.To {
		t.Errorf("highlight %+v, want the range %s", h, rangeText(f.From, f.To))
	}

	// Another finding replaces it: the imbalance's are the HECs alone.
	fv.List.Select(1)
	if _, ids := highlighted(c); slices.Contains(ids, main) || !slices.Contains(ids, tracks.TrackID{Kind: tracks.KindHEC, ID: 0}) {
		t.Errorf("after picking %q the canvas highlights %v", fv.Findings[1].Title, ids)
	}
	// Esc clears it, and the list's selection with it.
	c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if h, _ := highlighted(c); h != nil || fv.Picked >= 0 {
		t.Errorf("after Esc: highlight %+v, finding picked %d", h, fv.Picked)
	}
}

// flagAt returns the canvas position of the flag of findings at time tm
// on the axis (searching the axis from its top), failing if there is none.
func flagAt(t *testing.T, c *trackcanvas.Canvas, tm uint64) (fyne.Position, tracks.Hit) {
	t.Helper()
	var x float64
	var axis image.Rectangle
	c.With(func(tv *tracks.View) { x, axis = tv.X(tm)+2, tv.AxisRect() })
	for y := axis.Min.Y; y < axis.Max.Y; y++ {
		var h tracks.Hit
		c.With(func(tv *tracks.View) { h = tv.Hit(x, float64(y)) })
		if h.Element == tracks.ElemFinding {
			s := float32(c.PixelScale())
			return fyne.NewPos(float32(x)/s, float32(y)/s+0.5/s), h
		}
	}
	t.Fatalf("no finding's flag at %s on the axis", rangeText(tm, tm))
	return fyne.Position{}, tracks.Hit{}
}

// TestFindingFlagsOnTheCanvas: the sequential run's findings are flagged
// on the canvas's axis as soon as it opens, at their starts; hovering the
// sequential period's flag shows its title, and clicking it picks it in
// the Findings tab (shown), zooms to it and highlights its tracks.
func TestFindingFlagsOnTheCanvas(t *testing.T) {
	_, v := findingsWindow(t, adviseSequentialLog)
	fv, c := v.findings, v.canvas
	f := fv.Findings[0]
	p, h := flagAt(t, c, f.From)
	if !slices.Equal(h.Findings, []int{0}) {
		t.Fatalf("the flag at %s holds findings %v, want [0]", rangeText(f.From, f.To), h.Findings)
	}
	hover(c, p)
	if tip := apptest.TipText(c.Tip); len(tip) == 0 || tip[0] != f.Title {
		t.Errorf("hovering the flag shows %q, want the title %q", tip, f.Title)
	}
	c.Tapped(&fyne.PointEvent{Position: p})
	if sel := v.tabs.Selected(); sel == nil || sel.Text != "Findings" || fv.Picked != 0 {
		t.Errorf("after the click: tab %v, finding picked %d", sel, fv.Picked)
	}
	if from, to := c.View(); from > f.From || to < f.To || 10*(to-from) > 13*(f.To-f.From) {
		t.Errorf("canvas shows %s for a finding over %s", rangeText(from, to), rangeText(f.From, f.To))
	}
	if _, ids := highlighted(c); !slices.Contains(ids, tracks.TrackID{Kind: tracks.KindHEC, ID: 1}) {
		t.Errorf("after the click the canvas highlights %v", ids)
	}
}

// TestFindingClusterClicks: in the MVar run, the first sequential period
// and the blocking finding begin together: one flag, whose clicks pick
// one and then the other.
func TestFindingClusterClicks(t *testing.T) {
	_, v := findingsWindow(t, "../testdata/ghc-9.0.2/advise-mvar.eventlog")
	fv, c := v.findings, v.canvas
	var blocking int
	for i, f := range fv.Findings {
		if f.Kind == advise.KindBlocking {
			blocking = i
		}
	}
	at := fv.Findings[blocking].From
	p, h := flagAt(t, c, at)
	if len(h.Findings) < 2 || !slices.Contains(h.Findings, blocking) {
		t.Fatalf("the flag at %s holds findings %v, want the blocking one (%d) and another", rangeText(at, at), h.Findings, blocking)
	}
	var got []int
	for range h.Findings {
		p, _ = flagAt(t, c, at) // the canvas zoomed
		c.Tapped(&fyne.PointEvent{Position: p})
		got = append(got, fv.Picked)
	}
	if !slices.Equal(got, h.Findings) {
		t.Errorf("clicking the cluster picked %v, want %v in turn", got, h.Findings)
	}
	// The blocking finding's tracks are its threads: the canvas brings
	// the first into view.
	fv.List.Select(blocking)
	_, ids := highlighted(c)
	if len(ids) == 0 || ids[0].Kind != tracks.KindThread {
		t.Fatalf("blocking finding's tracks %v", ids)
	}
	c.With(func(tv *tracks.View) {
		if _, ok := tv.TrackRect(ids[0]); !ok {
			t.Errorf("thread %d's track is not in view", ids[0].ID)
		}
	})
}

// rangeText writes [from, to] for a test's message.
func rangeText(from, to uint64) string { return fmt.Sprintf("[%d, %d] ns", from, to) }
