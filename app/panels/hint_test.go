package panels

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/timeline"
)

// factValue returns the value label of the fact labelled label in o.
// corpus holds real eventlogs of many GHC versions.
const corpus = "../../testdata/corpus/"

func factValue(t *testing.T, o fyne.CanvasObject, label string) fyne.CanvasObject {
	t.Helper()
	var cells []fyne.CanvasObject
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		case *kit.HintLabel, *kit.CopyLabel:
			cells = append(cells, x)
		case *widget.Label:
			cells = append(cells, x)
		}
	}
	walk(o)
	for i, c := range cells[:len(cells)-1] {
		if l, ok := c.(*widget.Label); ok && l.Text == label {
			return cells[i+1]
		}
	}
	t.Fatalf("no fact %q", label)
	return nil
}

// shownHint returns the hint the window shows while the pointer rests on
// l, "" if none: l must be in a window made by kit.FitWindow, whose hint
// layer lies over the content, last in the stack under the scroller.
func shownHint(t *testing.T, l *kit.HintLabel) string {
	t.Helper()
	c := fyne.CurrentApp().Driver().CanvasForObject(l)
	if c == nil {
		t.Fatalf("%q is in no window", l.Text)
	}
	scroll, ok := c.Content().(*container.Scroll)
	if !ok {
		t.Fatalf("the window holds a %T, not kit.FitWindow's scroller", c.Content())
	}
	stack := scroll.Content.(*fyne.Container)
	layer := stack.Objects[len(stack.Objects)-1]
	l.MouseIn(&desktop.MouseEvent{})
	defer l.MouseOut()
	if !layer.Visible() {
		return ""
	}
	// What its renderer draws (test.LaidOutObjects would make a new one,
	// which has not been told the text).
	for _, o := range test.WidgetRenderer(layer.(fyne.Widget)).Objects() {
		if text, ok := o.(*canvas.Text); ok && text.Visible() {
			return text.Text
		}
	}
	return ""
}

// inWindow puts panel in a test window as the app shows a tab's content,
// closed when the test ends.
func inWindow(t *testing.T, panel fyne.CanvasObject) fyne.CanvasObject {
	w := test.NewWindow(kit.FitWindow(panel))
	t.Cleanup(w.Close)
	w.Resize(fyne.NewSize(1280, 600))
	return panel
}

// TestAbsentFiguresReadDash: in the Summary panel, a figure the log has no
// events for reads "—", and its hint, shown while the pointer rests on it,
// says what the log lacks: parallelTest (heap events, no HeapLive) said
// "Max heap residency 0 B". A log without heap events (sealions, GHC 7.x)
// gets its GC time from its GC events, and says so; it said "n/a".
func TestAbsentFiguresReadDash(t *testing.T) {
	fa := test.NewApp()
	defer fa.Quit()
	ev, err := loaded.LoadEventlog(context.Background(), corpus+"ghc-events__parallelTest.eventlog", eventlog.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Log.Close()
	panel := SummaryPanel(ev)
	inWindow(t, panel)
	v := factValue(t, panel, "Max heap residency")
	live, ok := v.(*kit.HintLabel)
	if !ok || live.Text != "—" || !strings.Contains(shownHint(t, live), "no HeapLive events") {
		t.Fatalf("max heap residency: %T %+v", v, v)
	}
	if size := factValue(t, panel, "Total heap size").(*kit.CopyLabel); size.Text == "—" {
		t.Errorf("total heap size %q: the log has HeapSize events", size.Text)
	}

	old, err := loaded.LoadEventlog(context.Background(), corpus+"ThreadScope__sealions.eventlog", eventlog.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Log.Close()
	panel = SummaryPanel(old)
	if gc := factValue(t, panel, "GC time (pauses)").(*kit.HintLabel); gc.Text == "—" || gc.Text == "0" {
		t.Errorf("sealions: GC time %q", gc.Text)
	}
	if from := factValue(t, panel, "GC time from").(*kit.HintLabel); from.Text != "the GC events (no heap events)" {
		t.Errorf("sealions: GC time from %q", from.Text)
	}
	if p := factValue(t, panel, "Productivity (pauses)").(*kit.CopyLabel); p.Text == "100.0%" || p.Text == "—" {
		t.Errorf("sealions: productivity %q", p.Text)
	}
	if live := factValue(t, panel, "Max heap residency").(*kit.HintLabel); live.Text != "—" {
		t.Errorf("sealions: max heap residency %q", live.Text)
	}
	// Its GC tab: no table of zeros by generation, no "1" parallel GC
	// thread, where the log has no GCStatsGHC events to say either.
	g := inWindow(t, GCPanel(&old.Summary))
	for _, s := range texts(g) {
		if strings.HasPrefix(s, "Gen ") || s == "Total" {
			t.Errorf("sealions: the GC tab shows a row %q of collections GHC reported", s)
		}
	}
	if n := factValue(t, g, "Parallel GC threads").(*kit.HintLabel); n.Text != "—" || !strings.Contains(shownHint(t, n), "GCStatsGHC") {
		t.Errorf("sealions: parallel GC threads %q (%q)", n.Text, shownHint(t, n))
	}
}

// TestRTSFiguresBesideThreadScopes: the Summary and GC tabs give `+RTS
// -s`'s figures, marked (RTS), beside ThreadScope's, marked (ThreadScope),
// never one under the other's name: on a GHC 9.0.2 run the RTS's GC
// elapsed time is every collection's, its work balance the one -s printed
// (50.44%, rts-N2-A1m.s.txt); a profiled run with heap censuses has no RTS
// GC time, and its hint says why.
func TestRTSFiguresBesideThreadScopes(t *testing.T) {
	fa := test.NewApp()
	defer fa.Quit()
	const dir = "../../testdata/ghc-9.0.2/"
	ev, err := loaded.LoadEventlog(context.Background(), dir+"rts-N2-A1m.eventlog", eventlog.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Log.Close()
	s := &ev.Summary
	panel := inWindow(t, SummaryPanel(ev))
	gc := factValue(t, panel, "GC elapsed (RTS)").(*kit.HintLabel)
	if gc.Text != timeline.FormatDuration(s.GC.Reported.ElapsedNS) || !strings.Contains(shownHint(t, gc), "Exact") {
		t.Errorf("GC elapsed (RTS) %q (%q), the collections' %s", gc.Text, shownHint(t, gc), timeline.FormatDuration(s.GC.Reported.ElapsedNS))
	}
	if ts := factValue(t, panel, "GC time (ThreadScope)").(*kit.HintLabel); ts.Text != timeline.FormatDuration(s.GC.Total.ElapsedNS) {
		t.Errorf("GC time (ThreadScope) %q, ThreadScope's count %d ns", ts.Text, s.GC.Total.ElapsedNS)
	}
	rts := factValue(t, panel, "Productivity (RTS)").(*kit.HintLabel)
	ts := factValue(t, panel, "Productivity (ThreadScope)").(*kit.CopyLabel)
	if rts.Text != Percent(s.RTSStats.Productivity) || ts.Text != Percent(s.Productivity) || rts.Text == ts.Text {
		t.Errorf("productivity: RTS %q, ThreadScope %q", rts.Text, ts.Text)
	}
	g := GCPanel(s)
	if b := factValue(t, g, "Work balance (RTS)").(*kit.HintLabel); b.Text != "50.44%" {
		t.Errorf("Work balance (RTS) %q, -s printed 50.44%%", b.Text)
	}
	if b := factValue(t, g, "Work balance (ThreadScope)").(*kit.HintLabel); b.Text == "50.44%" || b.Text == "—" {
		t.Errorf("Work balance (ThreadScope) %q", b.Text)
	}

	prof, err := loaded.LoadEventlog(context.Background(), dir+"rts-prof-hc.eventlog", eventlog.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer prof.Log.Close()
	panel = inWindow(t, SummaryPanel(prof))
	if gc := factValue(t, panel, "GC elapsed (RTS)").(*kit.HintLabel); gc.Text != "—" || !strings.Contains(shownHint(t, gc), "heap censuses") {
		t.Errorf("profiled run: GC elapsed (RTS) %q (%q)", gc.Text, shownHint(t, gc))
	}
	if mut := factValue(t, panel, "MUT elapsed (RTS)").(*kit.HintLabel); mut.Text == "—" {
		t.Errorf("profiled run: MUT elapsed (RTS) %q (%q)", mut.Text, shownHint(t, mut))
	}
}
