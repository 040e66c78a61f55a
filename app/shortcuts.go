package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
)

// mouseHelp lists the timeline's mouse controls.
var mouseHelp = [][2]string{
	{"Ctrl+wheel", "zoom in and out at the pointer"},
	{"Wheel", "scroll the tracks, three thread tracks a notch"},
	{"Shift+wheel, horizontal scroll", "pan left and right"},
	{"Drag", "pan"},
	{"Shift+drag", "select a range (its length is shown on the axis; the tabs describe it)"},
	{"Click a span", "show its details in the Details tab; on a thread's runnable span, link it to what woke it"},
	{"Double-click a span", "zoom to that span (elsewhere: fit the run; on a header's bottom edge: its default height)"},
	{"Click a group's title, a pin", "collapse or expand the group; pin the track to the top"},
	{"Click \"by thread\" on User events", "show the spans in a track per label, or back nested per thread"},
	{"Drag a header's bottom edge", "resize the track"},
	{"Right-click a track", "pin or hide it, zoom to the span there, copy its name or the time, show its events from there"},
}

// commandHelp lists the window's shortcuts with Ctrl (Cmd on macOS).
var commandHelp = [][2]string{
	{"Ctrl+P  Ctrl+K", "go to a thread, label, marker, HEC or command (type part of its name)"},
	{"Ctrl+O", "open a file (in this window if it is empty, else in a new one)"},
	{"Ctrl+R", "reload the file"},
	{"Ctrl+E", "export the view as PNG (File > Export Picture: twice the size, SVG, all tracks, the selection)"},
	{"Ctrl+W", "close the window"},
}

// shortcutHelp lists the mouse controls, the time view's keys and the
// window's shortcuts, as Help > Keyboard Shortcuts shows them.
func shortcutHelp() [][2]string {
	out := append([][2]string(nil), mouseHelp...)
	out = append(out, kit.KeysHelp()...)
	return append(out, commandHelp...)
}

// showShortcuts opens the Help > Keyboard Shortcuts dialog: one row per
// control, the keys in bold, the description wrapped to the dialog's width
// (it never scrolls sideways), the whole scrolling up and down if the
// window is small.
func showShortcuts(win fyne.Window) {
	form := container.New(layout.NewFormLayout())
	for _, sc := range shortcutHelp() {
		form.Add(widget.NewLabelWithStyle(sc[0], fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}))
		desc := widget.NewLabel(sc[1])
		desc.Wrapping = fyne.TextWrapWord
		form.Add(desc)
	}
	note := widget.NewLabel("The keys work whatever has the keyboard, except a text field: Esc there gives them back.")
	note.Wrapping = fyne.TextWrapWord
	list := container.NewVScroll(container.NewVBox(form, note))
	size := win.Canvas().Size()
	list.SetMinSize(fyne.NewSize(min(900, size.Width*0.85), min(600, size.Height*0.75)))
	d := dialog.NewCustom("Keyboard Shortcuts", "Close", list, win)
	d.Show()
}
