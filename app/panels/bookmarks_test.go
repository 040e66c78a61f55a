package panels

import (
	"image"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/tracks"
)

// bookmarksOn returns the Bookmarks tab of the log at path linked to a
// track canvas of it, as a file window links them (B on the canvas
// bookmarks), both in a test window; and the log.
func bookmarksOn(t *testing.T, path string) (*BookmarkPanel, *trackcanvas.Canvas, *loaded.Eventlog) {
	t.Helper()
	_, c, ev := eventsOn(t, path)
	b := NewBookmarkPanel(ev.BookmarkKey(), ev.Markers, c)
	c.OnBookmark = b.AddAtKey
	return b, c, ev
}

// centre returns the time in the middle of c's view.
func centre(c *trackcanvas.Canvas) uint64 {
	from, to := c.View()
	return from + (to-from)/2
}

func TestBookmarksAreTheLogsMarkersAndPersistTheUsers(t *testing.T) {
	b, c, ev := bookmarksOn(t, parworkN2)
	want, h := showEvents(t, parworkN2)
	var markers []Bookmark
	for i := range want {
		if want[i].Kind == ingest.KindUserMarker {
			text := strings.TrimPrefix(string(ingest.AppendEventText(nil, h, &want[i])), "marker: ")
			markers = append(markers, Bookmark{Time: want[i].Time, Name: text, Marker: true})
		}
	}
	if len(markers) == 0 || len(b.Marks) != len(markers) {
		t.Fatalf("%d bookmarks, want the log's %d markers", len(b.Marks), len(markers))
	}
	for i := range markers {
		if b.Marks[i] != markers[i] {
			t.Errorf("bookmark %d = %+v, want %+v", i, b.Marks[i], markers[i])
		}
	}
	// Clicking one centres the timeline on it.
	c.ShowRange(0, ev.Model.End/20)
	b.list.Select(len(markers) - 1)
	from, to := c.View()
	if tm := markers[len(markers)-1].Time; tm < from || tm > to {
		t.Errorf("marker at %d outside the view %d–%d", tm, from, to)
	}

	// A user bookmark at the view's centre is saved under the file.
	c.ShowRange(1000000, 1469134)
	at := centre(c)
	if at != 1234567 {
		t.Fatalf("view centre %d", at)
	}
	b.addHere()
	b.rename(at, 0, "my start")
	prefs := fyne.CurrentApp().Preferences()
	got := loadUserBookmarks(prefs, ev.BookmarkKey())
	if len(got) != 1 || got[0].Time != 1234567 || got[0].Name != "my start" {
		t.Fatalf("saved %+v", got)
	}
	// A new panel for the same file (as after a restart) shows it again.
	b2 := NewBookmarkPanel(ev.BookmarkKey(), ev.Markers, c)
	if len(b2.Marks) != len(markers)+1 || b2.Marks[0].Name != "my start" || b2.Marks[0].Marker {
		t.Fatalf("reopened: %+v", b2.Marks[:2])
	}
	b2.remove(0)
	if got := loadUserBookmarks(prefs, ev.BookmarkKey()); len(got) != 0 {
		t.Errorf("after removing: %+v", got)
	}
}

func TestBookmarkRowsShowMarkersAsLabelsAndTheUsersAsEntries(t *testing.T) {
	b, _, _ := bookmarksOn(t, parworkN2)
	b.Add(1, "mine")
	o := b.list.CreateItem()
	// shown returns the row's visible entries' and labels' texts.
	shown := func() (entries, labels []string) {
		for _, obj := range test.LaidOutObjects(o) {
			switch x := obj.(type) {
			case *kit.KeyEntry:
				if x.Visible() {
					entries = append(entries, x.Text)
				}
			case *widget.Label:
				if x.Visible() {
					labels = append(labels, x.Text)
				}
			}
		}
		return entries, labels
	}
	b.updateRow(0, o)
	entries, labels := shown()
	if !slices.Equal(entries, []string{"mine"}) || !slices.Contains(labels, "yours") {
		t.Errorf("user row: entries %q, labels %q", entries, labels)
	}
	b.updateRow(1, o)
	entries, labels = shown()
	if len(entries) != 0 || !slices.Contains(labels, b.Marks[1].Name) || !slices.Contains(labels, "marker") {
		t.Errorf("marker row: entries %q, labels %q", entries, labels)
	}
	b.remove(0)
}

// TestBKeyBookmarksThePointersTime: B bookmarks the time under the
// pointer, as the cursor's label writes it, while the pointer is over the
// timeline's plot; elsewhere the view's centre.
func TestBKeyBookmarksThePointersTime(t *testing.T) {
	b, c, _ := bookmarksOn(t, parworkN2)
	t.Cleanup(func() { saveUserBookmarks(b.prefs, b.path, nil) })
	user := func() []Bookmark {
		var out []Bookmark
		for _, m := range b.Marks {
			if !m.Marker {
				out = append(out, m)
			}
		}
		return out
	}
	var plot image.Rectangle
	c.With(func(tv *tracks.View) { plot = tv.PlotRect() })
	s := float32(c.PixelScale())
	// A quarter of the way across the plot, in the first track.
	pos := fyne.NewPos(float32(plot.Min.X+plot.Dx()/4)/s, float32(plot.Min.Y+10)/s)
	c.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: pos}})
	var want uint64
	var label string
	sc := c.PixelScale()
	c.With(func(tv *tracks.View) {
		x := float64(pos.X) * sc
		step := tracks.PointStep(tv.Axis().PixelsPerNs())
		want = (tv.Time(x) + step/2) / step * step
		label = paint.Time(want, step)
	})
	c.TypedRune('b')
	got := user()
	if len(got) != 1 || got[0].Time != want || got[0].Name != "Bookmark at "+label {
		t.Fatalf("B over the plot: %+v, want one at %d named after %q", got, want, label)
	}
	if centre := centre(c); want > centre-centre/4 && want < centre+centre/4 {
		t.Fatalf("the pointer's time %d is too near the centre %d to tell them apart", want, centre)
	}
	// With the pointer gone, B bookmarks the view's centre.
	c.MouseOut()
	c.TypedRune('b')
	if got := user(); len(got) != 2 || !slices.ContainsFunc(got, func(m Bookmark) bool { return m.Time == centre(c) }) {
		t.Errorf("B with the pointer elsewhere: %+v, want one at the centre %d", got, centre(c))
	}
}
