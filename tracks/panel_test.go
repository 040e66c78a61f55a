package tracks

import (
	"image/color"
	"math"
	"slices"
	"testing"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// TestViews: each view expands its groups and collapses the others; an
// unknown view is an error that lists the views.
func TestViews(t *testing.T) {
	if got := Views(); !slices.Equal(got, []string{"activity", "hecs", "sparks", "threads", "timeline"}) {
		t.Errorf("views %v", got)
	}
	v := New(timeline.Exact(tiny()))
	for _, name := range Views() {
		if err := v.SetView(name); err != nil {
			t.Fatal(err)
		}
		gs, ok := ViewGroups(name)
		if !ok || len(gs) == 0 {
			t.Fatalf("view %q: groups %v %v", name, gs, ok)
		}
		for g := range NumGroups {
			if v.Collapsed(g) == slices.Contains(gs, g) {
				t.Errorf("view %q: group %v collapsed %v", name, g, v.Collapsed(g))
			}
		}
	}
	if err := v.SetView("nope"); err == nil {
		t.Error("unknown view accepted")
	}
	if _, ok := ViewGroups("nope"); ok {
		t.Error("unknown view has groups")
	}
}

// TestPanel makes a view a panel of a larger picture: no group titles (a
// collapsed group shows nothing), its tracks filling its height, its plot
// on a given axis that reaches past the run's end, a caption in the
// axis's corner; zooming gives the plot its usual span back.
func TestPanel(t *testing.T) {
	m := tiny() // two HECs, 1000 ns
	v := New(timeline.Exact(m))
	v.SetSize(900, 400, 1)
	if err := v.SetView("hecs"); err != nil {
		t.Fatal(err)
	}
	v.SetTitles(false)
	want := []TrackID{{KindActivity, 0}, {KindHECActivity, 0}, {KindHECActivity, 1}, {KindHEC, 0}, {KindHEC, 1}}
	if got := v.Tracks(); !slices.Equal(got, want) {
		t.Fatalf("tracks %v, want %v", got, want)
	}
	// The first track starts right under the axis: no title above it.
	if r, _ := v.TrackRect(want[0]); r.Min.Y != v.TracksRect().Min.Y {
		t.Errorf("first track at %v, tracks' area %v", r, v.TracksRect())
	}
	for x := 0; x < 900; x += 10 {
		for y := v.TracksRect().Min.Y; y < v.TracksRect().Max.Y; y += 3 {
			if h := v.Hit(float64(x), float64(y)); h.Part == PartToggle {
				t.Fatalf("a group's title at (%d, %d)", x, y)
			}
		}
	}

	// Fitted, the tracks fill the area in proportion to their defaults.
	v.FitTracks()
	area := v.TracksRect().Dy()
	_, content, _ := v.Scroll()
	if content > area || content < area-len(want) {
		t.Errorf("tracks %d px high in an area of %d", content, area)
	}
	if a, h := v.TrackHeight(want[0]), v.TrackHeight(want[3]); math.Abs(float64(a)/float64(h)-80.0/34) > 0.1 {
		t.Errorf("activity %d px, HEC %d px: not 80:34", a, h)
	}
	v.SetSize(900, 70, 1) // too small: 8 points at least, cut at the bottom
	v.FitTracks()
	for _, id := range want[3:] {
		if h := v.TrackHeight(id); h != minTrack {
			t.Errorf("track %v %d px high in a tiny panel", id, h)
		}
	}
	v.SetSize(900, 400, 1)
	v.FitTracks()

	// On an axis that starts right of the plot's left edge and reaches
	// past the run's end.
	x0, x1 := PlotSpan(900, 1)
	if px0, px1 := v.PlotRect().Min.X, v.PlotRect().Max.X; px0 != x0 || px1 != x1 {
		t.Fatalf("plot %d–%d, PlotSpan %d–%d", px0, px1, x0, x1)
	}
	ax := timeline.NewAxis(0, 2000, float64(x0)+100, float64(x1-x0-100))
	v.SetAxis(ax)
	if got := v.Axis(); got != ax {
		t.Errorf("axis %+v, want %+v", got, ax)
	}
	if from, to := v.Range(); from != 0 || to != 2000 {
		t.Errorf("range %d–%d", from, to)
	}
	v.SetCaption("A: run", color.RGBA{0x2a, 0x5c, 0xaa, 0xff})
	img := v.Render()
	th := v.Theme()
	y := v.trackBottom(t, TrackID{KindHEC, 0}) - 1 // under the thread's id
	// Left of the axis, and past the run's end, nothing is drawn.
	for x := x0; x < x0+100; x++ {
		if c := img.RGBAAt(x, y); c != th.Background {
			t.Fatalf("left of the axis at x %d: %v", x, c)
		}
	}
	for x := int(ax.X(1100)); x < int(ax.X(1900)); x++ {
		if c := img.RGBAAt(x, y); c != th.Background && c != th.Grid {
			t.Fatalf("past the run's end at x %d: %v", x, c)
		}
	}
	if c := img.RGBAAt(int(ax.X(250)), y); c != paint.InkRunning.Color() {
		t.Errorf("HEC 0 at 250 ns: %v, want running", c)
	}
	if h := v.Hit(float64(x0+50), float64(y)); h.Area == AreaPlot || h.HasTime {
		t.Errorf("left of the axis: %+v", h)
	}
	if h := v.Hit(ax.X(250), float64(y)); h.Area != AreaPlot || h.Track != (TrackID{KindHEC, 0}) || h.Time < 240 || h.Time > 260 {
		t.Errorf("HEC 0 at 250 ns: %+v", h)
	}
	// The caption in its colour in the axis's corner.
	caption := 0
	for x := 0; x < v.HeaderRect().Max.X; x++ {
		for y := 0; y < v.AxisRect().Max.Y; y++ {
			if img.RGBAAt(x, y) == (color.RGBA{0x2a, 0x5c, 0xaa, 0xff}) {
				caption++
			}
		}
	}
	if caption < 10 {
		t.Errorf("%d pixels of the caption", caption)
	}
	// A zoom gives the plot its usual span, inside the run.
	v.ZoomAt(float64(x0+x1)/2, 2)
	if r := v.PlotRect(); r.Min.X != x0 || r.Max.X != x1 {
		t.Errorf("plot %v after a zoom", r)
	}
	if _, to := v.Range(); to > m.End {
		t.Errorf("range to %d past the run's end %d after a zoom", to, m.End)
	}
	// Titles back: the collapsed groups' titles too.
	v.SetTitles(true)
	if n := len(v.Tracks()); n != len(want) {
		t.Errorf("%d tracks with titles", n)
	}
	if h := v.Hit(10, float64(v.TracksRect().Min.Y+2)); h.Part != PartToggle {
		t.Errorf("no title at the top with titles shown: %+v", h)
	}
}
