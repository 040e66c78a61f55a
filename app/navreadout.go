package app

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// stopText says why a thread stopped running, as a read-out shows it.
func stopText(st ingest.StopStatus) string {
	switch st {
	case ingest.StopNoStatus:
		return ""
	case ingest.StopHeapOverflow:
		return "heap overflow (needs a GC)"
	case ingest.StopStackOverflow:
		return "stack overflow"
	case ingest.StopYielding:
		return "yielding"
	case ingest.StopFinished:
		return "finished"
	case ingest.StopMigrating:
		return "migrating"
	case ingest.StopForeignCall:
		return "foreign call"
	}
	if st.Blocked() {
		return "blocked on " + timeline.BlockedReason(st)
	}
	return "status " + strconv.Itoa(int(st))
}

// threadText names a thread by id and label: `thread 5 "worker"`.
func threadText(m *timeline.Model, id uint32) string {
	s := "thread " + strconv.FormatUint(uint64(id), 10)
	if th := m.ThreadByID(id); th != nil && th.Label >= 0 {
		s += " " + strconv.Quote(m.String(th.Label))
	}
	return s
}

// mixText lists the states of a mixed pixel column by their share, largest
// first: "running 62%, GC work 20%, idle 18%".
func mixText(d *timeline.Durations) string {
	total := d.Total()
	if total == 0 {
		return "nothing recorded"
	}
	type part struct {
		s  timeline.State
		ns uint64
	}
	var parts []part
	for s := timeline.State(0); s < timeline.NumStates; s++ {
		if d[s] > 0 {
			parts = append(parts, part{s, d[s]})
		}
	}
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].ns > parts[j].ns })
	var out []string
	for _, p := range parts {
		out = append(out, fmt.Sprintf("%s %.0f%%", p.s, 100*float64(p.ns)/float64(total)))
	}
	return strings.Join(out, ", ")
}

// hoverText is the one-line read-out for what lies under the pointer.
func hoverText(m *timeline.Model, h timeline.Hit) string {
	at := "at " + timeline.FormatDuration(h.Time)
	switch h.Row {
	case timeline.RowAxis:
		return at
	case timeline.RowActivity:
		n := max(len(m.HECs), 1)
		d := h.ColTo - h.ColFrom
		if d == 0 {
			return "Activity " + at
		}
		return fmt.Sprintf("Activity %s: %.2f of %d HECs running Haskell code (%s)", at,
			float64(h.Times[timeline.StateRunning])/float64(d), n, mixText(&h.Times))
	case timeline.RowHEC:
		head := fmt.Sprintf("HEC %d %s: ", h.HEC, at)
		if h.Marks > 0 {
			return head + fmt.Sprintf("%d changes in this pixel (%s of time): %s. Zoom in to see each span.",
				h.Marks, timeline.FormatDuration(h.ColTo-h.ColFrom), mixText(&h.Times))
		}
		return head + spanText(m, h)
	}
	return ""
}

// spanText describes the HEC span of a hit: state, thread, start, length
// and why the thread stopped.
func spanText(m *timeline.Model, h timeline.Hit) string {
	var what string
	switch h.Span.State {
	case timeline.StateRunning:
		what = "running " + threadText(m, h.Span.Arg)
	case timeline.StateIdle:
		what = "idle"
	default:
		what = h.Span.State.String()
	}
	s := fmt.Sprintf("%s, from %s for %s", what, timeline.FormatDuration(h.SpanStart), timeline.FormatDuration(h.SpanEnd-h.SpanStart))
	if st := stopText(h.Stop); st != "" {
		s += ", stopped: " + st
	}
	return s
}

// detailFacts are the facts of a clicked span for the Details panel.
func detailFacts(m *timeline.Model, h timeline.Hit) []fact {
	if h.Row != timeline.RowHEC {
		return nil
	}
	facts := []fact{{"HEC", strconv.Itoa(h.HEC)}}
	if h.Marks > 0 {
		return append(facts,
			fact{"Pixel", fmt.Sprintf("%s to %s", timeline.FormatDuration(h.ColFrom), timeline.FormatDuration(h.ColTo))},
			fact{"Changes of state", strconv.Itoa(h.Marks)},
			fact{"Time per state", mixText(&h.Times)},
			fact{"Hint", "zoom in to pick one span"})
	}
	facts = append(facts, fact{"State", h.Span.State.String()})
	if h.Span.State == timeline.StateRunning {
		facts = append(facts, fact{"Thread", threadText(m, h.Span.Arg)})
		if th := m.ThreadByID(h.Span.Arg); th != nil {
			if th.Created > 0 {
				facts = append(facts, fact{"Thread created", timeline.FormatDuration(th.Created)})
			}
			if th.Finished > 0 {
				facts = append(facts, fact{"Thread finished", timeline.FormatDuration(th.Finished)})
			}
			busy := th.Track.Durations(m.Start, m.End)
			facts = append(facts, fact{"Thread ran in all", timeline.FormatDuration(busy[timeline.StateRunning])})
		}
	}
	facts = append(facts,
		fact{"Start", timeline.FormatDuration(h.SpanStart)},
		fact{"End", timeline.FormatDuration(h.SpanEnd)},
		fact{"Duration", timeline.FormatDuration(h.SpanEnd - h.SpanStart)})
	if st := stopText(h.Stop); st != "" {
		facts = append(facts, fact{"Stopped because", st})
	}
	return facts
}

// threadDetailFacts are the facts of a clicked thread row for the Details
// panel: the thread, its state at that time and its life.
func threadDetailFacts(m *timeline.Model, h timeline.ThreadHit) []fact {
	th := &m.Threads[h.Thread]
	facts := []fact{{"Thread", threadText(m, th.ID)}}
	if h.Marks > 0 {
		facts = append(facts, fact{"Changes of state in the pixel", strconv.Itoa(h.Marks)}, fact{"Time per state", mixText(&h.Times)})
	} else {
		facts = append(facts, fact{"State", timeline.ThreadStateText(h.Mark)},
			fact{"Since", timeline.FormatDuration(h.SpanStart)},
			fact{"Until", timeline.FormatDuration(h.SpanEnd)},
			fact{"Duration", timeline.FormatDuration(h.SpanEnd - h.SpanStart)})
	}
	if th.Created > 0 {
		facts = append(facts, fact{"Created", timeline.FormatDuration(th.Created)})
	}
	if th.Finished > 0 {
		facts = append(facts, fact{"Finished", timeline.FormatDuration(th.Finished)})
	}
	d := th.Track.Durations(m.Start, m.End)
	facts = append(facts, fact{"Running in all", timeline.FormatDuration(d[timeline.StateRunning])},
		fact{"Runnable in all", timeline.FormatDuration(d[timeline.StateRunnable])},
		fact{"Blocked in all", timeline.FormatDuration(d[timeline.StateBlocked])})
	return facts
}

// mouseHelp lists the timeline's mouse controls.
var mouseHelp = [][2]string{
	{"Wheel / Ctrl+wheel", "zoom in and out at the pointer"},
	{"Shift+wheel, horizontal scroll", "pan left and right"},
	{"Drag", "pan"},
	{"Shift+drag", "select a range (its duration is shown; the Selection tab sums it)"},
	{"Click a span", "show its details (HEC or thread row) in the Details tab"},
	{"Double-click a span", "zoom to that span (elsewhere: fit the run)"},
}

// commandHelp lists the window's shortcuts with Ctrl (Cmd on macOS).
var commandHelp = [][2]string{
	{"Ctrl+P  Ctrl+K", "go to a thread, label, marker, HEC or command (type part of its name)"},
	{"Ctrl+O", "open a file (in this window if it is empty, else in a new one)"},
	{"Ctrl+R", "reload the file"},
	{"Ctrl+E", "export the view as PNG"},
	{"Ctrl+W", "close the window"},
}

// shortcutHelp lists the mouse controls, the time view's keys and the
// window's shortcuts, as Help > Keyboard Shortcuts shows them.
func shortcutHelp() [][2]string {
	out := append([][2]string(nil), mouseHelp...)
	out = append(out, keysHelp()...)
	return append(out, commandHelp...)
}

// showShortcuts opens the Help > Keyboard Shortcuts dialog: one line per
// control, unwrapped, scrolling if the window is small.
func showShortcuts(win fyne.Window) {
	form := container.New(layout.NewFormLayout())
	for _, sc := range shortcutHelp() {
		form.Add(widget.NewLabelWithStyle(sc[0], fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}))
		form.Add(widget.NewLabel(sc[1]))
	}
	note := widget.NewLabel("The keys work whatever has the keyboard, except a text field: Esc there gives them back.")
	// The list scrolls, so that the dialog fits a small window.
	list := container.NewScroll(container.NewVBox(form, note))
	size := win.Canvas().Size()
	list.SetMinSize(fyne.NewSize(min(760, size.Width*0.9), min(560, size.Height*0.7)))
	d := dialog.NewCustom("Keyboard Shortcuts", "Close", list, win)
	d.Show()
}
