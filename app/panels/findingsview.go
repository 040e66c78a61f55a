package panels

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
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/paint"
)

// findingsRows is how many findings the list asks room for.
const findingsRows = 6

// FindingsView is the Findings tab: what made the run (or the timeline's
// selection) slow, as package advise finds it, most severe first. Picking
// a finding shows its evidence and suggestion, marks its range and its
// tracks on the timeline and zooms the timeline to it, until another is
// picked or Esc clears it.
type FindingsView struct {
	*scopedLoad[[]advise.Finding]
	Root   fyne.CanvasObject
	list   *kit.KeyList
	detail *widget.Label

	findings []advise.Finding
	picked   int    // the finding picked, -1 for none
	onLoad   func() // tests: called after findings are shown
	// Mark (if set) marks the finding picked on the timeline, its range
	// and its tracks; nil clears the mark.
	Mark func(f *advise.Finding)
	// Flags (if set) flags the findings listed on the timeline.
	Flags func(fs []advise.Finding)
}

// NewFindingsView makes the tab; analyze finds what made [from, to] slow
// (both 0: the whole run).
func NewFindingsView(analyze func(from, to uint64) ([]advise.Finding, error), link RangeLink) *FindingsView {
	v := &FindingsView{picked: -1}
	v.scopedLoad = newScopedLoad[[]advise.Finding](link, "Looking through", "Cannot look for findings")
	v.selected = func(from, to uint64) string { return "the selection " + rangeText(from, to) }
	v.collect = analyze
	v.scopedLoad.show = v.show
	v.list = kit.NewKeyList(
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
	// The list asks for findingsRows rows, which the tab's scroller
	// gives it when the tab is lower.
	rows := canvas.NewRectangle(color.Transparent)
	rows.SetMinSize(fyne.NewSize(0, findingsRows*(widget.NewLabel("PROBLEM").MinSize().Height+theme.Padding())))
	v.Root = container.NewBorder(v.bar, nil, nil, nil, container.NewStack(rows, split))
	return v
}

// show puts the findings in the list and flags them on the timeline.
func (v *FindingsView) show(fs []advise.Finding, what string) {
	v.findings, v.picked = fs, -1
	if v.Mark != nil {
		v.Mark(nil)
	}
	if v.Flags != nil {
		v.Flags(fs)
	}
	v.detail.SetText("Select a finding to see its evidence and what to try.")
	if len(fs) == 0 {
		v.Status.SetText("No findings in " + what + ": nothing points at a cause of slowness that advise knows.")
	} else {
		var n [3]int
		for _, f := range fs {
			n[min(int(f.Severity), 2)]++
		}
		v.Status.SetText(fmt.Sprintf("%s in %s: %d problem, %d warning, %d info", paint.CountOf(int64(len(fs)), "finding", "findings"),
			what, n[advise.Problem], n[advise.Warning], n[advise.Info]))
	}
	v.list.UnselectAll()
	v.list.Refresh()
	if v.onLoad != nil {
		v.onLoad()
	}
}

// rowText is the list's line for finding i.
func (v *FindingsView) rowText(i int) string {
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

// pick shows finding i: its detail, its range and tracks marked on the
// timeline, which zooms to the range (with a margin of a tenth on either
// side).
func (v *FindingsView) pick(i widget.ListItemID) {
	if i < 0 || i >= len(v.findings) {
		return
	}
	v.picked = i
	f := &v.findings[i]
	v.detail.SetText(detailText(*f))
	if v.Mark != nil {
		v.Mark(f)
	}
	if v.link.Show != nil && f.To > f.From {
		pad := max((f.To-f.From)/10, 1000)
		v.link.Show(f.From-min(f.From, pad), f.To+pad)
	}
}

// Choose picks one of the findings of a flag clicked on the timeline
// (indices in the list, in its order): the first, or the one after the
// finding picked if that is one of them, so that clicking a cluster again
// goes through its findings. The list then shows the whole run's findings
// (or the selection's) as the flags did, even if the tab was not shown
// yet.
func (v *FindingsView) Choose(indices []int) {
	if len(indices) == 0 {
		return
	}
	v.loaded = true
	next := indices[0]
	for k, i := range indices {
		if i == v.picked {
			next = indices[(k+1)%len(indices)]
		}
	}
	if next == v.picked {
		v.pick(next) // the list selects it already: zoom to it again
		return
	}
	v.list.Select(next)
}

// Clear unpicks the finding picked, taking its mark off the timeline, and
// reports whether there was one (Esc).
func (v *FindingsView) Clear() bool {
	if v.picked < 0 {
		return false
	}
	v.picked = -1
	v.list.UnselectAll()
	if v.Mark != nil {
		v.Mark(nil)
	}
	v.detail.SetText("Select a finding to see its evidence and what to try.")
	return true
}

// Analyzer returns what the Findings tab runs for the log of ev: advise
// over the model, the summary and the heap the window loaded; for a
// selection, over the selection's summary, read from the file again.
func Analyzer(ev *loaded.Eventlog) func(from, to uint64) ([]advise.Finding, error) {
	return func(from, to uint64) ([]advise.Finding, error) {
		in := advise.Input{Model: ev.Model, Heap: ev.Heap, From: from, To: to}
		if ev.SummaryErr == nil {
			in.Summary = &ev.Summary
		}
		if to > from {
			s, err := loaded.SummarizeLogRange(ev, from, to)
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
