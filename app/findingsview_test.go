package app

import (
	"fmt"
	"image"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/advise"
	"github.com/hecscope/hecscope/app/kit"
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
	// Looking for findings again would say so in the status line at once.
	shown := strings.Join(texts(selectTab(t, v, "Findings").Content), "\n")
	if !v.log.Analysed || len(v.log.Findings) != 0 || !strings.Contains(shown, "No findings in the whole run") || strings.Contains(shown, "Looking through") {
		t.Errorf("healthy run (analysed %v, %d findings): the tab shows %q", v.log.Analysed, len(v.log.Findings), shown)
	}
}

// findingsWindow opens path in a window whose canvas flags the findings
// the window found as it loaded the log (the Findings tab lists them); it
// fails if there are none.
func findingsWindow(t *testing.T, path string) (*Window, *eventlogView) {
	t.Helper()
	w, v, _ := openNav(t, path)
	if len(v.log.Findings) == 0 {
		t.Fatalf("%s: no findings", path)
	}
	return w, v
}

// findingsTab returns the Findings tab's list of findings and a function
// that tells which finding (of the window's log) the tab's detail shows
// (-1 for none).
func findingsTab(t *testing.T, v *eventlogView) (*kit.KeyList, func() int) {
	t.Helper()
	var list *kit.KeyList
	var detail *widget.Label
	for _, o := range test.LaidOutObjects(tabContent(t, v, "Findings")) {
		switch o := o.(type) {
		case *kit.KeyList:
			list = o
		case *widget.Label:
			if o.Wrapping == fyne.TextWrapWord {
				detail = o
			}
		}
	}
	if list == nil || detail == nil {
		t.Fatal("the Findings tab has no list or no detail")
	}
	picked := func() int {
		// The detail starts with the finding's title, severity and kind.
		at := -1
		for i, f := range v.log.Findings {
			if strings.HasPrefix(detail.Text, fmt.Sprintf("%s (%s, %s, ", f.Title, f.Severity, f.Kind)) {
				if at >= 0 {
					t.Fatalf("the detail %q fits findings %d and %d", detail.Text, at, i)
				}
				at = i
			}
		}
		return at
	}
	return list, picked
}

// canvasTexts returns the texts the canvas shows over its picture (the
// cursor's time, the selection's length, the tooltip's lines).
func canvasTexts(c *trackcanvas.Canvas) []string {
	var out []string
	for _, o := range test.WidgetRenderer(c).Objects() {
		if l, ok := o.(*canvas.Text); ok && l.Visible() {
			out = append(out, l.Text)
		}
	}
	return out
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
	list, picked := findingsTab(t, v)
	c, fs := v.canvas, v.log.Findings
	f := fs[0]
	list.Select(0)
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
	if picked() != 0 {
		t.Errorf("after picking %q the tab details finding %d", f.Title, picked())
	}
	list.Select(1)
	if _, ids := highlighted(c); slices.Contains(ids, main) || !slices.Contains(ids, tracks.TrackID{Kind: tracks.KindHEC, ID: 0}) {
		t.Errorf("after picking %q the canvas highlights %v", fs[1].Title, ids)
	}
	// Esc clears it, and the list's selection with it.
	c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if h, _ := highlighted(c); h != nil || picked() >= 0 {
		t.Errorf("after Esc: highlight %+v, finding picked %d", h, picked())
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
	_, picked := findingsTab(t, v)
	c := v.canvas
	f := v.log.Findings[0]
	p, h := flagAt(t, c, f.From)
	if !slices.Equal(h.Findings, []int{0}) {
		t.Fatalf("the flag at %s holds findings %v, want [0]", rangeText(f.From, f.To), h.Findings)
	}
	hover(c, p)
	if shown := canvasTexts(c); !slices.Contains(shown, f.Title) {
		t.Errorf("hovering the flag shows %q, want the title %q", shown, f.Title)
	}
	c.Tapped(&fyne.PointEvent{Position: p})
	if sel := v.tabs.Selected(); sel == nil || sel.Text != "Findings" || picked() != 0 {
		t.Errorf("after the click: tab %v, finding picked %d", sel, picked())
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
	list, picked := findingsTab(t, v)
	c, fs := v.canvas, v.log.Findings
	var blocking int
	for i, f := range fs {
		if f.Kind == advise.KindBlocking {
			blocking = i
		}
	}
	at := fs[blocking].From
	p, h := flagAt(t, c, at)
	if len(h.Findings) < 2 || !slices.Contains(h.Findings, blocking) {
		t.Fatalf("the flag at %s holds findings %v, want the blocking one (%d) and another", rangeText(at, at), h.Findings, blocking)
	}
	var got []int
	for range h.Findings {
		p, _ = flagAt(t, c, at) // the canvas zoomed
		c.Tapped(&fyne.PointEvent{Position: p})
		got = append(got, picked())
	}
	if !slices.Equal(got, h.Findings) {
		t.Errorf("clicking the cluster picked %v, want %v in turn", got, h.Findings)
	}
	// The blocking finding's tracks are its threads: the canvas brings
	// the first into view.
	list.Select(blocking)
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

// TestWindowPreparesItsView: the window derives what its timeline's view
// needs as it loads the log, beside the findings, not on the UI thread
// when first drawing it.
func TestWindowPreparesItsView(t *testing.T) {
	_, v, _ := openNav(t, "../testdata/ghc-9.0.2/userheavy-N2.eventlog")
	if v.log.Prepared == nil {
		t.Error("the window did not prepare its view as it loaded the log")
	}
}
