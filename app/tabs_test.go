package app

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/internal/apptest"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/panels"
	"github.com/hecscope/hecscope/ccprofile"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/spans"
	"github.com/hecscope/hecscope/tracks"
)

const (
	spanworkLog = "../spans/testdata/spanwork.eventlog"
	profworkLog = "../ccprofile/testdata/profwork.eventlog"
)

// tabContent returns what v's tab named name holds, failing if there is
// no such tab.
func tabContent(t *testing.T, v *eventlogView, name string) fyne.CanvasObject {
	t.Helper()
	for _, ti := range v.tabs.Items {
		if ti.Text != name {
			continue
		}
		if d, ok := ti.Content.(*kit.Deferred); ok {
			return d.Content() // made before it is first shown
		}
		return ti.Content
	}
	t.Fatalf("no %s tab", name)
	return nil
}

// shownWidget returns the first widget of type W that o shows, failing if
// there is none.
func shownWidget[W fyne.CanvasObject](t *testing.T, o fyne.CanvasObject) W {
	t.Helper()
	for _, obj := range test.LaidOutObjects(o) {
		if w, ok := obj.(W); ok {
			return w
		}
	}
	var none W
	t.Fatalf("no %T shown", none)
	return none
}

// tableColumn returns the texts of column col of table, row by row, as
// its cells show them.
func tableColumn(table *widget.Table, col int) []string {
	rows, _ := table.Length()
	cell := table.CreateCell()
	out := make([]string, rows)
	for r := range out {
		table.UpdateCell(widget.TableCellID{Row: r, Col: col}, cell)
		out[r] = cell.(*widget.Label).Text
	}
	return out
}

// shownMatch waits until a text that o shows matches re, and returns its
// submatches.
func shownMatch(t *testing.T, o fyne.CanvasObject, re *regexp.Regexp, what string) []string {
	t.Helper()
	var m []string
	apptest.Until(t, what, func() bool {
		for _, s := range texts(o) {
			if m = re.FindStringSubmatch(s); m != nil {
				return true
			}
		}
		return false
	})
	return m
}

// Each analysis tab's status line once it has measured the whole run.
var tabLoaded = map[string]*regexp.Regexp{
	"Spans":    regexp.MustCompile(`^\d+ labels in the whole run|^No user spans`),
	"Profile":  regexp.MustCompile(`^\d+ samples in the whole run|^No cost-centre samples in the whole run`),
	"Findings": regexp.MustCompile(`^\d+ findings? in the whole run:|^No findings in the whole run`),
}

// showLoaded shows v's tab name (Spans, Profile, Findings) and waits
// until it has measured the whole run.
func showLoaded(t *testing.T, v *eventlogView, name string) {
	t.Helper()
	ui(func() { selectTab(t, v, name) })
	shownMatch(t, tabContent(t, v, name), tabLoaded[name], "the "+name+" tab's report")
}

// highlight returns the canvas's highlight (nil if none), read as Fyne's
// loop would.
func highlight(v *eventlogView) *tracks.Highlight {
	var h *tracks.Highlight
	ui(func() { v.canvas.With(func(tv *tracks.View) { h = tv.Highlight() }) })
	return h
}

// refresh presses the Refresh button of v's tab name.
func refresh(t *testing.T, v *eventlogView, name string) {
	t.Helper()
	for _, o := range test.LaidOutObjects(tabContent(t, v, name)) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Refresh" {
			ui(func() { test.Tap(b) })
			return
		}
	}
	t.Fatalf("no Refresh button in the %s tab", name)
}

// TestAnalysisTabsFollowTheCanvas: the Profile tab, shown, follows the
// canvas's selection (its scope and its samples), and a cost centre
// picked in its table highlights its samples on the canvas until the
// next load.
func TestAnalysisTabsFollowTheCanvas(t *testing.T) {
	w, v, _ := openNav(t, profworkLog)
	defer w.Fyne().Close()
	tab := tabContent(t, v, "Profile")
	shown := func(what string) int {
		t.Helper()
		m := shownMatch(t, tab, regexp.MustCompile(`^(\d+) samples in `+regexp.QuoteMeta(what)+` — click`), "the profile of "+what)
		n, _ := strconv.Atoi(m[1])
		return n
	}
	scope := shownWidget[*widget.RadioGroup](t, tab)
	ui(func() { selectTab(t, v, "Profile") })
	all := shown("the whole run")
	// The profile's samples, straight from the log.
	p, err := ccprofile.Collect(v.log.Log.Pass(context.Background()), ccprofile.Options{Of: ccprofile.AllSamples})
	if err != nil {
		t.Fatal(err)
	}
	p = p.Mutator()
	// A selection on the canvas switches the tab to it and measures again.
	from, to := p.First, p.First+(p.Last-p.First)/4
	ui(func() { v.canvas.SetSelection(from, to, true) })
	if n := shown(paint.Duration(from) + " – " + paint.Duration(to)); scope.Selected != "Selection" || n == 0 || n >= all {
		t.Errorf("after a selection: scope %q, %d of %d samples", scope.Selected, n, all)
	}
	ui(func() { v.canvas.SetSelection(0, 0, false) })
	if n := shown("the whole run"); scope.Selected != "Whole run" || n != all {
		t.Errorf("after clearing it: scope %q, %d of %d samples", scope.Selected, n, all)
	}
	// Picking a cost centre highlights its samples on the canvas.
	table := shownWidget[*widget.Table](t, tab)
	var row int
	ui(func() { row = slices.Index(tableColumn(table, 0), "heavy") })
	if row < 0 {
		t.Fatal("no heavy in the Profile tab's table")
	}
	ui(func() { table.Select(widget.TableCellID{Row: row, Col: 0}) })
	apptest.Until(t, "heavy's samples on the canvas", func() bool {
		var h *tracks.Highlight
		v.canvas.With(func(tv *tracks.View) { h = tv.Highlight() })
		return h != nil
	})
	if h := highlight(v); len(h.Weights) < 2 {
		t.Fatalf("canvas highlight %+v: not a strip of samples", h)
	}
	// A later load clears it.
	refresh(t, v, "Profile")
	apptest.Until(t, "the highlight to go with the next profile", func() bool {
		var h *tracks.Highlight
		v.canvas.With(func(tv *tracks.View) { h = tv.Highlight() })
		return h == nil
	})
}

func TestSpansInstanceShownAndMarkedOnTheCanvas(t *testing.T) {
	w, v, _ := openNav(t, spanworkLog)
	defer w.Fyne().Close()
	tab := tabContent(t, v, "Spans")
	showLoaded(t, v, "Spans")
	// The label's instances, straight from the log.
	r, err := spans.Collect(v.log.Log.Pass(context.Background()), spans.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := slices.IndexFunc(r.Labels, func(l *spans.Label) bool { return l.Name == "sleep" })
	if at < 0 {
		t.Fatal("no sleep label in the log")
	}
	sleep := r.Labels[at]
	longest := sleep.Longest()
	table := shownWidget[*widget.Table](t, tab)
	list := shownWidget[*widget.List](t, tab)
	ui(func() {
		if row := slices.Index(tableColumn(table, 0), "sleep"); row >= 0 {
			table.Select(widget.TableCellID{Row: row, Col: 0})
		}
	})
	if n := list.Length(); n != len(longest) || n < 2 {
		t.Fatalf("sleep picked: %d instances listed, the log has %d", n, len(longest))
	}
	// The tracks at the top made tall, the label's track is out of view
	// until an instance is picked.
	var id tracks.TrackID
	ui(func() {
		var ok bool
		id, ok = panels.InstanceTrack(v.log.Model, sleep, longest[1], false)
		if !ok || id.Kind != tracks.KindUserThread {
			t.Fatalf("sleep's track: %v, %v", id, ok)
		}
		v.canvas.With(func(tv *tracks.View) {
			tv.SetTrackHeight(tracks.TrackID{Kind: tracks.KindActivity}, 600)
			tv.ScrollTo(0)
		})
	})
	if _, ok := canvasTrackRect(v.canvas, id); ok {
		t.Fatal("sleep's track is in view before an instance is picked")
	}
	ui(func() { list.Select(1) })
	if _, ok := canvasTrackRect(v.canvas, id); !ok {
		t.Error("picking an instance did not scroll its track into view")
	}
	// A thread label's instance is its thread; a label the timeline does
	// not know, the spans of the thread that ran it.
	in7 := spans.Instance{Thread: 7}
	if id, ok := panels.InstanceTrack(v.log.Model, &spans.Label{Name: "worker", Kind: spans.Thread}, in7, false); !ok || id != (tracks.TrackID{Kind: tracks.KindThread, ID: 7}) {
		t.Errorf("a thread label's instance: %v", id)
	}
	if id, ok := panels.InstanceTrack(v.log.Model, &spans.Label{Name: "no such label"}, in7, true); !ok || id != (tracks.TrackID{Kind: tracks.KindUserThread, ID: 7}) {
		t.Errorf("an unknown label's instance: %v", id)
	}
	// With the spans shown by label, a user span's instance is its label's track.
	if id, ok := panels.InstanceTrack(v.log.Model, sleep, longest[1], true); !ok || id.Kind != tracks.KindUserLabel {
		t.Errorf("by label, sleep's instance: %v", id)
	}
	in := longest[1]
	from, to := v.canvas.View()
	if from > in.Start || to < in.End || to-from > 2*in.Duration() {
		t.Errorf("canvas shows [%d, %d] for the instance [%d, %d]", from, to, in.Start, in.End)
	}
	if h := highlight(v); h == nil || h.From != in.Start || h.To != in.End {
		t.Fatalf("canvas highlight %+v, want [%d, %d)", h, in.Start, in.End)
	}
	// Measuring again clears the tab's mark.
	refresh(t, v, "Spans")
	showLoaded(t, v, "Spans")
	if h := highlight(v); h != nil {
		t.Errorf("the mark outlived its table: %+v", h)
	}
}
