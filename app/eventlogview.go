package app

import (
	"fmt"
	"image"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/timeline"
)

// eventlogView shows a loaded eventlog: a notice if it did not load whole,
// then the run's facts and the process that wrote it.
type eventlogView struct {
	log  *Eventlog
	root fyne.CanvasObject
}

func newEventlogView(ev *Eventlog) *eventlogView {
	v := &eventlogView{log: ev}
	header := widget.NewLabelWithStyle(filepath.Base(ev.Path), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	top := container.NewVBox(header)
	if n := ingestStatusNotice(ev); n != "" {
		top.Add(newNotice(n))
	}
	tabs := container.NewAppTabs(
		container.NewTabItem("Summary", container.NewVScroll(factsGrid(runFacts(ev)))),
		container.NewTabItem("Process", processPanel(&ev.Process)),
	)
	v.root = container.NewBorder(container.NewPadded(top), nil, nil, nil, tabs)
	return v
}

func (v *eventlogView) content() fyne.CanvasObject { return v.root }

// render returns nil: the timeline picture comes with the timeline view.
func (v *eventlogView) render(w, h int) image.Image { return nil }

// fact is one labelled value of a facts panel.
type fact struct{ label, value string }

// runFacts lists what the load counted about the run.
func runFacts(ev *Eventlog) []fact {
	facts := []fact{
		{"File", ev.Path},
		{"Size", formatBytes(ev.Size)},
		{"State", ev.Status.String()},
		{"Events", fmt.Sprintf("%d", ev.Events)},
	}
	if ev.Events > 0 {
		facts = append(facts,
			fact{"Run time", timeline.FormatDuration(ev.Span())},
			fact{"First event", timeline.FormatDuration(ev.First)},
			fact{"Last event", timeline.FormatDuration(ev.Last)},
		)
	}
	facts = append(facts,
		fact{"Capabilities", fmt.Sprintf("%d", len(ev.Model.HECs))},
		fact{"Threads", fmt.Sprintf("%d", len(ev.Model.Threads))},
		fact{"Garbage collections", fmt.Sprintf("%d", len(ev.Heap.GCs))},
		fact{"User markers and messages", fmt.Sprintf("%d", ev.Markers)},
		fact{"Loaded in", timeline.FormatDuration(uint64(ev.LoadTime))},
	)
	return facts
}

// factsGrid lays facts out as a two-column form with selectable values.
func factsGrid(facts []fact) fyne.CanvasObject {
	grid := container.New(layout.NewFormLayout())
	for _, f := range facts {
		grid.Add(widget.NewLabelWithStyle(f.label, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}))
		value := widget.NewLabel(f.value)
		value.Wrapping = fyne.TextWrapBreak
		value.Selectable = true
		grid.Add(value)
	}
	return container.NewPadded(grid)
}

// processPanel shows the program, its arguments, the RTS and environment.
func processPanel(p *ProcessInfo) fyne.CanvasObject {
	none := "(not in the log)"
	orNone := func(s string) string {
		if s == "" {
			return none
		}
		return s
	}
	facts := []fact{
		{"Program", orNone(p.Program)},
		{"Arguments", orNone(strings.Join(p.Args, " "))},
		{"RTS", orNone(p.RTS)},
	}
	if p.Capabilities > 0 {
		facts = append(facts, fact{"Capabilities (-N)", fmt.Sprintf("%d", p.Capabilities)})
	}
	if p.PID != 0 {
		facts = append(facts, fact{"Process id", fmt.Sprintf("%d (parent %d)", p.PID, p.PPID)})
	}
	if !p.Started.IsZero() {
		facts = append(facts, fact{"Started", p.Started.Local().Format("2006-01-02 15:04:05 MST")})
	}
	env := widget.NewLabel(orNone(strings.Join(p.Env, "\n")))
	env.Selectable = true
	envHeading := widget.NewLabelWithStyle(fmt.Sprintf("Environment (%d variables)", len(p.Env)), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	return container.NewVScroll(container.NewVBox(factsGrid(facts), container.NewPadded(envHeading), container.NewPadded(env)))
}
