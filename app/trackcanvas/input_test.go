package trackcanvas

import (
	"image"
	"math"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/hecscope/hecscope/app/internal/apptest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/tracks"
)

// tipText is the tooltip shown now, one line per line, "" if none.
func tipText(c *Canvas) string { return strings.Join(apptest.TipText(c.tip), "\n") }

func itoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

// TestCanvasShiftDragSelectsAndKeys: Shift+drag selects a range, whose
// length the axis shows over a shade; Z zooms to it and Esc clears it;
// + zooms in at the centre with the pointer away, Home goes to the start,
// D pans right, 0 fits the run; a plain drag selects nothing.
func TestCanvasShiftDragSelectsAndKeys(t *testing.T) {
	c, ev, _, _ := canvasOn(t, parworkN2)
	end := ev.Model.End
	var plot image.Rectangle
	c.With(func(tv *tracks.View) { plot = tv.PlotRect() })
	x0, _, x1, _ := unitsOf(c, plot)
	p := fyne.NewPos(x0+(x1-x0)/4, 200)
	var finals int
	c.OnSelect = func(_, _ uint64, _, final bool) {
		if final {
			finals++
		}
	}
	canvasDrag(c, p, (x1-x0)/4, 0, fyne.KeyModifierShift)
	from, to, ok := c.Selection()
	if !ok || to <= from {
		t.Fatal("Shift+drag selected nothing")
	}
	if finals != 1 {
		t.Errorf("the window was told of %d final selections, want 1", finals)
	}
	if want := end / 4; math.Abs(float64(to-from)-float64(want)) > float64(end)/100 {
		t.Errorf("selected %d ns, want about %d", to-from, want)
	}
	if !c.selLabel.Visible() || c.selLabel.Text != paint.Duration(to-from) || !c.selShade.Visible() {
		t.Errorf("the axis shows %q (visible %v, shade %v), want the selection's length %q", c.selLabel.Text, c.selLabel.Visible(), c.selShade.Visible(), paint.Duration(to-from))
	}
	// Z zooms to it, Esc clears.
	c.TypedRune('z')
	if f, tt := c.View(); f != from || tt != to {
		t.Errorf("Z shows [%d, %d], want the selection [%d, %d]", f, tt, from, to)
	}
	c.SetSelection(from, from+(to-from)/2, true)
	c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if _, _, ok := c.Selection(); ok || c.selShade.Visible() || c.selLabel.Visible() {
		t.Error("Esc left the selection")
	}
	// + and - zoom at the centre with the pointer away; 0 fits.
	c.MouseOut()
	c.TypedRune('0')
	c.TypedRune('+')
	f, tt := c.View()
	if span := tt - f; math.Abs(float64(span)-float64(end)/2) > 2 {
		t.Errorf("+ shows %d ns of %d", span, end)
	}
	if mid := f + (tt-f)/2; math.Abs(float64(mid)-float64(end)/2) > float64(end)/1000 {
		t.Errorf("+ moved the centre to %d, want %d", mid, end/2)
	}
	c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyHome})
	if f2, t2 := c.View(); f2 != 0 || t2-f2 != tt-f {
		t.Errorf("Home shows [%d, %d]", f2, t2)
	}
	c.TypedRune('d')
	if f2, _ := c.View(); f2 == 0 {
		t.Error("D did not pan right")
	}
	c.TypedRune('s')
	c.TypedRune('0')
	if f2, t2 := c.View(); f2 != 0 || t2 != end {
		t.Errorf("0 shows [%d, %d], want the run", f2, t2)
	}
	// A plain drag selects nothing.
	canvasDrag(c, p, 50, 0, 0)
	if _, _, ok := c.Selection(); ok {
		t.Error("a plain drag selected")
	}
}

// TestCanvasHoverTooltipCursorAndDoubleClick: hovering a thread's run
// shows its tooltip and the cursor line at the pointer with its time on
// the axis; a click tells the window what was clicked; a double click
// zooms to the run with a margin; the tooltip is worked out again after a
// zoom; the cursor and tooltip go when the pointer leaves.
func TestCanvasHoverTooltipCursorAndDoubleClick(t *testing.T) {
	c, _, w, abs := canvasOn(t, parworkN2)
	fc := w.Canvas()
	thread, start, end, _ := apptest.KnownSpan(t, parworkN2)
	c.ShowRange(start-(end-start), end+(end-start))
	hec1 := tracks.TrackID{Kind: tracks.KindHEC, ID: 1}
	p := trackAt(t, c, hec1, start+(end-start)/2)
	test.MoveMouse(fc, abs.Add(p))
	tip := tipText(c)
	for _, want := range []string{"HEC 1", itoa(thread), paint.Duration(end - start)} {
		if !strings.Contains(tip, want) {
			t.Errorf("tooltip %q lacks %q", tip, want)
		}
	}
	// The cursor line is at the pointer, its time on the axis.
	if !c.cursorLine.Visible() || math.Abs(float64(c.cursorLine.Position().X-c.pointer.X)) > 1 {
		t.Errorf("cursor at %v (visible %v), pointer at %v", c.cursorLine.Position(), c.cursorLine.Visible(), c.pointer)
	}
	if !c.cursorText.Visible() || !strings.HasSuffix(c.cursorText.Text, "s") {
		t.Errorf("cursor time %q", c.cursorText.Text)
	}
	// A click tells the window what is under the pointer.
	var tapped []tracks.Hit
	c.OnTap = func(h tracks.Hit) { tapped = append(tapped, h) }
	test.TapCanvas(fc, abs.Add(p))
	if len(tapped) != 1 || tapped[0].From != start || tapped[0].To != end || tapped[0].Track != hec1 {
		t.Errorf("a click on the run [%d, %d] on HEC 1 told the window %+v", start, end, tapped)
	}
	// Double-clicking zooms to the span with a 5% margin.
	c.DoubleTapped(&fyne.PointEvent{Position: p})
	from, to := c.View()
	m := uint64(float64(end-start) * SpanZoomMargin)
	if from != start-m || to != end+m {
		t.Errorf("double-click shows [%d, %d], want [%d, %d]", from, to, start-m, end+m)
	}
	// The tooltip is worked out again after a zoom: zoomed out to the
	// whole run, it says what is at the pointer then.
	before := tipText(c)
	c.TypedRune('0')
	var want []string
	sc := c.PixelScale()
	c.With(func(tv *tracks.View) { want = tv.Hit(float64(p.X)*sc, float64(p.Y)*sc).Tip })
	if tip := tipText(c); tip == before || tip != strings.Join(want, "\n") {
		t.Errorf("after fitting the run, the tooltip at the same place is %q, want %q", tip, strings.Join(want, "\n"))
	}
	c.MouseOut()
	if c.cursorLine.Visible() || c.tip.Visible() {
		t.Error("the cursor or tooltip stayed after the pointer left")
	}
}

// TestCanvasHeaders: hovering a track's name shows it whole, dragging its
// header's bottom edge resizes the track, its pin pins it to the top, and
// the group's title collapses the group.
func TestCanvasHeaders(t *testing.T) {
	c, _, _, _ := canvasOn(t, parworkN2)
	var title, pinAt, resizeAt, nameAt fyne.Position
	var hec0 tracks.TrackID
	hec0 = tracks.TrackID{Kind: tracks.KindHEC, ID: 0}
	s := float32(c.PixelScale())
	c.With(func(tv *tracks.View) {
		r, ok := tv.TrackRect(hec0)
		if !ok {
			t.Fatal("HEC 0 is not in view")
		}
		hr := tv.HeaderRect()
		// Find the header's parts by hit-testing along it.
		for x := hr.Min.X; x < hr.Max.X; x++ {
			switch tv.Hit(float64(x), float64(r.Min.Y+r.Dy()/2)).Part {
			case tracks.PartPin:
				pinAt = fyne.NewPos(float32(x)/s, float32(r.Min.Y+r.Dy()/2)/s)
			case tracks.PartName:
				if nameAt.X == 0 {
					nameAt = fyne.NewPos(float32(x+2)/s, float32(r.Min.Y+r.Dy()/2)/s)
				}
			}
		}
		for y := r.Min.Y; y < r.Max.Y; y++ {
			if tv.Hit(float64(hr.Min.X+20), float64(y)).Part == tracks.PartResize {
				resizeAt = fyne.NewPos(float32(hr.Min.X+20)/s, float32(y)/s)
				break
			}
		}
		tr := tv.TracksRect()
		for y := tr.Min.Y; y < tr.Max.Y; y++ {
			if h := tv.Hit(float64(hr.Min.X+20), float64(y)); h.Part == tracks.PartToggle && h.Group == tracks.GroupHECs {
				title = fyne.NewPos(float32(hr.Min.X+20)/s, float32(y)/s)
				break
			}
		}
	})
	if pinAt.X == 0 || resizeAt.Y == 0 || title.Y == 0 || nameAt.X == 0 {
		t.Fatalf("header parts not found: pin %v resize %v title %v name %v", pinAt, resizeAt, title, nameAt)
	}
	// Hovering a name shows it whole.
	apptest.Hover(c, nameAt)
	if tip := tipText(c); !strings.Contains(tip, "HEC 0") {
		t.Errorf("hovering HEC 0's header shows %q", tip)
	}
	// Dragging the bottom edge resizes the track.
	var h0, h1 int
	c.With(func(tv *tracks.View) { h0 = tv.TrackHeight(hec0) })
	canvasDrag(c, resizeAt, 0, 30, 0)
	c.With(func(tv *tracks.View) { h1 = tv.TrackHeight(hec0) })
	if want := h0 + int(30*c.PixelScale()); math.Abs(float64(h1-want)) > 2 {
		t.Errorf("resizing HEC 0 by 30 units: height %d → %d, want %d", h0, h1, want)
	}
	// The pin pins it to the top.
	c.Tapped(&fyne.PointEvent{Position: pinAt})
	pinned := false
	c.With(func(tv *tracks.View) { pinned = tv.Pinned(hec0) })
	if !pinned {
		t.Error("clicking the pin did not pin HEC 0")
	}
	// The group's title collapses the group.
	c.With(func(tv *tracks.View) {
		hr, tr := tv.HeaderRect(), tv.TracksRect()
		for y := tr.Min.Y; y < tr.Max.Y; y++ {
			if h := tv.Hit(float64(hr.Min.X+20), float64(y)); h.Part == tracks.PartToggle && h.Group == tracks.GroupHECs {
				title = fyne.NewPos(float32(hr.Min.X+20)/s, float32(y)/s)
				break
			}
		}
	})
	c.Tapped(&fyne.PointEvent{Position: title})
	collapsed := false
	c.With(func(tv *tracks.View) { collapsed = tv.Collapsed(tracks.GroupHECs) })
	if !collapsed {
		t.Error("clicking the HECs title did not collapse the group")
	}
}
