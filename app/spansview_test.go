package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/panels"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/spans"
	"github.com/hecscope/hecscope/tracks"
)

const (
	spanworkLog = "../spans/testdata/spanwork.eventlog"
	profworkLog = "../ccprofile/testdata/profwork.eventlog"
)

// fakeLink is a timeline for the analysis tabs: a fixed selection, and the
// ranges it was asked to show.
type fakeLink struct {
	from, to uint64
	shown    [][2]uint64
}

func (f *fakeLink) link() panels.RangeLink {
	return panels.RangeLink{
		Selection: func() (uint64, uint64, bool) { return f.from, f.to, f.to > f.from },
		Show:      func(from, to uint64) { f.shown = append(f.shown, [2]uint64{from, to}) },
	}
}

// waitFor waits for a signal on ch.
func waitFor(t *testing.T, ch chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(20 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// notBlank reports whether img has a pixel other than the theme's
// background.
func notBlank(t *testing.T, render trackcanvas.RenderFunc) bool {
	t.Helper()
	img, err := render(400, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	bg := paint.ThemeFor(kit.DarkTheme()).Background
	for y := 0; y < 200; y++ {
		for x := 0; x < 400; x++ {
			if img.RGBAAt(x, y) != bg {
				return true
			}
		}
	}
	return false
}

func TestSpansViewTableHistogramAndInstances(t *testing.T) {
	a := test.NewApp()
	defer a.Quit()
	fl := &fakeLink{}
	v := panels.NewSpansView(filePass(spanworkLog), fl.link())
	loaded := make(chan struct{}, 4)
	v.OnLoad = func() { loaded <- struct{}{} }
	w := a.NewWindow("spans")
	defer w.Close()
	w.SetContent(v.Root)
	w.Resize(fyne.NewSize(1100, 700))
	v.EnsureLoaded()
	waitFor(t, loaded, "the spans")
	if len(v.Rows) < 8 {
		t.Fatalf("%d rows: %s", len(v.Rows), v.Status.Text)
	}
	// By total, longest first.
	for i := 1; i < len(v.Rows); i++ {
		if v.Rows[i-1].Total < v.Rows[i].Total {
			t.Fatalf("rows not by total: %s %d before %s %d", v.Rows[i-1].Name, v.Rows[i-1].Total, v.Rows[i].Name, v.Rows[i].Total)
		}
	}
	// By count (the header's button), most first, then the other way.
	v.SortBy(2)
	if v.Rows[0].Count != 30 || v.Cell(widget.TableCellID{Row: 0, Col: 2}) != "30" {
		t.Errorf("by count: first %s %d", v.Rows[0].Name, v.Rows[0].Count)
	}
	v.SortBy(2)
	if v.Rows[0].Count > v.Rows[len(v.Rows)-1].Count {
		t.Error("sorting by count again did not reverse it")
	}
	v.SortBy(0)
	if v.Rows[0].Name > v.Rows[1].Name {
		t.Errorf("by name: %s before %s", v.Rows[0].Name, v.Rows[1].Name)
	}
	row := -1
	for i, l := range v.Rows {
		if l.Name == "sleep" {
			row = i
		}
	}
	v.Table.Select(widget.TableCellID{Row: row, Col: 0})
	if v.Label == nil || v.Label.Name != "sleep" || len(v.Longest) != 5 {
		t.Fatalf("picked %+v with %d instances", v.Label, len(v.Longest))
	}
	if !notBlank(t, v.DrawHistogram) {
		t.Error("the histogram is blank")
	}
	v.List.Select(0)
	in := v.Longest[0]
	if len(fl.shown) != 1 || fl.shown[0][0] > in.Start || fl.shown[0][1] < in.End || fl.shown[0][1]-fl.shown[0][0] > 2*in.Duration() {
		t.Errorf("picking %+v showed %v", in, fl.shown)
	}
	// The selection: only the spans that start in it.
	fl.from, fl.to = in.Start, in.Start+1
	v.Scope.SetSelected(panels.ScopeSelection)
	waitFor(t, loaded, "the selection's spans")
	if len(v.Rows) != 1 || v.Rows[0].Name != "sleep" || v.Rows[0].Count != 1 {
		t.Errorf("selection's rows: %d, %s", len(v.Rows), v.Status.Text)
	}
	fl.from, fl.to = 0, 0
	v.Load()
	if v.Status.Text == "" || len(v.Rows) != 1 {
		t.Errorf("without a selection: %q", v.Status.Text)
	}
}

func TestProfileViewFlameTableAndSpread(t *testing.T) {
	a := test.NewApp()
	defer a.Quit()
	fl := &fakeLink{}
	v := panels.NewProfileView(filePass(profworkLog), fl.link())
	loaded := make(chan struct{}, 4)
	v.OnLoad = func() { loaded <- struct{}{} }
	w := a.NewWindow("profile")
	defer w.Close()
	w.SetContent(v.Root)
	w.Resize(fyne.NewSize(1100, 700))
	v.EnsureLoaded()
	waitFor(t, loaded, "the profile")
	if v.Prof == nil || v.Prof.Samples < 900 || v.Rows[0].CC.Label != "loop.go" {
		t.Fatalf("profile %+v, status %q", v.Prof, v.Status.Text)
	}
	// The flame graph is drawn, and a click on heavy's frame zooms into it.
	img := v.Flame.Draw(1000, 300)
	if img.Bounds().Dx() != 1000 || v.Flame.Layout == nil || len(v.Flame.Layout.Boxes) < 8 {
		t.Fatalf("flame graph: %v", v.Flame.Layout)
	}
	var heavy fyne.Position
	for _, b := range v.Flame.Layout.Boxes {
		if b.Node.CC != nil && b.Node.CC.Label == "heavy" {
			heavy = fyne.NewPos(float32(b.Rect.Min.X+3), float32(b.Rect.Min.Y+3))
		}
	}
	v.Flame.Scale = 1
	v.Flame.Tapped(&fyne.PointEvent{Position: heavy})
	if v.Flame.Focus == nil || v.Flame.Focus.CC.Label != "heavy" {
		t.Fatalf("focus %+v after a click on heavy", v.Flame.Focus)
	}
	v.Flame.Draw(1000, 300)
	v.Flame.Tapped(&fyne.PointEvent{Position: fyne.NewPos(5, 5)}) // the root: zoom out
	if v.Flame.Focus != nil {
		t.Errorf("focus %+v after a click on the root", v.Flame.Focus)
	}
	// Sorting by inherited share, then picking light: its samples are
	// placed in time, and a click on the strip shows that stretch.
	v.SortBy(4)
	if v.Rows[0].Inherited < v.Rows[len(v.Rows)-1].Inherited {
		t.Error("not by inherited share")
	}
	row := -1
	for i, r := range v.Rows {
		if r.CC.Label == "light" {
			row = i
		}
	}
	placed := make(chan struct{}, 1)
	v.OnSpread = func() { placed <- struct{}{} }
	v.Table.Select(widget.TableCellID{Row: row, Col: 0})
	waitFor(t, placed, "light's samples")
	sp := v.Strip.Spread
	if sp == nil {
		t.Fatal("light's samples not placed")
	}
	busiest := 0
	for i, n := range sp.Counts {
		if n > sp.Counts[busiest] {
			busiest = i
		}
	}
	x := (float32(busiest) + 0.5) / float32(len(sp.Counts)) * v.Strip.Size().Width
	v.Strip.Tapped(&fyne.PointEvent{Position: fyne.NewPos(x, 5)})
	from, to := sp.Bin(busiest)
	if len(fl.shown) != 1 || fl.shown[0][0] > from || fl.shown[0][1] < to {
		t.Errorf("strip click at bin %d [%d, %d] showed %v", busiest, from, to, fl.shown)
	}
}

func TestAnalysisTabsFollowTheCanvas(t *testing.T) {
	w, v, _ := openNav(t, profworkLog)
	defer w.Fyne().Close()
	if v.spans == nil || v.profile == nil {
		t.Fatal("no Spans or Profile tab")
	}
	pv := v.profile
	loaded := make(chan struct{}, 4)
	pv.OnLoad = func() { loaded <- struct{}{} }
	ui(pv.EnsureLoaded)
	waitFor(t, loaded, "the profile")
	all := pv.Prof.Samples
	// A selection on the canvas switches the tab to it and measures again.
	from, to := pv.Prof.First, pv.Prof.First+(pv.Prof.Last-pv.Prof.First)/4
	ui(func() { v.canvas.SetSelection(from, to, true) })
	waitFor(t, loaded, "the selection's profile")
	if pv.Scope.Selected != panels.ScopeSelection || pv.Prof.Samples == 0 || pv.Prof.Samples >= all {
		t.Errorf("after a selection: scope %q, %d of %d samples", pv.Scope.Selected, pv.Prof.Samples, all)
	}
	ui(func() { v.canvas.SetSelection(0, 0, false) })
	waitFor(t, loaded, "the whole run's profile")
	if pv.Scope.Selected != panels.ScopeRun || pv.Prof.Samples != all {
		t.Errorf("after clearing it: scope %q, %d of %d samples", pv.Scope.Selected, pv.Prof.Samples, all)
	}
	// Picking a cost centre highlights its samples on the canvas.
	placed := make(chan struct{}, 1)
	pv.OnSpread = func() { placed <- struct{}{} }
	ui(func() {
		for i, r := range pv.Rows {
			if r.CC.Label == "heavy" {
				pv.Table.Select(widget.TableCellID{Row: i, Col: 0})
			}
		}
	})
	waitFor(t, placed, "heavy's samples")
	var h *tracks.Highlight
	ui(func() { v.canvas.With(func(tv *tracks.View) { h = tv.Highlight() }) })
	if h == nil || len(h.Weights) != panels.SpreadBins {
		t.Fatalf("canvas highlight %+v", h)
	}
	// A later load clears it.
	ui(pv.Load)
	waitFor(t, loaded, "the profile again")
	ui(func() { v.canvas.With(func(tv *tracks.View) { h = tv.Highlight() }) })
	if h != nil {
		t.Error("the highlight outlived the profile it came from")
	}
}

func TestSpansInstanceShownAndMarkedOnTheCanvas(t *testing.T) {
	w, v, _ := openNav(t, spanworkLog)
	defer w.Fyne().Close()
	sv := v.spans
	loaded := make(chan struct{}, 4)
	sv.OnLoad = func() { loaded <- struct{}{} }
	ui(sv.EnsureLoaded)
	waitFor(t, loaded, "the spans")
	ui(func() {
		for i, l := range sv.Rows {
			if l.Name == "sleep" {
				sv.Table.Select(widget.TableCellID{Row: i, Col: 0})
			}
		}
	})
	if sv.Label == nil || len(sv.Longest) == 0 {
		t.Fatal("sleep not picked")
	}
	// The tracks at the top made tall, the label's track is out of view
	// until an instance is picked.
	var id tracks.TrackID
	ui(func() {
		var ok bool
		id, ok = panels.InstanceTrack(v.log.Model, sv.Label, sv.Longest[1], false)
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
	ui(func() { sv.List.Select(1) })
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
	if id, ok := panels.InstanceTrack(v.log.Model, sv.Label, sv.Longest[1], true); !ok || id.Kind != tracks.KindUserLabel {
		t.Errorf("by label, sleep's instance: %v", id)
	}
	in := sv.Longest[1]
	from, to := v.canvas.View()
	if from > in.Start || to < in.End || to-from > 2*in.Duration() {
		t.Errorf("canvas shows [%d, %d] for the instance [%d, %d]", from, to, in.Start, in.End)
	}
	var h *tracks.Highlight
	ui(func() { v.canvas.With(func(tv *tracks.View) { h = tv.Highlight() }) })
	if h == nil || h.From != in.Start || h.To != in.End {
		t.Fatalf("canvas highlight %+v, want [%d, %d)", h, in.Start, in.End)
	}
	// Measuring again clears the tab's mark.
	ui(sv.Load)
	waitFor(t, loaded, "the spans again")
	ui(func() { v.canvas.With(func(tv *tracks.View) { h = tv.Highlight() }) })
	if h != nil {
		t.Errorf("the mark outlived its table: %+v", h)
	}
}

// ui runs f as work handed to Fyne's loop runs (under uiMu): tests that
// drive widgets while background loads report through onUI use it.
func ui(f func()) {
	kit.UiMu.Lock()
	defer kit.UiMu.Unlock()
	f()
}

// filePass reads the eventlog at path as a tab reads its window's log.
func filePass(path string) func(context.Context) ingest.Pass {
	return func(ctx context.Context) ingest.Pass { return ingest.FilePass(ctx, path) }
}

// The Profile tab's shares are of the mutator's samples, as GHC's .prof
// (gcwork.prof: build.\ 72.2%), with GC's given apart; the check box makes
// them shares of all samples, GC's row included. The columns fill the
// table's width and no more, at 1280 and 1920 px.
func TestProfileViewSharesOf(t *testing.T) {
	a := test.NewApp()
	defer a.Quit()
	v := panels.NewProfileView(filePass("../ccprofile/testdata/gcwork.eventlog"), (&fakeLink{}).link())
	loaded := make(chan struct{}, 4)
	v.OnLoad = func() { loaded <- struct{}{} }
	w := a.NewWindow("profile")
	defer w.Close()
	w.SetContent(v.Root)
	w.Resize(fyne.NewSize(1100, 700))
	v.EnsureLoaded()
	waitFor(t, loaded, "the profile")
	self := func(label string) string {
		for i, r := range v.Rows {
			if r.CC.Label == label {
				return v.Cell(widget.TableCellID{Row: i, Col: 3})
			}
		}
		return ""
	}
	if self(`build.\`) != "72.2%" || self("GC") != "" || !strings.Contains(v.Note.Text, "245 mutator samples (of 477)") ||
		!strings.Contains(v.Note.Text, "GC 47% (226)") || !strings.Contains(v.Status.Text, "477 samples") {
		t.Errorf("mutator: build.\\ %q, GC %q; %q; %q", self(`build.\`), self("GC"), v.Note.Text, v.Status.Text)
	}
	v.WithGC.SetChecked(true)
	waitFor(t, loaded, "the profile of all samples")
	if self(`build.\`) != "37.1%" || self("GC") != "47.4%" || !strings.Contains(v.Note.Text, "all 477 samples") {
		t.Errorf("all samples: build.\\ %q, GC %q; %q", self(`build.\`), self("GC"), v.Note.Text)
	}
	for _, width := range []float32{1280, 1920} {
		ws := panels.ProfileColumnWidths(width)
		sum := float32(0)
		for _, x := range ws {
			sum += x
		}
		header := fyne.MeasureText("Inherited ▼", theme.TextSize(), fyne.TextStyle{}).Width
		if sum > width || ws[3] < header || ws[2] < 300 {
			t.Errorf("columns at %g px: %v", width, ws)
		}
	}
}
