package app

import (
	"fmt"
	"sort"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// addNavPanels wires the canvas to the status line and the Details,
// Selection and User Events tabs.
func (v *eventlogView) addNavPanels() {
	m := v.log.Model
	v.details = container.NewVBox(widget.NewLabel("Click a span, GC or user span on the timeline to see it here."))
	v.selection = container.NewVBox()
	v.canvas.OnView = func(uint64, uint64) { v.showStatus() }
	v.canvas.OnSelect = func(from, to uint64, ok, final bool) {
		v.showStatus()
		if final {
			v.showSelection()
		}
	}
	v.canvas.OnTap = v.showTap
	v.detailsTab = container.NewTabItem("Details", container.NewScroll(v.details))
	v.selTab = container.NewTabItem("Selection", container.NewScroll(v.selection))
	v.addTab(v.selTab)
	v.addTab(v.detailsTab)
	if len(m.Labels) > 0 {
		v.addTab(container.NewTabItem("User Events", container.NewScroll(userEventsPanel(m))))
	}
	v.showStatus()
	// The Selection tab is filled when first shown: measuring its text
	// costs the opening of a log a tenth of a second, and until the user
	// selects a range it repeats the Summary tab's figures.
	v.selStale = true
	prevTab := v.tabs.OnSelected
	v.tabs.OnSelected = func(ti *container.TabItem) {
		if prevTab != nil {
			prevTab(ti)
		}
		if ti == v.selTab && v.selStale {
			v.showSelection()
		}
	}
}

// showStatus writes the visible range and the selection.
func (v *eventlogView) showStatus() {
	from, to := v.canvas.View()
	step := readoutStep(to - from)
	s := fmt.Sprintf("View %s – %s (%s of %s)", paint.Time(from, step), paint.Time(to, step),
		paint.Duration(to-from), paint.Duration(v.log.Model.End))
	if a, b, ok := v.canvas.Selection(); ok {
		sstep := readoutStep(b - a) // as the Selection tab writes it
		s += fmt.Sprintf(" · selected %s – %s (%s; Z zooms to it, Esc clears)", paint.Time(a, sstep), paint.Time(b, sstep), paint.Duration(b-a))
	}
	s += " · wheel scrolls, Ctrl+wheel zooms, drag pans, Shift+drag selects; Help lists the keys"
	v.status.SetText(s)
}

// readoutStep is the precision times are written to in a view span ns
// wide: the power of ten at or below a thousandth of it.
func readoutStep(span uint64) uint64 {
	step := uint64(1)
	for step*10 <= span/1000 {
		step *= 10
	}
	return step
}

// showSelection fills the Selection tab with the time each HEC spent in
// each state during the selection, or during the whole run without one.
func (v *eventlogView) showSelection() {
	v.selStale = false
	from, to, sel := v.canvas.Selection()
	summary, pending := fillSelection(v.selection, v.log, from, to, sel, "Whole run", "the file")
	v.selGen++
	if !pending {
		return
	}
	gen, ev := v.selGen, v.log
	go func() {
		put := selectionSummary(ev, from, to, summary)
		kit.OnUI(func() {
			if gen != v.selGen {
				return // a newer selection replaced this one
			}
			put()
			if v.onSelSummary != nil {
				v.onSelSummary()
			}
		})
	}()
}

// fillSelection sets box, a Selection tab's content, to what ev shows of
// the selection [from, to] (sel: whether there is one; without one, of
// everything ev holds, titled whole): the time per HEC and state, the user
// spans, and the run's figures. It returns the box the figures go in, and
// whether they are still to be read again from ev's file (named source in
// the note shown meanwhile; see selectionSummary).
func fillSelection(box *fyne.Container, ev *loaded.Eventlog, from, to uint64, sel bool, whole, source string) (summary *fyne.Container, pending bool) {
	m := ev.Model
	title := "Selection"
	if !sel {
		from, to, title = 0, m.End, whole
	}
	step := readoutStep(to - from) // as the status line writes the selection
	title = fmt.Sprintf("%s: %s – %s (%s)", title, paint.Time(from, step), paint.Time(to, step), paint.Duration(to-from))
	summary = container.NewVBox()
	caption := widget.NewLabel(hecTableCaption)
	caption.Wrapping = fyne.TextWrapWord
	box.Objects = []fyne.CanvasObject{
		widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		grid(rangeRows(m, from, to)),
		caption,
		userSpanPanel(m, from, to),
		summary,
	}
	box.Refresh()
	if !sel || ev.Path == "" {
		summary.Add(rangeSummary(ev, &ev.Summary))
		return summary, false
	}
	summary.Add(widget.NewLabel("Summarising the selection (reading " + source + " again)…"))
	return summary, true
}

// selectionSummary reads the selection [from, to] of ev's file (of the
// segment ev shows) again, in the background, and returns what puts its
// figures into summary, to be called on the UI goroutine.
func selectionSummary(ev *loaded.Eventlog, from, to uint64, summary *fyne.Container) func() {
	s, err := loaded.SummarizeLogRange(ev, from, to)
	return func() {
		if err != nil {
			summary.Objects = []fyne.CanvasObject{widget.NewLabel("No summary of the selection: " + err.Error())}
		} else {
			summary.Objects = []fyne.CanvasObject{rangeSummary(ev, &s)}
		}
		summary.Refresh()
	}
}

// rangeSummary shows ThreadScope's Time, Heap, GC and Sparks figures of a
// summary (of the whole run or of a selection).
func rangeSummary(ev *loaded.Eventlog, s *timeline.Summary) fyne.CanvasObject {
	part := *ev
	part.Summary = *s
	return container.NewVBox(summaryPanel(&part),
		widget.NewLabelWithStyle("GC", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), gcPanel(s),
		widget.NewLabelWithStyle("Sparks", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), sparksPanel(s))
}

// hecTableCaption says what the Selection tab's table of time per HEC
// counts, and why its GC column need not be the GC time below it.
const hecTableCaption = "Time each HEC spent in each state (All: summed over the HECs). A HEC is in GC from its GC start to its GC end, " +
	"waiting for the others included, so the HECs' time in GC can exceed the GC time below, which counts each collection's pause once."

// rangeRows is the table of time per HEC and state over [from, to): one
// row per HEC and one for all, running, GC and idle as durations and
// shares of the time known. Where a HEC is not known up to the end (a log
// cut short, or still being received), a column "No data" gives the time
// past its frontier, which counts neither as idle nor in the shares.
func rangeRows(m *timeline.Model, from, to uint64) [][]string {
	partial := m.Partial()
	head := []string{"HEC", "Running", "In GC", "Idle", "Running %", "In GC %"}
	if partial {
		head = append(head, "No data")
	}
	rows := [][]string{head}
	times := m.RangeTimes(from, to)
	var all timeline.Durations
	var allUnknown uint64
	row := func(name string, d *timeline.Durations, unknown uint64) []string {
		total := float64(max(d.Total(), 1))
		gc := d.GC()
		r := []string{name, timeline.FormatDuration(d[timeline.StateRunning]), timeline.FormatDuration(gc),
			timeline.FormatDuration(d[timeline.StateIdle]),
			percent(float64(d[timeline.StateRunning]) / total), percent(float64(gc) / total)}
		if partial {
			r = append(r, timeline.FormatDuration(unknown))
		}
		return r
	}
	for c := range times {
		u := m.HECs[c].Track.Unknown(from, to)
		rows = append(rows, row(strconv.Itoa(int(m.HECs[c].Cap)), &times[c], u))
		for s := range all {
			all[s] += times[c][s]
		}
		allUnknown += u
	}
	if len(times) > 1 {
		rows = append(rows, row("All", &all, allUnknown))
	}
	return rows
}

// userSpanPanel sums the user START/STOP spans per label that overlap
// [from, to] (the part inside it), or says there are none.
func userSpanPanel(m *timeline.Model, from, to uint64) fyne.CanvasObject {
	if m.NumUserSpans() == 0 {
		return widget.NewLabel("No user START/STOP spans in this log.")
	}
	type sum struct {
		count int
		total uint64
	}
	sums := map[int32]*sum{}
	var order []int32
	for i := 0; i < m.NumUserSpans(); i++ {
		sp := m.UserSpan(i)
		if sp.End < from || sp.Start > to {
			continue
		}
		s := sums[sp.Label]
		if s == nil {
			s = &sum{}
			sums[sp.Label] = s
			order = append(order, sp.Label)
		}
		s.count++
		s.total += min(sp.End, to) - max(sp.Start, from)
	}
	if len(order) == 0 {
		return widget.NewLabel("No user spans overlap this range.")
	}
	sort.SliceStable(order, func(i, j int) bool { return sums[order[i]].total > sums[order[j]].total })
	rows := [][]string{{"User span", "Count", "Time in range"}}
	for _, l := range order {
		rows = append(rows, []string{m.String(l), paint.Count(int64(sums[l].count)), timeline.FormatDuration(sums[l].total)})
	}
	return grid(rows)
}

// userEventsPanel is the table of user spans per label over the whole run
// (count, total, min, mean, max, open and unmatched).
func userEventsPanel(m *timeline.Model) fyne.CanvasObject {
	rows := [][]string{{"Label", "Count", "Total", "Min", "Mean", "Max", "Open", "Unmatched"}}
	for i := range m.Labels {
		l := &m.Labels[i]
		rows = append(rows, []string{m.String(l.Label), paint.Count(int64(l.Count)), timeline.FormatDuration(l.Total),
			timeline.FormatDuration(l.Min), timeline.FormatDuration(l.Mean()), timeline.FormatDuration(l.Max),
			strconv.Itoa(l.Open), strconv.Itoa(l.Unmatched)})
	}
	return grid(rows)
}
