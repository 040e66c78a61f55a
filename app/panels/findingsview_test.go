package panels

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/hecscope/hecscope/advise"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/eventlog"
)

// TestFindingsViewListsAndShows loads the findings of the purpose-made
// sequential run, picks the first, and looks at the selection's.
// adviseSequentialLog is a log on which advise finds a sequential run.
const adviseSequentialLog = "../../testdata/ghc-9.0.2/advise-sequential.eventlog"

func TestFindingsViewListsAndShows(t *testing.T) {
	a := test.NewApp()
	defer a.Quit()
	ev, err := loaded.LoadEventlog(context.Background(), adviseSequentialLog, eventlog.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fl := &fakeLink{}
	v := NewFindingsView(Analyzer(ev), fl.link())
	loaded := make(chan struct{}, 4)
	v.onLoad = func() { loaded <- struct{}{} }
	var marked []*advise.Finding
	v.Mark = func(f *advise.Finding) { marked = append(marked, f) }
	w := a.NewWindow("findings")
	defer w.Close()
	w.SetContent(v.Root)
	w.Resize(fyne.NewSize(1100, 500))
	v.EnsureLoaded()
	waitFor(t, loaded, "the findings")
	if len(v.findings) == 0 || v.findings[0].Kind != advise.KindSequential || v.findings[0].Severity != advise.Problem {
		t.Fatalf("findings %v (%s)", v.findings, v.Status.Text)
	}
	if !strings.Contains(v.Status.Text, "1 problem") || !strings.Contains(v.rowText(0), "PROBLEM  sequential") {
		t.Errorf("status %q, first row %q", v.Status.Text, v.rowText(0))
	}
	f := v.findings[0]
	v.list.Select(0)
	if len(fl.shown) != 1 || fl.shown[0][0] > f.From || fl.shown[0][1] < f.To || 10*(fl.shown[0][1]-fl.shown[0][0]) > 13*(f.To-f.From) {
		t.Errorf("picking %s showed %v", rangeText(f.From, f.To), fl.shown)
	}
	if len(marked) == 0 || marked[len(marked)-1] == nil || marked[len(marked)-1].Title != f.Title {
		t.Errorf("marked %v, want %q", marked, f.Title)
	}
	if d := v.detail.Text; !strings.Contains(d, f.Title) || !strings.Contains(d, "• "+f.Evidence[0]) || !strings.Contains(d, "Try: "+f.Suggestion) {
		t.Errorf("detail %q", d)
	}
	// Esc unpicks it (once).
	if !v.Clear() || v.Clear() || marked[len(marked)-1] != nil {
		t.Errorf("clear: marked %v, want the mark taken off once", marked)
	}

	// The selection: the sequential stretch alone is sequential throughout.
	fl.from, fl.to = 300e6, 600e6
	v.Scope.SetSelected(scopeSelection)
	waitFor(t, loaded, "the selection's findings")
	if len(v.findings) == 0 || v.findings[0].Kind != advise.KindSequential || v.findings[0].From != 300e6 ||
		!strings.Contains(v.findings[0].Title, "100% of the range") || !strings.Contains(v.Status.Text, "the selection") {
		t.Errorf("selection: %v (%s)", v.findings, v.Status.Text)
	}
}
