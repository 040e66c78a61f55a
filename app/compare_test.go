package app

import (
	"slices"
	"testing"
)

// dialogTexts returns the texts of the dialog on top of w, nil if none.
func dialogTexts(w *Window) []string {
	top := w.Fyne().Canvas().Overlays().Top()
	if top == nil {
		return nil
	}
	return texts(top)
}

// TestCompareChoosersSayWhichRun: the file choosers of a comparison say
// whether they ask for Run A or Run B.
func TestCompareChoosersSayWhichRun(t *testing.T) {
	a, done := newTestApp(t)
	start := a.ShowStart()
	ui(start.chooseCompare)
	if got := dialogTexts(start); !slices.Contains(got, chooseRunATitle) {
		t.Errorf("Compare Two Eventlogs' first chooser shows %q, want %q", got, chooseRunATitle)
	}
	w := a.Open(parworkN2)
	await(t, done)
	ui(w.chooseCompareWith)
	want := "Compare with parwork-N2.eventlog (Run A): choose Run B"
	if got := dialogTexts(w); !slices.Contains(got, want) {
		t.Errorf("Compare This Run With's chooser shows %q, want %q", got, want)
	}
}
