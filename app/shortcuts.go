package app

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
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

// shortcutSection is a titled list of controls, a column's part of the
// Keyboard Shortcuts sheet.
type shortcutSection struct {
	title string
	rows  [][2]string
}

// showShortcuts opens the Help > Keyboard Shortcuts dialog: the mouse
// controls in one column, the keys and the window's shortcuts in the
// other, the keys in bold and each description wrapped to its column, so
// that at 1280×800 and larger it reads without scrolling; a smaller window
// (or a larger scale) scrolls it up and down, never sideways.
func showShortcuts(win fyne.Window) {
	size := win.Canvas().Size()
	width := min(1100, size.Width*0.85)
	sheet := shortcutSheet([2][]shortcutSection{
		{{"Mouse", mouseHelp}},
		{{"Keys (when the timeline has the keyboard)", kit.KeysHelp()}, {"Commands (Cmd on macOS)", commandHelp}},
	}, width-2*theme.Padding())
	note := widget.NewLabel("The keys work whatever has the keyboard, except a text field: Esc there gives them back.")
	note.Wrapping = fyne.TextWrapWord
	list := container.NewVScroll(container.NewVBox(sheet, note))
	list.SetMinSize(fyne.NewSize(width, min(sheet.MinSize().Height+note.MinSize().Height+4*theme.Padding(), size.Height*0.8)))
	d := dialog.NewCustom("Keyboard Shortcuts", "Close", list, win)
	d.Show()
}

// shortcutSheet lays the sections of each column out in two columns that
// together take width: per row the keys in bold, then the description
// wrapped to what is left of the column, in lines of text without the
// padding of a label each (the sheet is long).
func shortcutSheet(cols [2][]shortcutSection, width float32) fyne.CanvasObject {
	size := theme.TextSize()
	bold := fyne.TextStyle{Bold: true}
	fg := theme.Color(theme.ColorNameForeground)
	lineH := fyne.MeasureText("Mg", size, fyne.TextStyle{}).Height
	gap, rowGap := 3*theme.Padding(), theme.Padding()/2
	colW := (width - gap) / 2
	var objs []fyne.CanvasObject
	text := func(s string, style fyne.TextStyle, x, y float32) {
		t := canvas.NewText(s, fg)
		t.TextSize, t.TextStyle = size, style
		t.Move(fyne.NewPos(x, y))
		t.Resize(fyne.NewSize(fyne.MeasureText(s, size, style).Width, lineH))
		objs = append(objs, t)
	}
	height := float32(0)
	for c, sections := range cols {
		x0 := float32(c) * (colW + gap)
		keyW := float32(0)
		for _, sec := range sections {
			for _, r := range sec.rows {
				keyW = max(keyW, fyne.MeasureText(r[0], size, bold).Width)
			}
		}
		keyW = min(keyW+2*theme.Padding(), colW/2)
		y := float32(0)
		for i, sec := range sections {
			if i > 0 {
				y += lineH / 2
			}
			head := canvas.NewText(sec.title, theme.Color(theme.ColorNamePrimary))
			head.TextSize, head.TextStyle = size, bold
			head.Move(fyne.NewPos(x0, y))
			objs = append(objs, head)
			y += lineH + rowGap
			for _, r := range sec.rows {
				text(r[0], bold, x0, y)
				for _, line := range wrapText(r[1], colW-keyW, size) {
					text(line, fyne.TextStyle{}, x0+keyW, y)
					y += lineH
				}
				y += rowGap
			}
		}
		height = max(height, y)
	}
	return container.New(&fixedLayout{size: fyne.NewSize(width, height)}, objs...)
}

// wrapText breaks s into lines no wider than width at text size size,
// between words (a word wider than width gets a line of its own).
func wrapText(s string, width, size float32) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if line != "" && fyne.MeasureText(try, size, fyne.TextStyle{}).Width > width {
			lines = append(lines, line)
			try = word
		}
		line = try
	}
	return append(lines, line)
}

// fixedLayout keeps its objects where they were put and asks for size.
type fixedLayout struct{ size fyne.Size }

// Layout leaves the objects where they are.
func (*fixedLayout) Layout([]fyne.CanvasObject, fyne.Size) {}

// MinSize is the size the objects were laid out in.
func (l *fixedLayout) MinSize([]fyne.CanvasObject) fyne.Size { return l.size }
