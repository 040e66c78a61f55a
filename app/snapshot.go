package app

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/hecscope/hecscope/tracks"
)

// SnapshotOptions says how to show a file in a snapshot of the window.
type SnapshotOptions struct {
	// Size is the window's size in Fyne units; zero means the size a first
	// window opens at.
	Size fyne.Size
	// Scale is the pixel ratio (2 for a HiDPI screen); zero means 1.
	Scale float32
	// AllTracks shows every row group, not only those shown at first.
	AllTracks bool
	// From and To, if To > From, are the time range shown (ns since the
	// start of the run); otherwise the whole run is.
	From, To uint64
	// Dark draws with the dark variant of the theme, else the light one.
	Dark bool
	// Segment is which eventlog (0-based) of a file holding several one
	// after another to show.
	Segment int
	// SelectFrom and SelectTo, if SelectTo > SelectFrom, are a time range
	// selected (ns), as Shift+drag selects one; the Selection tab then
	// shows its figures once they are read.
	SelectFrom, SelectTo uint64
	// Tab, if not "", is the title of the tab shown below the timeline
	// ("Summary", "GC", "Selection", …) instead of the first.
	Tab string
}

// Snapshot opens path in a window as the app does, lays it out at
// opt.Size, and draws it with Fyne's software renderer: the window's
// content as a user would see it once the file has loaded, at opt.Scale
// device pixels per unit, without a display (the menu bar, which the
// desktop driver draws, is not part of it). It runs the app on Fyne's test
// driver, so it must not be called while another Fyne app runs in the
// process.
//
// It also returns where the window's parts are, as drawn (see Layout).
func Snapshot(path string, opt SnapshotOptions) (image.Image, Layout, error) {
	// Fyne's test driver runs work given to fyne.Do at once, on the
	// goroutine that gives it, and warns if that is the main goroutine.
	type result struct {
		img image.Image
		lay Layout
		err error
	}
	done := make(chan result)
	go func() {
		img, lay, err := snapshot(path, opt)
		done <- result{img, lay, err}
	}()
	r := <-done
	return r.img, r.lay, r.err
}

func snapshot(path string, opt SnapshotOptions) (image.Image, Layout, error) {
	fa := test.NewApp()
	defer fa.Quit()
	w, err := snapshotWindow(fa, path, opt)
	if err != nil {
		return nil, Layout{}, err
	}
	img := w.win.Canvas().Capture()
	if ev := w.eventlog(); ev != nil && ev.Log != nil {
		// Zoomed in past the overview, the first drawing asked for detail
		// decoded from the file: draw again once it is there.
		ev.Log.WaitDetail()
		img = w.win.Canvas().Capture()
	}
	return img, windowLayout(w), nil
}

// Layout is where the parts of a window are, in units from the top left
// of its content, as laid out: the track canvas, the tabs under it, the
// legend as drawn and the tracks in view. A view without a timeline has
// only the window's size.
type Layout struct {
	Window Extent       `json:"window"`
	Canvas Box          `json:"canvas"`
	Tabs   Box          `json:"tabs"`
	Legend LegendLayout `json:"legend"`
	Tracks []TrackBox   `json:"tracks"`
}

// Extent is a width and a height in units.
type Extent struct {
	W float32 `json:"w"`
	H float32 `json:"h"`
}

// Box is a rectangle in units.
type Box struct {
	X float32 `json:"x"`
	Y float32 `json:"y"`
	W float32 `json:"w"`
	H float32 `json:"h"`
}

// LegendLayout is the legend as drawn: the number of lines it takes and
// its entries' names, a "+N more" last when some do not fit.
type LegendLayout struct {
	Lines   int      `json:"lines"`
	Entries []string `json:"entries"`
}

// TrackBox is a track in view: its group's and its own name, and where
// it is drawn (units from the window's top; the part in view).
type TrackBox struct {
	Group string  `json:"group"`
	Name  string  `json:"name"`
	Y     float32 `json:"y"`
	H     float32 `json:"h"`
}

// windowLayout returns where the parts of w are (see Layout).
func windowLayout(w *Window) Layout {
	size := w.win.Canvas().Size()
	lay := Layout{Window: Extent{size.Width, size.Height}}
	if w.view != nil {
		w.view.layOut(&lay)
	}
	return lay
}

// snapshotWindow opens path in a window of the app fa (Fyne's test
// driver) laid out as opt asks, once the file has loaded.
func snapshotWindow(fa fyne.App, path string, opt SnapshotOptions) (*Window, error) {
	variant := theme.VariantLight
	if opt.Dark {
		variant = theme.VariantDark
	}
	fa.Settings().SetTheme(variantTheme{Theme: theme.DefaultTheme(), variant: variant})

	a := New(fa)
	a.useNative = false
	w := a.newWindow()
	w.unrecorded = true
	loaded := make(chan error, 1)
	w.onLoaded = func(err error) { loaded <- err }
	w.loadSegment(path, opt.Segment, 0)
	if err := <-loaded; err != nil {
		return nil, err
	}
	if opt.Scale > 0 {
		c, ok := w.win.Canvas().(interface{ SetScale(float32) })
		if !ok {
			return nil, errors.New("snapshot: the test driver's canvas cannot be scaled")
		}
		c.SetScale(opt.Scale)
	}
	if opt.Size.Width > 0 && opt.Size.Height > 0 {
		w.win.Resize(opt.Size)
	}
	// Text that wraps (a notice) knows its height only once laid out at its
	// width: lay the window out again, as the real window does on its next
	// frame, or the notice's second line overlaps the time axis.
	size := w.win.Canvas().Size()
	w.win.Resize(size.AddWidthHeight(0, 1))
	w.win.Resize(size)
	if w.view != nil {
		if err := w.view.arrange(opt); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// layOut adds where the canvas, its tracks and legend, and the tabs are
// to lay.
func (v *eventlogView) layOut(lay *Layout) {
	if v.canvas == nil {
		return
	}
	d := fyne.CurrentApp().Driver()
	box := func(o fyne.CanvasObject) Box {
		p := d.AbsolutePositionForObject(o)
		return Box{p.X, p.Y, o.Size().Width, o.Size().Height}
	}
	lay.Canvas, lay.Tabs = box(v.canvas), box(v.tabs)
	c := v.canvas
	s := float32(c.PixelScale())
	c.With(func(tv *tracks.View) {
		lay.Legend.Lines, lay.Legend.Entries = tv.LegendShown()
		for _, t := range tv.TracksInView() {
			lay.Tracks = append(lay.Tracks, TrackBox{Group: t.ID.Group().String(), Name: tv.Name(t.ID),
				Y: lay.Canvas.Y + float32(t.Rect.Min.Y)/s, H: float32(t.Rect.Dy()) / s})
		}
	})
}

// arrange shows the tracks, the range, the tab and the selection opt
// asks for.
func (v *eventlogView) arrange(opt SnapshotOptions) error {
	if v.canvas == nil {
		return nil
	}
	if opt.AllTracks {
		v.showAllTracks()
	}
	if opt.To > opt.From {
		if opt.From >= v.log.Model.End {
			return fmt.Errorf("snapshot: --from %d ns is after the end of the run (%d ns)", opt.From, v.log.Model.End)
		}
		v.canvas.ShowRange(opt.From, min(opt.To, v.log.Model.End))
	}
	if err := snapshotTabs(v, opt); err != nil {
		return err
	}
	return nil
}

// snapshotTabs shows the tab opt names and makes the selection it asks
// for, waiting for the selection's figures.
func snapshotTabs(v *eventlogView, opt SnapshotOptions) error {
	if opt.Tab != "" {
		var item *container.TabItem
		var titles []string
		for _, ti := range v.tabs.Items {
			titles = append(titles, ti.Text)
			if ti.Text == opt.Tab {
				item = ti
			}
		}
		if item == nil {
			return fmt.Errorf("snapshot: no tab %q (the tabs: %s)", opt.Tab, strings.Join(titles, ", "))
		}
		v.tabs.Select(item)
	}
	if opt.SelectTo <= opt.SelectFrom {
		return nil
	}
	summarised := make(chan struct{}, 1)
	prev := v.onSelSummary
	v.onSelSummary = func() { summarised <- struct{}{} }
	defer func() { v.onSelSummary = prev }()
	v.canvas.SetSelection(opt.SelectFrom, min(opt.SelectTo, v.log.Model.End), true)
	select {
	case <-summarised:
	case <-time.After(2 * time.Minute):
		return errors.New("snapshot: the selection was not summarised within 2 minutes")
	}
	return nil
}

// variantTheme is a theme whose colours are always those of one variant,
// whatever the system prefers.
type variantTheme struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

// Color returns the colour name has in the theme's variant.
func (t variantTheme) Color(name fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(name, t.variant)
}
