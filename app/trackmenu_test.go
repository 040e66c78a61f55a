package app

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/internal/apptest"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/tracks"
)

// tapMenuItem taps the item of the pop-up menu shown on fc whose label
// starts with prefix, failing if there is no menu or no such item.
func tapMenuItem(t *testing.T, fc fyne.Canvas, prefix string) {
	t.Helper()
	var m *widget.Menu
	if top := fc.Overlays().Top(); top != nil {
		for _, o := range test.LaidOutObjects(top) {
			if pop, ok := o.(*widget.PopUpMenu); ok {
				m = pop.Menu
				break
			}
		}
	}
	if m == nil {
		t.Fatalf("no pop-up menu shown (the top overlay: %T)", fc.Overlays().Top())
	}
	var labels []string
	for _, item := range m.Items {
		w, ok := item.(fyne.Widget)
		if !ok {
			continue
		}
		// The item's label, as its renderer draws it.
		for _, o := range test.WidgetRenderer(w).Objects() {
			l, ok := o.(*canvas.Text)
			if !ok || l.Text == "" {
				continue
			}
			labels = append(labels, l.Text)
			if strings.HasPrefix(l.Text, prefix) {
				test.Tap(item.(fyne.Tappable))
				return
			}
		}
	}
	t.Fatalf("no %q in the menu %q", prefix, labels)
}

// TestTrackMenuShowsEvents: the window adds Show in Events to the menu of
// a track's plot; chosen on thread 5's, it shows the Events tab at the
// thread's first event from the time under the pointer, and leaves the
// timeline where it was.
func TestTrackMenuShowsEvents(t *testing.T) {
	w, v, abs := openNav(t, parworkN2)
	c, fc := v.canvas, w.Fyne().Canvas()
	th := v.log.Model.ThreadByID(5)
	id := tracks.TrackID{Kind: tracks.KindThread, ID: 5}
	c.ShowRange(th.First, th.First+(th.Finished-th.First)/40)
	c.Reveal(id)
	from, to := c.View()
	p := trackAt(t, c, id, from+(to-from)/2)
	var h tracks.Hit
	sc := c.PixelScale()
	c.With(func(tv *tracks.View) { h = tv.Hit(float64(p.X)*sc, float64(p.Y)*sc) })

	c.TappedSecondary(&fyne.PointEvent{Position: p, AbsolutePosition: abs.Add(p)})
	tapMenuItem(t, fc, "Show in Events")
	if v.tabs.Selected().Text != "Events" {
		t.Errorf("the %q tab is shown, not Events", v.tabs.Selected().Text)
	}
	// The thread's first event from the pointer's time, as `ghc-events
	// show` prints it, is among the rows the tab shows (a row lays out its
	// text, then its time and HEC).
	evs, hdr := apptest.ShowEvents(t, parworkN2)
	thread5 := regexp.MustCompile(`\bthread 5\b`)
	k := slices.IndexFunc(evs, func(ev ingest.Event) bool {
		return ev.Time >= h.Time && thread5.Match(ingest.AppendEventText(nil, hdr, &ev))
	})
	if k < 0 {
		t.Fatalf("no event of thread 5 from %d ns", h.Time)
	}
	want := string(ingest.AppendEventText(nil, hdr, &evs[k]))
	shown := texts(v.tabs.Selected().Content)
	at := slices.Index(shown, paint.Time(evs[k].Time, 1))
	if at < 1 || shown[at-1] != want {
		t.Errorf("Show in Events at %d ns shows rows %q, not thread 5's %q at %d ns", h.Time, shown, want, evs[k].Time)
	}
	if f, tt := c.View(); f != from || tt != to {
		t.Errorf("Show in Events moved the timeline to [%d, %d]", f, tt)
	}
}
