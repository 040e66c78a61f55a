package panels

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/ccprofile"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
)

const (
	spanworkLog = "../../spans/testdata/spanwork.eventlog"
	profworkLog = "../../ccprofile/testdata/profwork.eventlog"
)

// fakeLink is a timeline for the analysis tabs: a fixed selection, and the
// ranges it was asked to show.
type fakeLink struct {
	from, to uint64
	shown    [][2]uint64
}

func (f *fakeLink) link() RangeLink {
	return RangeLink{
		Selection: func() (uint64, uint64, bool) { return f.from, f.to, f.to > f.from },
		Show:      func(from, to uint64) { f.shown = append(f.shown, [2]uint64{from, to}) },
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
	v := NewSpansView(filePass(spanworkLog), fl.link())
	loaded := make(chan struct{}, 4)
	v.onLoad = func() { loaded <- struct{}{} }
	w := a.NewWindow("spans")
	defer w.Close()
	w.SetContent(v.Root)
	w.Resize(fyne.NewSize(1100, 700))
	v.EnsureLoaded()
	waitFor(t, loaded, "the spans")
	if len(v.rows) < 8 {
		t.Fatalf("%d rows: %s", len(v.rows), v.Status.Text)
	}
	// By total, longest first.
	for i := 1; i < len(v.rows); i++ {
		if v.rows[i-1].Total < v.rows[i].Total {
			t.Fatalf("rows not by total: %s %d before %s %d", v.rows[i-1].Name, v.rows[i-1].Total, v.rows[i].Name, v.rows[i].Total)
		}
	}
	// By count (the header's button), most first, then the other way.
	v.sortBy(2)
	if v.rows[0].Count != 30 || v.cell(widget.TableCellID{Row: 0, Col: 2}) != "30" {
		t.Errorf("by count: first %s %d", v.rows[0].Name, v.rows[0].Count)
	}
	v.sortBy(2)
	if v.rows[0].Count > v.rows[len(v.rows)-1].Count {
		t.Error("sorting by count again did not reverse it")
	}
	v.sortBy(0)
	if v.rows[0].Name > v.rows[1].Name {
		t.Errorf("by name: %s before %s", v.rows[0].Name, v.rows[1].Name)
	}
	row := -1
	for i, l := range v.rows {
		if l.Name == "sleep" {
			row = i
		}
	}
	v.table.Select(widget.TableCellID{Row: row, Col: 0})
	if v.label == nil || v.label.Name != "sleep" || len(v.longest) != 5 {
		t.Fatalf("picked %+v with %d instances", v.label, len(v.longest))
	}
	if !notBlank(t, v.drawHistogram) {
		t.Error("the histogram is blank")
	}
	v.list.Select(0)
	in := v.longest[0]
	if len(fl.shown) != 1 || fl.shown[0][0] > in.Start || fl.shown[0][1] < in.End || fl.shown[0][1]-fl.shown[0][0] > 2*in.Duration() {
		t.Errorf("picking %+v showed %v", in, fl.shown)
	}
	// The selection: only the spans that start in it.
	fl.from, fl.to = in.Start, in.Start+1
	v.Scope.SetSelected(scopeSelection)
	waitFor(t, loaded, "the selection's spans")
	if len(v.rows) != 1 || v.rows[0].Name != "sleep" || v.rows[0].Count != 1 {
		t.Errorf("selection's rows: %d, %s", len(v.rows), v.Status.Text)
	}
	fl.from, fl.to = 0, 0
	v.Load()
	if v.Status.Text == "" || len(v.rows) != 1 {
		t.Errorf("without a selection: %q", v.Status.Text)
	}
}

// profileOn returns the Profile tab of the profiled test log, linked to
// fl, alone in a test window, and what hears each profile it shows.
func profileOn(t *testing.T, fl *fakeLink) (*ProfileView, chan struct{}) {
	t.Helper()
	a := test.NewApp()
	t.Cleanup(a.Quit)
	v := NewProfileView(filePass(profworkLog), fl.link())
	loaded := make(chan struct{}, 4)
	v.onLoad = func() { loaded <- struct{}{} }
	w := a.NewWindow("profile")
	t.Cleanup(w.Close)
	w.SetContent(v.Root)
	w.Resize(fyne.NewSize(1100, 700))
	return v, loaded
}

func TestProfileViewFlameTableAndSpread(t *testing.T) {
	fl := &fakeLink{}
	v, loaded := profileOn(t, fl)
	v.EnsureLoaded()
	waitFor(t, loaded, "the profile")
	if v.prof == nil || v.prof.Samples < 900 || v.rows[0].CC.Label != "loop.go" {
		t.Fatalf("profile %+v, status %q", v.prof, v.Status.Text)
	}
	// The flame graph is drawn, and a click on heavy's frame zooms into it.
	img := v.flame.draw(1000, 300)
	if img.Bounds().Dx() != 1000 || v.flame.layout == nil || len(v.flame.layout.Boxes) < 8 {
		t.Fatalf("flame graph: %v", v.flame.layout)
	}
	var heavy fyne.Position
	for _, b := range v.flame.layout.Boxes {
		if b.Node.CC != nil && b.Node.CC.Label == "heavy" {
			heavy = fyne.NewPos(float32(b.Rect.Min.X+3), float32(b.Rect.Min.Y+3))
		}
	}
	v.flame.scale = 1
	v.flame.Tapped(&fyne.PointEvent{Position: heavy})
	if v.flame.focus == nil || v.flame.focus.CC.Label != "heavy" {
		t.Fatalf("focus %+v after a click on heavy", v.flame.focus)
	}
	v.flame.draw(1000, 300)
	v.flame.Tapped(&fyne.PointEvent{Position: fyne.NewPos(5, 5)}) // the root: zoom out
	if v.flame.focus != nil {
		t.Errorf("focus %+v after a click on the root", v.flame.focus)
	}
	// Sorting by inherited share, then picking light: its samples are
	// placed in time, and a click on the strip shows that stretch.
	v.sortBy(4)
	if v.rows[0].Inherited < v.rows[len(v.rows)-1].Inherited {
		t.Error("not by inherited share")
	}
	row := -1
	for i, r := range v.rows {
		if r.CC.Label == "light" {
			row = i
		}
	}
	placed := make(chan struct{}, 1)
	v.onSpread = func() { placed <- struct{}{} }
	v.table.Select(widget.TableCellID{Row: row, Col: 0})
	waitFor(t, placed, "light's samples")
	sp := v.strip.spread
	if sp == nil {
		t.Fatal("light's samples not placed")
	}
	busiest := 0
	for i, n := range sp.Counts {
		if n > sp.Counts[busiest] {
			busiest = i
		}
	}
	x := (float32(busiest) + 0.5) / float32(len(sp.Counts)) * v.strip.Size().Width
	v.strip.Tapped(&fyne.PointEvent{Position: fyne.NewPos(x, 5)})
	from, to := sp.Bin(busiest)
	if len(fl.shown) != 1 || fl.shown[0][0] > from || fl.shown[0][1] < to {
		t.Errorf("strip click at bin %d [%d, %d] showed %v", busiest, from, to, fl.shown)
	}
}

// TestProfileViewFollowsTheSelectionAndMarks: shown, the Profile tab
// follows the timeline's selection (its scope switches to it and it
// profiles it, fewer samples; cleared, back to the whole run); picking a
// cost centre marks where its samples fall, in spreadBins bins; a later
// load takes the mark off.
func TestProfileViewFollowsTheSelectionAndMarks(t *testing.T) {
	fl := &fakeLink{}
	v, loaded := profileOn(t, fl)
	var marks []*ccprofile.Spread
	v.Mark = func(s *ccprofile.Spread) { marks = append(marks, s) }
	ui(v.EnsureLoaded)
	waitFor(t, loaded, "the profile")
	all := v.prof.Samples
	fl.from, fl.to = v.prof.First, v.prof.First+(v.prof.Last-v.prof.First)/4
	ui(func() { v.SelectionChanged(true) })
	waitFor(t, loaded, "the selection's profile")
	if v.Scope.Selected != scopeSelection || v.prof.Samples == 0 || v.prof.Samples >= all {
		t.Errorf("after a selection: scope %q, %d of %d samples", v.Scope.Selected, v.prof.Samples, all)
	}
	fl.from, fl.to = 0, 0
	ui(func() { v.SelectionChanged(false) })
	waitFor(t, loaded, "the whole run's profile")
	if v.Scope.Selected != scopeRun || v.prof.Samples != all {
		t.Errorf("after clearing it: scope %q, %d of %d samples", v.Scope.Selected, v.prof.Samples, all)
	}
	placed := make(chan struct{}, 1)
	v.onSpread = func() { placed <- struct{}{} }
	ui(func() {
		for i, r := range v.rows {
			if r.CC.Label == "heavy" {
				v.table.Select(widget.TableCellID{Row: i, Col: 0})
			}
		}
	})
	waitFor(t, placed, "heavy's samples")
	var last *ccprofile.Spread
	ui(func() { last = marks[len(marks)-1] })
	if last == nil || len(last.Counts) != spreadBins {
		t.Fatalf("heavy's mark %+v, want %d bins", last, spreadBins)
	}
	ui(v.Load)
	waitFor(t, loaded, "the profile again")
	ui(func() { last = marks[len(marks)-1] })
	if last != nil {
		t.Error("the mark outlived the profile it came from")
	}
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
	v := NewProfileView(filePass("../../ccprofile/testdata/gcwork.eventlog"), (&fakeLink{}).link())
	loaded := make(chan struct{}, 4)
	v.onLoad = func() { loaded <- struct{}{} }
	w := a.NewWindow("profile")
	defer w.Close()
	w.SetContent(v.Root)
	w.Resize(fyne.NewSize(1100, 700))
	v.EnsureLoaded()
	waitFor(t, loaded, "the profile")
	self := func(label string) string {
		for i, r := range v.rows {
			if r.CC.Label == label {
				return v.cell(widget.TableCellID{Row: i, Col: 3})
			}
		}
		return ""
	}
	if self(`build.\`) != "72.2%" || self("GC") != "" || !strings.Contains(v.note.Text, "245 mutator samples (of 477)") ||
		!strings.Contains(v.note.Text, "GC 47% (226)") || !strings.Contains(v.Status.Text, "477 samples") {
		t.Errorf("mutator: build.\\ %q, GC %q; %q; %q", self(`build.\`), self("GC"), v.note.Text, v.Status.Text)
	}
	v.withGC.SetChecked(true)
	waitFor(t, loaded, "the profile of all samples")
	if self(`build.\`) != "37.1%" || self("GC") != "47.4%" || !strings.Contains(v.note.Text, "all 477 samples") {
		t.Errorf("all samples: build.\\ %q, GC %q; %q", self(`build.\`), self("GC"), v.note.Text)
	}
	for _, width := range []float32{1280, 1920} {
		ws := profileColumnWidths(width)
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
