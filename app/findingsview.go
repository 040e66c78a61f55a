package app

import (
	"fmt"
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/advise"
	"github.com/hecscope/hecscope/paint"
)

// findingsRows is how many findings the list asks room for.
const findingsRows = 6

// findingsView is the Findings tab: what made the run (or the timeline's
// selection) slow, as package advise finds it, most severe first. Picking
// a finding shows its evidence and suggestion, marks its range on the
// timeline and zooms the timeline to it.
type findingsView struct {
	*scopedLoad[[]advise.Finding]
	root   fyne.CanvasObject
	list   *widget.List
	detail *widget.Label

	findings []advise.Finding
	onLoad   func() // tests: called after findings are shown
	// mark (if set) marks the range of the finding picked on the timeline;
	// to ≤ from clears it.
	mark func(from, to uint64)
}

// newFindingsView makes the tab; analyze finds what made [from, to] slow
// (both 0: the whole run).
func newFindingsView(analyze func(from, to uint64) ([]advise.Finding, error), link rangeLink) *findingsView {
	v := &findingsView{}
	v.scopedLoad = newScopedLoad[[]advise.Finding](link, "Looking through", "Cannot look for findings")
	v.selected = func(from, to uint64) string { return "the selection " + rangeText(from, to) }
	v.collect = analyze
	v.scopedLoad.show = v.show
	v.list = widget.NewList(
		func() int { return len(v.findings) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("PROBLEM  heap-growth  000 ms – 000 ms  a title")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(v.rowText(i)) },
	)
	v.list.OnSelected = v.pick
	v.detail = widget.NewLabel("Select a finding to see its evidence and what to try.")
	v.detail.Wrapping = fyne.TextWrapWord
	split := container.NewHSplit(v.list, container.NewVScroll(v.detail))
	split.Offset = 0.45
	// The list asks for findingsRows rows, which the tab asks the window
	// for when shown (eventlogView.roomForTab).
	rows := canvas.NewRectangle(color.Transparent)
	rows.SetMinSize(fyne.NewSize(0, findingsRows*(widget.NewLabel("PROBLEM").MinSize().Height+theme.Padding())))
	v.root = container.NewBorder(v.bar, nil, nil, nil, container.NewStack(rows, split))
	return v
}

// show puts the findings in the list.
func (v *findingsView) show(fs []advise.Finding, what string) {
	v.findings = fs
	if v.mark != nil {
		v.mark(0, 0)
	}
	v.detail.SetText("Select a finding to see its evidence and what to try.")
	if len(fs) == 0 {
		v.status.SetText("No findings in " + what + ": nothing points at a cause of slowness that advise knows.")
	} else {
		var n [3]int
		for _, f := range fs {
			n[min(int(f.Severity), 2)]++
		}
		v.status.SetText(fmt.Sprintf("%s in %s: %d problem, %d warning, %d info", paint.CountOf(int64(len(fs)), "finding", "findings"),
			what, n[advise.Problem], n[advise.Warning], n[advise.Info]))
	}
	v.list.UnselectAll()
	v.list.Refresh()
	if v.onLoad != nil {
		v.onLoad()
	}
}

// rowText is the list's line for finding i.
func (v *findingsView) rowText(i int) string {
	if i < 0 || i >= len(v.findings) {
		return ""
	}
	f := v.findings[i]
	return fmt.Sprintf("%s  %s  %s  %s", strings.ToUpper(f.Severity.String()), f.Kind, rangeText(f.From, f.To), f.Title)
}

// detailText is the evidence and suggestion of a finding.
func detailText(f advise.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, %s, %s)\n\n", f.Title, f.Severity, f.Kind, rangeText(f.From, f.To))
	for _, e := range f.Evidence {
		b.WriteString("• " + e + "\n")
	}
	b.WriteString("\nTry: " + f.Suggestion)
	return b.String()
}

// pick shows finding i: its detail, its range marked and zoomed to on the
// timeline (with a margin of a tenth on either side).
func (v *findingsView) pick(i widget.ListItemID) {
	if i < 0 || i >= len(v.findings) {
		return
	}
	f := v.findings[i]
	v.detail.SetText(detailText(f))
	if v.mark != nil {
		v.mark(f.From, f.To)
	}
	if v.link.show != nil && f.To > f.From {
		pad := max((f.To-f.From)/10, 1000)
		v.link.show(f.From-min(f.From, pad), f.To+pad)
	}
}

// analyzer returns what the Findings tab runs for the log of ev: advise
// over the model, the summary and the heap the window loaded; for a
// selection, over the selection's summary, read from the file again.
func analyzer(ev *Eventlog) func(from, to uint64) ([]advise.Finding, error) {
	return func(from, to uint64) ([]advise.Finding, error) {
		in := advise.Input{Model: ev.Model, Heap: ev.Heap, From: from, To: to}
		if ev.SummaryErr == nil {
			in.Summary = &ev.Summary
		}
		if to > from {
			s, err := summarizeLogRange(ev, from, to)
			if err != nil {
				return nil, err
			}
			// A restarted eventlog names its program from the first (the
			// loaded summary has inherited it; the range's has not).
			s.Program, s.Args, s.Env, s.RTS = ev.Summary.Program, ev.Summary.Args, ev.Summary.Env, ev.Summary.RTS
			in.Summary = &s
		}
		return advise.Analyze(in), nil
	}
}

// addFindingsTab adds the Findings tab to v, linked to its canvas as the
// Spans and Profile tabs are: it looks through the log the first time it
// is shown, follows the canvas's selection, and shows the finding picked
// on the canvas.
func (v *eventlogView) addFindingsTab() {
	c := v.canvas
	fv := newFindingsView(analyzer(v.log), rangeLink{selection: c.Selection, show: c.showRange})
	m := &marker{c: c} // app/analysismarks.go
	fv.mark = func(from, to uint64) { m.show(rangeMark(from, to)) }
	// In a scroller, so that it asks nothing of the window's minimum size.
	tab := container.NewTabItem("Findings", container.NewScroll(fv.root))
	v.addTab(tab)
	prev := v.tabs.OnSelected
	v.tabs.OnSelected = func(ti *container.TabItem) {
		if prev != nil {
			prev(ti)
		}
		if ti == tab {
			v.roomForTab(ti, fv.root)
			fv.ensureLoaded()
		}
	}
	prevSel := c.onSelect
	c.onSelect = func(from, to uint64, ok, final bool) {
		if prevSel != nil {
			prevSel(from, to, ok, final)
		}
		if final {
			fv.selectionChanged(ok && to > from)
		}
	}
	v.findings = fv
}
