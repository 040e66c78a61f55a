package app

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
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
// it, zoom to the span under the pointer, copy its name or the time, and
// show its events from that time; each does what it says.
func TestTrackMenu(t *testing.T) {
	_, v, _ := openNav(t, parworkN2)
	c := v.canvas
	th := v.log.Model.ThreadByID(5)
	id := tracks.TrackID{Kind: tracks.KindThread, ID: 5}
	c.ShowRange(th.First, th.First+(th.Finished-th.First)/40)
	c.Reveal(id)
	from, to := c.View()
	at := from + (to-from)/2
	p := trackAt(t, c, id, at)
	m := c.ContextMenu(p)
	if m == nil {
		t.Fatal("no menu on a thread's plot")
	}
	for _, want := range []string{"Pin to the Top", "Hide Track", "Zoom to Span", "Copy Name", "Copy Time", "Show in Events"} {
		if !slices.ContainsFunc(menuLabels(m), func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("the menu %q lacks %q", menuLabels(m), want)
		}
	}
	var h tracks.Hit
	sc := c.PixelScale()
	c.With(func(tv *tracks.View) { h = tv.Hit(float64(p.X)*sc, float64(p.Y)*sc) })

	menuAction(t, m, "Copy Name")()
	if got := fyne.CurrentApp().Clipboard().Content(); got != h.Name || !strings.Contains(got, "main") {
		t.Errorf("Copy Name copied %q, want %q", got, h.Name)
	}
	menuAction(t, m, "Copy Time")()
	if got := fyne.CurrentApp().Clipboard().Content(); !slices.Contains(menuLabels(m), "Copy Time ("+got+")") {
		t.Errorf("Copy Time copied %q; the menu says %q", got, menuLabels(m))
	}

	// Show in Events: the Events tab, the thread's first event from the
	// time under the pointer selected.
	menuAction(t, m, "Show in Events")()
	if v.tabs.Selected().Text != "Events" {
		t.Errorf("the %q tab is shown, not Events", v.tabs.Selected().Text)
	}
	i := v.events.Selected
	ev, err := v.log.List.Get(int64(i))
	if err != nil {
		t.Fatal(err)
	}
	if text := ingest.AppendEventText(nil, v.log.Log.Header, &ev); !regexp.MustCompile(`\bthread 5\b`).Match(text) || ev.Time < h.Time {
		t.Errorf("Show in Events selected row %d: %s at %d (pointer at %d)", i, text, ev.Time, h.Time)
	}
	if f, tt := c.View(); f != from || tt != to {
		t.Errorf("Show in Events moved the timeline to [%d, %d]", f, tt)
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
	m = c.ContextMenu(trackAt(t, c, id, at))
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
	m = c.ContextMenu(trackAt(t, c, hec0, at))
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
	_, v, _ := openNav(t, "../testdata/ghc-9.0.2/heap-hT.eventlog")
	c := v.canvas
	id := tracks.TrackID{Kind: tracks.KindBands}
	if !c.Reveal(id) {
		t.Fatal("no heap-profile track")
	}
	from, to := c.View()
	m := c.ContextMenu(trackAt(t, c, id, from+(to-from)/2))
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
	m = c.ContextMenu(trackAt(t, c, id, from+(to-from)/2))
	if got := checked(m); !slices.Equal(got, []string{"Bands as Lines", "Sort Bands by Name"}) {
		t.Errorf("checked %q after sorting by name", got)
	}
}
