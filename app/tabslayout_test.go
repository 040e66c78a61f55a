package app

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// selectTab shows the tab named name of v, failing if there is none, and
// returns it.
func selectTab(t *testing.T, v *eventlogView, name string) *container.TabItem {
	t.Helper()
	for _, ti := range v.tabs.Items {
		if ti.Text == name {
			v.tabs.Select(ti)
			return ti
		}
	}
	t.Fatalf("no %s tab", name)
	return nil
}

// rowHeads returns the first-column labels of the grid tables in o (bold,
// leading), top to bottom.
func rowHeads(o fyne.CanvasObject) []*widget.Label {
	var out []*widget.Label
	for _, obj := range test.LaidOutObjects(o) {
		if l, ok := obj.(*widget.Label); ok && l.Visible() && l.TextStyle.Bold && l.Alignment == fyne.TextAlignLeading {
			out = append(out, l)
		}
	}
	return out
}

// TestTableTabsRowsAreDense opens a log in a tall window, with the tabs
// given most of it, and checks that the rows of the GC, Sparks and User
// Events tables are as far apart as a label is tall (and the grid's
// padding), not stretched to fill the tab.
func TestTableTabsRowsAreDense(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	w.Fyne().Resize(fyne.NewSize(1280, 1000))
	v.split.SetOffset(0.2)
	for _, name := range []string{"GC", "Sparks", "User Events"} {
		ti := selectTab(t, v, name)
		heads := rowHeads(ti.Content)
		if len(heads) < 3 {
			t.Fatalf("%s: %d row heads", name, len(heads))
		}
		d := fyne.CurrentApp().Driver()
		for i := 1; i < len(heads); i++ {
			gap := d.AbsolutePositionForObject(heads[i]).Y - d.AbsolutePositionForObject(heads[i-1]).Y
			most := heads[i-1].MinSize().Height + theme.Padding() + 1
			if gap > most {
				t.Errorf("%s: rows %q and %q are %.0f apart, want at most %.0f", name, heads[i-1].Text, heads[i].Text, gap, most)
			}
		}
	}
}
