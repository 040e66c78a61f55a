package kit

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// dialogObjects returns the objects of the dialog on top of w, laid
// out; none if no dialog is shown.
func dialogObjects(w fyne.Window) []fyne.CanvasObject {
	if top := w.Canvas().Overlays().Top(); top != nil {
		return test.LaidOutObjects(top)
	}
	return nil
}

// dialogTexts returns the texts of the labels and buttons of the dialog on
// top of w.
func dialogTexts(w fyne.Window) []string {
	var out []string
	for _, o := range dialogObjects(w) {
		switch x := o.(type) {
		case *widget.Label:
			out = append(out, x.Text)
		case *widget.Button:
			out = append(out, x.Text)
		}
	}
	return out
}

// TestFileChoosersStartInTheLastFolder: a file chosen in a chooser makes
// its folder the one the next chooser, to open or to save, starts in.
func TestFileChoosersStartInTheLastFolder(t *testing.T) {
	test.NewApp()
	w := test.NewWindow(widget.NewLabel("start"))
	t.Cleanup(w.Close)
	w.Resize(fyne.NewSize(1000, 700))
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first"), filepath.Join(dir, "second")
	for _, d := range []string{first, second} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	rememberFolder(filepath.Join(first, "run.eventlog"))
	if got := lastFolder(); got != first {
		t.Fatalf("last folder %q, want %q", got, first)
	}
	// A save chooser starts there: saving under the name suggested
	// writes into it.
	var saved string
	UiMu.Lock()
	PickFileToSave(w, false, "Export the view as PNG", "view.png", PNGFilters, func(p string) { saved = p })
	UiMu.Unlock()
	var save *widget.Button
	for _, o := range dialogObjects(w) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Save" {
			save = b
		}
	}
	if save == nil {
		t.Fatal("the save chooser has no Save button")
	}
	UiMu.Lock()
	test.Tap(save)
	UiMu.Unlock()
	if saved != filepath.Join(first, "view.png") {
		t.Fatalf("saved to %q, want it in %s", saved, first)
	}
	// The open chooser starts in the folder last chosen from, whose name
	// its path shows.
	rememberFolder(filepath.Join(second, "other.png"))
	PickFileToOpen(w, false, "Open a GHC eventlog or heap profile", func(string) {})
	if got := dialogTexts(w); !slices.Contains(got, "second") {
		t.Errorf("the open chooser shows %q, not the folder second", got)
	}
	// A folder since removed is not where choosers start.
	if err := os.Remove(second); err != nil {
		t.Fatal(err)
	}
	if got := lastFolder(); got != "" {
		t.Errorf("last folder %q after it was removed", got)
	}
}
