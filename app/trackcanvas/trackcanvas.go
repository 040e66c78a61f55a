package trackcanvas

import (
	"image"
	"image/color"
	"math"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// Steps of the canvas's controls.
const (
	wheelZoomUnits = 40   // Ctrl+wheel units that halve or double the visible span
	wheelTracks    = 3    // the thread tracks a wheel notch scrolls (wheelNotchUnits)
	keyZoomFactor  = 0.5  // + halves the span, - doubles it
	keyPanFraction = 0.1  // A, D and the arrows pan by this share of the view
	SpanZoomMargin = 0.05 // double-clicking a span leaves this share each side
	maxTipLines    = 14   // the most lines a tooltip shows
	maxAxisMasks   = 6    // the most tick labels the cursor's and selection's texts cover
)

// dragMode is what a drag on the canvas does, decided when it starts.
type dragMode uint8

const (
	dragNone   dragMode = iota
	dragPan             // drag in a plot: pan
	dragSelect          // Shift+drag in a plot or the axis: select a range
	dragResize          // drag from a header's bottom edge: resize the track
	dragScroll          // drag in the scroll bar: scroll the tracks
)

// ManyThreads is the most threads whose group the canvas shows expanded
// when a log opens; a run with more starts with the Threads group
// collapsed (a click on its title, the finder or --tracks all opens it).
const ManyThreads = 64

// Canvas is the file window's timeline: one tracks.View — every track
// of the run under one time axis — drawn as one raster at device pixels,
// with the pointer's cursor line and time, the selection and a tooltip
// laid over it, and every input forwarded to the view: the wheel scrolls
// the tracks, Ctrl+wheel zooms at the pointer, dragging pans, Shift+drag
// selects, clicks on a header collapse a group, pin a track or (dragging
// its bottom edge) resize it.
type Canvas struct {
	widget.BaseWidget

	// mu guards view and the fields after it: the raster draws on Fyne's
	// render path, and tests drive the widget from their own goroutines.
	mu    sync.Mutex
	view  *tracks.View
	scale float64 // device pixels per unit, as last drawn or laid out
	size  fyne.Size
	// pointer is where the pointer is (units), hovering whether it is over
	// the canvas.
	pointer  fyne.Position
	hovering bool
	// The gesture under way: the modifiers when the button went down,
	// what the drag does, where it began (device x, y) and, for a resize,
	// the track and its height then.
	pressMods fyne.KeyModifier
	mode      dragMode
	startX    float64
	startY    float64
	resizeID  tracks.TrackID
	resizeH   int
	selDrag   string      // the selection's length as Select wrote it while dragging
	drawn     drawnHook   // called once after the next frame is drawn (WhenDrawn)
	frame     *image.RGBA // the raster's last frame, drawn into again (Render)
	grows     bool        // the source grows (a live run)

	raster                       *canvas.Raster
	cursorLine, cursorBack       *canvas.Rectangle
	cursorText                   *canvas.Text
	axisMasks                    []*canvas.Rectangle // over the tick labels the cursor's and selection's texts overlap
	selShade, selBack            *canvas.Rectangle
	selLabel                     *canvas.Text
	tip                          *Tooltip // what is under the pointer
	objects                      []fyne.CanvasObject
	AutoFocus                    bool
	lastClick                    tracks.Hit
	OnView                       func(from, to uint64)
	OnSelect                     func(from, to uint64, ok, final bool)
	OnTap                        func(h tracks.Hit)
	OnFinding                    func(indices []int)                  // a finding's flag was clicked (tracks.Hit.Findings)
	OnEscape                     func() bool                          // Esc: unpick what is picked; reports whether something was
	OnBookmark                   func(t, step uint64, atPointer bool) // B: at the pointer's time t (to step ns), if atPointer
	OnTrackChange                func()
	cursorShown, selShown, tipOn bool

	// OnHasSelection hears when the canvas gains or loses its selection
	// (hadSelection: whether it had one when last told).
	OnHasSelection func(has bool)
	hadSelection   bool
	// jumpPinned: the last jump (jumpTo) pinned the track it marked.
	jumpPinned bool
	// ContextItems, if set, gives the window's items of the menu of what
	// is under the pointer in a plot (see contextMenu).
	ContextItems func(h tracks.Hit) []*fyne.MenuItem
}

// newTrackCanvas returns the canvas of a run: src gives its timeline
// (timeline.Exact of a model, or an eventlog.Log), heap and prof its heap
// counters and heap profile (either may be nil).
func New(src timeline.Source, heap *heapview.Heap, prof *heapview.Profile) *Canvas {
	c := &Canvas{view: tracks.New(src), scale: 1}
	c.view.SetHeap(heap, prof)
	c.view.SetDark(kit.DarkTheme())
	// The view calls this from the goroutine that decoded the detail; the
	// hop to a goroutine of its own keeps it out of the caller's locks.
	c.view.SetOnReady(func() { go kit.OnUI(c.Redraw) })
	c.raster = canvas.NewRaster(c.draw)
	// At least the axis, two tracks and the legend; no taller, so that a
	// window 400 units high (1280×800 at scale 2) can give the tabs
	// under the timeline their 30 %.
	c.raster.SetMinSize(fyne.NewSize(320, 160))
	c.selShade = canvas.NewRectangle(color.Transparent)
	c.cursorLine = canvas.NewRectangle(color.Transparent)
	c.cursorBack = canvas.NewRectangle(color.Transparent)
	c.cursorText = canvas.NewText("", color.Black)
	c.selBack = canvas.NewRectangle(color.Transparent)
	c.selLabel = canvas.NewText("", color.Black)
	c.selLabel.TextStyle.Bold = true
	c.tip = NewTooltip()
	c.objects = []fyne.CanvasObject{c.raster}
	for i := 0; i < maxAxisMasks; i++ {
		m := canvas.NewRectangle(color.Transparent)
		c.axisMasks = append(c.axisMasks, m)
		c.objects = append(c.objects, m)
	}
	c.objects = append(c.objects, c.selShade, c.cursorLine, c.selBack, c.selLabel, c.cursorBack, c.cursorText)
	c.objects = append(c.objects, c.tip.Objects()...)
	for _, o := range c.objects[1:] {
		o.Hide()
	}
	c.ExtendBaseWidget(c)
	return c
}

// CreateRenderer lays the overlays over the raster.
func (c *Canvas) CreateRenderer() fyne.WidgetRenderer { return &trackCanvasRenderer{c: c} }

// MinSize is the raster's.
func (c *Canvas) MinSize() fyne.Size { return c.raster.MinSize() }

type trackCanvasRenderer struct{ c *Canvas }

func (r *trackCanvasRenderer) Layout(size fyne.Size) {
	c := r.c
	c.raster.Move(fyne.NewPos(0, 0))
	c.raster.Resize(size)
	scale := float64(1)
	if fc := fyne.CurrentApp().Driver().CanvasForObject(c); fc != nil {
		scale = float64(fc.Scale())
	}
	c.mu.Lock()
	c.size = size
	if size.Width > 0 && size.Height > 0 {
		c.scale = scale
		c.view.SetSize(int(math.Round(float64(size.Width)*scale)), int(math.Round(float64(size.Height)*scale)), scale)
	}
	c.mu.Unlock()
	c.placeOverlays()
	if c.AutoFocus && size.Width > 0 {
		if fc := fyne.CurrentApp().Driver().CanvasForObject(c); fc != nil {
			c.AutoFocus = false
			if fc.Focused() == nil {
				fc.Focus(c)
			}
		}
	}
}
func (r *trackCanvasRenderer) MinSize() fyne.Size { return r.c.MinSize() }
func (r *trackCanvasRenderer) Refresh() {
	r.c.placeOverlays()
	canvas.Refresh(r.c.raster)
}
func (r *trackCanvasRenderer) Objects() []fyne.CanvasObject { return r.c.objects }
func (r *trackCanvasRenderer) Destroy()                     {}

// draw is the raster's generator: it draws the view at w×h device pixels.
func (c *Canvas) draw(w, h int) image.Image {
	if w < 8 || h < 8 {
		return image.NewRGBA(image.Rect(0, 0, 1, 1))
	}
	size := c.raster.Size()
	scale := 0.0
	if size.Width > 0 {
		scale = float64(w) / float64(size.Width)
	}
	return c.Render(w, h, scale, &c.frame)
}

// Render draws the view at w×h device pixels and the pixel ratio scale (0:
// the canvas's own), as the raster shows it, into *buf if it has that size
// (else into a new image, left in *buf for the next frame). Fyne copies a
// raster's image to the screen as soon as the generator returns it, so the
// next frame may reuse it: a 1920×1080 frame is 8 MB, and a new one at
// every frame made the collector run every few frames, each run costing
// in the models' size (zooming into a 1 GB log took 2–3× as long).
func (c *Canvas) Render(w, h int, scale float64, buf **image.RGBA) *image.RGBA {
	dark := kit.DarkTheme()
	c.mu.Lock()
	if scale <= 0 {
		scale = c.scale
	}
	c.scale = scale
	c.view.SetSize(w, h, scale)
	c.view.SetDark(dark)
	img := *buf
	if img == nil || img.Rect.Dx() != w || img.Rect.Dy() != h {
		img = image.NewRGBA(image.Rect(0, 0, w, h))
		*buf = img
	}
	c.view.Draw(paint.NewRaster(img))
	done := c.drawn.take()
	c.mu.Unlock()
	if done != nil {
		done()
	}
	return img
}

// WhenDrawn calls f once, from the goroutine that draws, after the canvas
// has next been drawn, and asks for it to be drawn.
func (c *Canvas) WhenDrawn(f func()) {
	c.mu.Lock()
	c.drawn.set(f)
	c.mu.Unlock()
	c.raster.Refresh()
}

// Redraw draws the canvas again with its overlays (after any change of
// the view or its data).
func (c *Canvas) Redraw() {
	c.placeOverlays()
	c.raster.Refresh()
}

// Changed redraws after the view's range, scroll, tracks or selection
// changed, and tells the window.
func (c *Canvas) Changed() {
	c.Redraw()
	if c.OnView != nil {
		from, to := c.View()
		c.OnView(from, to)
	}
}

// With runs f on the view under the lock.
func (c *Canvas) With(f func(v *tracks.View)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(c.view)
}

// PixelScale returns the device pixels per unit the canvas last drew or
// laid out at.
func (c *Canvas) PixelScale() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.scale
}

// dev converts a widget position to device pixels.
func (c *Canvas) dev(p fyne.Position) (float64, float64) {
	return float64(p.X) * c.scale, float64(p.Y) * c.scale
}

// overlayState is what the overlays show, worked out under the lock.
type overlayState struct {
	th                  paint.Theme
	scale               float32
	size                fyne.Size
	cursor              bool
	cursorX             float32
	plotTop, plotBottom float32
	plotLeft, plotRight float32
	axisTop, axisBottom float32
	tickLabels          []unitRect // the boxes of the tick labels on the axis
	cursorLabel         string
	sel                 bool
	selX0, selX1        float32
	selLabel            string
	tip                 []string
	tipAnchor           fyne.Position
	repaint             bool // the view's picture changed with the cursor (tracks.View.SetCursor)
}

// unitRect is a rectangle in canvas units: its top left and bottom right.
type unitRect struct{ min, max fyne.Position }

// overlays works out the overlays for the view as it is now: the cursor
// at the pointer, the selection, and the tooltip of what is under the
// pointer (hit again, so that it is right after every zoom, pan and
// scroll).
func (c *Canvas) overlays() overlayState {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.view
	s := float32(c.scale)
	o := overlayState{th: v.Theme(), scale: s, size: c.size}
	plot, axis := v.PlotRect(), v.AxisRect()
	o.plotTop, o.plotBottom = float32(plot.Min.Y)/s, float32(plot.Max.Y)/s
	o.plotLeft, o.plotRight = float32(plot.Min.X)/s, float32(plot.Max.X)/s
	o.axisTop, o.axisBottom = float32(axis.Min.Y)/s, float32(axis.Max.Y)/s
	for _, r := range v.TickLabelRects() {
		o.tickLabels = append(o.tickLabels, unitRect{fyne.NewPos(float32(r.Min.X)/s, float32(r.Min.Y)/s), fyne.NewPos(float32(r.Max.X)/s, float32(r.Max.Y)/s)})
	}
	ax := v.Axis()
	if from, to, ok := v.Selection(); ok && to > from {
		x0 := math.Max(ax.X(from), float64(plot.Min.X))
		x1 := math.Min(ax.X(to), float64(plot.Max.X))
		if x1 > x0-1 {
			o.sel = true
			o.selX0, o.selX1 = float32(x0)/s, float32(math.Max(x1, x0+1))/s
			o.selLabel = paint.Duration(to - from)
			if c.mode == dragSelect && c.selDrag != "" {
				o.selLabel = c.selDrag
			}
		}
	}
	if !c.hovering {
		o.repaint = v.SetCursor(0, false)
		return o
	}
	x, y := c.dev(c.pointer)
	h := v.Hit(x, y)
	if h.HasTime && x >= float64(plot.Min.X) && x < float64(plot.Max.X) {
		o.cursor = true
		o.cursorX = float32(math.Floor(x)) / s
		o.cursorLabel = paint.Time(h.Time, tracks.PointStep(ax.PixelsPerNs()))
	}
	o.repaint = v.SetCursor(h.Time, o.cursor)
	if c.mode == dragNone || c.mode == dragResize {
		o.tip = h.Tip
		if len(o.tip) == 0 && h.Area == tracks.AreaHeader && h.Name != "" {
			o.tip = []string{h.Name}
		}
	}
	o.tipAnchor = c.pointer
	return o
}

// placeOverlays moves the cursor, the selection and the tooltip to where
// the view says they go, in its theme's colours.
func (c *Canvas) placeOverlays() {
	o := c.overlays()
	if o.repaint {
		c.raster.Refresh()
	}
	th := o.th
	small := theme.CaptionTextSize()
	pad := float32(3)
	show := func(obj fyne.CanvasObject, on bool) {
		if on {
			obj.Show()
		} else {
			obj.Hide()
		}
	}
	// A text written on the axis hides the tick labels it overlaps, under
	// a mask of the axis's colour: none peeks out beside or above it.
	masks := 0
	maskTicks := func(x0, x1 float32) {
		for _, r := range o.tickLabels {
			lo, hi := r.min, r.max
			if hi.X <= x0 || lo.X >= x1 || masks == len(c.axisMasks) {
				continue
			}
			m := c.axisMasks[masks]
			m.FillColor = Straight(th.Header)
			m.Move(fyne.NewPos(lo.X-1, lo.Y-1))
			m.Resize(fyne.NewSize(hi.X-lo.X+2, hi.Y-lo.Y+2))
			masks++
		}
	}
	// The selection: a shade over the plot and its length on the axis.
	show(c.selShade, o.sel)
	show(c.selBack, o.sel)
	show(c.selLabel, o.sel)
	if o.sel {
		c.selShade.FillColor = Straight(th.Selection)
		c.selShade.StrokeColor = Straight(paint.WithAlpha(th.Selection, 0xc0))
		c.selShade.StrokeWidth = 1
		c.selShade.Move(fyne.NewPos(o.selX0, o.plotTop))
		c.selShade.Resize(fyne.NewSize(o.selX1-o.selX0, o.plotBottom-o.plotTop))
		c.selLabel.Text = o.selLabel
		c.selLabel.TextSize = small
		c.selLabel.Color = Straight(th.Text)
		ts := fyne.MeasureText(o.selLabel, small, c.selLabel.TextStyle)
		lx := min(max((o.selX0+o.selX1)/2-ts.Width/2, o.plotLeft), o.plotRight-ts.Width)
		// On the tick labels' line, on an opaque box, so that no tick
		// label shows through or peeks out under it.
		ly := max(o.axisBottom-ts.Height-4, o.axisTop)
		c.selLabel.Move(fyne.NewPos(lx, ly))
		c.selBack.FillColor = Straight(th.Background)
		c.selBack.StrokeColor = Straight(paint.WithAlpha(th.Selection, 0xff))
		c.selBack.StrokeWidth = 1
		c.selBack.Move(fyne.NewPos(lx-pad, ly))
		c.selBack.Resize(fyne.NewSize(ts.Width+2*pad, ts.Height))
		maskTicks(lx-pad, lx+ts.Width+pad)
	}
	// The cursor: a line across every track and its time on the axis.
	show(c.cursorLine, o.cursor)
	show(c.cursorBack, o.cursor)
	show(c.cursorText, o.cursor)
	if o.cursor {
		c.cursorLine.FillColor = Straight(paint.WithAlpha(th.Cursor, 0xb0))
		c.cursorLine.Move(fyne.NewPos(o.cursorX, o.axisBottom-4))
		c.cursorLine.Resize(fyne.NewSize(max(1/o.scale, 1), o.plotBottom-o.axisBottom+4))
		c.cursorText.Text = o.cursorLabel
		c.cursorText.TextSize = small
		c.cursorText.Color = Straight(th.Background)
		ts := fyne.MeasureText(o.cursorLabel, small, c.cursorText.TextStyle)
		lx := min(max(o.cursorX-ts.Width/2, o.plotLeft), o.plotRight-ts.Width)
		ly := o.axisBottom - ts.Height - 4
		c.cursorText.Move(fyne.NewPos(lx, ly))
		c.cursorBack.FillColor = Straight(th.Cursor)
		c.cursorBack.CornerRadius = 3
		c.cursorBack.Move(fyne.NewPos(lx-pad, ly))
		c.cursorBack.Resize(fyne.NewSize(ts.Width+2*pad, ts.Height))
		maskTicks(lx-pad, lx+ts.Width+pad)
	}
	for i, m := range c.axisMasks {
		show(m, i < masks)
	}
	// The tooltip, beside the pointer, inside the canvas.
	c.tip.Place(c, o.tip, o.tipAnchor, o.size, th)
	for _, obj := range c.objects[1:] {
		canvas.Refresh(obj)
	}
}

// Straight returns a theme colour, whose alpha is straight (not
// premultiplied), as Fyne takes it.
func Straight(c color.RGBA) color.NRGBA { return color.NRGBA{R: c.R, G: c.G, B: c.B, A: c.A} }

// modifiers returns the keyboard modifiers held now, as the desktop
// driver knows them (none under the test driver).
func modifiers() fyne.KeyModifier {
	if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
		return d.CurrentKeyModifiers()
	}
	return 0
}

// Scrolled scrolls the tracks with the wheel, wheelTracks thread tracks a
// notch; with Ctrl (or Cmd) held it
// zooms at the pointer, a factor of two every 40 units; Shift+wheel and
// horizontal scrolling (trackpads) pan.
func (c *Canvas) Scrolled(ev *fyne.ScrollEvent) {
	c.scrolledWith(ev, modifiers())
}

// scrolledWith is Scrolled with the modifiers held.
func (c *Canvas) scrolledWith(ev *fyne.ScrollEvent, mods fyne.KeyModifier) {
	dx, dy := float64(ev.Scrolled.DX), float64(ev.Scrolled.DY)
	if mods&fyne.KeyModifierShift != 0 && dx == 0 {
		dx, dy = dy, 0
	}
	c.mu.Lock()
	x, _ := c.dev(ev.Position)
	s := c.scale
	switch {
	case mods&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0:
		if dy != 0 {
			c.view.ZoomAt(x, math.Pow(2, dy/wheelZoomUnits))
		}
	case math.Abs(dx) > math.Abs(dy):
		c.view.Pan(dx * s)
	default:
		c.view.ScrollTracks(-dy / wheelNotchUnits * wheelTracks)
	}
	c.mu.Unlock()
	c.pointer, c.hovering = ev.Position, true
	c.Changed()
}

// MouseDown notes the modifiers (Shift+drag selects) and takes the
// keyboard.
func (c *Canvas) MouseDown(ev *desktop.MouseEvent) {
	c.mu.Lock()
	c.pressMods = ev.Modifier
	c.mu.Unlock()
	c.focus()
}

// MouseUp ends nothing: drags end in DragEnd.
func (c *Canvas) MouseUp(*desktop.MouseEvent) {}

// focus gives the canvas the keyboard.
func (c *Canvas) focus() {
	if fc := fyne.CurrentApp().Driver().CanvasForObject(c); fc != nil && fc.Focused() != c {
		fc.Focus(c)
	}
}

// Dragged pans, selects, resizes a track or scrolls, as decided by where
// the drag began and whether Shift was held.
func (c *Canvas) Dragged(ev *fyne.DragEvent) {
	c.mu.Lock()
	x, y := c.dev(ev.Position)
	dx, dy := float64(ev.Dragged.DX)*c.scale, float64(ev.Dragged.DY)*c.scale
	v := c.view
	if c.mode == dragNone {
		c.startX, c.startY = x-dx, y-dy
		h := v.Hit(c.startX, c.startY)
		shift := (c.pressMods|modifiers())&fyne.KeyModifierShift != 0
		switch {
		case h.Area == tracks.AreaHeader && h.Part == tracks.PartResize:
			c.mode, c.resizeID, c.resizeH = dragResize, h.Track, v.TrackHeight(h.Track)
		case h.Area == tracks.AreaScrollbar:
			c.mode = dragScroll
		case shift && (h.Area == tracks.AreaPlot || h.Area == tracks.AreaAxis):
			c.mode = dragSelect
		case h.Area == tracks.AreaPlot || h.Area == tracks.AreaAxis:
			c.mode = dragPan
		case h.Area == tracks.AreaHeader:
			c.mode = dragScroll
			dy = -dy // dragging headers moves the content with the pointer
		}
	}
	var selected bool
	var sf, st uint64
	switch c.mode {
	case dragPan:
		v.Pan(dx)
	case dragSelect:
		c.selDrag = v.Select(c.startX, x)
		sf, st, selected = v.Selection()
	case dragResize:
		v.SetTrackHeight(c.resizeID, c.resizeH+int(math.Round(y-c.startY)))
	case dragScroll:
		_, content, viewport := v.Scroll()
		if c.mode == dragScroll && v.Hit(c.startX, c.startY).Area == tracks.AreaScrollbar && viewport > 0 {
			v.ScrollBy(dy * float64(content) / float64(viewport))
		} else {
			v.ScrollBy(dy)
		}
	}
	mode := c.mode
	c.mu.Unlock()
	c.pointer, c.hovering = ev.Position, true
	c.Changed()
	if mode == dragSelect && selected {
		c.selected(sf, st, true, false)
	}
}

// DragEnd finishes the gesture.
func (c *Canvas) DragEnd() {
	c.mu.Lock()
	mode := c.mode
	c.mode, c.pressMods, c.selDrag = dragNone, 0, ""
	from, to, ok := c.view.Selection()
	c.mu.Unlock()
	c.Redraw()
	if mode == dragSelect {
		c.selected(from, to, ok, true)
	}
}

// Tapped collapses or expands a group (its title), pins or unpins a track
// (its pin), puts rate tracks on a log scale or back (their "log" box),
// picks the finding of a flag on the axis, shows user spans by label or
// by thread (the User events title's switch), jumps to the track a wakeup
// link's chip names (JumpTo), and otherwise tells the window what was
// clicked.
func (c *Canvas) Tapped(ev *fyne.PointEvent) {
	c.focus()
	c.mu.Lock()
	x, y := c.dev(ev.Position)
	h := c.view.Hit(x, y)
	acted := true
	switch {
	case h.Part == tracks.PartToggle:
		c.view.ToggleGroup(h.Group)
	case h.Part == tracks.PartPin:
		c.view.Pin(h.Track)
	case h.Part == tracks.PartScale:
		c.view.SetLogScale(h.Track.Kind, !c.view.LogScale(h.Track.Kind))
	case h.Part == tracks.PartSpans:
		c.view.SetSpansByLabel(!c.view.SpansByLabel())
	case h.Element == tracks.ElemLink:
		// The chip of a wakeup link's end out of view: jump there, as
		// the finder does, and keep the link.
		c.lastClick = h
		c.mu.Unlock()
		c.JumpTo(h.Goto)
		if c.OnTrackChange != nil {
			c.OnTrackChange()
		}
		return
	default:
		acted = false
		// A thread's runnable span shows what woke it; any other click
		// takes the link away.
		hadLink := c.view.Wakeup() != nil
		if _, ok := c.view.ShowWakeup(h); ok || hadLink {
			defer c.Changed()
		}
	}
	c.lastClick = h
	c.mu.Unlock()
	if acted {
		c.Changed()
		if c.OnTrackChange != nil {
			c.OnTrackChange()
		}
		return
	}
	if h.Element == tracks.ElemFinding && c.OnFinding != nil {
		c.OnFinding(h.Findings)
		return
	}
	if c.OnTap != nil && h.Area == tracks.AreaPlot {
		c.OnTap(h)
	}
}

// DoubleTapped zooms to the span, GC or user span under the pointer;
// elsewhere in the plot it fits the run; on a header's bottom edge it
// gives the track its default height back.
func (c *Canvas) DoubleTapped(ev *fyne.PointEvent) {
	c.mu.Lock()
	x, y := c.dev(ev.Position)
	h := c.view.Hit(x, y)
	switch {
	case h.Part == tracks.PartResize:
		c.view.ResetTrackHeight(h.Track)
	case h.Area != tracks.AreaPlot:
	case h.To > h.From && (h.Element == tracks.ElemSpan || h.Element == tracks.ElemUserSpan || h.Element == tracks.ElemGC):
		m := uint64(float64(h.To-h.From) * SpanZoomMargin)
		c.view.SetRange(h.From-min(m, h.From), h.To+m)
	default:
		c.view.Fit()
	}
	c.mu.Unlock()
	c.Changed()
}

// TappedSecondary opens the menu of what is under the pointer (see
// contextMenu).
func (c *Canvas) TappedSecondary(ev *fyne.PointEvent) {
	c.focus()
	m := c.contextMenu(ev.Position)
	if m == nil {
		return
	}
	c.MouseOut() // the menu covers the tooltip's place
	if fc := fyne.CurrentApp().Driver().CanvasForObject(c); fc != nil {
		widget.ShowPopUpMenuAtPosition(m, fc, ev.AbsolutePosition)
	}
}

// contextMenu returns the menu of the track under canvas point p: pin or
// unpin it, hide it, copy its name; in its plot, copy the time under the
// pointer and zoom to the span there; bring hidden tracks back; and the
// window's own items (contextItems). Nil if there is nothing to offer.
func (c *Canvas) contextMenu(p fyne.Position) *fyne.Menu {
	c.mu.Lock()
	x, y := c.dev(p)
	v := c.view
	h := v.Hit(x, y)
	var items []*fyne.MenuItem
	id := h.Track
	if id.Kind != 0 {
		pin := "Pin to the Top"
		if v.Pinned(id) {
			pin = "Unpin"
		}
		items = append(items,
			fyne.NewMenuItem(pin, func() { c.trackChange(func(v *tracks.View) { v.Pin(id) }) }),
			fyne.NewMenuItem("Hide Track", func() { c.trackChange(func(v *tracks.View) { v.Hide(id) }) }))
	}
	if h.Area == tracks.AreaPlot && h.To > h.From && (h.Element == tracks.ElemSpan || h.Element == tracks.ElemUserSpan || h.Element == tracks.ElemGC) {
		from, to := h.From, h.To
		items = append(items, fyne.NewMenuItem("Zoom to Span ("+paint.Duration(to-from)+")", func() {
			m := uint64(float64(to-from) * SpanZoomMargin)
			c.ShowRange(from-min(m, from), to+m)
		}))
	}
	if id.Kind != 0 {
		name := v.Name(id)
		items = append(items, fyne.NewMenuItem("Copy Name", func() { fyne.CurrentApp().Clipboard().SetContent(name) }))
	}
	if h.Area == tracks.AreaPlot && h.HasTime {
		at := paint.Time(h.Time, tracks.PointStep(v.Axis().PixelsPerNs()))
		items = append(items, fyne.NewMenuItem("Copy Time ("+at+")", func() { fyne.CurrentApp().Clipboard().SetContent(at) }))
	}
	if n := v.NumHidden(); n > 0 {
		items = append(items, fyne.NewMenuItem("Show "+paint.CountOf(int64(n), "Hidden Track", "Hidden Tracks"), func() {
			c.trackChange(func(v *tracks.View) { v.ShowHidden() })
		}))
	}
	if id.Kind == tracks.KindBands {
		items = append(items, c.bandItems(v.BandMode(), v.BandOrder())...)
	}
	more := c.ContextItems
	c.mu.Unlock()
	if more != nil && h.Area == tracks.AreaPlot {
		if extra := more(h); len(extra) > 0 {
			items = append(items, fyne.NewMenuItemSeparator())
			items = append(items, extra...)
		}
	}
	if len(items) == 0 {
		return nil
	}
	return fyne.NewMenu("", items...)
}

// bandModes and bandOrders are the ways of drawing the heap-profile
// track's bands and the orders its menu offers, as `hecscope render
// --mode` (area, normalised, lines) and `--sort` (size, name, growth) do.
var (
	bandModes = []struct {
		label string
		mode  heapview.Mode
	}{
		{"Bands as Area", heapview.ModeArea},
		{"Bands Normalised (100%)", heapview.ModeNormalised},
		{"Bands as Lines", heapview.ModeLines},
	}
	bandOrders = []struct {
		label string
		order heapview.Order
	}{
		{"Sort Bands by Size", heapview.BySize},
		{"Sort Bands by Name", heapview.ByName},
		{"Sort Bands by Growth", heapview.ByGrowth},
	}
)

// bandItems are the heap-profile track's menu items that draw its bands
// in another mode or stack them in another order, the current ones
// checked; a separator before each group.
func (c *Canvas) bandItems(mode heapview.Mode, order heapview.Order) []*fyne.MenuItem {
	items := []*fyne.MenuItem{fyne.NewMenuItemSeparator()}
	for _, bm := range bandModes {
		m := bm.mode
		it := fyne.NewMenuItem(bm.label, func() { c.trackChange(func(v *tracks.View) { v.SetBandMode(m) }) })
		it.Checked = m == mode
		items = append(items, it)
	}
	items = append(items, fyne.NewMenuItemSeparator())
	for _, bo := range bandOrders {
		o := bo.order
		it := fyne.NewMenuItem(bo.label, func() { c.trackChange(func(v *tracks.View) { v.SetBandOrder(o) }) })
		it.Checked = o == order
		items = append(items, it)
	}
	return items
}

// trackChange changes the view's tracks (pins, hidden tracks) and tells
// the window, as a click on a pin does.
func (c *Canvas) trackChange(f func(v *tracks.View)) {
	c.With(f)
	c.Changed()
	if c.OnTrackChange != nil {
		c.OnTrackChange()
	}
}

// MouseIn starts the cursor and tooltip.
func (c *Canvas) MouseIn(ev *desktop.MouseEvent) { c.MouseMoved(ev) }

// MouseMoved moves the cursor line and tooltip to the pointer.
func (c *Canvas) MouseMoved(ev *desktop.MouseEvent) {
	c.mu.Lock()
	c.pointer, c.hovering = ev.Position, true
	c.mu.Unlock()
	c.placeOverlays()
}

// MouseOut hides the cursor and tooltip.
func (c *Canvas) MouseOut() {
	c.mu.Lock()
	c.hovering = false
	c.mu.Unlock()
	c.placeOverlays()
}

// Cursor is the pointer's shape over the canvas.
func (c *Canvas) Cursor() desktop.Cursor { return desktop.DefaultCursor }

// FocusGained is part of fyne.Focusable.
func (c *Canvas) FocusGained() {}

// FocusLost is part of fyne.Focusable.
func (c *Canvas) FocusLost() {}

// TypedRune does what the rune's key does to the view (see keyBindings).
func (c *Canvas) TypedRune(r rune) {
	if a, ok := kit.RuneAction(r); ok {
		c.ViewAction(a)
	}
}

// TypedKey does what the key does to the view (see keyBindings).
func (c *Canvas) TypedKey(ev *fyne.KeyEvent) {
	if a, ok := kit.KeyAction(ev.Name); ok {
		c.ViewAction(a)
	}
}

// keyZoomX is the device x the keys zoom at: the pointer when it is over
// the plot, else the right edge of a live view that follows the run's end
// (so that it goes on following), else the middle of the plot.
func (c *Canvas) keyZoomX() float64 {
	plot := c.view.PlotRect()
	if c.hovering {
		if x, _ := c.dev(c.pointer); x >= float64(plot.Min.X) && x < float64(plot.Max.X) {
			return x
		}
	}
	if follow, _ := c.view.Following(); c.grows && follow {
		return float64(plot.Max.X)
	}
	return float64(plot.Min.X+plot.Max.X) / 2
}

// ViewAction zooms, pans, fits, selects or bookmarks as the keyboard asks
// and reports whether it did anything.
func (c *Canvas) ViewAction(a kit.ViewAction) bool {
	c.mu.Lock()
	v := c.view
	from, to := v.Range()
	plot := v.PlotRect()
	done := true
	selChanged := false
	switch a {
	case kit.ActZoomIn:
		v.ZoomAt(c.keyZoomX(), 1/keyZoomFactor)
	case kit.ActZoomOut:
		v.ZoomAt(c.keyZoomX(), keyZoomFactor)
	case kit.ActPanLeft:
		v.Pan(keyPanFraction * float64(plot.Dx()))
	case kit.ActPanRight:
		v.Pan(-keyPanFraction * float64(plot.Dx()))
	case kit.ActFit:
		v.Fit()
	case kit.ActZoomSelection:
		_, _, ok := v.Selection()
		done = ok
		v.ZoomToSelection()
		selChanged = ok
	case kit.ActClearSelection:
		_, _, ok := v.Selection()
		done = ok
		v.ClearSelection()
		selChanged = ok
	case kit.ActStart:
		v.SetRange(0, to-from)
	case kit.ActEnd:
		v.Follow(to - from)
	case kit.ActScrollUp:
		v.ScrollBy(-float64(plot.Dy()) / 8)
	case kit.ActScrollDown:
		v.ScrollBy(float64(plot.Dy()) / 8)
	case kit.ActBookmark:
		done = c.OnBookmark != nil
	default:
		done = false
	}
	var at, step uint64
	var atPointer bool
	if a == kit.ActBookmark && done {
		at, step, atPointer = c.pointerTime()
	}
	c.mu.Unlock()
	if a == kit.ActClearSelection && c.OnEscape != nil && c.OnEscape() {
		done = true
	}
	if a == kit.ActBookmark && done {
		c.OnBookmark(at, step, atPointer)
		return true
	}
	if done {
		c.Changed()
		if selChanged {
			f, t, ok := c.Selection()
			c.selected(f, t, ok, true)
		}
	}
	return done
}

// pointerTime returns, under the lock, the time under the pointer when it
// is over the plot, rounded to a pixel's precision step as the cursor's
// label writes it; ok is false when the pointer is elsewhere.
func (c *Canvas) pointerTime() (t, step uint64, ok bool) {
	if !c.hovering {
		return 0, 0, false
	}
	x, y := c.dev(c.pointer)
	plot := c.view.PlotRect()
	h := c.view.Hit(x, y)
	if !h.HasTime || x < float64(plot.Min.X) || x >= float64(plot.Max.X) {
		return 0, 0, false
	}
	step = tracks.PointStep(c.view.Axis().PixelsPerNs())
	return (h.Time + step/2) / step * step, step, true
}

// View returns the visible time range.
func (c *Canvas) View() (from, to uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.view.Range()
}

// Selection returns the selected range, if any.
func (c *Canvas) Selection() (from, to uint64, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.view.Selection()
}

// SetSelection selects [from, to), or clears the selection if ok is false.
func (c *Canvas) SetSelection(from, to uint64, ok bool) {
	c.With(func(v *tracks.View) {
		if ok {
			v.SetSelection(from, to)
		} else {
			v.ClearSelection()
		}
	})
	c.Redraw()
	c.selected(from, to, ok, true)
}

// selected tells the window that the selection changed to [from, to) (ok:
// there is one; final: the gesture is over), and, once it is over,
// whether the canvas gained or lost a selection.
func (c *Canvas) selected(from, to uint64, ok, final bool) {
	if c.OnSelect != nil {
		c.OnSelect(from, to, ok, final)
	}
	if !final {
		return
	}
	c.mu.Lock()
	changed := ok != c.hadSelection
	c.hadSelection = ok
	tell := c.OnHasSelection
	c.mu.Unlock()
	if changed && tell != nil {
		tell(ok)
	}
}

// ShowRange shows [from, to), kept inside the run.
func (c *Canvas) ShowRange(from, to uint64) {
	c.With(func(v *tracks.View) { v.SetRange(from, to) })
	c.Changed()
}

// CentreOn shows a range as wide as the current one centred on t.
func (c *Canvas) CentreOn(t uint64) {
	from, to := c.View()
	w := to - from
	start := t - min(t, w/2)
	c.ShowRange(start, start+w)
}

// Reveal expands a track's group and scrolls it into view; false if the
// run has no such track.
func (c *Canvas) Reveal(id tracks.TrackID) bool {
	var ok bool
	c.With(func(v *tracks.View) { ok = v.Reveal(id) })
	c.Changed()
	return ok
}

// JumpTo is a jump to a track (the finder's): it expands the track's
// group, marks the track and pins it, until the next jump, which unpins it
// again unless the user had pinned it before; false if the run has no such
// track.
func (c *Canvas) JumpTo(id tracks.TrackID) bool {
	var ok bool
	c.With(func(v *tracks.View) {
		scroll, _, _ := v.Scroll()
		if ok = v.Reveal(id); !ok {
			return
		}
		prev := v.Marked()
		ours := c.jumpPinned // the previous jump pinned prev
		if prev != id {
			if ours && v.Pinned(prev) {
				v.Pin(prev) // unpins it
			}
			ours = false
		}
		if !v.Pinned(id) {
			// Pinned, it is in view at the top: the tracks stay scrolled
			// as they were.
			v.Pin(id)
			v.ScrollTo(scroll)
			ours = true
		}
		c.jumpPinned = ours
		v.SetMarked(id)
	})
	c.Changed()
	return ok
}

// SetBookmarks shows the user's bookmarks on the canvas.
func (c *Canvas) SetBookmarks(bs []tracks.Bookmark) {
	c.With(func(v *tracks.View) { v.SetBookmarks(bs) })
	c.Redraw()
}

// SetGrowing says whether the source grows (a live run): the keys then
// zoom at the end of a view that follows it, so that it goes on following.
func (c *Canvas) SetGrowing(grows bool) {
	c.mu.Lock()
	c.grows = grows
	c.mu.Unlock()
}

// Follow shows the last width ns of the run and follows its end as it
// grows (0: the whole run).
func (c *Canvas) Follow(width uint64) {
	c.With(func(v *tracks.View) { v.Follow(width) })
	c.Changed()
}

// Following reports whether the view follows the end of the run, and the
// width it keeps (0: all of it).
func (c *Canvas) Following() (bool, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.view.Following()
}
