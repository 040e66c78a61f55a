package kit

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// countedLabel is a label that counts the renderers made of it.
type countedLabel struct {
	widget.Label
	made int
}

func newCountedLabel(text string) *countedLabel {
	l := &countedLabel{}
	l.Text = text
	l.ExtendBaseWidget(l)
	return l
}

func (l *countedLabel) CreateRenderer() fyne.WidgetRenderer {
	l.made++
	return l.Label.CreateRenderer()
}

// TestDeferredTabMadeWhenShown: the content of a tab not selected, held in
// a Deferred, has no renderer while the window shows the tabs, and none
// of its size; selecting the tab lays it out over the tab's area.
func TestDeferredTabMadeWhenShown(t *testing.T) {
	fa := test.NewApp()
	defer fa.Quit()
	shown, held := newCountedLabel("shown"), newCountedLabel("a long label that would ask for room")
	second := container.NewTabItem("Second", NewDeferred(held))
	tabs := container.NewAppTabs(container.NewTabItem("First", shown), second)
	w := test.NewWindow(tabs)
	defer w.Close()
	w.Resize(fyne.NewSize(400, 300))
	tabs.Refresh()
	if shown.made != 1 || held.made != 0 {
		t.Fatalf("renderers made before the second tab was shown: first tab's %d, second's %d", shown.made, held.made)
	}
	if m := second.Content.MinSize(); m != (fyne.Size{}) {
		t.Errorf("the held content asks for %v before it is shown", m)
	}
	tabs.Select(second)
	if held.made != 1 {
		t.Fatalf("%d renderers of the second tab's content once shown, want 1", held.made)
	}
	if got, want := held.Size(), second.Content.Size(); got != want || got.Width == 0 {
		t.Errorf("the shown content is %v in a tab area of %v", got, want)
	}
	if m := second.Content.MinSize(); m != held.MinSize() {
		t.Errorf("the shown content asks for %v, its own minimum is %v", m, held.MinSize())
	}
}

// holds says whether d's renderer shows its content.
func holds(d *Deferred) bool {
	return slices.Contains(test.WidgetRenderer(d).Objects(), d.Content())
}

// TestDeferredReshownAfterRendererDropped: Fyne drops the renderers of
// widgets not drawn for a while; a tab shown before keeps its content when
// shown again at the same size, and when the tabs are refreshed.
func TestDeferredReshownAfterRendererDropped(t *testing.T) {
	fa := test.NewApp()
	defer fa.Quit()
	shown, held := newCountedLabel("shown"), newCountedLabel("held")
	d := NewDeferred(held)
	first, second := container.NewTabItem("First", shown), container.NewTabItem("Second", d)
	tabs := container.NewAppTabs(first, second)
	w := test.NewWindow(tabs)
	defer w.Close()
	w.Resize(fyne.NewSize(400, 300))
	tabs.Select(second)
	if !holds(d) {
		t.Fatal("not shown first time")
	}
	tabs.Select(first)
	t.Run("drop", func(t *testing.T) { test.TempWidgetRenderer(t, d) })
	tabs.Select(second)
	if !holds(d) {
		t.Error("re-shown at the same size after its renderer was dropped: content not in the tree")
	}
	// Shown, its renderer dropped, then laid out again at the same size.
	t.Run("drop2", func(t *testing.T) { test.TempWidgetRenderer(t, d) })
	w.Resize(fyne.NewSize(400, 300))
	tabs.Refresh()
	if !holds(d) {
		t.Error("shown tab, renderer dropped, after tabs.Refresh: content not in tree")
	}
}

// TestDeferredThemeChangeKeepsHidden: a change of theme refreshes every
// tab; a hidden one stays unmade. A tab selected while the tabs have no
// height is shown once they have.
func TestDeferredThemeChangeKeepsHidden(t *testing.T) {
	fa := test.NewApp()
	defer fa.Quit()
	shown, held := newCountedLabel("shown"), newCountedLabel("held")
	d := NewDeferred(held)
	tabs := container.NewAppTabs(container.NewTabItem("First", shown), container.NewTabItem("Second", d))
	w := test.NewWindow(tabs)
	defer w.Close()
	w.Resize(fyne.NewSize(400, 300))
	test.ApplyTheme(t, theme.DarkTheme())
	test.ApplyTheme(t, theme.LightTheme())
	if held.made != 0 || holds(d) {
		t.Errorf("theme change made the hidden tab: made %d", held.made)
	}
	// Select while the tab area has no height, then grow it.
	w.Resize(fyne.NewSize(400, 1))
	tabs.Resize(fyne.NewSize(400, 1))
	tabs.SelectIndex(1)
	tabs.Resize(fyne.NewSize(400, 300))
	if !holds(d) {
		t.Error("selected while tiny, then grown: not shown")
	}
}
