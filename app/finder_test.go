package app

import (
	"image"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/tracks"
)

func TestFuzzyScore(t *testing.T) {
	for _, c := range []struct {
		query, text string
		ok          bool
	}{
		{"main", "thread 5 main", true},
		{"tm", "thread 4 TimerManager", true},
		{"stmw2", "thread 77 stm-waiter-2-r3", true},
		{"mian", "thread 5 main", false},
		{"", "anything", true},
		{"zz", "fit the whole run", false},
	} {
		if _, ok := fuzzyScore(c.query, c.text); ok != c.ok {
			t.Errorf("fuzzyScore(%q, %q) ok = %v", c.query, c.text, ok)
		}
	}
	better := func(q, a, b string) {
		t.Helper()
		sa, _ := fuzzyScore(q, a)
		sb, _ := fuzzyScore(q, b)
		if sa <= sb {
			t.Errorf("%q: %q scores %d, not above %q's %d", q, a, sa, b, sb)
		}
	}
	better("fit", "fit the whole run", "go to the end of the run (in a live window: follow it)")
	better("main", "thread 5 main", "thread 3 IOManager on cap 0")
	better("hec 1", "HEC 1", "HEC 10")
}

// finderOn opens the finder in w, types query and returns the best match.
func finderOn(t *testing.T, w *Window, query string) findItem {
	t.Helper()
	w.showFinder()
	e, ok := w.Fyne().Canvas().Focused().(*finderEntry)
	if !ok {
		t.Fatalf("the finder's field does not have the keyboard (%T does)", w.Fyne().Canvas().Focused())
	}
	e.SetText(query)
	if len(e.f.shown) == 0 {
		t.Fatalf("the finder finds nothing for %q", query)
	}
	best := e.f.shown[0]
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if e.f.popup.Visible() {
		t.Error("Enter did not close the finder")
	}
	return best
}

// TestFinderJumps opens the finder, types part of a thread's label, a
// marker's text, a HEC and a command, and checks what each jumps to.
func TestFinderJumps(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	c := v.canvas
	_, end := c.View()

	it := finderOn(t, w, "stm-waiter-2")
	if it.kind != "thread" {
		t.Fatalf("the best match of a thread's label is %q %q", it.kind, it.title)
	}
	id, err := strconv.Atoi(strings.Fields(it.title)[1])
	if err != nil {
		t.Fatalf("thread item %q: %v", it.title, err)
	}
	from, to := c.View()
	th := v.log.Model.ThreadByID(uint32(id))
	if to-from >= end || th == nil || th.First < from || th.First > to {
		t.Errorf("after jumping to %q: view %d–%d", it.title, from, to)
	}
	if _, ok := canvasTrackRect(c, tracks.TrackID{Kind: tracks.KindThread, ID: uint32(id)}); !ok {
		t.Errorf("after jumping to %q its track is not in view", it.title)
	}

	it = finderOn(t, w, "round 3")
	if it.kind != "marker" {
		t.Fatalf("the best match of \"round 3\" is %q %q", it.kind, it.title)
	}
	for _, mk := range v.log.Markers {
		if from, to := c.View(); mk.Text == it.title && (mk.Time < from || mk.Time > to) {
			t.Errorf("after jumping to marker %q at %d the view is %d–%d", mk.Text, mk.Time, from, to)
		}
	}

	c.With(func(tv *tracks.View) { tv.SetCollapsed(tracks.GroupHECs, true) })
	if it = finderOn(t, w, "HEC 1"); it.kind != "HEC" {
		t.Fatalf("the best match of \"HEC 1\" is %q %q", it.kind, it.title)
	}
	if _, ok := canvasTrackRect(c, tracks.TrackID{Kind: tracks.KindHEC, ID: 1}); !ok {
		t.Error("after jumping to HEC 1 its track is not in view")
	}

	it = finderOn(t, w, "fit the whole")
	if it.kind != "command" {
		t.Fatalf("the best match of \"fit the whole\" is %q %q", it.kind, it.title)
	}
	if from, to := c.View(); from != 0 || to != end {
		t.Errorf("after the fit command the view is %d–%d, want 0–%d", from, to, end)
	}
}

// canvasTrackRect returns where a track is on the canvas, if in view.
func canvasTrackRect(c *trackcanvas.Canvas, id tracks.TrackID) (r image.Rectangle, ok bool) {
	c.With(func(tv *tracks.View) { r, ok = tv.TrackRect(id) })
	return r, ok
}

// TestFinderJumpMarksAndPinsTheTrack: a jump marks its track and pins it
// until the next jump, which unpins it, unless the user had pinned it.
func TestFinderJumpMarksAndPinsTheTrack(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	c := v.canvas
	state := func(id tracks.TrackID) (marked, pinned bool) {
		c.With(func(tv *tracks.View) { marked, pinned = tv.Marked() == id, tv.Pinned(id) })
		return
	}
	hec1 := tracks.TrackID{Kind: tracks.KindHEC, ID: 1}
	markers := tracks.TrackID{Kind: tracks.KindMarkers}
	finderOn(t, w, "HEC 1")
	if m, p := state(hec1); !m || !p {
		t.Fatalf("after jumping to HEC 1: marked %v, pinned %v", m, p)
	}
	var pinnedRect image.Rectangle
	c.With(func(tv *tracks.View) { pinnedRect = tv.PinnedRect() })
	if r, ok := canvasTrackRect(c, hec1); !ok || r.Min.Y > pinnedRect.Max.Y {
		t.Errorf("HEC 1's track is at %v, not in the pinned area %v", r, pinnedRect)
	}
	finderOn(t, w, "round 3")
	if m, p := state(hec1); m || p {
		t.Errorf("after the next jump HEC 1 is still marked (%v) or pinned (%v)", m, p)
	}
	if m, p := state(markers); !m || !p {
		t.Errorf("after jumping to a marker its track: marked %v, pinned %v", m, p)
	}
	// A track the user pinned stays pinned after the jump that marked it.
	c.With(func(tv *tracks.View) { tv.Pin(hec1) })
	finderOn(t, w, "HEC 1")
	finderOn(t, w, "round 3")
	if m, p := state(hec1); m || !p {
		t.Errorf("the user's pin: after jumping to HEC 1 and away, marked %v, pinned %v", m, p)
	}
}
