package app

import (
	"fmt"

	"fyne.io/fyne/v2/container"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/panels"
	"github.com/hecscope/hecscope/paint"
)

// addNavPanels wires the canvas to the status line and the Details,
// Selection and User Events tabs.
func (v *eventlogView) addNavPanels() {
	m := v.log.Model
	v.details = panels.NewDetails()
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
		v.addTab(container.NewTabItem("User Events", container.NewScroll(panels.UserEventsPanel(m))))
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
	step := panels.ReadoutStep(to - from)
	s := fmt.Sprintf("View %s – %s (%s of %s)", paint.Time(from, step), paint.Time(to, step),
		paint.Duration(to-from), paint.Duration(v.log.Model.End))
	if a, b, ok := v.canvas.Selection(); ok {
		sstep := panels.ReadoutStep(b - a) // as the Selection tab writes it
		s += fmt.Sprintf(" · selected %s – %s (%s; Z zooms to it, Esc clears)", paint.Time(a, sstep), paint.Time(b, sstep), paint.Duration(b-a))
	}
	s += " · wheel scrolls, Ctrl+wheel zooms, drag pans, Shift+drag selects; Help lists the keys"
	v.status.SetText(s)
}

// showSelection fills the Selection tab with the time each HEC spent in
// each state during the selection, or during the whole run without one.
func (v *eventlogView) showSelection() {
	v.selStale = false
	from, to, sel := v.canvas.Selection()
	summary, pending := panels.FillSelection(v.selection, v.log, from, to, sel, "Whole run", "the file")
	v.selGen++
	if !pending {
		return
	}
	gen, ev := v.selGen, v.log
	go func() {
		put := panels.SelectionSummary(ev, from, to, summary)
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
