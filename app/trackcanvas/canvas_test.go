package trackcanvas

import (
	"context"
	"image"
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/hecscope/hecscope/app/internal/apptest"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/tracks"
)

var (
	parworkN2  = apptest.Log("parwork-N2")
	trackAt    = apptest.TrackAt
	unitsOf    = apptest.UnitsOf
	canvasDrag = apptest.Drag
)

// canvasOn returns a canvas on the test log at path, as a file window
// makes it, alone in a test window 1200×600 units big; the log; the
// window; and the canvas's position in the window.
func canvasOn(t *testing.T, path string) (*Canvas, *loaded.Eventlog, fyne.Window, fyne.Position) {
	t.Helper()
	test.NewApp()
	ev, err := loaded.LoadEventlog(context.Background(), path, eventlog.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ev.Log.Close() })
	c := New(ev.Log, ev.Heap, ev.Profile)
	w := test.NewWindow(c)
	t.Cleanup(w.Close)
	w.Resize(fyne.NewSize(1200, 600))
	return c, ev, w, fyne.CurrentApp().Driver().AbsolutePositionForObject(c)
}

// wheel scrolls at canvas point p with modifiers mods held.
func wheel(c *Canvas, p fyne.Position, dx, dy float32, mods fyne.KeyModifier) {
	c.scrolledWith(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: p}, Scrolled: fyne.Delta{DX: dx, DY: dy}}, mods)
}

// TestCanvasOverlaysFollowTheTheme checks the cursor's colour is the
// view's theme's, light and dark (it was invisible in dark mode), and that
// the canvas is drawn on the theme's background.
func TestCanvasOverlaysFollowTheTheme(t *testing.T) {
	c, ev, w, abs := canvasOn(t, parworkN2)
	defer fyne.CurrentApp().Settings().SetTheme(apptest.VariantTheme{Theme: theme.DefaultTheme(), Variant: theme.VariantLight})
	for _, dark := range []bool{false, true} {
		variant := theme.VariantLight
		if dark {
			variant = theme.VariantDark
		}
		fyne.CurrentApp().Settings().SetTheme(apptest.VariantTheme{Theme: theme.DefaultTheme(), Variant: variant})
		img := w.Canvas().Capture()
		th := paint.ThemeFor(dark)
		var plot image.Rectangle
		c.With(func(tv *tracks.View) { plot = tv.PlotRect() })
		p := trackAt(t, c, tracks.TrackID{Kind: tracks.KindHEC, ID: 0}, ev.Model.End/2)
		apptest.Hover(c, p)
		if got := c.cursorLine.FillColor; got != Straight(paint.WithAlpha(th.Cursor, 0xb0)) {
			t.Errorf("dark %v: cursor colour %v, want the theme's %v", dark, got, th.Cursor)
		}
		scale := float32(img.Bounds().Dx()) / w.Canvas().Size().Width
		x0, _, _, _ := unitsOf(c, plot)
		at := color.RGBAModel.Convert(img.At(int((abs.X+x0-20)*scale), int((abs.Y+3)*scale))).(color.RGBA)
		if at != th.Background && at != th.Header {
			t.Errorf("dark %v: the canvas's axis is drawn in %v, not the theme's background %v", dark, at, th.Background)
		}
	}
}

// TestCanvasFollowsAGrowingSource gives the canvas ever longer models of a
// run, as a live session does: a view that follows the end grows with it,
// one the user moved stays put, and End follows again.
func TestCanvasFollowsAGrowingSource(t *testing.T) {
	c, ev, _, _ := canvasOn(t, parworkN2)
	full := ev.Model
	// New data, as the live view gives it.
	grew := func() {
		c.With(func(tv *tracks.View) { tv.SourceChanged() })
		c.Changed()
	}
	c.SetGrowing(true)
	c.Follow(full.End / 4)
	from, to := c.View()
	if to != full.End || to-from != full.End/4 {
		t.Fatalf("following the last quarter shows [%d, %d] of %d", from, to, full.End)
	}
	grew()
	if _, to := c.View(); to != full.End {
		t.Errorf("after new data the view ends at %d, want %d", to, full.End)
	}
	c.ShowRange(0, full.End/8)
	if ok, _ := c.Following(); ok {
		t.Error("moving the view did not stop following")
	}
	grew()
	if f, tt := c.View(); f != 0 || tt != full.End/8 {
		t.Errorf("a held view moved to [%d, %d]", f, tt)
	}
	c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
	if ok, width := c.Following(); !ok || width != full.End/8 {
		t.Errorf("End: following %v with width %d, want %d", ok, width, full.End/8)
	}
}

// TestPagePaths numbers the pages after the name chosen.
func TestPagePaths(t *testing.T) {
	if got := pagePaths("/a/x.png", 1); len(got) != 1 || got[0] != "/a/x.png" {
		t.Errorf("one page: %v", got)
	}
	got := pagePaths("/a/x.png", 12)
	if len(got) != 12 || got[0] != "/a/x-01.png" || got[11] != "/a/x-12.png" {
		t.Errorf("twelve pages: %v", got)
	}
}

// TestCursorTimeHidesTheTickLabelsItOverlaps moves the pointer across a
// tick label of the axis and checks, in the window's picture, that
// wherever the cursor's time overlaps the label no part of the label
// shows beside or above the cursor's time: the axis's colour is all there
// is around it.
func TestCursorTimeHidesTheTickLabelsItOverlaps(t *testing.T) {
	c, _, w, abs := canvasOn(t, parworkN2)
	fc := w.Canvas()
	var labels []image.Rectangle
	var plot image.Rectangle
	c.With(func(tv *tracks.View) { labels, plot = tv.TickLabelRects(), tv.PlotRect() })
	if len(labels) < 4 {
		t.Fatalf("%d tick labels", len(labels))
	}
	th := paint.ThemeFor(kit.DarkTheme())
	tick := labels[2]
	tx0, ty0, tx1, ty1 := unitsOf(c, tick)
	_, py0, _, _ := unitsOf(c, plot)
	overlapped := 0
	for x := tx0 - 60; x < tx1+60; x += 4 {
		apptest.Hover(c, fyne.NewPos(x, py0+40))
		back := c.cursorBack
		bx0, by0 := back.Position().X, back.Position().Y
		bx1, by1 := bx0+back.Size().Width, by0+back.Size().Height
		if !back.Visible() || bx1 <= tx0 || bx0 >= tx1 {
			continue
		}
		overlapped++
		img := fc.Capture()
		scale := float32(img.Bounds().Dx()) / fc.Size().Width
		for y := ty0; y < (ty0+ty1)/2; y++ {
			for x := tx0; x < tx1; x++ {
				if x >= bx0-1 && x < bx1+1 && y >= by0-1 && y < by1+1 {
					continue // the cursor's time, on its box
				}
				at := color.RGBAModel.Convert(img.At(int((abs.X+x)*scale), int((abs.Y+y)*scale))).(color.RGBA)
				if at != th.Header {
					t.Fatalf("cursor's time at x %.0f–%.0f, y %.0f–%.0f: the tick label under it shows at (%.0f, %.0f) in %v", bx0, bx1, by0, by1, x, y, at)
				}
			}
		}
	}
	if overlapped < 5 {
		t.Fatalf("the cursor's time overlapped the tick label at %d places", overlapped)
	}
	// Away from the labels, they are all drawn.
	apptest.Hover(c, fyne.NewPos((tx1+float32(labels[3].Min.X)/float32(c.PixelScale()))/2, py0+40))
	for _, m := range c.axisMasks {
		if m.Visible() {
			t.Errorf("a tick label is hidden at %v with the cursor's time between two", m.Position())
		}
	}
}

func TestCanvasWheelScrollsCtrlWheelZoomsDragPans(t *testing.T) {
	c, ev, _, _ := canvasOn(t, parworkN2)
	c.With(func(tv *tracks.View) { tv.SetCollapsed(tracks.GroupThreads, false) }) // enough tracks to scroll
	end := ev.Model.End
	if from, to := c.View(); from != 0 || to != end {
		t.Fatalf("first view [%d, %d], want the run [0, %d]", from, to, end)
	}
	var plot image.Rectangle
	c.With(func(tv *tracks.View) { plot = tv.PlotRect() })
	x0, _, x1, _ := unitsOf(c, plot)
	p := fyne.NewPos(x0+(x1-x0)*0.75, 300)

	// The wheel alone scrolls the tracks, three thread tracks a notch,
	// and keeps the time range.
	var before, row int
	c.With(func(tv *tracks.View) {
		before, _, _ = tv.Scroll()
		row = tv.TrackHeight(tracks.TrackID{Kind: tracks.KindThread, ID: ev.Model.Threads[0].ID})
	})
	wheel(c, p, 0, -2*wheelNotchUnits, 0)
	var after int
	c.With(func(tv *tracks.View) { after, _, _ = tv.Scroll() })
	if after-before != 2*3*row {
		t.Errorf("two notches of the wheel scrolled the tracks from %d to %d, want down %d (six tracks of %d)", before, after, 6*row, row)
	}
	if from, to := c.View(); from != 0 || to != end {
		t.Errorf("the wheel changed the range to [%d, %d]", from, to)
	}

	// Ctrl+wheel zooms in about the time under the pointer.
	var at uint64
	sc := c.PixelScale()
	c.With(func(tv *tracks.View) { at = tv.Time(float64(p.X) * sc) })
	wheel(c, p, 0, 40, fyne.KeyModifierControl)
	from, to := c.View()
	if span := to - from; math.Abs(float64(span)-float64(end)/2) > float64(end)/100 {
		t.Errorf("Ctrl+wheel by 40 shows %d ns, want half of %d", span, end)
	}
	var now uint64
	sc = c.PixelScale()
	c.With(func(tv *tracks.View) { now = tv.Time(float64(p.X) * sc) })
	if d := math.Abs(float64(now) - float64(at)); d > float64(to-from)/float64(plot.Dx())*2 {
		t.Errorf("the time under the pointer moved from %d to %d", at, now)
	}
	// Dragging pans: dragging right shows earlier times.
	canvasDrag(c, p, 100, 0, 0)
	f2, t2 := c.View()
	if f2 >= from || t2-f2 != to-from {
		t.Errorf("dragging right moved [%d, %d] to [%d, %d]", from, to, f2, t2)
	}
}
