package app

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// userView names the row of user events (START/STOP spans and markers),
// drawn by timeline.RenderUserRows.
const userView = "user"

// navRow is one row group the side panel can show or hide.
type navRow struct {
	name  string
	nav   *timelineNav
	shown bool
}

// rowPanels lays out row groups on one scale: the stack of those shown, and
// the side panel that toggles them (with the thread rows' order and
// paging) and shows the colour key.
func rowPanels(rows []*navRow) (stack, side *fyne.Container) {
	stack = container.NewGridWithRows(1)
	relayout := func() {
		stack.Objects = nil
		for _, r := range rows {
			if r.shown {
				stack.Objects = append(stack.Objects, r.nav)
			}
		}
		if len(stack.Objects) == 0 {
			stack.Objects = append(stack.Objects, widget.NewLabel("Tick a row group on the left to show it."))
		}
		stack.Layout = container.NewGridWithRows(len(stack.Objects)).Layout
		stack.Refresh()
	}
	side = container.NewVBox(widget.NewLabelWithStyle("Rows", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	for _, r := range rows {
		check := newKeyCheck(r.name, func(on bool) {
			r.shown = on
			relayout()
		})
		check.Checked = r.shown
		side.Add(check)
		if r.nav.view == "threads" {
			sortBy := newKeySelect(timeline.ThreadOrders, func(s string) {
				for i, o := range timeline.ThreadOrders {
					if o == s {
						r.nav.sortedMu.Lock()
						r.nav.threadOrder = timeline.ThreadOrder(i)
						r.nav.sortedMu.Unlock()
					}
				}
				r.nav.pic.raster.Refresh()
			})
			sortBy.SetSelectedIndex(int(r.nav.threadOrder))
			side.Add(container.NewBorder(nil, nil, widget.NewLabel("    sort by"), nil, sortBy))
			nav := r.nav
			first := widget.NewLabel("    from row 1")
			page := func(dir int) func() {
				return func() {
					first.SetText(fmt.Sprintf("    from row %d", nav.scrollThreads(dir*nav.threadPage())+1))
				}
			}
			side.Add(container.NewHBox(first, widget.NewButton("▲", page(-1)), widget.NewButton("▼", page(1))))
		}
	}
	side.Add(widget.NewLabelWithStyle("Key", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	side.Add(colourKey())
	relayout()
	return stack, side
}

// renderHeapRow draws the heap chart so that its plot's time scale is the
// timeline views' for opt: the chart is drawn into the part of the image
// whose left edge puts its plot where the timeline's plot starts, and its
// time range is what the timeline shows over the chart's plot (which ends
// earlier on the right, where the chart's legend sits).
func renderHeapRow(c *heapview.Chart, opt timeline.Options) (*image.RGBA, error) {
	img := image.NewRGBA(image.Rect(0, 0, opt.Width, opt.Height))
	g, pw := plot(opt)
	nsPerPx := float64(opt.To-opt.From) / pw
	timeAtX := func(x int) uint64 {
		t := float64(opt.From) + (float64(x)-g)*nsPerPx
		return uint64(max(t, 0))
	}
	cc := *c
	cc.NoLegend = true // the row lines up with the timeline; the Heap tab has the legend
	cc.Dark = opt.Dark
	cc.From, cc.To = opt.From, max(opt.To, opt.From+1)
	trial, err := cc.Layout(img.Bounds())
	if err != nil {
		return nil, fmt.Errorf("heap row: %w", err)
	}
	x0 := min(max(int(g)-trial.Plot.Min.X, 0), opt.Width/2)
	sub := image.Rect(x0, 0, opt.Width, opt.Height)
	l, err := cc.Layout(sub)
	if err != nil {
		return nil, fmt.Errorf("heap row: %w", err)
	}
	cc.From, cc.To = timeAtX(l.Plot.Min.X), timeAtX(l.Plot.Max.X)
	if cc.To <= cc.From {
		cc.To = cc.From + 1
	}
	draw.Draw(img, img.Bounds(), image.NewUniform(timeline.PaletteFor(opt.Dark).Background), image.Point{}, draw.Src)
	if err := cc.Draw(img.SubImage(sub).(*image.RGBA)); err != nil {
		return nil, fmt.Errorf("heap row: %w", err)
	}
	return img, nil
}

// hoverText is the read-out for widget point p of this row.
func (n *timelineNav) hoverText(p fyne.Position) string {
	switch {
	case n.heap != nil:
		return heapHoverText(n.heap, n.timeAt(p.X))
	case n.view == "" || n.view == "timeline":
		return hoverText(n.m, n.hit(p))
	case n.view == "threads":
		return threadHoverText(n.m, n.threadHit(p))
	case n.view == userView:
		return userHoverText(n.m, n.userHit(p))
	}
	return fmt.Sprintf("%s at %s", n.view, timeline.FormatDuration(n.timeAt(p.X)))
}

// threadHit returns the thread row under widget point p.
func (n *timelineNav) threadHit(p fyne.Position) timeline.ThreadHit {
	opt := n.options()
	r := n.ratio(opt)
	rows := n.threadRows(opt.From, opt.To)
	return timeline.HitThreadRows(n.m, opt, rows, float64(p.X)*r, float64(p.Y)*r)
}

// threadHoverText describes a thread row under the pointer: the thread,
// its state and why it is blocked, or the mix of states in the pixel.
func threadHoverText(m *timeline.Model, h timeline.ThreadHit) string {
	if h.Thread < 0 {
		return ""
	}
	th := &m.Threads[h.Thread]
	head := fmt.Sprintf("%s at %s: ", threadText(m, th.ID), timeline.FormatDuration(h.Time))
	if h.Marks > 0 {
		return head + fmt.Sprintf("%d changes in this pixel: %s. Zoom in to see each span.", h.Marks, mixText(&h.Times))
	}
	return head + fmt.Sprintf("%s, from %s for %s", timeline.ThreadStateText(h.Mark),
		timeline.FormatDuration(h.SpanStart), timeline.FormatDuration(h.SpanEnd-h.SpanStart))
}

// userHit returns the user-event row under widget point p.
func (n *timelineNav) userHit(p fyne.Position) timeline.UserHit {
	opt := n.options()
	r := n.ratio(opt)
	return timeline.HitUserRows(n.m, opt, float64(p.X)*r, float64(p.Y)*r)
}

// userHoverText describes the user span under the pointer.
func userHoverText(m *timeline.Model, h timeline.UserHit) string {
	if h.Label < 0 {
		return ""
	}
	name := m.String(m.Labels[h.Label].Label)
	if !h.Found {
		return fmt.Sprintf("%s at %s: not in a span", name, timeline.FormatDuration(h.Time))
	}
	return fmt.Sprintf("%s at %s: span from %s for %s", userSpanName(m, h.Span), timeline.FormatDuration(h.Time),
		timeline.FormatDuration(h.Span.Start), timeline.FormatDuration(h.Span.End-h.Span.Start))
}

// userSpanName names a user span by label and instance: "phase-3 #2".
func userSpanName(m *timeline.Model, sp timeline.UserSpan) string {
	s := m.String(sp.Label)
	if sp.ID != 0 {
		s += fmt.Sprintf(" #%d", sp.ID)
	}
	return s
}

// userSpanFacts are the facts of a clicked user span.
func userSpanFacts(m *timeline.Model, sp timeline.UserSpan) []fact {
	facts := []fact{{"User span", userSpanName(m, sp)},
		{"Start", timeline.FormatDuration(sp.Start)}, {"End", timeline.FormatDuration(sp.End)},
		{"Duration", timeline.FormatDuration(sp.End - sp.Start)}}
	if sp.Cap >= 0 {
		facts = append(facts, fact{"Started on HEC", fmt.Sprint(sp.Cap)})
	}
	for i := range m.Labels {
		if l := &m.Labels[i]; l.Label == sp.Label {
			facts = append(facts, fact{"Spans of this label", fmt.Sprintf("%d, %s in all, mean %s", l.Count,
				timeline.FormatDuration(l.Total), timeline.FormatDuration(l.Mean()))})
		}
	}
	return facts
}

// heapHoverText gives the heap profile's largest bands at time t.
func heapHoverText(c *heapview.Chart, t uint64) string {
	at := "Heap at " + timeline.FormatDuration(t)
	if c.Bands == nil {
		return at
	}
	vals, ok := c.Bands.ValuesAt(t, nil)
	if !ok {
		return at + ": no heap census here"
	}
	type bv struct {
		name string
		v    uint64
	}
	var list []bv
	var total uint64
	for b, v := range vals {
		total += v
		if v > 0 {
			list = append(list, bv{c.Bands.Name(b), v})
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].v > list[j].v })
	var parts []string
	for _, x := range list[:min(len(list), 6)] {
		parts = append(parts, fmt.Sprintf("%s %s", x.name, formatBytes(int64(min(x.v, 1<<62)))))
	}
	s := fmt.Sprintf("%s: %s in %d bands", at, formatBytes(int64(min(total, 1<<62))), len(list))
	if len(parts) > 0 {
		s += " — " + strings.Join(parts, ", ")
	}
	return s
}

// colourKey is the side panel's key to the colours of HEC and thread rows.
func colourKey() fyne.CanvasObject {
	items := []struct {
		c    color.RGBA
		name string
	}{
		{timeline.ColourRunning, "running"},
		{timeline.ColourGC, "GC (working)"},
		{timeline.ColourGCWaiting, "GC (waiting)"},
		{timeline.StateColour(timeline.StateRunnable), "runnable"},
		{timeline.BlockedColour(ingest.StopBlockedMVar), "blocked: MVar"},
		{timeline.BlockedColour(ingest.StopBlockedBlackHole), "blocked: black hole"},
		{timeline.BlockedColour(ingest.StopBlockedSTM), "blocked: STM"},
		{timeline.BlockedColour(ingest.StopBlockedRead), "blocked: I/O, delay"},
		{timeline.BlockedColour(ingest.StopForeignCall), "foreign call"},
		{timeline.BlockedColour(ingest.StopBlockedThrowTo), "blocked: throwTo"},
		{timeline.ColourMarker, "user marker"},
	}
	box := container.NewVBox()
	for _, it := range items {
		sw := canvas.NewRectangle(it.c)
		sw.SetMinSize(fyne.NewSize(14, 14))
		box.Add(container.NewHBox(container.NewCenter(sw), widget.NewLabel(it.name)))
	}
	return box
}
