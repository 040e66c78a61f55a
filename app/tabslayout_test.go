package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
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

// TestBookmarkTimesLineUp checks that the Bookmarks tab writes its times
// right-aligned in one column: whatever their length ("74 ms", "5.07 ms"),
// they end at one x and the kind after them starts at one x.
func TestBookmarkTimesLineUp(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	w.Fyne().Resize(fyne.NewSize(1280, 1000))
	v.split.SetOffset(0.2)
	ti := selectTab(t, v, "Bookmarks")
	// One of the user's among the markers, whose kind ("yours") is
	// shorter than a marker's.
	v.canvas.ShowRange(0, v.log.Model.End/2)
	add := bookmarkButtons(t, v, "Bookmark this time")
	if len(add) != 1 {
		t.Fatalf("%d buttons to bookmark the time", len(add))
	}
	test.Tap(add[0])
	t.Cleanup(func() { removeUserBookmarks(t, v) })
	d := fyne.CurrentApp().Driver()
	var ends, kinds, names []float32
	var times []string
	for _, obj := range test.LaidOutObjects(ti.Content) {
		if e, ok := obj.(*kit.KeyEntry); ok && e.Visible() {
			names = append(names, d.AbsolutePositionForObject(e).X)
		}
		l, ok := obj.(*widget.Label)
		if !ok || !l.Visible() {
			continue
		}
		switch {
		case l.Truncation == fyne.TextTruncateEllipsis:
			names = append(names, d.AbsolutePositionForObject(l).X)
		case l.TextStyle.Monospace:
			if l.MinSize().Width > l.Size().Width+0.5 {
				t.Errorf("time %q is %.0f wide, needs %.0f", l.Text, l.Size().Width, l.MinSize().Width)
			}
			text := fyne.MeasureText(l.Text, theme.TextSize(), l.TextStyle)
			inner := theme.InnerPadding()
			pos := d.AbsolutePositionForObject(l)
			switch l.Alignment {
			case fyne.TextAlignTrailing:
				ends = append(ends, pos.X+l.Size().Width-inner)
			default:
				ends = append(ends, pos.X+inner+text.Width)
			}
			times = append(times, l.Text)
		case l.Text == "marker" || l.Text == "yours":
			kinds = append(kinds, d.AbsolutePositionForObject(l).X)
		}
	}
	if len(times) < 5 || len(kinds) != len(times) || len(names) != len(times) {
		t.Fatalf("%d times %q, %d kinds and %d names", len(times), times, len(kinds), len(names))
	}
	for i := 1; i < len(times); i++ {
		if d := ends[i] - ends[0]; d > 0.5 || d < -0.5 {
			t.Errorf("time %q ends at x %.1f, %q at %.1f", times[i], ends[i], times[0], ends[0])
		}
		if kinds[i] != kinds[0] || names[i] != names[0] {
			t.Errorf("row %d (%q): kind and name at x %.1f and %.1f, row 0's at %.1f and %.1f", i, times[i], kinds[i], names[i], kinds[0], names[0])
		}
	}
}

// TestSpansTabShowsSeveralRows opens a log in a 1280×800 window, as the
// app opens it (the divider where it starts), shows the Spans tab and
// checks that it leaves the divider where it is and that its table shows
// its header and at least three rows in the tab; with the divider dragged
// to give the tabs half the height, at least five.
func TestSpansTabShowsSeveralRows(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	w.Fyne().Resize(fyne.NewSize(1280, 800))
	offset := v.split.Offset
	showLoaded(t, v, "Spans")
	ti := selectTab(t, v, "Spans")
	table := shownWidget[*widget.Table](t, ti.Content)
	if rows, _ := table.Length(); rows < 5 {
		t.Fatalf("%d rows in the report", rows)
	}
	if v.split.Offset != offset {
		t.Errorf("the divider moved from %v to %v for the Spans tab", offset, v.split.Offset)
	}
	rowsShown := func() float32 {
		d := fyne.CurrentApp().Driver()
		tab := d.AbsolutePositionForObject(ti.Content).Y + ti.Content.Size().Height
		top := d.AbsolutePositionForObject(table).Y
		shown := min(top+table.Size().Height, tab) - top
		header := widget.NewButton("Label", nil).MinSize().Height
		row := widget.NewLabel("00000 ms 000").MinSize().Height
		return (shown - header - theme.Padding()) / (row + theme.Padding())
	}
	if rows := rowsShown(); rows < 3 {
		t.Errorf("the spans table shows %.1f rows under its header at the divider's start, want 3", rows)
	}
	if h := v.canvas.Size().Height; h < 200 {
		t.Errorf("the timeline is left %.0f px", h)
	}
	v.split.SetOffset(0.5)
	if rows := rowsShown(); rows < 5 {
		t.Errorf("the spans table shows %.1f rows under its header with the tabs given half the height, want 5", rows)
	}
}

// TestDividerStartsLowAndIsRemembered opens a log in a 1280×800 window and
// checks that the tabs get at least 30 % of its height; then drags the
// divider, closes the window, and checks that the next window's divider
// starts where it was dragged to, and that where the app moved it itself
// (as showAllTracks does) is not remembered.
func TestDividerStartsLowAndIsRemembered(t *testing.T) {
	a, done := newTestApp(t)
	w := a.Open(parworkN2)
	await(t, done)
	w.Fyne().Resize(fyne.NewSize(1280, 800))
	v := w.view.(*eventlogView)
	if h := v.tabs.Size().Height; h < 0.3*800 {
		t.Errorf("the tabs are %.0f high in a window 800 high, want at least 30 %%", h)
	}
	v.split.SetOffset(0.5) // as dragging the divider does
	w.Fyne().Close()
	w = a.Open(parworkN2)
	await(t, done)
	v = w.view.(*eventlogView)
	if v.split.Offset != 0.5 {
		t.Errorf("the next window's divider is at %v, want 0.5 where it was dragged to", v.split.Offset)
	}
	v.setDivider(0.3)
	w.Fyne().Close()
	w = a.Open(parworkN2)
	await(t, done)
	if off := w.view.(*eventlogView).split.Offset; off != 0.5 {
		t.Errorf("the divider the app moved was remembered: %v, want 0.5", off)
	}
}

// TestTablesFillTheirWidth opens a log in a 1920×1080 window, then a
// 1280×800 one, and checks that the GC, Spans and Profile tables reach
// across the tab (their last column's heading ends near its right edge,
// not past it) and keep their columns apart
// (each heading starts right of the one before, at least a label's
// padding after its end).
func TestTablesFillTheirWidth(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	showLoaded(t, v, "Spans")
	// The Profile tab loads in the background when first shown, and puts
	// its table in from Fyne's loop: wait for it before reading widgets.
	showLoaded(t, v, "Profile")
	for _, size := range []fyne.Size{{Width: 1920, Height: 1080}, {Width: 1280, Height: 800}} {
		w.Fyne().Resize(size)
		for _, tab := range []struct{ name, first, last string }{
			{"GC", "Generation", "Copied"}, {"Spans", "Label", "Open"}, {"Profile", "Cost centre", "Inherited"},
		} {
			ti := selectTab(t, v, tab.name)
			right := ti.Content.Size().Width
			var heads []fyne.CanvasObject
			var texts []string
			started := false
			for _, o := range test.LaidOutObjects(ti.Content) {
				var text string
				switch o := o.(type) {
				case *widget.Label:
					text = o.Text
				case *widget.Button:
					text = o.Text
				default:
					continue
				}
				if !o.Visible() || o.Size().Width == 0 {
					continue
				}
				started = started || text == tab.first
				if !started || len(texts) > 0 && texts[len(texts)-1] == tab.last {
					continue
				}
				heads = append(heads, o)
				texts = append(texts, text)
			}
			if len(texts) < 3 || texts[len(texts)-1] != tab.last && !strings.HasPrefix(texts[len(texts)-1], tab.last) {
				t.Fatalf("%s: headings %q", tab.name, texts)
			}
			last := heads[len(heads)-1]
			// The headings are siblings: their positions are in one row that
			// starts at the tab's left, or a padding right of it.
			if end := last.Position().X + last.Size().Width; end < right-2*theme.ScrollBarSize()-2*theme.Padding() || end > right {
				t.Errorf("%s: the table ends at x %.0f, the tab at %.0f", tab.name, end, right)
			}
			for i := 1; i < len(heads); i++ {
				prev, cur := heads[i-1].Position().X, heads[i].Position().X
				if cur < prev+heads[i-1].MinSize().Width {
					t.Errorf("%s: %q at x %.0f runs into %q at %.0f", tab.name, texts[i-1], prev, texts[i], cur)
				}
			}
		}
	}
}

// TestTabsKeepTheDivider opens a log in a 1280×800 window and shows each
// tab in turn, those that load in the background (Spans, Profile,
// Findings) until they have: the divider stays where it started, the tabs
// keeping at least 30 % of the height; dragged higher, it stays there
// too when the Profile tab is shown again.
func TestTabsKeepTheDivider(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	w.Fyne().Resize(fyne.NewSize(1280, 800))
	offset, height := v.split.Offset, v.tabs.Size().Height
	if height < 0.3*800 {
		t.Errorf("the tabs are %.0f high in a window 800 high, want at least 30 %%", height)
	}
	for _, ti := range v.tabs.Items {
		if ti.Text == "Findings" && v.log.Analysed {
			continue // shown already: nothing to wait for
		}
		switch ti.Text {
		case "Spans", "Profile", "Findings":
			showLoaded(t, v, ti.Text)
		default:
			selectTab(t, v, ti.Text)
		}
		if v.split.Offset != offset || v.tabs.Size().Height != height {
			t.Errorf("showing the %s tab moved the divider from %v to %v (tabs %.0f high, were %.0f)",
				ti.Text, offset, v.split.Offset, v.tabs.Size().Height, height)
		}
	}
	selectTab(t, v, "Summary")
	v.split.SetOffset(0.8) // as dragging the divider down does
	selectTab(t, v, "Profile")
	if v.split.Offset != 0.8 {
		t.Errorf("showing the Profile tab moved the divider the user left at 0.8 to %v", v.split.Offset)
	}
}

// TestSummaryReadsWithoutScrollingSideways opens a log in a window 640×400
// units (1280×800 at FYNE_SCALE=2) and checks that the Summary tab's
// content is no wider than the tab, its sections stacked in one column, so
// that nothing needs horizontal scrolling; 1280×800 and 1920×1080 (scale 1)
// put the three sections side by side.
func TestSummaryReadsWithoutScrollingSideways(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	ti := selectTab(t, v, "Summary")
	scroll, ok := ti.Content.(*container.Scroll)
	if !ok {
		t.Fatalf("the Summary tab holds a %T, not a scroller", ti.Content)
	}
	for _, c := range []struct {
		size fyne.Size
		cols int
	}{{fyne.NewSize(640, 400), 1}, {fyne.NewSize(1280, 800), 3}, {fyne.NewSize(1920, 1080), 3}} {
		w.Fyne().Resize(c.size)
		if got := w.Fyne().Canvas().Size(); got.Width > c.size.Width {
			t.Fatalf("the window is %v wide, asked for %v", got.Width, c.size.Width)
		}
		panel := scroll.Content.(*fyne.Container)
		if mw, sw := panel.MinSize().Width, scroll.Size().Width; mw > sw {
			t.Errorf("at %v the Summary asks for %.0f wide in a tab %.0f wide: it scrolls sideways", c.size, mw, sw)
		}
		tops := map[float32]int{}
		for _, o := range panel.Objects {
			if right := o.Position().X + o.Size().Width; right > scroll.Size().Width+0.5 {
				t.Errorf("at %v a section ends at x %.0f, past the tab's %.0f", c.size, right, scroll.Size().Width)
			}
			tops[o.Position().Y]++
		}
		if got := len(panel.Objects) / len(tops); got != c.cols {
			t.Errorf("at %v the sections are in %d columns (tops %v), want %d", c.size, got, tops, c.cols)
		}
	}
}
