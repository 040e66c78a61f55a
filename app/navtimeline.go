package app

import (
	"image"
	"image/color"
	"math"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/timeline"
)

// timelineNav is one row of an eventlog view (a timeline view or the heap
// chart) with the hands on it: the wheel zooms at the pointer, dragging
// pans, Shift+drag selects a range, the keyboard zooms and pans, hovering
// reports what is under the pointer and clicking a span reports its
// details. Every row of a view shares one navScale, so they move together
// and their plots line up.
type timelineNav struct {
	widget.BaseWidget

	// m is the model drawn; setModel replaces it with a newer snapshot of
	// a growing run (under mu, as the raster may draw elsewhere).
	m   *timeline.Model
	sc  *navScale
	pic *picture
	// view is the timeline view this row draws (timeline.Views); heap, if
	// not nil, makes it the heap chart instead, on the same time scale.
	view string
	heap *heapview.Chart
	// threadOrder sorts the rows of the "threads" view; sorted caches
	// every thread in each order over the whole run (sorting 10⁵ threads
	// by busy time takes 0.1 s, too long for a frame).
	threadOrder timeline.ThreadOrder
	// threadSkip is how many of the rows alive in the view are scrolled
	// past (the rows above the first one shown); under sortedMu.
	threadSkip int
	sortedMu   sync.Mutex
	sorted     [4][]int
	sortedFor  *timeline.Model // the model sorted was made for

	mu sync.Mutex // guards drawn and m (the raster draws on the render loop)
	// drawn is the Options of the last frame drawn (zero before the first).
	drawn timeline.Options

	// The gesture under way: pressShift is whether Shift was held when the
	// button went down, selecting whether the drag makes a selection, and
	// anchor where it began.
	pressShift, dragging, selecting bool
	anchor                          uint64

	// Overlays drawn over the picture.
	shade    *canvas.Rectangle
	cursor   *canvas.Rectangle
	selLabel *canvas.Text
	selBack  *canvas.Rectangle

	// autoFocus makes the row take the keyboard when first laid out, if
	// nothing else has it (the main timeline row).
	autoFocus bool

	// Callbacks to the view; any may be nil.
	onHover   func(text string)
	onDetails func(facts []fact)
	// onBookmark, if set, bookmarks the selection's start or the view's
	// centre (the B key).
	onBookmark func()
}

// newTimelineNav returns a navigable row drawing view of m (which must have
// timed events) on the scale sc, or the heap chart if heap is not nil.
func newTimelineNav(m *timeline.Model, sc *navScale, view string, heap *heapview.Chart) *timelineNav {
	n := &timelineNav{m: m, sc: sc, view: view, heap: heap}
	n.pic = newPicture(n.render)
	n.shade = canvas.NewRectangle(color.NRGBA{R: 0x30, G: 0x60, B: 0xd0, A: 0x40})
	n.shade.StrokeColor = color.NRGBA{R: 0x30, G: 0x60, B: 0xd0, A: 0xc0}
	n.shade.StrokeWidth = 1
	n.shade.Hide()
	n.cursor = canvas.NewRectangle(color.NRGBA{R: 0x20, G: 0x20, B: 0x20, A: 0x90})
	n.cursor.Hide()
	n.selLabel = canvas.NewText("", color.NRGBA{R: 0x10, G: 0x30, B: 0x90, A: 0xff})
	n.selLabel.TextStyle = fyne.TextStyle{Bold: true}
	n.selLabel.Hide()
	n.selBack = canvas.NewRectangle(color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xd8})
	n.selBack.Hide()
	sc.rows = append(sc.rows, n)
	n.ExtendBaseWidget(n)
	return n
}

// model returns the model drawn.
func (n *timelineNav) model() *timeline.Model {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.m
}

// setModel draws m, a newer snapshot of the same growing run, from now on:
// the scale's run grows to m's end, and a view that follows the end moves
// with it while any other stays put (see navScale.extend). Call it on
// Fyne's loop; each row of a scale takes the snapshot, then the scale is
// extended once.
func (n *timelineNav) setModel(m *timeline.Model) {
	if m == nil {
		return
	}
	n.mu.Lock()
	n.m = m
	n.mu.Unlock()
	n.sc.extend(m.End)
	n.pic.raster.Refresh()
}

// render draws the current view at w×h device pixels and remembers how.
func (n *timelineNav) render(w, h int, scale float64) (*image.RGBA, error) {
	from, to := n.sc.View()
	opt := timeline.Options{View: n.view, From: from, To: to, Width: w, Height: h, Scale: scale, Dark: darkTheme()}
	n.mu.Lock()
	n.drawn = opt
	m := n.m
	n.mu.Unlock()
	switch {
	case n.heap != nil:
		return renderHeapRow(n.heap, opt)
	case n.view == "threads":
		return timeline.RenderThreadRows(m, opt, n.rowsOf(m, from, to))
	case n.view == userView:
		return timeline.RenderUserRows(m, opt)
	}
	return timeline.Render(m, opt)
}

// threadRows returns the threads alive in [from, to] in the row order:
// by first appearance, id, label, or time running over the whole run.
func (n *timelineNav) threadRows(from, to uint64) []int { return n.rowsOf(n.model(), from, to) }

// rowsOf is threadRows for model m.
func (n *timelineNav) rowsOf(m *timeline.Model, from, to uint64) []int {
	n.sortedMu.Lock()
	if n.sortedFor != m {
		n.sorted, n.sortedFor = [4][]int{}, m
	}
	o, skip := n.threadOrder, n.threadSkip
	if int(o) >= len(n.sorted) {
		o = timeline.ThreadsByFirst
	}
	all := n.sorted[o]
	if all == nil {
		all = timeline.ThreadRows(m, 0, m.End+1, o)
		n.sorted[o] = all
	}
	n.sortedMu.Unlock()
	rows := make([]int, 0, 64)
	for _, i := range all {
		if timeline.AliveIn(&m.Threads[i], from, to) {
			rows = append(rows, i)
		}
	}
	return rows[min(skip, max(len(rows)-1, 0)):]
}

// threadPage returns how many thread rows the row shows at its size (the
// rows' layout is timeline.RenderThreadRows': a 26-unit top, 14-unit rows,
// a 22-unit key at the bottom).
func (n *timelineNav) threadPage() int {
	return max(int((n.Size().Height-26-22)/14), 1)
}

// scrollThreads moves the thread rows by delta rows (negative: back to
// earlier rows), keeping at least one row shown, and returns the new number
// of rows scrolled past.
func (n *timelineNav) scrollThreads(delta int) int {
	from, to := n.View()
	n.sortedMu.Lock()
	n.threadSkip = max(n.threadSkip+delta, 0)
	n.sortedMu.Unlock()
	alive := 0
	if m := n.model(); m != nil {
		for i := range m.Threads {
			if timeline.AliveIn(&m.Threads[i], from, to) {
				alive++
			}
		}
	}
	n.sortedMu.Lock()
	n.threadSkip = min(n.threadSkip, max(alive-1, 0))
	skip := n.threadSkip
	n.sortedMu.Unlock()
	n.pic.raster.Refresh()
	return skip
}

// CreateRenderer shows the picture with the selection, cursor and
// selection length over it.
func (n *timelineNav) CreateRenderer() fyne.WidgetRenderer {
	return &navRenderer{n: n, objects: []fyne.CanvasObject{n.pic.raster, n.shade, n.cursor, n.selBack, n.selLabel}}
}

// MinSize keeps the picture's minimum size.
func (n *timelineNav) MinSize() fyne.Size { return n.pic.raster.MinSize() }

// navRenderer lays the overlays out over the picture.
type navRenderer struct {
	n       *timelineNav
	objects []fyne.CanvasObject
}

func (r *navRenderer) Layout(size fyne.Size) {
	r.n.pic.raster.Resize(size)
	r.n.pic.raster.Move(fyne.NewPos(0, 0))
	r.n.placeOverlays()
	if r.n.autoFocus && size.Width > 0 {
		if c := fyne.CurrentApp().Driver().CanvasForObject(r.n); c != nil {
			r.n.autoFocus = false
			if c.Focused() == nil {
				c.Focus(r.n)
			}
		}
	}
}
func (r *navRenderer) MinSize() fyne.Size           { return r.n.MinSize() }
func (r *navRenderer) Refresh()                     { r.n.placeOverlays(); canvas.Refresh(r.n.pic.raster) }
func (r *navRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *navRenderer) Destroy()                     {}

// options returns the geometry of the picture as it is (or would be) drawn
// at the widget's size: view, time range, device pixels and pixel ratio.
func (n *timelineNav) options() timeline.Options {
	scale := float64(1)
	if c := fyne.CurrentApp().Driver().CanvasForObject(n); c != nil {
		scale = float64(c.Scale())
	}
	size := n.Size()
	from, to := n.sc.View()
	n.mu.Lock()
	defer n.mu.Unlock()
	w, h := int(float64(size.Width)*scale+0.5), int(float64(size.Height)*scale+0.5)
	if d := n.drawn; d.Width > 0 && abs(d.Width-w) <= 1 && abs(d.Height-h) <= 1 {
		w, h, scale = d.Width, d.Height, d.Scale
	}
	return timeline.Options{View: n.view, From: from, To: to, Width: w, Height: h, Scale: scale}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// ratio returns device pixels per widget unit for opt.
func (n *timelineNav) ratio(opt timeline.Options) float64 {
	if w := n.Size().Width; w > 0 && opt.Width > 0 {
		return float64(opt.Width) / float64(w)
	}
	return 1
}

// plot returns the plot's left edge and width in device pixels (as the
// timeline view lays it out).
func plot(opt timeline.Options) (gutter, width float64) {
	s := opt.Scale
	if !(s > 0) {
		s = 1
	}
	g := min(int(110*s), opt.Width/4)
	return float64(g), float64(max(opt.Width-g-int(8*s), 1))
}

// timeAt returns the time at widget x, clamped to the view.
func (n *timelineNav) timeAt(x float32) uint64 {
	opt := n.options()
	return n.sc.get().TimeAt(float64(x)*n.ratio(opt), opt.Width, opt.Scale)
}

// xAt returns the widget x of time t in the current view.
func (n *timelineNav) xAt(t uint64, opt timeline.Options) float32 {
	g, w := plot(opt)
	ax := timeline.NewAxis(opt.From, opt.To, g, w)
	return float32(ax.X(t) / n.ratio(opt))
}

// View returns the visible time range.
func (n *timelineNav) View() (from, to uint64) { return n.sc.View() }

// Selection returns the selected range, if any.
func (n *timelineNav) Selection() (from, to uint64, ok bool) {
	return n.sc.selFrom, n.sc.selTo, n.sc.hasSel
}

// zoom zooms by factor (< 1: in) around time at.
func (n *timelineNav) zoom(factor float64, at uint64) { n.sc.set(n.sc.get().Zoom(factor, at)) }

// pan moves the view by delta ns.
func (n *timelineNav) pan(delta float64) { n.sc.set(n.sc.get().Pan(delta)) }

// showRange shows [from, to] (at least a microsecond, inside the run).
func (n *timelineNav) showRange(from, to uint64) {
	sp := n.sc.get()
	sp.From, sp.To = from, max(to, from+1)
	if sp.To-sp.From < 1000 {
		mid := sp.From/2 + sp.To/2
		sp.From, sp.To = mid-min(mid, 500), mid-min(mid, 500)+1000
	}
	if sp.To > sp.Length() {
		sp.From -= min(sp.From, sp.To-sp.Length())
		sp.To = sp.Length()
	}
	if sp.From == 0 && sp.To >= sp.Length() {
		sp.To = 0
	}
	n.sc.set(sp)
}

// fit shows the whole run.
func (n *timelineNav) fit() {
	sp := n.sc.get()
	sp.From, sp.To = 0, 0
	n.sc.set(sp)
}

// centre returns the time at the middle of the view.
func (n *timelineNav) centre() uint64 {
	from, to := n.View()
	return from + (to-from)/2
}

// nsPerUnit returns the ns one widget unit covers in the plot.
func (n *timelineNav) nsPerUnit() float64 {
	opt := n.options()
	_, w := plot(opt)
	return float64(opt.To-opt.From) / w * n.ratio(opt)
}

// hit returns what lies under widget point p.
func (n *timelineNav) hit(p fyne.Position) timeline.Hit {
	opt := n.options()
	r := n.ratio(opt)
	return timeline.HitTimeline(n.model(), opt, float64(p.X)*r, float64(p.Y)*r)
}

// setSelection selects [from, to] (ok false: clears it) on every row;
// final is false while a drag is still moving it.
func (n *timelineNav) setSelection(from, to uint64, ok, final bool) {
	n.sc.setSelection(from, to, ok, final)
}

// placeOverlays puts the selection shading and its length over the picture.
func (n *timelineNav) placeOverlays() {
	size := n.Size()
	if !n.sc.hasSel || size.Width <= 0 {
		n.shade.Hide()
		n.selLabel.Hide()
		n.selBack.Hide()
		return
	}
	opt := n.options()
	g, w := plot(opt)
	r := n.ratio(opt)
	left, right := float32(g/r), float32((g+w)/r)
	x0 := min(max(n.xAt(n.sc.selFrom, opt), left), right)
	x1 := min(max(n.xAt(n.sc.selTo, opt), left), right)
	if x1-x0 < 1 {
		x1 = x0 + 1
	}
	top := float32(24 * opt.Scale / r)
	n.shade.Move(fyne.NewPos(x0, top))
	n.shade.Resize(fyne.NewSize(x1-x0, size.Height-top-float32(22*opt.Scale/r)))
	n.shade.Show()
	n.shade.Refresh()
	n.selLabel.Text = timeline.FormatDuration(n.sc.selTo - n.sc.selFrom)
	ts := n.selLabel.MinSize()
	lx := min(max((x0+x1)/2-ts.Width/2, left), right-ts.Width)
	n.selLabel.Move(fyne.NewPos(lx, top+2))
	n.selLabel.Show()
	n.selLabel.Refresh()
	n.selBack.Move(fyne.NewPos(lx-3, top+2))
	n.selBack.Resize(fyne.NewSize(ts.Width+6, ts.Height))
	n.selBack.Show()
	n.selBack.Refresh()
}

// Scrolled zooms at the pointer with the wheel (with or without Ctrl), by a
// factor of two every four notches; Shift+wheel and horizontal scrolling
// (trackpads) pan by as many units as scrolled.
func (n *timelineNav) Scrolled(ev *fyne.ScrollEvent) {
	dx, dy := ev.Scrolled.DX, ev.Scrolled.DY
	if shiftHeld() && dx == 0 {
		dx, dy = dy, 0
	}
	if math.Abs(float64(dx)) > math.Abs(float64(dy)) {
		n.pan(-float64(dx) * n.nsPerUnit())
		return
	}
	if dy != 0 {
		n.zoom(math.Pow(2, -float64(dy)/wheelZoomUnits), n.timeAt(ev.Position.X))
	}
}

// shiftHeld reports whether the desktop driver says Shift is down.
func shiftHeld() bool {
	if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
		return d.CurrentKeyModifiers()&fyne.KeyModifierShift != 0
	}
	return false
}

// MouseDown notes whether Shift is held (a drag then selects) and takes the
// keyboard focus.
func (n *timelineNav) MouseDown(ev *desktop.MouseEvent) {
	n.pressShift = ev.Modifier&fyne.KeyModifierShift != 0
	n.focus()
}

// MouseUp ends nothing: drags end in DragEnd.
func (n *timelineNav) MouseUp(*desktop.MouseEvent) {}

// focus gives the timeline the keyboard.
func (n *timelineNav) focus() {
	if c := fyne.CurrentApp().Driver().CanvasForObject(n); c != nil && c.Focused() != n {
		c.Focus(n)
	}
}

// Dragged pans with the pointer, or with Shift held selects from where the
// drag began.
func (n *timelineNav) Dragged(ev *fyne.DragEvent) {
	if !n.dragging {
		n.dragging = true
		n.selecting = n.pressShift || shiftHeld()
		if n.selecting {
			n.anchor = n.timeAt(ev.Position.X - ev.Dragged.DX)
		}
	}
	if n.selecting {
		n.setSelection(n.anchor, n.timeAt(ev.Position.X), true, false)
		return
	}
	n.pan(-float64(ev.Dragged.DX) * n.nsPerUnit())
}

// DragEnd finishes a pan or a selection.
func (n *timelineNav) DragEnd() {
	if n.selecting {
		from, to, ok := n.Selection()
		n.setSelection(from, to, ok, true)
	}
	n.dragging, n.selecting, n.pressShift = false, false, false
}

// Tapped shows the details of the span under the pointer.
func (n *timelineNav) Tapped(ev *fyne.PointEvent) {
	n.focus()
	if n.onDetails == nil || n.heap != nil {
		return
	}
	switch n.view {
	case "", "timeline":
		if h := n.hit(ev.Position); h.Row == timeline.RowHEC {
			n.onDetails(detailFacts(n.model(), h))
		}
	case "threads":
		if h := n.threadHit(ev.Position); h.Thread >= 0 {
			n.onDetails(threadDetailFacts(n.model(), h))
		}
	case userView:
		if h := n.userHit(ev.Position); h.Found {
			n.onDetails(userSpanFacts(n.model(), h.Span))
		}
	}
}

// DoubleTapped zooms to the span under the pointer, or fits the run when
// there is none.
func (n *timelineNav) DoubleTapped(ev *fyne.PointEvent) {
	var from, to uint64
	switch {
	case n.heap != nil:
	case n.view == "threads":
		if h := n.threadHit(ev.Position); h.Thread >= 0 && h.Marks == 0 && h.Mark.State != timeline.StateIdle {
			from, to = h.SpanStart, h.SpanEnd
		}
	case n.view == userView:
		if h := n.userHit(ev.Position); h.Found {
			from, to = h.Span.Start, h.Span.End
		}
	default:
		if h := n.hit(ev.Position); h.Row == timeline.RowHEC && h.Marks == 0 {
			from, to = h.SpanStart, h.SpanEnd
		}
	}
	if to <= from {
		n.fit()
		return
	}
	margin := uint64(float64(to-from) * spanZoomMargin)
	n.showRange(from-min(margin, from), to+margin)
}

// MouseIn starts the hover read-out.
func (n *timelineNav) MouseIn(ev *desktop.MouseEvent) { n.MouseMoved(ev) }

// MouseMoved reports what is under the pointer and draws a cursor line.
func (n *timelineNav) MouseMoved(ev *desktop.MouseEvent) {
	opt := n.options()
	g, w := plot(opt)
	r := n.ratio(opt)
	x := ev.Position.X
	if float64(x)*r >= g && float64(x)*r < g+w {
		n.cursor.Move(fyne.NewPos(x, float32(24*opt.Scale/r)))
		n.cursor.Resize(fyne.NewSize(1, n.Size().Height-float32((24+22)*opt.Scale/r)))
		n.cursor.Show()
	} else {
		n.cursor.Hide()
	}
	n.cursor.Refresh()
	if n.onHover != nil {
		n.onHover(n.hoverText(ev.Position))
	}
}

// MouseOut clears the read-out.
func (n *timelineNav) MouseOut() {
	n.cursor.Hide()
	n.cursor.Refresh()
	if n.onHover != nil {
		n.onHover("")
	}
}

// FocusGained is part of fyne.Focusable.
func (n *timelineNav) FocusGained() {}

// FocusLost is part of fyne.Focusable.
func (n *timelineNav) FocusLost() {}

// keyZoomAt is where + and - zoom around: the middle of the view, or its
// right edge when a live view follows the run's end (so it goes on
// following).
func (n *timelineNav) keyZoomAt() uint64 {
	if n.sc.grows && n.sc.following() {
		_, to := n.View()
		return to
	}
	return n.centre()
}

// TypedRune does what the rune's key does to the view (see keyBindings).
func (n *timelineNav) TypedRune(r rune) {
	if a, ok := runeAction(r); ok {
		n.viewAction(a)
	}
}

// TypedKey does what the key does to the view (see keyBindings).
func (n *timelineNav) TypedKey(ev *fyne.KeyEvent) {
	if a, ok := keyAction(ev.Name); ok {
		n.viewAction(a)
	}
}

// viewAction zooms, pans, fits, selects or bookmarks as the keyboard asks:
// + and - zoom at the centre (or a live view's end), the arrows pan by a
// tenth of the view, Home and End go to the ends (End follows a live run's
// end again, at the view's width), 0 fits the run, Z zooms to the
// selection, Esc clears it, B bookmarks.
func (n *timelineNav) viewAction(a viewAction) bool {
	from, to := n.View()
	width := float64(to - from)
	switch a {
	case actZoomIn:
		n.zoom(keyZoomFactor, n.keyZoomAt())
	case actZoomOut:
		n.zoom(1/keyZoomFactor, n.keyZoomAt())
	case actPanLeft:
		n.pan(-keyPanFraction * width)
	case actPanRight:
		n.pan(keyPanFraction * width)
	case actFit:
		n.fit()
	case actZoomSelection:
		from, to, ok := n.Selection()
		if !ok {
			return false
		}
		n.showRange(from, to)
	case actClearSelection:
		if _, _, ok := n.Selection(); !ok {
			return false
		}
		n.setSelection(0, 0, false, true)
	case actStart:
		n.pan(-float64(from))
	case actEnd:
		n.sc.followLast(to - from)
	case actBookmark:
		if n.onBookmark == nil {
			return false
		}
		n.onBookmark()
	default:
		return false
	}
	return true
}
