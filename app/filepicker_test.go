package app

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
)

// dialogWidget returns the first widget of type T in the dialog on top of
// w for which ok holds.
func dialogWidget[T fyne.CanvasObject](t *testing.T, w *Window, ok func(T) bool) T {
	t.Helper()
	top := w.Fyne().Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog shown")
	}
	for _, o := range test.LaidOutObjects(top) {
		if x, is := o.(T); is && ok(x) {
			return x
		}
	}
	var zero T
	t.Fatalf("the dialog has no such %T", zero)
	return zero
}

// TestFileChoosersStartInTheLastFolder: a file chosen in a chooser makes
// its folder the one the next chooser, to open or to save, starts in.
func TestFileChoosersStartInTheLastFolder(t *testing.T) {
	a, _ := newTestApp(t)
	w := a.ShowStart()
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first"), filepath.Join(dir, "second")
	for _, d := range []string{first, second} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	kit.RememberFolder(filepath.Join(first, "run.eventlog"))
	if got := kit.LastFolder(); got != first {
		t.Fatalf("last folder %q, want %q", got, first)
	}
	// A save chooser starts there: saving under the name suggested
	// writes into it.
	var saved string
	ui(func() {
		kit.PickFileToSave(w.win, false, "Export the view as PNG", "view.png", kit.PNGFilters, func(p string) { saved = p })
	})
	save := dialogWidget(t, w, func(b *widget.Button) bool { return b.Text == "Save" })
	ui(func() { test.Tap(save) })
	if saved != filepath.Join(first, "view.png") {
		t.Fatalf("saved to %q, want it in %s", saved, first)
	}
	// The open chooser starts in the folder last chosen from, whose name
	// its path shows.
	kit.RememberFolder(filepath.Join(second, "other.png"))
	ui(w.chooseFile)
	if got := dialogTexts(w); !slices.Contains(got, "second") {
		t.Errorf("the open chooser shows %q, not the folder second", got)
	}
	// A folder since removed is not where choosers start.
	if err := os.Remove(second); err != nil {
		t.Fatal(err)
	}
	if got := kit.LastFolder(); got != "" {
		t.Errorf("last folder %q after it was removed", got)
	}
}
