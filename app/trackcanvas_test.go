package app

import (
	"bytes"
	"errors"
	"image"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/hecscope/hecscope/app/internal/apptest"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/tracks"

	"github.com/hecscope/hecscope/internal/testfile"
)

// openNav opens a log in a test window laid out at 1200×800 and returns
// its view and the canvas's position in the window.
func openNav(t *testing.T, path string) (*Window, *eventlogView, fyne.Position) {
	t.Helper()
	a, done := newTestApp(t)
	w := a.Open(path)
	await(t, done)
	w.Fyne().Resize(fyne.NewSize(1200, 800))
	v, ok := w.view.(*eventlogView)
	if !ok || v.canvas == nil {
		t.Fatalf("%s: no timeline canvas", path)
	}
	if s := v.canvas.Size(); s.Width < 600 || s.Height < 150 {
		t.Fatalf("canvas laid out at %v", s)
	}
	return w, v, fyne.CurrentApp().Driver().AbsolutePositionForObject(v.canvas)
}

// The helpers shared with the rooms' tests.
var (
	trackAt    = apptest.TrackAt
	unitsOf    = apptest.UnitsOf
	canvasDrag = apptest.Drag
	hover      = apptest.Hover
)

// summaries returns what waits for the next summary of a selection,
// which the view makes in the background (and Fyne's test driver puts in
// the window on that goroutine): wait before touching the window again.
func summaries(v *eventlogView) func(t *testing.T) {
	ch := make(chan struct{}, 8)
	v.onSelSummary = func() { ch <- struct{}{} }
	return func(t *testing.T) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatal("no summary of the selection")
		}
	}
}

func itoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

// TestStatusGivesTheSpanShown: the status line under the canvas says how
// long a span the canvas shows.
func TestStatusGivesTheSpanShown(t *testing.T) {
	_, v, _ := openNav(t, parworkN2)
	end := v.log.Model.End
	v.canvas.ShowRange(end/4, end/2)
	from, to := v.canvas.View()
	if !strings.Contains(v.status.Text, paint.Duration(to-from)) {
		t.Errorf("status %q does not give the span shown, %s", v.status.Text, paint.Duration(to-from))
	}
}

// TestCanvasShiftDragSelectsAndKeys: the canvas has the window's keyboard
// from the start; a Shift+drag on it selects a range, which the status
// line gives; the window's keys reach the canvas: Z zooms to the
// selection, Esc clears it, 0 fits the run. (What the canvas does with
// drags and keys is trackcanvas's test.)
func TestCanvasShiftDragSelectsAndKeys(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	c, fc := v.canvas, w.Fyne().Canvas()
	if fc.Focused() != c {
		t.Fatalf("the canvas does not have the keyboard at first (%T has)", fc.Focused())
	}
	end := v.log.Model.End
	var plot image.Rectangle
	c.With(func(tv *tracks.View) { plot = tv.PlotRect() })
	x0, _, x1, _ := unitsOf(c, plot)
	p := fyne.NewPos(x0+(x1-x0)/4, 200)
	summarised := summaries(v)
	canvasDrag(c, p, (x1-x0)/4, 0, fyne.KeyModifierShift)
	summarised(t)
	from, to, ok := c.Selection()
	if !ok || to <= from {
		t.Fatal("Shift+drag selected nothing")
	}
	if !strings.Contains(v.status.Text, "selected") || !strings.Contains(v.status.Text, paint.Duration(to-from)) {
		t.Errorf("status %q does not give the selection of %s", v.status.Text, paint.Duration(to-from))
	}
	typeRunes(fc, "z")
	if f, tt := c.View(); f != from || tt != to {
		t.Errorf("Z shows [%d, %d], want the selection [%d, %d]", f, tt, from, to)
	}
	pressKey(fc, fyne.KeyEscape)
	if _, _, ok := c.Selection(); ok || strings.Contains(v.status.Text, "selected") {
		t.Errorf("Esc left the selection (status %q)", v.status.Text)
	}
	typeRunes(fc, "0")
	if f, tt := c.View(); f != 0 || tt != end {
		t.Errorf("0 shows [%d, %d], want the run", f, tt)
	}
}

// TestCanvasClickShowsDetails: clicking a thread's run on the canvas
// shows its thread and length in the Details tab, brought to the front.
func TestCanvasClickShowsDetails(t *testing.T) {
	w, v, abs := openNav(t, parworkN2)
	c, fc := v.canvas, w.Fyne().Canvas()
	thread, start, end, _ := apptest.KnownSpan(t, parworkN2)
	c.ShowRange(start-(end-start), end+(end-start))
	p := trackAt(t, c, tracks.TrackID{Kind: tracks.KindHEC, ID: 1}, start+(end-start)/2)
	test.TapCanvas(fc, abs.Add(p))
	details := strings.Join(texts(v.details), "\n")
	if !strings.Contains(details, itoa(thread)) || !strings.Contains(details, paint.Duration(end-start)) {
		t.Errorf("details %q", details)
	}
	if v.tabs.Selected() != v.detailsTab {
		t.Error("clicking a span did not show the Details tab")
	}
}

func TestCanvasScrollBarDrags(t *testing.T) {
	_, v, _ := openNav(t, parworkN2)
	c := v.canvas
	c.With(func(tv *tracks.View) { tv.SetCollapsed(tracks.GroupThreads, false) })
	c.Redraw()
	var sb image.Rectangle
	var content, viewport int
	c.With(func(tv *tracks.View) { sb = tv.ScrollbarRect(); _, content, viewport = tv.Scroll() })
	if content <= viewport {
		t.Fatalf("the tracks (%d px) fit the viewport (%d px): nothing to scroll", content, viewport)
	}
	x0, y0, x1, _ := unitsOf(c, sb)
	canvasDrag(c, fyne.NewPos((x0+x1)/2, y0+5), 0, 40, 0)
	var off int
	c.With(func(tv *tracks.View) { off, _, _ = tv.Scroll() })
	if want := 40 * c.PixelScale() * float64(content) / float64(viewport); math.Abs(float64(off)-want) > want/10+2 {
		t.Errorf("dragging the scroll bar 40 units scrolled to %d, want about %.0f", off, want)
	}
}

// TestCanvasDrawsAtDevicePixels draws the window at a pixel ratio of 2:
// the canvas's raster is drawn at twice its size in units, and the view
// lays its frame out for that scale.
func TestCanvasDrawsAtDevicePixels(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	fc := w.Fyne().Canvas()
	fc.(interface{ SetScale(float32) }).SetScale(2)
	w.Fyne().Resize(fyne.NewSize(1000, 700))
	img := fc.Capture()
	size := v.canvas.Size()
	var vw, vh int
	var vs float64
	v.canvas.With(func(tv *tracks.View) { vw, vh, vs = tv.Size() })
	if vs != 2 || math.Abs(float64(vw)-float64(size.Width)*2) > 1 || math.Abs(float64(vh)-float64(size.Height)*2) > 1 {
		t.Errorf("canvas of %v units drawn at %d×%d, scale %g", size, vw, vh, vs)
	}
	if img.Bounds().Dx() != 2000 {
		t.Errorf("window captured at %v", img.Bounds())
	}
}

// TestCanvasExports exports the view at the canvas's pixel size (twice it:
// trackcanvas's test), the selection (refused without one), and all tracks, cut into pages
// when taller than tracks.MaxPageHeight.
func TestCanvasExports(t *testing.T) {
	_, v, _ := openNav(t, parworkN2)
	c := v.canvas
	dir := t.TempDir()
	var dw, dh int
	c.With(func(tv *tracks.View) { dw, dh, _ = tv.Size() })

	paths, w, h, err := c.WriteExport(trackcanvas.CanvasExport{Format: trackcanvas.ExportPNG}, filepath.Join(dir, "view.png"), nil)
	if err != nil || len(paths) != 1 || w != dw || h != dh {
		t.Fatalf("view export: %v %d×%d, %v; canvas %d×%d", paths, w, h, err, dw, dh)
	}
	if b := testfile.ReadPNG(t, paths[0]).Bounds(); b.Dx() != dw || b.Dy() != dh {
		t.Errorf("view PNG %v, canvas %d×%d", b, dw, dh)
	}

	if _, _, _, err := c.WriteExport(trackcanvas.CanvasExport{Format: trackcanvas.ExportPNG, Selection: true}, filepath.Join(dir, "none.png"), nil); !errors.Is(err, trackcanvas.ErrNoSelection) {
		t.Errorf("exporting the selection with none: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.png")); err == nil {
		t.Error("a file was written for no selection")
	}
	summarised := summaries(v)
	c.SetSelection(v.log.Model.End/4, v.log.Model.End/2, true)
	summarised(t)
	paths, _, _, err = c.WriteExport(trackcanvas.CanvasExport{Format: trackcanvas.ExportSVG, Selection: true}, filepath.Join(dir, "sel.svg"), nil)
	if err != nil {
		t.Fatal(err)
	}
	svg, _ := os.ReadFile(paths[0])
	if !bytes.HasPrefix(bytes.TrimSpace(svg), []byte("<svg")) && !bytes.HasPrefix(bytes.TrimSpace(svg), []byte("<?xml")) {
		t.Errorf("SVG export starts %q", svg[:min(len(svg), 40)])
	}
	if !bytes.Contains(svg, []byte("HEC 0")) {
		t.Error("the SVG export lacks HEC 0's track")
	}

	// All tracks, every one at its tallest: more than one page, each at
	// most MaxPageHeight, together showing every track.
	var ids []tracks.TrackID
	c.With(func(tv *tracks.View) {
		for g := tracks.Group(0); g < tracks.NumGroups; g++ {
			tv.SetCollapsed(g, false)
		}
		ids = tv.Tracks()
		for _, id := range ids {
			tv.SetTrackHeight(id, 600)
		}
	})
	all := trackcanvas.CanvasExport{Format: trackcanvas.ExportPNG, All: true}
	plan, err := c.ExportPlan(all)
	if err != nil {
		t.Fatal(err)
	}
	pages, aw, ah, n := plan.Pages, plan.W, plan.H, plan.N
	if n != len(ids) || ah < 600*len(ids) || len(pages) < 2 || aw != dw {
		t.Fatalf("all %d tracks at 600 px: %d pages, %d×%d of %d tracks", len(ids), len(pages), aw, ah, n)
	}
	notice, ok := allTracksNotice(plan, nil)
	if !ok || !strings.Contains(notice, paint.Count(int64(ah))+" px") || !strings.Contains(notice, strconv.Itoa(len(pages))+" pages") ||
		strings.Contains(notice, "Left out") {
		t.Errorf("notice %q for %d pages of a picture %d px tall", notice, len(pages), ah)
	}
	var heard []int
	paths, _, _, err = c.WriteExport(all, filepath.Join(dir, "all.png"), func(done, of int) {
		if of != len(pages) {
			t.Errorf("progress of %d pages, want %d", of, len(pages))
		}
		heard = append(heard, done)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(heard) != len(pages) || heard[len(heard)-1] != len(pages)-1 {
		t.Errorf("progress heard %v for %d pages", heard, len(pages))
	}
	if len(paths) != len(pages) || filepath.Base(paths[0]) != "all-1.png" {
		t.Fatalf("wrote %v for %d pages", paths, len(pages))
	}
	for _, p := range paths {
		if b := testfile.ReadPNG(t, p).Bounds(); b.Dy() > tracks.MaxPageHeight || b.Dx() != dw {
			t.Errorf("%s is %v", p, b)
		}
	}
	msg := kit.ExportedMessage("all tracks", aw, ah, paths)
	for _, p := range paths {
		if !strings.Contains(msg, p) {
			t.Errorf("the message %q does not name %s", msg, p)
		}
	}
	// Refused with the reason when it would take too many pages.
	refusal, notOK := allTracksNotice(trackcanvas.ExportPlan{}, &tracks.ErrTooManyPages{Width: 1912, Height: 400_000, Pages: 26, Tracks: 20_000})
	if notOK || !strings.Contains(refusal, "400,000 px") || !strings.Contains(refusal, "26 pages") {
		t.Errorf("too many pages: %q, %v", refusal, notOK)
	}
	// A collapsed group is said to be left out.
	c.With(func(tv *tracks.View) { tv.SetCollapsed(tracks.GroupThreads, true) })
	plan, err = c.ExportPlan(all)
	if err != nil {
		t.Fatal(err)
	}
	if notice, _ := allTracksNotice(plan, nil); !strings.Contains(notice, "Left out, collapsed: Threads (") {
		t.Errorf("notice with the threads collapsed: %q", notice)
	}
}

// TestSelectionExportsFollowTheSelection: the File menu's exports of the
// selection are disabled without a selection, enabled once there is one
// (the menu refreshed), and disabled again when it is cleared.
func TestSelectionExportsFollowTheSelection(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	c := v.canvas
	// A selection is summarised in the background; the test waits for the
	// last one, which would otherwise run into the next test's window.
	summarised := make(chan struct{}, 16)
	v.onSelSummary = func() { summarised <- struct{}{} }
	enabled := func() bool {
		png, svg := menuItem(w, "Selection as PNG…"), menuItem(w, "Selection as SVG…")
		if png == nil || svg == nil {
			t.Fatal("no selection export items")
		}
		if png.Disabled != svg.Disabled {
			t.Fatal("the PNG and SVG items disagree")
		}
		return !png.Disabled
	}
	if enabled() {
		t.Error("selection exports enabled with no selection")
	}
	if menuItem(w, "Export View as PNG…").Disabled || menuItem(w, "All Tracks as PNG…").Disabled {
		t.Error("view exports disabled")
	}
	var plot image.Rectangle
	c.With(func(tv *tracks.View) { plot = tv.PlotRect() })
	s := float32(c.PixelScale())
	// On Fyne's loop, as input comes: the menu refresh the selection
	// brings lays out widgets that the loop lays out too.
	ui(func() {
		canvasDrag(c, fyne.NewPos(float32(plot.Min.X+40)/s, float32(plot.Min.Y+20)/s), 200, 0, fyne.KeyModifierShift)
	})
	if _, _, ok := c.Selection(); !ok || !enabled() {
		t.Error("Shift+drag selected, but the selection exports are not enabled")
	}
	ui(func() { c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) })
	if enabled() {
		t.Error("Esc cleared the selection, but the selection exports are enabled")
	}
	for len(summarised) > 0 {
		<-summarised
	}
	ui(func() { c.SetSelection(10, 1000, true) })
	if !enabled() {
		t.Error("a selection set, the exports not enabled")
	}
	select {
	case <-summarised:
	case <-time.After(30 * time.Second):
		t.Fatal("the selection was not summarised within 30 s")
	}
}

// TestRevealLabelShowsItsSpansTrack checks that finding a span label
// shows the track its first span is drawn in: its thread's, by default,
// and its label's when the spans are shown by label.
func TestRevealLabelShowsItsSpansTrack(t *testing.T) {
	_, v, _ := openNav(t, parworkN2)
	m := v.log.Model
	sp := m.UserSpan(0)
	for _, byLabel := range []bool{false, true} {
		want := tracks.TrackID{Kind: tracks.KindUserThread, ID: sp.Thread}
		if byLabel {
			want = tracks.TrackID{Kind: tracks.KindUserLabel, ID: uint32(sp.Label)}
		}
		v.canvas.With(func(tv *tracks.View) {
			tv.SetSpansByLabel(byLabel)
			tv.SetCollapsed(tracks.GroupUser, true)
		})
		v.revealLabel(sp.Label)
		var ok bool
		v.canvas.With(func(tv *tracks.View) { _, ok = tv.TrackRect(want) })
		if !ok || sp.Thread == 0 {
			t.Errorf("by label %v: %q's track %v not shown (its thread %d)", byLabel, m.String(sp.Label), want, sp.Thread)
		}
	}
}

// TestSpansSwitchIsRemembered clicks the User events title's switch:
// the spans are then shown by label, and a view opened later shows them
// so too; a second click puts them back by thread.
func TestSpansSwitchIsRemembered(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	c := v.canvas
	// Find the switch: scan the headers' column, the User events title
	// scrolled into view (just above its markers).
	var at fyne.Position
	found := false
	sc := c.PixelScale()
	c.With(func(tv *tracks.View) {
		tv.Reveal(tracks.TrackID{Kind: tracks.KindMarkers})
		tv.ScrollTracks(-3)
		hr := tv.HeaderRect()
		for y := hr.Min.Y; y < hr.Max.Y && !found; y += 2 {
			for x := hr.Max.X - 1; x > hr.Min.X && !found; x -= 2 {
				if h := tv.Hit(float64(x), float64(y)); h.Part == tracks.PartSpans {
					at, found = fyne.NewPos(float32(x)/float32(sc), float32(y)/float32(sc)), true
				}
			}
		}
	})
	if !found {
		t.Fatal("no spans switch on the User events title")
	}
	for _, want := range []bool{true, false} {
		c.Tapped(&fyne.PointEvent{Position: at})
		var now bool
		c.With(func(tv *tracks.View) { now = tv.SpansByLabel() })
		if now != want {
			t.Fatalf("after a click on the switch: by label %v, want %v", now, want)
		}
		later := newEventlogView(v.log)
		later.rememberSpans(w.app.settings)
		later.canvas.With(func(tv *tracks.View) { now = tv.SpansByLabel() })
		if now != want {
			t.Errorf("a view opened after the click: by label %v, want %v", now, want)
		}
	}
}
