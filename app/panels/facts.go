package panels

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// Fact is one labelled value of a facts panel.
// fact is a labelled value of a facts grid; a hint, if any, shows while the
// pointer rests on the value (why a figure reads "—").
type Fact struct{ Label, Value, Hint string }

// Percent writes the share f (0–1) as a percentage with one decimal.
func Percent(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) + "%" }

// SummaryPanel shows the Time and Heap figures, as ThreadScope's tabs do,
// and what the load found; of a range (ev.Summary.Range, the Selection
// tab), the range's figures, with what is the run's marked so. A figure the
// log (or the range) has no events for reads "—", and its hint says what is
// missing.
func SummaryPanel(ev *loaded.Eventlog) fyne.CanvasObject {
	s := &ev.Summary
	var run []Fact
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
			Fact{"Events", paint.EventCount(s.Events, s.BlockMarkers), ""},
			Fact{"Threads ran", ran, "The threads running on a HEC when the range begins, and those started in it."},
			Fact{"Threads created", paint.Count(int64(min(s.Threads, 1<<62))), ""},
			Fact{"HECs (the run's)", s.CapabilitiesText(), ""},
			Fact{"File (the run's)", kit.FormatBytes(ev.Size) + " · " + ev.Status.String(), ""},
		)
	} else {
		run = append(run, Fact{"Size", kit.FormatBytes(ev.Size), ""})
		run = append(run, segmentFacts(ev)...)
		run = append(run,
			Fact{"State", ev.Status.String(), ""},
			Fact{"Events", paint.EventCount(s.Events, s.BlockMarkers), ""},
			Fact{"Capabilities", s.CapabilitiesText(), ""},
			Fact{"Threads created", paint.Count(int64(min(s.Threads, 1<<62))), ""},
			Fact{"Loaded in", timeline.FormatDuration(uint64(ev.LoadTime)), ""},
		)
	}
	if ev.SummaryErr != nil {
		run = append(run, Fact{"Statistics", "not available: " + ev.SummaryErr.Error(), ""})
	}
	times := rtsTimeFacts(&s.RTSStats)
	times = append(times, Fact{"Total time (ThreadScope)", timeline.FormatDuration(s.TotalNS),
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
			Fact{"Mutator time" + whose, timeline.FormatDuration(s.MutatorNS), ""},
			Fact{"GC time" + whose, timeline.FormatDuration(gc), hint},
			Fact{"GC time from", from, hint},
			Fact{"Productivity" + whose, Percent(s.Productivity), ""},
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
	bytesFact := func(label string, v uint64, ok bool, why string) Fact {
		if !ok {
			return absentFact(label, why)
		}
		return Fact{label, kit.FormatBytes(int64(min(v, 1<<62))), ""}
	}
	rateWhy := lacks("HeapAllocated", "per HEC at each collection")
	if h.HasAllocated {
		rateWhy = "No mutator time to divide the allocation by."
	}
	rate := absentFact("Allocation rate"+whose, rateWhy)
	if s.HasAllocRate() {
		rate = Fact{"Allocation rate" + whose, kit.FormatBytes(int64(min(h.AllocRate, 1<<62))) + "/s",
			"Per second of the mutator time above; -s's alloc rate is per second of mutator CPU time, which the eventlog lacks."}
	}
	r := &s.RTSStats
	slop := rtsFact(r, "Max slop (RTS)", r.HasMaxSlop, kit.FormatBytes(int64(min(r.MaxSlop, 1<<62))),
		"-s's maximum slop: of the major collections only. Exact.", timeline.WhyNoMaxSlop)
	heap := []Fact{
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
		section("Run", FactsGrid(run)),
		section("Time", FactsGrid(times)),
		section("Heap", FactsGrid(heap)))
}

// factsWidth is the width a facts grid needs to write its longest label
// and longest value each on one line.
func factsWidth(facts []Fact) float32 {
	var label, value float32
	size := theme.TextSize()
	for _, f := range facts {
		label = max(label, fyne.MeasureText(f.Label, size, fyne.TextStyle{Bold: true}).Width)
		value = max(value, fyne.MeasureText(f.Value, size, fyne.TextStyle{}).Width)
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
func rtsTimeFacts(r *timeline.RTSStats) []Fact {
	if !r.Available {
		return []Fact{absentFact("+RTS -s figures", "No -s figures: "+r.Why+".")}
	}
	const approx = "Approximate, within some 20 μs of the RTS's own: the eventlog does not mark where initialisation ends and shutdown begins, only the main OS thread's calls into Haskell next to them."
	phase := func(label string, ns uint64, what string) Fact {
		if !r.HasPhases {
			return absentFact(label, "Not known: "+r.PhasesWhy+".")
		}
		return Fact{label, timeline.FormatDuration(ns), what + " " + approx}
	}
	out := []Fact{
		phase("Total elapsed (RTS)", r.ElapsedNS, "-s's Total time (elapsed): to the RTS's final report."),
		phase("INIT elapsed (RTS)", r.InitNS, "-s's INIT time (elapsed)."),
		phase("MUT elapsed (RTS)", r.MutatorNS, "-s's MUT time (elapsed): from INIT to the start of the program's exit, less GC."),
	}
	if r.HasGCElapsed {
		out = append(out, Fact{"GC elapsed (RTS)", timeline.FormatDuration(r.GCElapsedNS),
			"-s's GC time (elapsed): every collection from its GC start to its GC end on the HEC that led it, which the RTS writes with the clock readings -s adds up. Exact."})
	} else {
		out = append(out, absentFact("GC elapsed (RTS)", "Not known: "+r.GCWhy+"."))
	}
	out = append(out, phase("EXIT elapsed (RTS)", r.ExitNS, "-s's EXIT time (elapsed), less GC."))
	switch {
	case r.HasProductivity:
		out = append(out, Fact{"Productivity (RTS)", Percent(r.Productivity), "-s's productivity of total elapsed time: (total − GC − INIT − EXIT) / total. " + approx})
	case !r.HasPhases:
		out = append(out, absentFact("Productivity (RTS)", "Not known: "+r.PhasesWhy+"."))
	default:
		out = append(out, absentFact("Productivity (RTS)", "Not known: "+r.GCWhy+"."))
	}
	return out
}

// rtsFact is one RTS figure: value v with hint if the log has it (ok),
// else absent, with the whole log's reason or why.
func rtsFact(r *timeline.RTSStats, label string, ok bool, v, hint, why string) Fact {
	switch {
	case !r.Available:
		return absentFact(label, "No -s figures: "+r.Why+".")
	case !ok:
		return absentFact(label, "Not known: "+why+".")
	}
	return Fact{label, v, hint}
}

// absentFact is a figure the log lacks: "—", with why as its hint.
func absentFact(label, why string) Fact { return Fact{label, "—", why} }

// section puts a bold heading over content.
func section(title string, content fyne.CanvasObject) fyne.CanvasObject {
	return container.NewBorder(widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, nil, nil, content)
}

// gcPanel shows the collections GHC reported per generation and in all (as
// `hecscope summary` does, under the same words) and ThreadScope's count.
func GCPanel(s *timeline.Summary) fyne.CanvasObject {
	rows := [][]string{{"Generation", "Collections", "Parallel", "Elapsed", "Avg pause", "Max pause", "Copied"}}
	row := func(name string, g timeline.GenStats) []string {
		return []string{name, paint.Count(int64(g.Collections)), paint.Count(int64(g.ParCollections)),
			timeline.FormatDuration(g.ElapsedNS), timeline.FormatDuration(g.MeanPauseNS()), timeline.FormatDuration(g.MaxPauseNS),
			kit.FormatBytes(int64(min(g.Copied, 1<<62)))}
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
	var facts []Fact
	if s.HasHeap || s.Range {
		facts = append(facts, Fact{"ThreadScope's count", count(s.GC.Total.Collections, s.GC.Total.ElapsedNS, s.GC.Total.MaxPauseNS,
			s.GCFrom == timeline.GCFromThreadScope), timeline.GCFromThreadScope.Describe() + "."})
	} else {
		facts = append(facts, absentFact("ThreadScope's count", "The log has no heap events, without which ThreadScope counts no collection."))
	}
	if p := s.GC.Pauses; p.Count > 0 || s.GCFrom == timeline.GCFromPauses {
		facts = append(facts, Fact{"Pauses from GC events", count(p.Count, p.ElapsedNS, p.MaxNS, s.GCFrom == timeline.GCFromPauses),
			timeline.GCFromPauses.Describe() + "."})
	}
	if s.Heap.HasStats {
		facts = append(facts, Fact{"Parallel GC threads", strconv.Itoa(s.GC.ParThreads), "The most GC threads of any collection GHC reported."})
	} else {
		facts = append(facts, absentFact("Parallel GC threads", "Not known: "+noGCStats+"."))
	}
	r := &s.RTSStats
	rtsBal := strconv.FormatFloat(100*r.WorkBalance, 'f', 2, 64) + "%"
	if r.WorkBalance == 0 {
		rtsBal = "0 (no parallel collection)"
	}
	facts = append(facts, rtsFact(r, "Work balance (RTS)", r.HasWorkBalance, rtsBal,
		"-s's parallel GC work balance: the balanced bytes copied over the bytes copied, of the parallel collections (0 serial, 100% perfect). Exact.", timeline.WhyNoWorkBalance))
	if s.Heap.HasStats {
		facts = append(facts, Fact{"Work balance (ThreadScope)", balance, "ThreadScope's formula, from the max and total bytes copied per GC thread."})
	} else {
		facts = append(facts, absentFact("Work balance (ThreadScope)", "Not known: "+noGCStats+"."))
	}
	if !s.Heap.HasStats {
		// No row would hold a reported collection: zeros would say there
		// were none.
		none := widget.NewLabel("No collections by generation: " + noGCStats + ".")
		none.Wrapping = fyne.TextWrapWord
		return container.NewVBox(none, FactsGrid(facts))
	}
	return container.NewVBox(caption, grid(rows), FactsGrid(facts))
}

// noGCStats says why a log has no figures of the collections GHC reported.
const noGCStats = "the log has no GCStatsGHC events, which GHC writes at each collection (GHC 7.6 and later)"

// sparksColumnsDefinition says what each column of the Sparks table
// counts: the RTS counts a spark's creation on the HEC that created it and
// its running on the HEC that ran it, which may have stolen it.
const sparksColumnsDefinition = "Total created counts the sparks this HEC created (into its pool, dud or overflowed), Overflowed and Dud those of them; " +
	"Converted (run) the sparks it ran, its own and those it stole from other HECs, so it can exceed Total; " +
	"GC'd and Fizzled those it found collected or already evaluated, in its pool or when taking one."

// SparksPanel shows ThreadScope's spark statistics per capability, with
// what each column counts.
func SparksPanel(s *timeline.Summary) fyne.CanvasObject {
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

// FactsGrid lays facts out as a two-column form; a value's right-click
// menu copies it.
func FactsGrid(facts []Fact) fyne.CanvasObject {
	// The labels go in at once: each Container.Add lays the form out again.
	cells := make([]fyne.CanvasObject, 0, 2*len(facts))
	for _, f := range facts {
		var value fyne.CanvasObject
		if f.Hint != "" {
			l := kit.NewHintLabel(f.Value, f.Hint)
			l.Wrapping = fyne.TextWrapBreak
			value = l
		} else {
			l := kit.NewCopyLabel(f.Value)
			l.Wrapping = fyne.TextWrapBreak
			value = l
		}
		cells = append(cells, widget.NewLabelWithStyle(f.Label, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}), value)
	}
	return container.NewPadded(container.New(layout.NewFormLayout(), cells...))
}

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

// ProcessPanel shows the program, its arguments, the RTS and environment.
func ProcessPanel(s *timeline.Summary) fyne.CanvasObject {
	none := "(not in the log)"
	orNone := func(v string) string {
		if v == "" {
			return none
		}
		return v
	}
	var facts []Fact
	if s.InheritedFrom > 0 {
		facts = append(facts, Fact{"Identity", fmt.Sprintf("from eventlog %d of this file", s.InheritedFrom),
			"Logging was restarted, and a restarted eventlog does not repeat the program, its RTS and capabilities: they are those of the file's first eventlog."})
	}
	programHint := ""
	if s.Program == "" && s.RTS == "" {
		programHint = "GHC before 9.2 writes the program's identity once, at startup, so an eventlog whose logging was restarted (as eventlog-socket does for each client) lacks it."
	}
	facts = append(facts, []Fact{
		{"Program", orNone(s.Program), programHint},
		{"Arguments", orNone(strings.Join(s.Args, " ")), ""},
		{"RTS", orNone(s.RTS), ""},
	}...)
	if !s.StartWall.IsZero() {
		facts = append(facts, Fact{"Started", s.StartWall.Local().Format("2006-01-02 15:04:05 MST"), ""})
	}
	env := kit.NewCopyLabel(orNone(envText(s.Env)))
	envHeading := widget.NewLabelWithStyle(fmt.Sprintf("Environment (%d variables)", len(s.Env)), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	return container.NewScroll(container.NewVBox(FactsGrid(facts), container.NewPadded(envHeading), container.NewPadded(env)))
}

// The environment panel shows at most envShown variables, each cut to
// envLineShown characters: a label's cost grows with its text, and one
// corrupt event read as PROGRAM_ENV gave 13,205 "variables" whose label
// took the window 10–17 s to lay out.
const (
	envShown     = 500
	envLineShown = 2000
)

// segmentFacts are the summary's facts about which eventlog of its file ev
// is, none for a file of one.
func segmentFacts(ev *loaded.Eventlog) []Fact {
	n := len(ev.Segments)
	if n < 2 {
		return nil
	}
	g := ev.Segments[ev.Segment]
	return []Fact{{"Segment", fmt.Sprintf("%d of %d · bytes %s–%s", ev.Segment+1, n, paint.Count(g.Offset), paint.Count(g.End)), ""}}
}

// ReadoutStep is the precision times are written to in a view span ns
// wide: the power of ten at or below a thousandth of it.
func ReadoutStep(span uint64) uint64 {
	step := uint64(1)
	for step*10 <= span/1000 {
		step *= 10
	}
	return step
}

// FillSelection sets box, a Selection tab's content, to what ev shows of
// the selection [from, to] (sel: whether there is one; without one, of
// everything ev holds, titled whole): the time per HEC and state, the user
// spans, and the run's figures. It returns the box the figures go in, and
// whether they are still to be read again from ev's file (named source in
// the note shown meanwhile; see selectionSummary).
func FillSelection(box *fyne.Container, ev *loaded.Eventlog, from, to uint64, sel bool, whole, source string) (summary *fyne.Container, pending bool) {
	m := ev.Model
	title := "Selection"
	if !sel {
		from, to, title = 0, m.End, whole
	}
	step := ReadoutStep(to - from) // as the status line writes the selection
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

// SelectionSummary reads the selection [from, to] of ev's file (of the
// segment ev shows) again, in the background, and returns what puts its
// figures into summary, to be called on the UI goroutine.
func SelectionSummary(ev *loaded.Eventlog, from, to uint64, summary *fyne.Container) func() {
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
	return container.NewVBox(SummaryPanel(&part),
		widget.NewLabelWithStyle("GC", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), GCPanel(s),
		widget.NewLabelWithStyle("Sparks", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), SparksPanel(s))
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
			Percent(float64(d[timeline.StateRunning]) / total), Percent(float64(gc) / total)}
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

// UserEventsPanel is the table of user spans per label over the whole run
// (count, total, min, mean, max, open and unmatched).
func UserEventsPanel(m *timeline.Model) fyne.CanvasObject {
	rows := [][]string{{"Label", "Count", "Total", "Min", "Mean", "Max", "Open", "Unmatched"}}
	for i := range m.Labels {
		l := &m.Labels[i]
		rows = append(rows, []string{m.String(l.Label), paint.Count(int64(l.Count)), timeline.FormatDuration(l.Total),
			timeline.FormatDuration(l.Min), timeline.FormatDuration(l.Mean()), timeline.FormatDuration(l.Max),
			strconv.Itoa(l.Open), strconv.Itoa(l.Unmatched)})
	}
	return grid(rows)
}
