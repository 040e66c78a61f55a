package trackcanvas

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"github.com/hecscope/hecscope/app/internal/apptest"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/tracks"
)

// menuLabels returns the labels of m's items.
func menuLabels(m *fyne.Menu) []string {
	var out []string
	for _, it := range m.Items {
		out = append(out, it.Label)
	}
	return out
}

// menuAction returns the action of m's item whose label starts with
// prefix, failing if there is none.
func menuAction(t *testing.T, m *fyne.Menu, prefix string) func() {
	t.Helper()
	for _, it := range m.Items {
		if strings.HasPrefix(it.Label, prefix) {
			return it.Action
		}
	}
	t.Fatalf("no %q in the menu %q", prefix, menuLabels(m))
	return nil
}

// TestTrackMenu: a right click on a thread's plot offers to pin it, hide
// it, zoom to the span under the pointer and copy its name or the time,
// and the window's own items after them; each does what it says.
func TestTrackMenu(t *testing.T) {
	c, ev, _, _ := canvasOn(t, parworkN2)
	var asked []tracks.Hit
	c.ContextItems = func(h tracks.Hit) []*fyne.MenuItem {
		asked = append(asked, h)
		return []*fyne.MenuItem{fyne.NewMenuItem("The Window's Item", func() {})}
	}
	th := ev.Model.ThreadByID(5)
	id := tracks.TrackID{Kind: tracks.KindThread, ID: 5}
	c.ShowRange(th.First, th.First+(th.Finished-th.First)/40)
	c.Reveal(id)
	from, to := c.View()
	at := from + (to-from)/2
	p := trackAt(t, c, id, at)
	m := c.contextMenu(p)
	if m == nil {
		t.Fatal("no menu on a thread's plot")
	}
	labels := menuLabels(m)
	for _, want := range []string{"Pin to the Top", "Hide Track", "Zoom to Span", "Copy Name", "Copy Time", "", "The Window's Item"} {
		if !slices.ContainsFunc(labels, func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("the menu %q lacks %q", labels, want)
		}
	}
	if labels[len(labels)-1] != "The Window's Item" || !m.Items[len(labels)-2].IsSeparator {
		t.Errorf("the menu %q does not end with the window's items after a separator", labels)
	}
	var h tracks.Hit
	sc := c.PixelScale()
	c.With(func(tv *tracks.View) { h = tv.Hit(float64(p.X)*sc, float64(p.Y)*sc) })
	if len(asked) != 1 || asked[0].Track != id || asked[0].Time != h.Time {
		t.Errorf("the window was asked for its items of %+v, want thread 5's at %d", asked, h.Time)
	}

	menuAction(t, m, "Copy Name")()
	if got := fyne.CurrentApp().Clipboard().Content(); got != h.Name || !strings.Contains(got, "main") {
		t.Errorf("Copy Name copied %q, want %q", got, h.Name)
	}
	menuAction(t, m, "Copy Time")()
	if got := fyne.CurrentApp().Clipboard().Content(); !slices.Contains(menuLabels(m), "Copy Time ("+got+")") {
		t.Errorf("Copy Time copied %q; the menu says %q", got, menuLabels(m))
	}

	menuAction(t, m, "Zoom to Span")()
	if f, tt := c.View(); f > h.From || tt < h.To || tt-f > 2*(h.To-h.From)+2*minSpanForTest {
		t.Errorf("Zoom to Span shows [%d, %d] for the span [%d, %d]", f, tt, h.From, h.To)
	}

	menuAction(t, m, "Pin to the Top")()
	c.With(func(tv *tracks.View) {
		if !tv.Pinned(id) {
			t.Error("Pin to the Top did not pin the thread")
		}
	})
	m = c.contextMenu(trackAt(t, c, id, at))
	menuAction(t, m, "Unpin")()
	menuAction(t, m, "Hide Track")()
	c.With(func(tv *tracks.View) {
		if slices.Contains(tv.Tracks(), id) || tv.Pinned(id) {
			t.Error("Hide Track left the thread shown")
		}
	})
	// Anywhere on the plot, the menu now offers the hidden track back.
	hec0 := tracks.TrackID{Kind: tracks.KindHEC, ID: 0}
	c.Reveal(hec0)
	m = c.contextMenu(trackAt(t, c, hec0, at))
	menuAction(t, m, "Show 1 Hidden Track")()
	c.With(func(tv *tracks.View) {
		if !slices.Contains(tv.Tracks(), id) {
			t.Error("Show 1 Hidden Track did not bring the thread back")
		}
	})
}

// minSpanForTest is the least margin a zoom to a span leaves (the view is
// at least 100 ns wide).
const minSpanForTest = 100

// TestBandsMenu: a right click on the heap-profile track offers the modes
// and orders `hecscope render --mode` and `--sort` have, area and by size
// checked; picking lines and by name draws the bands so and checks those
// items the next time.
func TestBandsMenu(t *testing.T) {
	c, _, _, _ := canvasOn(t, apptest.Log("heap-hT"))
	id := tracks.TrackID{Kind: tracks.KindBands}
	if !c.Reveal(id) {
		t.Fatal("no heap-profile track")
	}
	from, to := c.View()
	m := c.contextMenu(trackAt(t, c, id, from+(to-from)/2))
	if m == nil {
		t.Fatal("no menu on the heap-profile track")
	}
	checked := func(m *fyne.Menu) (out []string) {
		for _, it := range m.Items {
			if it.Checked {
				out = append(out, it.Label)
			}
		}
		return out
	}
	if got := checked(m); !slices.Equal(got, []string{"Bands as Area", "Sort Bands by Size"}) {
		t.Errorf("checked %q in %q", got, menuLabels(m))
	}
	menuAction(t, m, "Sort Bands by Name")()
	menuAction(t, m, "Bands as Lines")()
	var order heapview.Order
	var mode heapview.Mode
	c.With(func(tv *tracks.View) { order, mode = tv.BandOrder(), tv.BandMode() })
	if order != heapview.ByName || mode != heapview.ModeLines {
		t.Errorf("the bands are drawn %v in order %v after Bands as Lines and Sort Bands by Name", mode, order)
	}
	m = c.contextMenu(trackAt(t, c, id, from+(to-from)/2))
	if got := checked(m); !slices.Equal(got, []string{"Bands as Lines", "Sort Bands by Name"}) {
		t.Errorf("checked %q after sorting by name", got)
	}
}
