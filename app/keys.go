package app

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// viewAction is something the keyboard does to the time view.
type viewAction int

const (
	actZoomIn viewAction = iota
	actZoomOut
	actPanLeft
	actPanRight
	actFit
	actZoomSelection
	actClearSelection
	actStart
	actEnd
	actBookmark
	actScrollUp
	actScrollDown
)

// keyBinding is the keys that do one view action: ThreadScope's and
// Perfetto's both.
type keyBinding struct {
	action viewAction
	runes  []rune
	keys   []fyne.KeyName
	// help is how Help > Keyboard Shortcuts names the keys and the action.
	keysHelp, help string
}

// keyBindings are the time view's keys. They reach the view whatever has
// the keyboard, except a text field (which takes the letters typed into
// it; Esc there gives the keyboard back to the view).
var keyBindings = []keyBinding{
	{actZoomIn, []rune{'+', '=', 'w', 'W'}, nil, "+  =  W", "zoom in at the pointer (or the centre)"},
	{actZoomOut, []rune{'-', '_', 's', 'S'}, nil, "-  S", "zoom out at the pointer (or the centre)"},
	{actPanLeft, []rune{'a', 'A'}, []fyne.KeyName{fyne.KeyLeft}, "←  A", "pan left by a tenth of the view"},
	{actPanRight, []rune{'d', 'D'}, []fyne.KeyName{fyne.KeyRight}, "→  D", "pan right by a tenth of the view"},
	{actFit, []rune{'0'}, nil, "0", "fit the whole run"},
	{actZoomSelection, []rune{'z', 'Z'}, nil, "Z", "zoom to the selection"},
	{actClearSelection, nil, []fyne.KeyName{fyne.KeyEscape}, "Esc", "clear the selection and the finding picked"},
	{actStart, nil, []fyne.KeyName{fyne.KeyHome}, "Home", "go to the start of the run"},
	{actEnd, nil, []fyne.KeyName{fyne.KeyEnd}, "End", "go to the end of the run (in a live window: follow the newest events)"},
	{actBookmark, []rune{'b', 'B'}, nil, "B", "bookmark the time at the pointer (else the selection's start or the view's centre)"},
	{actScrollUp, nil, []fyne.KeyName{fyne.KeyUp, fyne.KeyPageUp}, "↑  PgUp", "scroll the tracks up"},
	{actScrollDown, nil, []fyne.KeyName{fyne.KeyDown, fyne.KeyPageDown}, "↓  PgDn", "scroll the tracks down"},
}

// runeAction returns the view action typing r does.
func runeAction(r rune) (viewAction, bool) {
	for _, b := range keyBindings {
		for _, br := range b.runes {
			if br == r {
				return b.action, true
			}
		}
	}
	return 0, false
}

// keyAction returns the view action pressing key does.
func keyAction(key fyne.KeyName) (viewAction, bool) {
	for _, b := range keyBindings {
		for _, bk := range b.keys {
			if bk == key {
				return b.action, true
			}
		}
	}
	return 0, false
}

// keyTarget is what the keyboard's view actions act on: the time view of
// the file a window shows.
type keyTarget interface {
	// viewAction does a and reports whether it did anything.
	viewAction(a viewAction) bool
}

// keyTargetView is a view with a time view the keys act on.
type keyTargetView interface {
	// keyTarget returns the time view, or nil if the view has none.
	keyTarget() keyTarget
}

// bindKeys makes the window's canvas pass keys that no focused widget takes
// to the shown view's time view.
func (w *Window) bindKeys() {
	c := w.win.Canvas()
	c.SetOnTypedRune(func(r rune) {
		if a, ok := runeAction(r); ok {
			w.viewAction(a)
		}
	})
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if a, ok := keyAction(ev.Name); ok {
			w.viewAction(a)
		}
	})
}

// viewAction does a on the window's time view, if it has one.
func (w *Window) viewAction(a viewAction) bool {
	if v, ok := w.view.(keyTargetView); ok {
		if t := v.keyTarget(); t != nil {
			return t.viewAction(a)
		}
	}
	return false
}

// forwardRune passes r, typed while o had the keyboard but of no use to it,
// to o's window (see bindKeys).
func forwardRune(o fyne.CanvasObject, r rune) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(o); c != nil {
		if f := c.OnTypedRune(); f != nil {
			f(r)
		}
	}
}

// forwardKey passes ev, pressed while o had the keyboard but of no use to
// it, to o's window (see bindKeys).
func forwardKey(o fyne.CanvasObject, ev *fyne.KeyEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(o); c != nil {
		if f := c.OnTypedKey(); f != nil {
			f(ev)
		}
	}
}

// forwardShortcut passes a shortcut that o has no use for to o's window,
// whose canvas holds the window's shortcuts.
func forwardShortcut(o fyne.CanvasObject, s fyne.Shortcut) {
	if c, ok := fyne.CurrentApp().Driver().CanvasForObject(o).(fyne.Shortcutable); ok {
		c.TypedShortcut(s)
	}
}

// keyList is a list that keeps the keys it uses (Up, Down, Space) and passes
// the others on to the time view.
type keyList struct{ widget.List }

func newKeyList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *keyList {
	l := &keyList{}
	l.Length, l.CreateItem, l.UpdateItem = length, create, update
	l.ExtendBaseWidget(l)
	return l
}

// TypedRune keeps Space, which selects, and passes other runes on.
func (l *keyList) TypedRune(r rune) {
	if r == ' ' {
		l.List.TypedRune(r)
		return
	}
	forwardRune(l, r)
}

// TypedKey keeps Up, Down and Space and passes other keys on.
func (l *keyList) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyUp, fyne.KeyDown, fyne.KeySpace:
		l.List.TypedKey(ev)
	default:
		forwardKey(l, ev)
	}
}

// keySelect is a drop-down that keeps the keys that open it (Space, Up,
// Down) and passes other keys on to the time view.
type keySelect struct{ widget.Select }

func newKeySelect(options []string, changed func(string)) *keySelect {
	s := &keySelect{}
	s.Options, s.OnChanged = options, changed
	s.ExtendBaseWidget(s)
	return s
}

// TypedRune passes runes on.
func (s *keySelect) TypedRune(r rune) { forwardRune(s, r) }

// TypedKey keeps Space, Up and Down and passes other keys on.
func (s *keySelect) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeySpace, fyne.KeyUp, fyne.KeyDown:
		s.Select.TypedKey(ev)
	default:
		forwardKey(s, ev)
	}
}

// keyEntry is a text field that gives the keyboard back to the time view
// with Esc, and passes on the window's shortcuts (so Ctrl+K opens the
// finder from it too).
type keyEntry struct{ widget.Entry }

func newKeyEntry() *keyEntry {
	e := &keyEntry{}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey gives up the keyboard on Esc.
func (e *keyEntry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		if c := fyne.CurrentApp().Driver().CanvasForObject(e); c != nil {
			c.Unfocus()
			return
		}
	}
	e.Entry.TypedKey(ev)
}

// TypedShortcut passes on the window's own shortcuts that its menus do not
// hold (the menus' reach the window whatever has the keyboard).
func (e *keyEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && windowShortcut(cs) {
		forwardShortcut(e, s)
		return
	}
	e.Entry.TypedShortcut(s)
}

// windowShortcut reports whether s is one of the shortcuts a window binds
// on its canvas only (Ctrl+K, the finder's second key).
func windowShortcut(s *desktop.CustomShortcut) bool {
	return s.KeyName == fyne.KeyK && s.Modifier == fyne.KeyModifierShortcutDefault
}

// keysHelp lists the time view's keys for Help > Keyboard Shortcuts.
func keysHelp() [][2]string {
	var out [][2]string
	for _, b := range keyBindings {
		out = append(out, [2]string{strings.TrimSpace(b.keysHelp), b.help})
	}
	return out
}

// keyTarget is the track canvas.
func (v *eventlogView) keyTarget() keyTarget {
	if v.canvas == nil {
		return nil
	}
	return v.canvas
}
