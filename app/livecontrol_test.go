package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

// controlMenuOf returns the window's Control menu, nil if it has none.
func controlMenuOf(w *Window) *fyne.Menu {
	for _, m := range w.Fyne().MainMenu().Items {
		if m.Label == "Control" {
			return m
		}
	}
	return nil
}

// TestLiveControlMenuDisabledForFIFO: a FIFO carries the eventlog one way,
// so every command is disabled and the menu says why.
func TestLiveControlMenuDisabledForFIFO(t *testing.T) {
	lw := attachTo(t, "fifo:///nonexistent/prog.fifo")
	menu := controlMenuOf(lw.w)
	if menu == nil {
		t.Fatal("no Control menu")
	}
	if !strings.Contains(menu.Items[0].Label, "a FIFO carries the eventlog one way") {
		t.Errorf("first item %q", menu.Items[0].Label)
	}
	for _, it := range menu.Items {
		if !it.IsSeparator && !it.Disabled {
			t.Errorf("%q is enabled", it.Label)
		}
	}
}
