package app

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/hecscope/hecscope/advise"
)

const (
	adviseSequentialLog = "../testdata/ghc-9.0.2/advise-sequential.eventlog"
	adviseHealthyLog    = "../testdata/ghc-9.0.2/advise-healthy.eventlog"
)

// TestFindingsViewListsAndShows loads the findings of the purpose-made
// sequential run, picks the first, and looks at the selection's.
func TestFindingsViewListsAndShows(t *testing.T) {
	a := test.NewApp()
	defer a.Quit()
	ev, err := loadEventlog(context.Background(), adviseSequentialLog, nil)
	if err != nil {
		t.Fatal(err)
	}
	fl := &fakeLink{}
	v := newFindingsView(analyzer(ev), fl.link())
	loaded := make(chan struct{}, 4)
	v.onLoad = func() { loaded <- struct{}{} }
	var marked [][2]uint64
	v.mark = func(from, to uint64) { marked = append(marked, [2]uint64{from, to}) }
	w := a.NewWindow("findings")
	defer w.Close()
	w.SetContent(v.root)
	w.Resize(fyne.NewSize(1100, 500))
	v.ensureLoaded()
	waitFor(t, loaded, "the findings")
	if len(v.findings) == 0 || v.findings[0].Kind != advise.KindSequential || v.findings[0].Severity != advise.Problem {
		t.Fatalf("findings %v (%s)", v.findings, v.status.Text)
	}
	if !strings.Contains(v.status.Text, "1 problem") || !strings.Contains(v.rowText(0), "PROBLEM  sequential") {
		t.Errorf("status %q, first row %q", v.status.Text, v.rowText(0))
	}
	f := v.findings[0]
	v.list.Select(0)
	if len(fl.shown) != 1 || fl.shown[0][0] > f.From || fl.shown[0][1] < f.To || 10*(fl.shown[0][1]-fl.shown[0][0]) > 13*(f.To-f.From) {
		t.Errorf("picking %s showed %v", rangeText(f.From, f.To), fl.shown)
	}
	if len(marked) == 0 || marked[len(marked)-1] != [2]uint64{f.From, f.To} {
		t.Errorf("marked %v, want %d–%d", marked, f.From, f.To)
	}
	if d := v.detail.Text; !strings.Contains(d, f.Title) || !strings.Contains(d, "• "+f.Evidence[0]) || !strings.Contains(d, "Try: "+f.Suggestion) {
		t.Errorf("detail %q", d)
	}

	// The selection: the sequential stretch alone is sequential throughout.
	fl.from, fl.to = 300e6, 600e6
	v.scope.SetSelected(scopeSelection)
	waitFor(t, loaded, "the selection's findings")
	if len(v.findings) == 0 || v.findings[0].Kind != advise.KindSequential || v.findings[0].From != 300e6 ||
		!strings.Contains(v.findings[0].Title, "100% of the range") || !strings.Contains(v.status.Text, "the selection") {
		t.Errorf("selection: %v (%s)", v.findings, v.status.Text)
	}
}

// TestFindingsTabOnHealthyRun opens the healthy run in a window: its
// Findings tab says there is nothing to find.
func TestFindingsTabOnHealthyRun(t *testing.T) {
	_, v, _ := openNav(t, adviseHealthyLog)
	loaded := make(chan struct{}, 1)
	v.findings.onLoad = func() { loaded <- struct{}{} }
	selectTab(t, v, "Findings")
	waitFor(t, loaded, "the findings")
	if len(v.findings.findings) != 0 || !strings.Contains(v.findings.status.Text, "No findings in the whole run") {
		t.Errorf("healthy run: %v (%s)", v.findings.findings, v.findings.status.Text)
	}
}

// TestFindingsTabZoomsTheCanvas picks a finding in the window's Findings
// tab: the canvas shows its range.
func TestFindingsTabZoomsTheCanvas(t *testing.T) {
	_, v, _ := openNav(t, adviseSequentialLog)
	loaded := make(chan struct{}, 1)
	v.findings.onLoad = func() { loaded <- struct{}{} }
	selectTab(t, v, "Findings")
	waitFor(t, loaded, "the findings")
	if len(v.findings.findings) == 0 {
		t.Fatalf("no findings: %s", v.findings.status.Text)
	}
	f := v.findings.findings[0]
	v.findings.list.Select(0)
	from, to := v.canvas.View()
	if from > f.From || to < f.To || 10*(to-from) > 13*(f.To-f.From) {
		t.Errorf("canvas shows %s for a finding over %s", rangeText(from, to), rangeText(f.From, f.To))
	}
}
