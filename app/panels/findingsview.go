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
	List   *kit.KeyList
	Detail *widget.Label

	Findings []advise.Finding
	Picked   int    // the finding picked, -1 for none
	OnLoad   func() // tests: called after findings are shown
	// Mark (if set) marks the finding picked on the timeline, its range
	// and its tracks; nil clears the mark.
	Mark func(f *advise.Finding)
	// Flags (if set) flags the findings listed on the timeline.
	Flags func(fs []advise.Finding)
}

// NewFindingsView makes the tab; analyze finds what made [from, to] slow
// (both 0: the whole run).
func NewFindingsView(analyze func(from, to uint64) ([]advise.Finding, error), link RangeLink) *FindingsView {
	v := &FindingsView{Picked: -1}
	v.scopedLoad = NewScopedLoad[[]advise.Finding](link, "Looking through", "Cannot look for findings")
	v.Selected = func(from, to uint64) string { return "the selection " + RangeText(from, to) }
	v.Collect = analyze
	v.scopedLoad.Show = v.show
	v.List = kit.NewKeyList(
		func() int { return len(v.Findings) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("PROBLEM  heap-growth  000 ms – 000 ms  a title")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(v.RowText(i)) },
	)
	v.List.OnSelected = v.pick
	v.Detail = widget.NewLabel("Select a finding to see its evidence and what to try.")
	v.Detail.Wrapping = fyne.TextWrapWord
	split := container.NewHSplit(v.List, container.NewVScroll(v.Detail))
	split.Offset = 0.45
	// The list asks for findingsRows rows, which the tab asks the window
	// for when shown (eventlogView.roomForTab).
	rows := canvas.NewRectangle(color.Transparent)
	rows.SetMinSize(fyne.NewSize(0, findingsRows*(widget.NewLabel("PROBLEM").MinSize().Height+theme.Padding())))
	v.Root = container.NewBorder(v.bar, nil, nil, nil, container.NewStack(rows, split))
	return v
}

// show puts the findings in the list and flags them on the timeline.
func (v *FindingsView) show(fs []advise.Finding, what string) {
	v.Findings, v.Picked = fs, -1
	if v.Mark != nil {
		v.Mark(nil)
	}
	if v.Flags != nil {
		v.Flags(fs)
	}
	v.Detail.SetText("Select a finding to see its evidence and what to try.")
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
	v.List.UnselectAll()
	v.List.Refresh()
	if v.OnLoad != nil {
		v.OnLoad()
	}
}

// RowText is the list's line for finding i.
func (v *FindingsView) RowText(i int) string {
	if i < 0 || i >= len(v.Findings) {
		return ""
	}
	f := v.Findings[i]
	return fmt.Sprintf("%s  %s  %s  %s", strings.ToUpper(f.Severity.String()), f.Kind, RangeText(f.From, f.To), f.Title)
}

// detailText is the evidence and suggestion of a finding.
func detailText(f advise.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, %s, %s)\n\n", f.Title, f.Severity, f.Kind, RangeText(f.From, f.To))
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
	if i < 0 || i >= len(v.Findings) {
		return
	}
	v.Picked = i
	f := &v.Findings[i]
	v.Detail.SetText(detailText(*f))
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
		if i == v.Picked {
			next = indices[(k+1)%len(indices)]
		}
	}
	if next == v.Picked {
		v.pick(next) // the list selects it already: zoom to it again
		return
	}
	v.List.Select(next)
}

// Clear unpicks the finding picked, taking its mark off the timeline, and
// reports whether there was one (Esc).
func (v *FindingsView) Clear() bool {
	if v.Picked < 0 {
		return false
	}
	v.Picked = -1
	v.List.UnselectAll()
	if v.Mark != nil {
		v.Mark(nil)
	}
	v.Detail.SetText("Select a finding to see its evidence and what to try.")
	return true
}
