package compareview

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/app/panels"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/compare"
	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// alignStart is the alignment choice that lines the runs up at their start.
const alignStart = "Align at start"

// alignMarkerPrefix starts the alignment choices of markers.
const alignMarkerPrefix = "Align at marker: "

// alignSpanPrefix starts the alignment choices of user-span labels.
const alignSpanPrefix = "Align at span: "

// alignOffset is the alignment choice that asks for an offset of B from A.
const alignOffset = "Offset B from A…"

// alignChoicesPerKind is the most markers, and the most span labels, the
// alignment chooser offers (its menu scrolls).
const alignChoicesPerKind = 100

// Window shows two runs side by side in time: the headline, both
// timelines on one time scale, the table of differences, the distributions
// of GC pauses and thread runs, and both heaps on one scale. Zoom and pan
// are linked: the mouse wheel zooms both timelines and heaps around the
// pointer, dragging pans both, a double click shows both runs whole.
type Window struct {
	host Host
	win  fyne.Window

	// paths and names are the two runs' files and how they are called (A
	// first); segs which eventlog of each file (0-based: see
	// segmentchooser.go).
	paths, names [2]string
	segs         [2]int
	// logs are the loaded runs (nil until loaded); cmp their comparison.
	logs [2]*loaded.Eventlog
	cmp  *compare.Comparison

	status *widget.Label
	align  *widget.Select
	pic    *trackcanvas.Picture
	canvas *compareCanvas
	// reader reads the picture at the pointer for the canvas's tooltip.
	reader compareReader
	// offsetRow, shown while alignOffset is chosen, holds offsetEntry
	// (where the offset is typed) and alignError (why the last offset or
	// choice could not be applied).
	offsetRow   *fyne.Container
	offsetEntry *widget.Entry
	alignError  *widget.Label
	// alignSpec is the alignment applied, as compare.ParseAlign reads it
	// ("start", "marker:TEXT", "span:LABEL", "offset:T"), and alignment
	// what it found; span is the part of the shared time scale shown.
	alignSpec string
	alignment compare.Alignment
	span      timeline.Viewport
	// covered holds the comparison over the time both runs cover, shown
	// when a run is partial or the runs are aligned other than at their
	// start (coveredGen drops a superseded one, and one that comes after
	// the window closed).
	covered    *fyne.Container
	coveredGen int
	// closed says the window has been closed.
	closed bool
	// done, if set, is called on Fyne's loop when loading ends (tests).
	done func(error)
}

// compareHost is what a compare window needs of the app that opens it.
type Host struct {
	// NewWindow makes a window titled title (the app's name is added).
	NewWindow func(title string) fyne.Window
	// Started says the app's loop runs, so that the window is fitted to
	// the screen as it opens.
	Started bool
	// UseNative selects the system file chooser.
	UseNative bool
}

// Open compares segment segs[1] (0-based) of paths[1] (B)
// with segment segs[0] of paths[0] (A), named names (their files' names
// if ""), in a window of h's.
func Open(h Host, paths [2]string, segs [2]int, names [2]string, done func(error)) *Window {
	c := &Window{host: h, paths: paths, segs: segs, names: names, done: done}
	for i := range c.names {
		if c.names[i] == "" {
			c.names[i] = filepath.Base(c.paths[i])
		}
	}
	c.win = h.NewWindow("Compare " + c.names[0] + " and " + c.names[1])
	c.win.Resize(fyne.NewSize(1280, 900))
	c.status = widget.NewLabel("Loading " + c.names[0] + " and " + c.names[1] + "…")
	c.win.SetContent(container.NewCenter(container.NewVBox(c.status, widget.NewProgressBarInfinite())))
	// A comparison over the covered time still being read when the window
	// closes is dropped.
	c.win.SetOnClosed(func() { c.closed, c.coveredGen = true, c.coveredGen+1 })
	c.win.Show()
	// It opens no larger than the screen (1280×900 is taller than a
	// 1280×800 one).
	if h.Started {
		fyne.Do(func() { kit.FitToScreen(c.win) })
	}
	go c.load()
	return c
}

// load reads both runs off Fyne's loop and then shows them.
func (c *Window) load() {
	var logs [2]*loaded.Eventlog
	var err error
	for i, p := range c.paths {
		logs[i], err = loaded.LoadEventlog(context.Background(), p, eventlog.Options{Segment: c.segs[i]}, nil)
		if err != nil {
			break
		}
		// The comparison takes its figures from the overview and the
		// summary, loaded whole: the file is not read again.
		go logs[i].Log.Close()
	}
	kit.OnUI(func() {
		if err != nil {
			c.status.SetText(fmt.Sprintf("Cannot compare: %v", err))
			c.win.SetContent(container.NewCenter(c.status))
		} else {
			c.logs = logs
			c.show()
		}
		if c.done != nil {
			c.done(err)
		}
	})
}

// runs returns the loaded runs as the compare package takes them.
func (c *Window) runs() (*compare.Run, *compare.Run) {
	run := func(i int) *compare.Run {
		r := &compare.Run{Name: c.names[i], Summary: c.logs[i].Summary, Model: c.logs[i].Model}
		if c.segs[i] == 0 { // the time both cover is read again from the file: the first segment's bytes
			r.Path = c.paths[i]
		}
		return r
	}
	return run(0), run(1)
}

// show builds the window's content once both runs have loaded.
func (c *Window) show() {
	a, b := c.runs()
	c.cmp = compare.Compare(a, b, compare.Options{})
	c.reader.reset()
	options := []string{alignStart, alignOffset}
	for _, l := range commonSpanLabels(a.Model, b.Model) {
		options = append(options, alignSpanPrefix+l)
	}
	for _, m := range commonMarkers(a.Model, b.Model) {
		options = append(options, alignMarkerPrefix+m)
	}
	c.pic = trackcanvas.NewPicture(nil)
	c.canvas = newCompareCanvas(c)
	c.offsetEntry = widget.NewEntry()
	c.offsetEntry.SetPlaceHolder("e.g. 12.5ms or -3s")
	c.offsetEntry.OnSubmitted = c.applyOffset
	apply := widget.NewButton("Apply", func() { c.applyOffset(c.offsetEntry.Text) })
	c.alignError = widget.NewLabel("")
	c.alignError.Importance = widget.DangerImportance
	c.alignError.Truncation = fyne.TextTruncateEllipsis
	entrySize := fyne.NewSize(180, c.offsetEntry.MinSize().Height)
	c.offsetRow = container.NewBorder(nil, nil,
		container.NewHBox(widget.NewLabel("Draw B later than A by (negative: earlier)"), container.NewGridWrap(entrySize, c.offsetEntry), apply),
		nil, c.alignError)
	c.offsetRow.Hide()
	c.covered = container.NewVBox()
	c.align = widget.NewSelect(options, func(choice string) { c.setAlign(choice) })
	c.align.SetSelected(alignStart)
	swap := widget.NewButtonWithIcon("Swap A and B", theme.ViewRefreshIcon(), c.swap)
	zoomIn := widget.NewButtonWithIcon("", theme.ZoomInIcon(), func() { c.zoom(0.5, c.centre()) })
	zoomOut := widget.NewButtonWithIcon("", theme.ZoomOutIcon(), func() { c.zoom(2, c.centre()) })
	whole := widget.NewButtonWithIcon("", theme.ZoomFitIcon(), c.showWhole)
	export := widget.NewButtonWithIcon("Export PNG…", theme.DocumentSaveIcon(), c.exportImage)
	legend := widget.NewLabel(fmt.Sprintf("A: %s    B: %s", c.names[0], c.names[1]))
	legend.Truncation = fyne.TextTruncateEllipsis
	bar := container.NewBorder(nil, nil, nil, container.NewHBox(zoomIn, zoomOut, whole, alignChooserBox(c.align), swap, export), legend)
	tables := container.NewVBox(runStatuses(a, b), diffTable(c.cmp), c.covered)
	split := container.NewVSplit(c.canvas, container.NewVScroll(tables))
	split.Offset = 0.8
	// Whatever the content needs beyond the window scrolls rather than
	// growing the window past the screen.
	c.win.SetContent(kit.FitWindow(container.NewBorder(container.NewVBox(bar, c.offsetRow), nil, nil, nil, split)))
}

// maxAlignChooserWidth is the widest the alignment chooser is made to show
// its choice whole.
const maxAlignChooserWidth = 340

// alignChooserBox returns the chooser sel wide enough to show its longest
// option whole, up to maxAlignChooserWidth (a Select is as wide as its
// placeholder, which cuts "Align at marker: …" short).
func alignChooserBox(sel *widget.Select) fyne.CanvasObject {
	size := sel.MinSize()
	textSize := theme.Size(theme.SizeNameText)
	extra := size.Width - fyne.MeasureText(sel.PlaceHolder, textSize, fyne.TextStyle{}).Width
	for _, o := range sel.Options {
		size.Width = max(size.Width, min(fyne.MeasureText(o, textSize, fyne.TextStyle{}).Width+extra, maxAlignChooserWidth))
	}
	return container.NewGridWrap(size, sel)
}

// setAlign lines the runs up as choice (an option of the chooser) says: at
// their start, at a marker or the first start of a span label both have;
// alignOffset shows the row where an offset is typed and leaves the
// alignment as it is until one is applied.
func (c *Window) setAlign(choice string) {
	if choice == alignOffset {
		c.offsetRow.Show()
		c.win.Canvas().Focus(c.offsetEntry)
		return
	}
	c.offsetRow.Hide()
	c.alignError.SetText("")
	spec := "start"
	if text, ok := strings.CutPrefix(choice, alignMarkerPrefix); ok {
		spec = "marker:" + text
	} else if label, ok := strings.CutPrefix(choice, alignSpanPrefix); ok {
		spec = "span:" + label
	}
	if err := c.applyAlign(spec); err != nil {
		c.alignError.SetText(err.Error())
		c.offsetRow.Show()
	}
}

// applyOffset aligns the runs so that B is drawn text (a duration as the
// CLI's --align offset:T takes it) later than A, or shows why it cannot
// and keeps the alignment.
func (c *Window) applyOffset(text string) {
	text = strings.TrimSpace(text)
	err := c.applyAlign("offset:" + text)
	switch {
	case errors.Is(err, compare.ErrAlignSpec):
		c.alignError.SetText(fmt.Sprintf("%q is not a duration: type one such as 12.5ms, 1.5s, 800us or 250ns (-20ms draws B earlier)", text))
	case err != nil:
		c.alignError.SetText(err.Error())
	default:
		c.alignError.SetText("")
	}
}

// applyAlign lines the runs up at spec (see compare.ParseAlign) and shows
// them whole; on an error the alignment is unchanged.
func (c *Window) applyAlign(spec string) error {
	a, b := c.runs()
	al, err := compare.ParseAlign(spec, a, b)
	if err != nil {
		return err
	}
	if endA, endB := c.logs[0].Model.End, c.logs[1].Model.End; al.A > endA || al.B > endB {
		// The picture lines the runs up at a point inside both.
		return fmt.Errorf("that puts the alignment point after the end of a run (A lasts %s, B %s): the runs would share no time",
			paint.Duration(endA), paint.Duration(endB))
	}
	c.alignSpec, c.alignment = spec, al
	c.span = timeline.Viewport{AlignA: al.A, AlignB: al.B, EndA: c.logs[0].Model.End, EndB: c.logs[1].Model.End}
	c.pic.Set(c.render())
	c.showCovered()
	return nil
}

// showCovered shows, below the table of differences, the comparison over
// the time both runs cover from the alignment's points, as the CLI gives it
// when a run is partial (its totals cover only what it logged, so they get
// no verdict) or the runs are aligned other than at their start. It reads
// both files again, off Fyne's loop.
func (c *Window) showCovered() {
	if c.covered == nil {
		return
	}
	c.coveredGen++
	gen := c.coveredGen
	a, b := c.runs()
	al := c.alignment
	if !c.cmp.Partial && al == (compare.Alignment{}) {
		c.covered.Objects = nil
		c.covered.Refresh()
		return
	}
	heading := func(text string) *widget.Label {
		return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	c.covered.Objects = []fyne.CanvasObject{heading("Over the time both runs cover: reading both files again…")}
	c.covered.Refresh()
	go func() {
		cov, err := compare.CompareCovered(a, b, al.A, al.B, compare.Options{})
		kit.OnUI(func() {
			if gen != c.coveredGen {
				return
			}
			if err != nil {
				c.covered.Objects = []fyne.CanvasObject{heading("No comparison over the time both runs cover: " + err.Error())}
			} else {
				c.covered.Objects = []fyne.CanvasObject{
					heading(fmt.Sprintf("Over the time both runs cover: %s of each, A from %s, B from %s",
						paint.Duration(cov.Length), paint.Duration(cov.FromA), paint.Duration(cov.FromB))),
					diffTable(cov.Comparison),
				}
			}
			c.covered.Refresh()
		})
	}()
}

// runStatuses says whether each run is complete, and, if one is not, that
// the table gives no verdicts on the runs' totals (as the CLI says it).
func runStatuses(a, b *compare.Run) fyne.CanvasObject {
	line := func(which string, r *compare.Run) string {
		s := fmt.Sprintf("%s: %s — %s", which, r.Name, r.Summary.Status)
		if r.Partial() {
			s += " (partial run)"
		}
		return s
	}
	// One line for both (wrapped if narrow): the pane under the picture
	// is short, and two lines left room for only a row of the table at
	// 1280×800.
	both := widget.NewLabel(line("A", a) + "     " + line("B", b))
	both.Wrapping = fyne.TextWrapWord
	box := container.NewVBox(both)
	if a.Partial() || b.Partial() {
		note := widget.NewLabel("No verdicts on the whole runs: a run did not finish, so its figures cover only what it logged. " +
			"The comparison over the time both runs cover is below the table.")
		note.Wrapping = fyne.TextWrapWord
		note.Importance = widget.WarningImportance
		box.Add(note)
	}
	return box
}

// setSpan shows another part of the shared time scale in both runs.
func (c *Window) setSpan(sp timeline.Viewport) {
	if sp == c.span {
		return
	}
	c.span = sp
	c.pic.Set(c.render())
}

// zoom zooms both runs by factor around shared time at.
func (c *Window) zoom(factor float64, at uint64) { c.setSpan(c.span.Zoom(factor, at)) }

// centre returns the shared time in the middle of the view.
func (c *Window) centre() uint64 {
	from, to := c.span.View()
	return from + (to-from)/2
}

// showWhole shows both runs whole.
func (c *Window) showWhole() {
	sp := c.span
	sp.From, sp.To = 0, 0
	c.setSpan(sp)
}

// render returns what draws the comparison at the current alignment.
func (c *Window) render() trackcanvas.RenderFunc {
	a, b := c.runs()
	cmp := c.cmp
	heapA, heapB := c.logs[0].Heap, c.logs[1].Heap
	align := c.alignment
	from, to := c.span.From, c.span.To
	reader := &c.reader
	return func(w, h int, scale float64) (*image.RGBA, error) {
		var layout compare.PictureLayout
		draw := func(w, h int) (*image.RGBA, error) {
			return compare.RenderWithHeaps(a, b, heapA, heapB, cmp, compare.PictureOptions{
				Width: w, Height: h, Scale: scale, Align: align, From: from, To: to, OmitTable: true, Dark: kit.DarkTheme(), Layout: &layout})
		}
		img, err := draw(w, h)
		// A pane too small for the picture's furniture gets the picture
		// drawn taller and shown scaled down, rather than nothing (and no
		// tooltips: its layout is not the pane's).
		for tall := max(h, minComparePicture.Y); err != nil && tall <= 8*minComparePicture.Y; tall *= 2 {
			img, err = draw(max(w, minComparePicture.X), tall)
		}
		if err != nil || layout.Size != image.Pt(w, h) {
			layout = compare.PictureLayout{}
		}
		reader.setLayout(layout)
		return img, err
	}
}

// minComparePicture is the least size in pixels compare.RenderWithHeaps
// draws: compare.Render's 400×300 above the heaps' fifth of the height
// (and more if its headline and HECs need it).
var minComparePicture = image.Pt(400, 375)

// swap makes B the baseline and A the run compared with it.
func (c *Window) swap() {
	c.paths[0], c.paths[1] = c.paths[1], c.paths[0]
	c.segs[0], c.segs[1] = c.segs[1], c.segs[0]
	c.names[0], c.names[1] = c.names[1], c.names[0]
	c.logs[0], c.logs[1] = c.logs[1], c.logs[0]
	selected, spec, typed := c.align.Selected, c.alignSpec, c.offsetEntry.Text
	from, to := c.span.From, c.span.To
	// An offset of B from A is the opposite offset of A from B (the entry
	// shows the one applied); markers and spans are found again in the
	// swapped runs.
	if t, ok := strings.CutPrefix(spec, "offset:"); ok {
		typed = oppositeOffset(t)
		spec = "offset:" + typed
	}
	c.show()
	c.offsetEntry.SetText(typed)
	c.align.SetSelected(selected)
	if spec != c.alignSpec {
		if err := c.applyAlign(spec); err != nil {
			c.alignError.SetText(err.Error())
			c.offsetRow.Show()
		}
	}
	// The shared scale is the same with A and B swapped: keep the view.
	sp := c.span
	sp.From, sp.To = from, to
	c.setSpan(sp)
}

// compareCanvas shows the comparison picture and turns the mouse wheel into
// zoom and drags into pans of both runs at once; a tooltip at the pointer
// says what is there, as the main window's track canvas does.
type compareCanvas struct {
	widget.BaseWidget
	c   *Window
	tip *trackcanvas.Tooltip
	// cursor is the line at the pointer's x through both runs' panels and
	// heaps (one piece each): where the one run's time lines up with the
	// other's.
	cursor [2]*canvas.Rectangle
	// pointer is where the pointer is over the canvas, hovering whether
	// it is.
	pointer  fyne.Position
	hovering bool
}

func newCompareCanvas(c *Window) *compareCanvas {
	cc := &compareCanvas{c: c, tip: trackcanvas.NewTooltip()}
	for i := range cc.cursor {
		cc.cursor[i] = canvas.NewRectangle(color.Transparent)
		cc.cursor[i].Hide()
	}
	cc.ExtendBaseWidget(cc)
	return cc
}

// CreateRenderer shows the picture's raster under the tooltip.
func (cc *compareCanvas) CreateRenderer() fyne.WidgetRenderer {
	return &compareCanvasRenderer{cc: cc, objects: append([]fyne.CanvasObject{cc.c.pic.Raster, cc.cursor[0], cc.cursor[1]}, cc.tip.Objects()...)}
}

// compareCanvasRenderer lays the tooltip over the picture.
type compareCanvasRenderer struct {
	cc      *compareCanvas
	objects []fyne.CanvasObject
}

func (r *compareCanvasRenderer) Layout(size fyne.Size) { r.cc.c.pic.Raster.Resize(size) }

func (r *compareCanvasRenderer) MinSize() fyne.Size { return r.cc.c.pic.Raster.MinSize() }

func (r *compareCanvasRenderer) Refresh() { canvas.Refresh(r.cc.c.pic.Raster) }

func (r *compareCanvasRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *compareCanvasRenderer) Destroy() {}

// MouseIn starts the tooltip.
func (cc *compareCanvas) MouseIn(ev *desktop.MouseEvent) { cc.MouseMoved(ev) }

// MouseMoved shows the tooltip of what is under the pointer.
func (cc *compareCanvas) MouseMoved(ev *desktop.MouseEvent) {
	cc.pointer, cc.hovering = ev.Position, true
	cc.placeTip()
}

// MouseOut hides the tooltip.
func (cc *compareCanvas) MouseOut() {
	cc.hovering = false
	cc.placeTip()
}

// placeTip shows, beside the pointer, what the picture shows there (the
// picture as last drawn: a zoom or pan redraws it, and the tooltip follows
// at the next move).
func (cc *compareCanvas) placeTip() {
	var lines []string
	c := cc.c
	th := paint.ThemeFor(kit.DarkTheme())
	var spans [2][2]int
	cursor := false
	x := float64(0)
	scale := float64(1)
	if cc.hovering && c.logs[0] != nil && c.logs[1] != nil {
		_, scale = cc.devicePixels()
		var y float64
		x, y = float64(cc.pointer.X)*scale, float64(cc.pointer.Y)*scale
		lines = c.reader.tipAt(x, y)
		spans, cursor = c.reader.cursorAt(x, y)
	}
	s := float32(scale)
	for i, line := range cc.cursor {
		if !cursor || spans[i][1] <= spans[i][0] {
			line.Hide()
		} else {
			line.FillColor = trackcanvas.Straight(paint.WithAlpha(th.Cursor, 0xb0))
			line.Move(fyne.NewPos(float32(math.Floor(x))/s, float32(spans[i][0])/s))
			line.Resize(fyne.NewSize(max(1/s, 1), float32(spans[i][1]-spans[i][0])/s))
			line.Show()
		}
		if fc := fyne.CurrentApp().Driver().CanvasForObject(cc); fc != nil {
			fc.Refresh(line)
		}
	}
	cc.tip.Place(cc, lines, cc.pointer, cc.Size(), th)
}

// devicePixels returns the picture's width in device pixels and the pixel
// ratio, as the picture draws it.
func (cc *compareCanvas) devicePixels() (int, float64) {
	scale := float64(1)
	if cv := fyne.CurrentApp().Driver().CanvasForObject(cc); cv != nil {
		scale = float64(cv.Scale())
	}
	return int(float64(cc.Size().Width)*scale + 0.5), scale
}

// Scrolled zooms both runs around the time under the pointer: up zooms in,
// by a factor of 2 for every 40 units scrolled (four wheel notches).
func (cc *compareCanvas) Scrolled(ev *fyne.ScrollEvent) {
	w, scale := cc.devicePixels()
	if w <= 0 {
		return
	}
	x0, pw := compare.Plot(w, scale)
	at := cc.c.span.TimeAt(float64(ev.Position.X)*scale, x0, pw)
	cc.c.zoom(math.Pow(2, -float64(ev.Scrolled.DY)/40), at)
	cc.hideTip()
}

// hideTip hides the tooltip and the cursor line until the pointer next moves (the picture is
// being drawn again for another span).
func (cc *compareCanvas) hideTip() {
	for _, line := range cc.cursor {
		line.Hide()
		if fc := fyne.CurrentApp().Driver().CanvasForObject(cc); fc != nil {
			fc.Refresh(line)
		}
	}
	cc.tip.Place(cc, nil, cc.pointer, cc.Size(), paint.ThemeFor(kit.DarkTheme()))
}

// Dragged pans both runs with the pointer.
func (cc *compareCanvas) Dragged(ev *fyne.DragEvent) {
	w, scale := cc.devicePixels()
	if w <= 0 {
		return
	}
	_, pw := compare.Plot(w, scale)
	ppn := cc.c.span.PixelsPerNs(pw)
	cc.c.setSpan(cc.c.span.Pan(-float64(ev.Dragged.DX) * scale / ppn))
	cc.hideTip()
}

// DragEnd ends a pan.
func (cc *compareCanvas) DragEnd() {}

// DoubleTapped shows both runs whole.
func (cc *compareCanvas) DoubleTapped(*fyne.PointEvent) { cc.c.showWhole() }

// exportImage saves the comparison picture as shown.
func (c *Window) exportImage() {
	img := c.pic.Export(c.win.Canvas().Scale())
	if img == nil {
		dialog.ShowInformation("Export", "There is no picture to export.", c.win)
		return
	}
	name := "compare-" + strings.TrimSuffix(c.names[0], filepath.Ext(c.names[0])) + "-" +
		strings.TrimSuffix(c.names[1], filepath.Ext(c.names[1])) + ".png"
	kit.PickFileToSave(c.win, c.host.UseNative, "Export the comparison as PNG", name, kit.PNGFilters, func(path string) {
		if err := trackcanvas.WritePNG(path, img); err != nil {
			dialog.ShowError(err, c.win)
			return
		}
		b := img.Bounds()
		dialog.ShowInformation("Export", kit.ExportedMessage("the comparison", b.Dx(), b.Dy(), []string{path}), c.win)
	})
}

// oppositeOffset returns the offset, as typed, that draws B as far the
// other way as t does: "12ms" and "+12ms" give "-12ms", "-12ms" gives
// "12ms".
func oppositeOffset(t string) string {
	switch {
	case t == "":
		return ""
	case strings.HasPrefix(t, "-"):
		return t[1:]
	case strings.HasPrefix(t, "+"):
		return "-" + t[1:]
	}
	return "-" + t
}

// commonMarkers returns the texts of user markers both runs have, in the
// order they first appear in a, at most alignChoicesPerKind.
func commonMarkers(a, b *timeline.Model) []string {
	inB := map[string]bool{}
	for _, t := range markerTexts(b) {
		inB[t.text] = true
	}
	var out []string
	for _, t := range markerTexts(a) {
		if inB[t.text] && len(out) < alignChoicesPerKind {
			out = append(out, t.text)
		}
	}
	return out
}

// commonSpanLabels returns the labels of user spans both runs have ended
// (those timeline.FindSpanStart finds), in the order of their first start
// in a, at most alignChoicesPerKind.
func commonSpanLabels(a, b *timeline.Model) []string {
	inB := spanStarts(b)
	var out []markerText
	for label, t := range spanStarts(a) {
		if _, ok := inB[label]; ok {
			out = append(out, markerText{label, t})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].time != out[j].time {
			return out[i].time < out[j].time
		}
		return out[i].text < out[j].text
	})
	labels := make([]string, 0, min(len(out), alignChoicesPerKind))
	for _, l := range out[:min(len(out), alignChoicesPerKind)] {
		labels = append(labels, l.text)
	}
	return labels
}

// spanStarts returns the first start of the user spans of each label in m.
func spanStarts(m *timeline.Model) map[string]uint64 {
	first := map[string]uint64{}
	for i := 0; i < m.NumUserSpans(); i++ {
		sp := m.UserSpan(i)
		label := m.String(sp.Label)
		if t, ok := first[label]; !ok || sp.Start < t {
			first[label] = sp.Start
		}
	}
	return first
}

// markerText is a marker's text and the time it first appears.
type markerText struct {
	text string
	time uint64
}

// markerTexts returns the distinct texts of m's user markers in order of
// first appearance.
func markerTexts(m *timeline.Model) []markerText {
	first := map[string]uint64{}
	add := func(in timeline.Instant) {
		if in.Kind != timeline.InstantUserMarker {
			return
		}
		s := m.String(int32(in.Arg))
		if t, ok := first[s]; !ok || in.Time < t {
			first[s] = in.Time
		}
	}
	for c := range m.HECs {
		h := &m.HECs[c]
		for i := 0; i < h.NumInstants(); i++ {
			add(h.Instant(i))
		}
	}
	for i := 0; i < m.NumGlobalInstants(); i++ {
		add(m.GlobalInstant(i))
	}
	out := make([]markerText, 0, len(first))
	for s, t := range first {
		out = append(out, markerText{s, t})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].time != out[j].time {
			return out[i].time < out[j].time
		}
		return out[i].text < out[j].text
	})
	return out
}

// maxDiffHeaderWidth is the widest a run's name heads its column of the
// table of differences, in Fyne units.
const maxDiffHeaderWidth = 220

// diffTable lays out every row of the table of differences, the change
// coloured by whether it is better or worse (the picture has room for only
// some of them).
func diffTable(cmp *compare.Comparison) fyne.CanvasObject {
	g := container.New(newColumnsLayout(6, 4*theme.Padding()))
	cell := func(text string, c color.Color, bold bool, align fyne.TextAlign) {
		t := canvas.NewText(text, c)
		t.TextStyle.Bold = bold
		t.Alignment = align
		g.Add(t)
	}
	fg := theme.Color(theme.ColorNameForeground)
	// A run's name heads its column, cut short if long (the window's
	// legend and the lines above the table say it whole).
	header := func(s string) string {
		return fitText(s, maxDiffHeaderWidth, theme.TextSize(), fyne.TextStyle{Bold: true})
	}
	for _, h := range []string{"", header("A: " + cmp.A), header("B: " + cmp.B), "B − A", "change", ""} {
		cell(h, fg, true, fyne.TextAlignTrailing)
	}
	group := ""
	for i := range cmp.Rows {
		r := &cmp.Rows[i]
		if r.Group != group {
			group = r.Group
			cell(group, fg, true, fyne.TextAlignLeading)
			for k := 0; k < 5; k++ {
				cell("", fg, false, fyne.TextAlignLeading)
			}
		}
		va, vb, d, rel := "—", "—", "", ""
		if r.HasA {
			va = showDiffValue(r.A, r.Unit)
		}
		if r.HasB {
			vb = showDiffValue(r.B, r.Unit)
		}
		if r.HasA && r.HasB {
			d = showDiffValue(math.Abs(r.Delta()), r.Unit)
			if r.Unit == compare.UnitFraction {
				d = compare.FormatPoints(r.Delta())
			}
			switch {
			case r.Delta() > 0:
				d = "+" + d
			case r.Delta() < 0:
				d = "-" + d
			default:
				d = "="
			}
		}
		if x, ok := r.Relative(); ok {
			rel = fmt.Sprintf("%+.1f%%", 100*x)
		}
		verdict := r.Verdict()
		col := fg
		switch verdict {
		case compare.VerdictBetter:
			col = compare.TextColour(compare.ColourBetter, kit.DarkTheme())
		case compare.VerdictWorse:
			col = compare.TextColour(compare.ColourWorse, kit.DarkTheme())
		}
		word := ""
		if verdict == compare.VerdictBetter || verdict == compare.VerdictWorse {
			word = verdict.String()
		}
		cell("   "+r.Name, fg, false, fyne.TextAlignLeading)
		cell(va, fg, false, fyne.TextAlignTrailing)
		cell(vb, fg, false, fyne.TextAlignTrailing)
		cell(d, col, false, fyne.TextAlignTrailing)
		cell(rel, col, false, fyne.TextAlignTrailing)
		cell(word, col, true, fyne.TextAlignLeading)
	}
	return container.NewPadded(g)
}

// showDiffValue formats a value of the table of differences in its unit
// (a difference of fractions in percentage points).
func showDiffValue(v float64, u compare.Unit) string {
	v = math.Max(v, 0)
	switch u {
	case compare.UnitNS:
		return timeline.FormatDuration(uint64(v))
	case compare.UnitBytes:
		return kit.FormatBytes(int64(math.Min(v, 1<<62)))
	case compare.UnitBytesPerSecond:
		return kit.FormatBytes(int64(math.Min(v, 1<<62))) + "/s"
	case compare.UnitFraction:
		return panels.Percent(v)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}
