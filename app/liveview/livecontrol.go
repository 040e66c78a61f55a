package liveview

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/hecscope/hecscope/ingest"
)

// censusWait is how long the live window watches for a requested heap
// census before saying that none came, and why that may be.
const censusWait = 10 * time.Second

// censusRequest is a census-making command the live window sent, and what
// it has seen of its effect.
type censusRequest struct {
	cmd  ingest.Command
	at   time.Time
	base int // censuses in the heap profile when it was sent (-1: no profile yet)
}

// ControlMenu is the live window's Control menu: eventlog-socket's built-in
// commands and a program's own (NAMESPACE:ID), sent on the connection the
// window reads (the program's socket, or a relay, which passes them on).
// Where the source cannot carry commands (a FIFO, a growing file), every
// item is disabled and the first one says why.
func (v *View) ControlMenu(win fyne.Window) *fyne.Menu {
	refusal := ingest.ControlRefusal(v.url)
	var items []*fyne.MenuItem
	note := func(text string) {
		it := fyne.NewMenuItem(text, nil)
		it.Disabled = true
		items = append(items, it)
	}
	if refusal != "" {
		note("Not available: " + refusal)
	} else {
		note("Ignored by a program built without eventlog-socket's control feature")
	}
	items = append(items, fyne.NewMenuItemSeparator())
	for _, b := range ingest.BuiltinCommands {
		it := fyne.NewMenuItem(commandTitle(b.Name), func() { v.sendCommand(b.Command) })
		it.Disabled = refusal != ""
		items = append(items, it)
	}
	own := fyne.NewMenuItem("Program Command (namespace:id)…", func() { v.askCommand(win) })
	own.Disabled = refusal != ""
	items = append(items, fyne.NewMenuItemSeparator(), own)
	return fyne.NewMenu("Control", items...)
}

// commandTitle turns a command's name (requestHeapCensus) into a menu
// title (Request Heap Census).
func commandTitle(name string) string {
	var b strings.Builder
	for i, r := range name {
		if i == 0 {
			r = unicode.ToUpper(r)
		} else if unicode.IsUpper(r) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// askCommand asks for a program's own command and sends it.
func (v *View) askCommand(win fyne.Window) {
	entry := widget.NewEntry()
	entry.SetPlaceHolder("my-app:3")
	help := widget.NewLabel("A namespace the program registered with eventlog-socket,\nand the id of one of its commands (0–255).")
	dialog.ShowForm("Send a Program Command", "Send", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("Command", entry), widget.NewFormItem("", help)},
		func(ok bool) {
			if !ok {
				return
			}
			cmd, err := ingest.ParseCommand(strings.TrimSpace(entry.Text))
			if err != nil {
				v.readout.SetText(err.Error())
				return
			}
			v.sendCommand(cmd)
		}, win)
}

// sendCommand sends cmd and says so in the readout; a census request is
// then watched for (see watchCensus).
func (v *View) sendCommand(cmd ingest.Command) {
	if v.session == nil {
		return
	}
	if err := v.session.Send(cmd); err != nil {
		v.readout.SetText(fmt.Sprintf("Could not send %s: %v", cmd, err))
		return
	}
	now := time.Now()
	text := fmt.Sprintf("Sent %s at %s.", cmd, now.Format("15:04:05"))
	if cmd.MakesCensus() {
		v.census = &censusRequest{cmd: cmd, at: now, base: v.censuses()}
		text += " Watching the Heap track for the census…"
	}
	v.readout.SetText(text)
}

// censuses is how many heap censuses the stream drawn holds (-1: none has
// a heap profile yet).
func (v *View) censuses() int {
	if m := v.models(); m != nil {
		if _, p := m.Heap(); p != nil {
			return p.Len()
		}
	}
	return -1
}

// watchCensus says in the readout when a requested census has arrived, or
// that none has after censusWait, and why that may be. It runs with each
// refresh.
func (v *View) watchCensus(now time.Time) {
	r := v.census
	if r == nil {
		return
	}
	if n := v.censuses(); n > max(r.base, 0) {
		v.readout.SetText(fmt.Sprintf("%d heap census(es) arrived since %s was sent at %s: see the Heap track.", n-max(r.base, 0), r.cmd, r.at.Format("15:04:05")))
		v.census = nil
		return
	}
	if now.Sub(r.at) >= censusWait {
		v.readout.SetText(fmt.Sprintf("No heap census has arrived %v after %s. %s The Heap track shows censuses when they arrive.",
			censusWait, r.cmd, ingest.WhyNoCensus))
		v.census = nil
	}
}
