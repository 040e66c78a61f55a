package app

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// eventlogView shows a loaded eventlog: a notice if it did not load whole,
// the timeline of the whole run, and under it the run's summary and the
// process that wrote it.
type eventlogView struct {
	log *Eventlog
	// canvas is the timeline: every track of the run under one time axis
	// (app/trackcanvas*.go); nil if the log has no timed events. status,
	// under it, shows the visible range and the selection.
	canvas *trackCanvas
	status *widget.Label
	split  *container.Split // the timeline over the tabs
	// dividerSet is the split's offset as the app last set it: an offset
	// that differs from it is where the user dragged the divider.
	dividerSet float64
	tabs       *container.AppTabs
	root       fyne.CanvasObject

	// details holds the facts of the last span clicked; selection the
	// figures of the selection (or the whole run).
	details, selection *fyne.Container
	detailsTab, selTab *container.TabItem
	// selStale: the Selection tab has not been filled since the view was
	// made (it is filled when first shown).
	selStale bool
	// selGen counts selections, so that a slow summary of an old one is
	// dropped; onSelSummary (tests) hears when a summary is shown.
	selGen       int
	onSelSummary func()

	// events is the Events tab and bookmarks the Bookmarks tab; nil
	// without a navigable timeline or an index.
	events    *eventList
	bookmarks *bookmarkPanel

	// spans and profile are the Spans and Profile tabs (nil without them).
	spans   *spansView
	profile *profileView
	// findings is the Findings tab (nil without a timeline).
	findings *findingsView

	// segments chooses which eventlog of a file holding several the view
	// shows (nil for a file of one); pickSegment, set by the window, loads
	// the one picked (app/segmentchooser.go).
	segments    *widget.Select
	pickSegment func(int)
}

func newEventlogView(ev *Eventlog) *eventlogView {
	v := &eventlogView{log: ev}
	var timelineArea fyne.CanvasObject
	if ev.Model != nil && ev.Model.End > 0 {
		timelineArea = v.buildTimeline() // app/trackcanvas_view.go
	}
	header := widget.NewLabelWithStyle(ev.Path, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	header.Truncation = fyne.TextTruncateEllipsis
	var headRow fyne.CanvasObject = header
	v.segments = newSegmentChooser(ev, func(k int) {
		if v.pickSegment != nil {
			v.pickSegment(k)
		}
	})
	if v.segments != nil {
		headRow = container.NewBorder(nil, nil, nil, sizedChooser(v.segments), header)
	}
	head := container.NewVBox(headRow)
	if n := ingestStatusNotice(ev); n != "" {
		head.Add(newNotice(n, func() { v.root.Refresh() }))
	}
	s := &ev.Summary
	v.tabs = container.NewAppTabs(
		container.NewTabItem("Summary", container.NewScroll(summaryPanel(ev))),
		container.NewTabItem("GC", container.NewScroll(gcPanel(s))),
		container.NewTabItem("Sparks", container.NewScroll(sparksPanel(s))),
		container.NewTabItem("Process", processPanel(s)),
	)
	if v.canvas != nil {
		v.addNavPanels()
		v.addEventPanels()
		v.addAnalysisTabs() // Spans and Profile tabs: app/spansview.go, app/profileview.go
		v.addFindingsTab()  // app/findingsview.go
	}
	var top fyne.CanvasObject
	if v.canvas != nil {
		top = timelineArea
	} else {
		l := widget.NewLabel("This log has no timed events to draw.")
		l.Alignment = fyne.TextAlignCenter
		top = l
	}
	v.split = container.NewVSplit(top, v.tabs)
	v.split.Offset = rememberedDivider(currentSettings())
	v.dividerSet = v.split.Offset
	v.root = container.NewBorder(head, nil, nil, nil, v.split)
	return v
}

func (v *eventlogView) content() fyne.CanvasObject { return v.root }

// Where the divider between the timeline and the tabs starts: the offset
// (the timeline's share of the height under the file's name) the user last
// dragged it to, kept at prefDivider, else defaultDivider.
const (
	prefDivider = "eventlog.divider"
	// defaultDivider gives the tabs 36 % of the height under the file's
	// name: at least 30 % of the window's height in a window of 400 units
	// or more (the name's row takes ~40), room for the Summary's first
	// rows at 1280×800.
	defaultDivider = 0.64
	// minDivider and maxDivider bound a remembered offset, so that
	// neither the timeline nor the tabs start hidden.
	minDivider, maxDivider = 0.15, 0.9
)

// rememberedDivider returns the offset the divider starts at.
func rememberedDivider(s Settings) float64 {
	return min(maxDivider, max(minDivider, s.FloatWithFallback(prefDivider, defaultDivider)))
}

// setDivider moves the divider to offset, for the app (not the user).
func (v *eventlogView) setDivider(offset float64) {
	v.keepDivider()
	v.split.SetOffset(offset)
	v.dividerSet = v.split.Offset
}

// keepDivider remembers where the user dragged the divider, if they did
// since the app last set it, for the views made after.
func (v *eventlogView) keepDivider() {
	if v.split == nil || v.split.Offset == v.dividerSet {
		return
	}
	v.dividerSet = v.split.Offset
	currentSettings().SetFloat(prefDivider, v.split.Offset)
}

// addTab adds a tab to the view's tabs while the view is being made. It
// does not refresh them, as AppTabs.Append does: each refresh makes the
// tab bar again, and eleven of them cost a quarter of a second before the
// window could show the loaded log.
func (v *eventlogView) addTab(t *container.TabItem) {
	v.tabs.Items = append(v.tabs.Items, t)
}

// release closes the log's file once the view is gone (off Fyne's loop:
// closing waits for detail being decoded).
func (v *eventlogView) release() {
	v.keepDivider()
	if l := v.log.Log; l != nil {
		go l.Close()
	}
}

// fact is one labelled value of a facts panel.
// fact is a labelled value of a facts grid; a hint, if any, shows while the
// pointer rests on the value (why a figure reads "—").
type fact struct{ label, value, hint string }

func percent(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) + "%" }

// summaryPanel shows the Time and Heap figures, as ThreadScope's tabs do,
// and what the load found; of a range (ev.Summary.Range, the Selection
// tab), the range's figures, with what is the run's marked so. A figure the
// log (or the range) has no events for reads "—", and its hint says what is
// missing.
func summaryPanel(ev *Eventlog) fyne.CanvasObject {
	s := &ev.Summary
	var run []fact
	if s.Range {
		ran := paint.Count(int64(min(s.ThreadsRan, 1<<62)))
		if n := len(s.ThreadsRanFirst); n > 0 {
			ids := make([]string, n)
			for i, id := range s.ThreadsRanFirst {
				ids[i] = strconv.FormatUint(uint64(id), 10)
			}
			if uint64(n) < s.ThreadsRan {
				ids = append(ids, "…")
			}
			ran += " (" + strings.Join(ids, ", ") + ")"
		}
		run = append(run,
			fact{"Events", paint.EventCount(s.Events, s.BlockMarkers), ""},
			fact{"Threads ran", ran, "The threads running on a HEC when the range begins, and those started in it."},
			fact{"Threads created", paint.Count(int64(min(s.Threads, 1<<62))), ""},
			fact{"HECs (the run's)", s.CapabilitiesText(), ""},
			fact{"File (the run's)", formatBytes(ev.Size) + " · " + ev.Status.String(), ""},
		)
	} else {
		run = append(run, fact{"Size", formatBytes(ev.Size), ""})
		run = append(run, segmentFacts(ev)...)
		run = append(run,
			fact{"State", ev.Status.String(), ""},
			fact{"Events", paint.EventCount(s.Events, s.BlockMarkers), ""},
			fact{"Capabilities", s.CapabilitiesText(), ""},
			fact{"Threads created", paint.Count(int64(min(s.Threads, 1<<62))), ""},
			fact{"Loaded in", timeline.FormatDuration(uint64(ev.LoadTime)), ""},
		)
	}
	if ev.SummaryErr != nil {
		run = append(run, fact{"Statistics", "not available: " + ev.SummaryErr.Error(), ""})
	}
	times := rtsTimeFacts(&s.RTSStats)
	times = append(times, fact{"Total time (ThreadScope)", timeline.FormatDuration(s.TotalNS),
		"ThreadScope's total time: from the RTS's start to the last event, in whole microseconds."})
	whose := " (ThreadScope)"
	if s.GCFrom == timeline.GCFromPauses {
		whose = " (pauses)"
	}
	if gc, ok := s.GCTime(); ok {
		from := "ThreadScope's count"
		switch {
		case s.GCFrom == timeline.GCFromPauses && s.Range:
			from = "the pauses in the range"
		case s.GCFrom == timeline.GCFromPauses:
			from = "the GC events (no heap events)"
		}
		hint := "GC time from " + s.GCFrom.Describe() + "."
		times = append(times,
			fact{"Mutator time" + whose, timeline.FormatDuration(s.MutatorNS), ""},
			fact{"GC time" + whose, timeline.FormatDuration(gc), hint},
			fact{"GC time from", from, hint},
			fact{"Productivity" + whose, percent(s.Productivity), ""},
		)
	} else {
		why := "No GC time: " + s.GCFrom.Describe() + "."
		times = append(times, absentFact("Mutator time"+whose, why), absentFact("GC time"+whose, why), absentFact("Productivity"+whose, why))
	}
	// lacks says why a heap figure is absent: its events are not in the
	// log, or not in the range.
	lacks := func(kind, when string) string {
		if s.Range {
			return "No " + kind + " event in this range; GHC writes one " + when + "."
		}
		return "The log has no " + kind + " events; GHC writes one " + when + "."
	}
	h := &s.Heap
	bytesFact := func(label string, v uint64, ok bool, why string) fact {
		if !ok {
			return absentFact(label, why)
		}
		return fact{label, formatBytes(int64(min(v, 1<<62))), ""}
	}
	rateWhy := lacks("HeapAllocated", "per HEC at each collection")
	if h.HasAllocated {
		rateWhy = "No mutator time to divide the allocation by."
	}
	rate := absentFact("Allocation rate"+whose, rateWhy)
	if s.HasAllocRate() {
		rate = fact{"Allocation rate" + whose, formatBytes(int64(min(h.AllocRate, 1<<62))) + "/s",
			"Per second of the mutator time above; -s's alloc rate is per second of mutator CPU time, which the eventlog lacks."}
	}
	r := &s.RTSStats
	slop := rtsFact(r, "Max slop (RTS)", r.HasMaxSlop, formatBytes(int64(min(r.MaxSlop, 1<<62))),
		"-s's maximum slop: of the major collections only. Exact.", timeline.WhyNoMaxSlop)
	heap := []fact{
		bytesFact("Total heap size", h.MaxSize, h.HasSize, lacks("HeapSize", "at each collection")),
		bytesFact("Max heap residency", h.MaxLive, h.HasLive, lacks("HeapLive", "after each major collection")),
		bytesFact("Allocated", h.Allocated, h.HasAllocated, lacks("HeapAllocated", "per HEC at each collection")),
		rate,
		slop,
		bytesFact("Max slop (ThreadScope)", h.MaxSlop, h.HasStats, lacks("GCStatsGHC", "at each collection (GHC 7.6 and later)")),
		bytesFact("Copied in GC", h.Copied, h.HasStats, lacks("GCStatsGHC", "at each collection (GHC 7.6 and later)")),
	}
	cols := &sectionColumns{widths: []float32{factsWidth(run), factsWidth(times), factsWidth(heap)}}
	return container.New(cols,
		section("Run", factsGrid(run)),
		section("Time", factsGrid(times)),
		section("Heap", factsGrid(heap)))
}

// factsWidth is the width a facts grid needs to write its longest label
// and longest value each on one line.
func factsWidth(facts []fact) float32 {
	var label, value float32
	size := theme.TextSize()
	for _, f := range facts {
		label = max(label, fyne.MeasureText(f.label, size, fyne.TextStyle{Bold: true}).Width)
		value = max(value, fyne.MeasureText(f.value, size, fyne.TextStyle{}).Width)
	}
	// Each label's inner padding either side, the form's padding between
	// them, NewPadded's around.
	return label + value + 4*theme.InnerPadding() + 3*theme.Padding()
}

// sectionColumns lays out the Summary's sections side by side in as many
// equal columns as give each section the width it asks for (widths, in
// the sections' order), a row of columns after another, down to one
// column in a narrow tab (1280×800 at FYNE_SCALE=2): the values wrap
// rather than the tab scrolling sideways. Its minimum height is that of
// the rows at the width it was last laid out at.
type sectionColumns struct {
	widths []float32
	width  float32 // as last laid out
}

// columns returns how many columns fit width.
func (l *sectionColumns) columns(n int, width float32) int {
	pad := theme.Padding()
	for cols := n; cols > 1; cols-- {
		w := (width - float32(cols-1)*pad) / float32(cols)
		fits := true
		for _, need := range l.widths {
			fits = fits && need <= w
		}
		if fits {
			return cols
		}
	}
	return 1
}

// rowsOf calls f for each row of objects laid out cols to a row, with the
// row's height.
func rowsOf(objects []fyne.CanvasObject, cols int, f func(row []fyne.CanvasObject, h float32)) {
	for i := 0; i < len(objects); i += cols {
		row := objects[i:min(i+cols, len(objects))]
		var h float32
		for _, o := range row {
			h = max(h, o.MinSize().Height)
		}
		f(row, h)
	}
}

// Layout places the sections in columns that fit size's width.
func (l *sectionColumns) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	l.width = size.Width
	cols := l.columns(len(objects), size.Width)
	pad := theme.Padding()
	w := (size.Width - float32(cols-1)*pad) / float32(cols)
	var y float32
	rowsOf(objects, cols, func(row []fyne.CanvasObject, h float32) {
		for j, o := range row {
			o.Move(fyne.NewPos(float32(j)*(w+pad), y))
			o.Resize(fyne.NewSize(w, h))
		}
		y += h + pad
	})
}

// MinSize is as wide as the widest section's minimum (one column), as
// high as the rows at the width last laid out (all in one row before).
func (l *sectionColumns) MinSize(objects []fyne.CanvasObject) fyne.Size {
	cols := len(objects)
	if l.width > 0 {
		cols = l.columns(len(objects), l.width)
	}
	var size fyne.Size
	pad := theme.Padding()
	for _, o := range objects {
		size.Width = max(size.Width, o.MinSize().Width)
	}
	rowsOf(objects, max(cols, 1), func(_ []fyne.CanvasObject, h float32) {
		size.Height += h + pad
	})
	return fyne.NewSize(size.Width, max(size.Height-pad, 0))
}

// rtsTimeFacts are the Time figures of `+RTS -s` (timeline.RTSStats), or
// one absent fact saying why the log has none.
func rtsTimeFacts(r *timeline.RTSStats) []fact {
	if !r.Available {
		return []fact{absentFact("+RTS -s figures", "No -s figures: "+r.Why+".")}
	}
	const approx = "Approximate, within some 20 μs of the RTS's own: the eventlog does not mark where initialisation ends and shutdown begins, only the main OS thread's calls into Haskell next to them."
	phase := func(label string, ns uint64, what string) fact {
		if !r.HasPhases {
			return absentFact(label, "Not known: "+r.PhasesWhy+".")
		}
		return fact{label, timeline.FormatDuration(ns), what + " " + approx}
	}
	out := []fact{
		phase("Total elapsed (RTS)", r.ElapsedNS, "-s's Total time (elapsed): to the RTS's final report."),
		phase("INIT elapsed (RTS)", r.InitNS, "-s's INIT time (elapsed)."),
		phase("MUT elapsed (RTS)", r.MutatorNS, "-s's MUT time (elapsed): from INIT to the start of the program's exit, less GC."),
	}
	if r.HasGCElapsed {
		out = append(out, fact{"GC elapsed (RTS)", timeline.FormatDuration(r.GCElapsedNS),
			"-s's GC time (elapsed): every collection from its GC start to its GC end on the HEC that led it, which the RTS writes with the clock readings -s adds up. Exact."})
	} else {
		out = append(out, absentFact("GC elapsed (RTS)", "Not known: "+r.GCWhy+"."))
	}
	out = append(out, phase("EXIT elapsed (RTS)", r.ExitNS, "-s's EXIT time (elapsed), less GC."))
	switch {
	case r.HasProductivity:
		out = append(out, fact{"Productivity (RTS)", percent(r.Productivity), "-s's productivity of total elapsed time: (total − GC − INIT − EXIT) / total. " + approx})
	case !r.HasPhases:
		out = append(out, absentFact("Productivity (RTS)", "Not known: "+r.PhasesWhy+"."))
	default:
		out = append(out, absentFact("Productivity (RTS)", "Not known: "+r.GCWhy+"."))
	}
	return out
}

// rtsFact is one RTS figure: value v with hint if the log has it (ok),
// else absent, with the whole log's reason or why.
func rtsFact(r *timeline.RTSStats, label string, ok bool, v, hint, why string) fact {
	switch {
	case !r.Available:
		return absentFact(label, "No -s figures: "+r.Why+".")
	case !ok:
		return absentFact(label, "Not known: "+why+".")
	}
	return fact{label, v, hint}
}

// absentFact is a figure the log lacks: "—", with why as its hint.
func absentFact(label, why string) fact { return fact{label, "—", why} }

// section puts a bold heading over content.
func section(title string, content fyne.CanvasObject) fyne.CanvasObject {
	return container.NewBorder(widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, nil, nil, content)
}

// gcPanel shows the collections GHC reported per generation and in all (as
// `hecscope summary` does, under the same words) and ThreadScope's count.
func gcPanel(s *timeline.Summary) fyne.CanvasObject {
	rows := [][]string{{"Generation", "Collections", "Parallel", "Elapsed", "Avg pause", "Max pause", "Copied"}}
	row := func(name string, g timeline.GenStats) []string {
		return []string{name, paint.Count(int64(g.Collections)), paint.Count(int64(g.ParCollections)),
			timeline.FormatDuration(g.ElapsedNS), timeline.FormatDuration(g.MeanPauseNS()), timeline.FormatDuration(g.MaxPauseNS),
			formatBytes(int64(min(g.Copied, 1<<62)))}
	}
	for _, g := range s.GC.Gens {
		rows = append(rows, row(fmt.Sprintf("Gen %d", g.Gen), g))
	}
	rows = append(rows, row("Total", s.GC.Reported))
	caption := widget.NewLabel("The table counts " + timeline.GCRowsDefinition + ": -s's rows by generation, exact.")
	caption.Wrapping = fyne.TextWrapWord
	balance := "n/a"
	if s.GC.HasWorkBalance {
		balance = strconv.FormatFloat(s.GC.WorkBalance, 'f', 2, 64) + "%"
	}
	count := func(n int, ns, maxNS uint64, used bool) string {
		the := ""
		switch {
		case used && s.Range:
			the = " (the GC time above)"
		case used:
			the = " (the GC time of the Summary)"
		}
		return paint.CountOf(int64(n), "collection", "collections") + ", " + timeline.FormatDuration(ns) + the +
			", max pause " + timeline.FormatDuration(maxNS)
	}
	var facts []fact
	if s.HasHeap || s.Range {
		facts = append(facts, fact{"ThreadScope's count", count(s.GC.Total.Collections, s.GC.Total.ElapsedNS, s.GC.Total.MaxPauseNS,
			s.GCFrom == timeline.GCFromThreadScope), timeline.GCFromThreadScope.Describe() + "."})
	} else {
		facts = append(facts, absentFact("ThreadScope's count", "The log has no heap events, without which ThreadScope counts no collection."))
	}
	if p := s.GC.Pauses; p.Count > 0 || s.GCFrom == timeline.GCFromPauses {
		facts = append(facts, fact{"Pauses from GC events", count(p.Count, p.ElapsedNS, p.MaxNS, s.GCFrom == timeline.GCFromPauses),
			timeline.GCFromPauses.Describe() + "."})
	}
	facts = append(facts, fact{"Parallel GC threads", strconv.Itoa(s.GC.ParThreads), ""})
	r := &s.RTSStats
	rtsBal := strconv.FormatFloat(100*r.WorkBalance, 'f', 2, 64) + "%"
	if r.WorkBalance == 0 {
		rtsBal = "0 (no parallel collection)"
	}
	facts = append(facts, rtsFact(r, "Work balance (RTS)", r.HasWorkBalance, rtsBal,
		"-s's parallel GC work balance: the balanced bytes copied over the bytes copied, of the parallel collections (0 serial, 100% perfect). Exact.", timeline.WhyNoWorkBalance))
	if s.Heap.HasStats {
		facts = append(facts, fact{"Work balance (ThreadScope)", balance, "ThreadScope's formula, from the max and total bytes copied per GC thread."})
	} else {
		facts = append(facts, absentFact("Work balance (ThreadScope)", "No GCStatsGHC events; GHC writes one at each collection (GHC 7.6 and later)."))
	}
	return container.NewVBox(caption, grid(rows), factsGrid(facts))
}

// sparksColumnsDefinition says what each column of the Sparks table
// counts: the RTS counts a spark's creation on the HEC that created it and
// its running on the HEC that ran it, which may have stolen it.
const sparksColumnsDefinition = "Total created counts the sparks this HEC created (into its pool, dud or overflowed), Overflowed and Dud those of them; " +
	"Converted (run) the sparks it ran, its own and those it stole from other HECs, so it can exceed Total; " +
	"GC'd and Fizzled those it found collected or already evaluated, in its pool or when taking one."

// sparksPanel shows ThreadScope's spark statistics per capability, with
// what each column counts.
func sparksPanel(s *timeline.Summary) fyne.CanvasObject {
	if len(s.Sparks.PerCap) == 0 {
		return widget.NewLabel("This log has no spark counters.")
	}
	rows := [][]string{{"HEC", "Total created", "Converted (run)", "Overflowed", "Dud", "GC'd", "Fizzled"}}
	row := func(name string, c timeline.SparkCounts) []string {
		out := []string{name}
		for _, n := range []uint64{c.Total, c.Converted, c.Overflowed, c.Dud, c.GCd, c.Fizzled} {
			out = append(out, paint.Count(int64(n)))
		}
		return out
	}
	for _, c := range s.Sparks.PerCap {
		rows = append(rows, row(strconv.Itoa(c.Cap), c.SparkCounts))
	}
	rows = append(rows, row("Total", s.Sparks.Total))
	caption := widget.NewLabel(sparksColumnsDefinition)
	caption.Wrapping = fyne.TextWrapWord
	return container.NewVBox(grid(rows), caption)
}

// grid lays out a small table whose first row is its header, at the top
// of the space it is given: its rows keep a label's height however tall
// the tab is (a grid alone would share the height out among them).
func grid(rows [][]string) fyne.CanvasObject {
	// The cells go in at once: each Container.Add lays the grid out again.
	var cells []fyne.CanvasObject
	for i, r := range rows {
		for j, cell := range r {
			align := fyne.TextAlignTrailing
			if j == 0 {
				align = fyne.TextAlignLeading
			}
			cells = append(cells, widget.NewLabelWithStyle(cell, align, fyne.TextStyle{Bold: i == 0 || j == 0}))
		}
	}
	return container.NewVBox(container.NewPadded(container.NewGridWithColumns(len(rows[0]), cells...)))
}

// factsGrid lays facts out as a two-column form; a value's right-click
// menu copies it.
func factsGrid(facts []fact) fyne.CanvasObject {
	// The labels go in at once: each Container.Add lays the form out again.
	cells := make([]fyne.CanvasObject, 0, 2*len(facts))
	for _, f := range facts {
		var value fyne.CanvasObject
		if f.hint != "" {
			l := newHintLabel(f.value, f.hint)
			l.Wrapping = fyne.TextWrapBreak
			value = l
		} else {
			l := newCopyLabel(f.value)
			l.Wrapping = fyne.TextWrapBreak
			value = l
		}
		cells = append(cells, widget.NewLabelWithStyle(f.label, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}), value)
	}
	return container.NewPadded(container.New(layout.NewFormLayout(), cells...))
}

// The environment panel shows at most envShown variables, each cut to
// envLineShown characters: a label's cost grows with its text, and one
// corrupt event read as PROGRAM_ENV gave 13,205 "variables" whose label
// took the window 10–17 s to lay out.
const (
	envShown     = 500
	envLineShown = 2000
)

// envText writes the environment's variables one a line, at most envShown
// of them, each at most envLineShown characters long, saying how many are
// left out.
func envText(env []string) string {
	var sb strings.Builder
	for i, v := range env {
		if i > 0 {
			sb.WriteByte('\n')
		}
		if i == envShown {
			sb.WriteString("… and " + paint.CountOf(int64(len(env)-envShown), "more variable", "more variables"))
			break
		}
		if r := []rune(v); len(r) > envLineShown {
			v = string(r[:envLineShown]) + "…"
		}
		sb.WriteString(v)
	}
	return sb.String()
}

// processPanel shows the program, its arguments, the RTS and environment.
func processPanel(s *timeline.Summary) fyne.CanvasObject {
	none := "(not in the log)"
	orNone := func(v string) string {
		if v == "" {
			return none
		}
		return v
	}
	var facts []fact
	if s.InheritedFrom > 0 {
		facts = append(facts, fact{"Identity", fmt.Sprintf("from eventlog %d of this file", s.InheritedFrom),
			"Logging was restarted, and a restarted eventlog does not repeat the program, its RTS and capabilities: they are those of the file's first eventlog."})
	}
	programHint := ""
	if s.Program == "" && s.RTS == "" {
		programHint = "GHC before 9.2 writes the program's identity once, at startup, so an eventlog whose logging was restarted (as eventlog-socket does for each client) lacks it."
	}
	facts = append(facts, []fact{
		{"Program", orNone(s.Program), programHint},
		{"Arguments", orNone(strings.Join(s.Args, " ")), ""},
		{"RTS", orNone(s.RTS), ""},
	}...)
	if !s.StartWall.IsZero() {
		facts = append(facts, fact{"Started", s.StartWall.Local().Format("2006-01-02 15:04:05 MST"), ""})
	}
	env := newCopyLabel(orNone(envText(s.Env)))
	envHeading := widget.NewLabelWithStyle(fmt.Sprintf("Environment (%d variables)", len(s.Env)), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	return container.NewScroll(container.NewVBox(factsGrid(facts), container.NewPadded(envHeading), container.NewPadded(env)))
}
