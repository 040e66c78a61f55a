package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/internal/apptest"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/export"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// joinedLog writes the logs at paths one after another into a new file, as
// a program that restarts its logging does, and returns its path.
func joinedLog(t *testing.T, paths ...string) string {
	t.Helper()
	var all []byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	joined := filepath.Join(t.TempDir(), "joined.eventlog")
	if err := os.WriteFile(joined, all, 0o644); err != nil {
		t.Fatal(err)
	}
	return joined
}

// selects returns the Select widgets laid out in o.
func selects(o fyne.CanvasObject) []*widget.Select {
	var out []*widget.Select
	for _, obj := range test.LaidOutObjects(o) {
		if s, ok := obj.(*widget.Select); ok {
			out = append(out, s)
		}
	}
	return out
}

// TestSegmentChooser (issue 16.9): a file holding two real eventlogs opens
// on the first with a chooser of both in the window; picking the second
// reloads the window on it (its summary's events, its title), Reload stays
// on it, and saving it to the library saves its bytes alone. An ordinary
// log has no chooser.
func TestSegmentChooser(t *testing.T) {
	parts := []string{parworkN1, corpus + "ghc-events__hello-ghc-8.6.5.eventlog"}
	var want []timeline.Summary
	for _, p := range parts {
		s, err := timeline.SummarizeFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, s)
	}
	if want[0].Events == want[1].Events {
		t.Fatal("the two logs have as many events: the test could not tell them apart")
	}
	joined := joinedLog(t, parts...)
	a, done := newTestApp(t)

	single := a.Open(parts[0])
	await(t, done)
	if s := selects(single.Fyne().Content()); len(s) != 0 {
		t.Errorf("an ordinary log shows %d choosers", len(s))
	}

	w := a.Open(joined)
	await(t, done)
	check := func(k int) *eventlogView {
		t.Helper()
		v, ok := w.view.(*eventlogView)
		if !ok {
			t.Fatalf("segment %d: view is %T", k+1, w.view)
		}
		shown := texts(w.Fyne().Content())
		if got, _ := valueAfter(shown, "Events"); got != paint.EventCount(want[k].Events, want[k].BlockMarkers) {
			t.Errorf("segment %d: Events shows %q, want %d (segment 1 has %d, 2 has %d)", k+1, got, want[k].Events, want[0].Events, want[1].Events)
		}
		if got, _ := valueAfter(shown, "Program"); got != want[k].Program {
			t.Errorf("segment %d: Program shows %q, want %q", k+1, got, want[k].Program)
		}
		sel := selects(w.Fyne().Content())
		if len(sel) != 1 {
			t.Fatalf("segment %d: %d choosers in the window, want 1", k+1, len(sel))
		}
		if len(sel[0].Options) != 2 || sel[0].SelectedIndex() != k ||
			!strings.HasPrefix(sel[0].Selected, "Segment "+strconv.Itoa(k+1)+" of 2 · "+filepath.Base(want[k].Program)) ||
			!strings.HasSuffix(sel[0].Selected, " · complete") {
			t.Errorf("segment %d: chooser shows %q of %q", k+1, sel[0].Selected, sel[0].Options)
		}
		if title := w.Fyne().Title(); !strings.Contains(title, "joined.eventlog (segment "+strconv.Itoa(k+1)+" of 2)") {
			t.Errorf("segment %d: title %q", k+1, title)
		}
		return v
	}
	v := check(0)
	ui(func() { v.segments.SetSelectedIndex(1) })
	await(t, done)
	check(1)
	if menuItem(w, "Save Segment 2 of 2 to Library…") == nil {
		t.Error("the File menu does not offer to save segment 2 of 2")
	}
	ui(w.Reload)
	await(t, done)
	check(1)

	// What reads the file again reads segment 2's bytes: the selection's
	// summary, the data exports, the comparison; its bookmarks are its own.
	v = w.view.(*eventlogView)
	ev := v.log
	if s, err := loaded.SummarizeLogRange(ev, 0, ev.Model.End+1); err != nil || s.Events != want[1].Events {
		t.Errorf("selection summary of segment 2: %d events (%v), want %d", s.Events, err, want[1].Events)
	}
	csv := func(e *loaded.Eventlog) string {
		out := filepath.Join(t.TempDir(), "out.csv")
		if err := exportData(e, export.CSV, 0, 0, out); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	aloneEv, err := loaded.LoadEventlog(context.Background(), parts[1], eventlog.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer aloneEv.Log.Close()
	if got, alone := csv(ev), csv(aloneEv); got != alone || got == csv(&loaded.Eventlog{Path: joined}) {
		t.Errorf("CSV export of segment 2 (%d bytes) is not the export of its log alone (%d bytes)", len(got), len(alone))
	}
	if stem := w.fileStem(); stem != "joined-segment2" {
		t.Errorf("exports of segment 2 are called %q by default", stem)
	}
	if ev.BookmarkKey() == joined || ev.BookmarkKey() == (&loaded.Eventlog{Path: joined}).BookmarkKey() {
		t.Errorf("segment 2's bookmarks are kept under the file's key %q", ev.BookmarkKey())
	}
	ch := make(chan error, 1)
	a.openCompareSegments([2]string{joined, parts[0]}, [2]int{1, 0}, [2]string{"", ""}, func(err error) { ch <- err })
	if err := <-ch; err != nil {
		t.Fatal(err)
	}
	wantA, wantB := timeline.FormatDuration(want[1].TotalNS), timeline.FormatDuration(want[0].TotalNS)
	if wall := shownDiffRow("Wall time"); len(wall) < 2 || wall[0] != wantA || wall[1] != wantB {
		t.Errorf("comparing segment 2 with the first log: the table shows wall times %q; want A %s, B %s", wall, wantA, wantB)
	}

	opt := w.librarySegment(joined)
	if opt.Name != "joined (segment 2 of 2)" {
		t.Errorf("library name %q", opt.Name)
	}
	e := saveAndWait(t, w, joined, opt)
	alone, err := os.Stat(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	if e.Size != alone.Size() || e.Figures.Events != want[1].Events || e.Segment != "segment 2 of 2" || e.Program != want[1].Program {
		t.Errorf("saved %d bytes, %d events, %q of %q; want %d, %d, segment 2 of 2 of %q", e.Size, e.Figures.Events, e.Segment, e.Program, alone.Size(), want[1].Events, want[1].Program)
	}
}

// shownDiffRow returns the cells after the first one reading name (its
// indent trimmed) in the tables of differences the open windows show (the
// runs' values, their difference, …), nil if no window shows one.
func shownDiffRow(name string) []string {
	var cells []string
	apptest.UI(func() {
		for _, w := range fyne.CurrentApp().Driver().AllWindows() {
			var texts []string
			for _, o := range test.LaidOutObjects(w.Content()) {
				if x, ok := o.(*canvas.Text); ok {
					texts = append(texts, strings.TrimSpace(x.Text))
				}
			}
			if i := slices.Index(texts, name); i >= 0 {
				cells = texts[i+1:]
				return
			}
		}
	})
	return cells
}
