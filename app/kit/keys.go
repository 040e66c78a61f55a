package kit

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// ViewAction is something the keyboard does to the time view.
type ViewAction int

const (
	ActZoomIn ViewAction = iota
	ActZoomOut
	ActPanLeft
	ActPanRight
	ActFit
	ActZoomSelection
	ActClearSelection
	ActStart
	ActEnd
	ActBookmark
	ActScrollUp
	ActScrollDown
)

// keyBinding is the keys that do one view action: ThreadScope's and
// Perfetto's both.
type keyBinding struct {
	Action ViewAction
	runes  []rune
	keys   []fyne.KeyName
	// help is how Help > Keyboard Shortcuts names the keys and the action.
	KeysHelp, Help string
}

// KeyBindings are the time view's keys. They reach the view whatever has
// the keyboard, except a text field (which takes the letters typed into
// it; Esc there gives the keyboard back to the view).
var KeyBindings = []keyBinding{
	{ActZoomIn, []rune{'+', '=', 'w', 'W'}, nil, "+  =  W", "zoom in at the pointer (or the centre)"},
	{ActZoomOut, []rune{'-', '_', 's', 'S'}, nil, "-  S", "zoom out at the pointer (or the centre)"},
	{ActPanLeft, []rune{'a', 'A'}, []fyne.KeyName{fyne.KeyLeft}, "←  A", "pan left by a tenth of the view"},
	{ActPanRight, []rune{'d', 'D'}, []fyne.KeyName{fyne.KeyRight}, "→  D", "pan right by a tenth of the view"},
	{ActFit, []rune{'0'}, nil, "0", "fit the whole run"},
	{ActZoomSelection, []rune{'z', 'Z'}, nil, "Z", "zoom to the selection"},
	{ActClearSelection, nil, []fyne.KeyName{fyne.KeyEscape}, "Esc", "clear the selection and the finding picked"},
	{ActStart, nil, []fyne.KeyName{fyne.KeyHome}, "Home", "go to the start of the run"},
	{ActEnd, nil, []fyne.KeyName{fyne.KeyEnd}, "End", "go to the end of the run (in a live window: follow the newest events)"},
	{ActBookmark, []rune{'b', 'B'}, nil, "B", "bookmark the time at the pointer (else the selection's start or the view's centre)"},
	{ActScrollUp, nil, []fyne.KeyName{fyne.KeyUp, fyne.KeyPageUp}, "↑  PgUp", "scroll the tracks up"},
	{ActScrollDown, nil, []fyne.KeyName{fyne.KeyDown, fyne.KeyPageDown}, "↓  PgDn", "scroll the tracks down"},
}

// RuneAction returns the view action typing r does.
func RuneAction(r rune) (ViewAction, bool) {
	for _, b := range KeyBindings {
		for _, br := range b.runes {
			if br == r {
				return b.Action, true
			}
		}
	}
	return 0, false
}

// KeyAction returns the view action pressing key does.
func KeyAction(key fyne.KeyName) (ViewAction, bool) {
	for _, b := range KeyBindings {
		for _, bk := range b.keys {
			if bk == key {
				return b.Action, true
			}
		}
	}
	return 0, false
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

// KeyList is a list that keeps the keys it uses (Up, Down, Space) and passes
// the others on to the time view.
type KeyList struct{ widget.List }

// NewKeyList returns a list, as widget.NewList makes it, that passes on
// the keys it does not use.
func NewKeyList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *KeyList {
	l := &KeyList{}
	l.Length, l.CreateItem, l.UpdateItem = length, create, update
	l.ExtendBaseWidget(l)
	return l
}

// TypedRune keeps Space, which selects, and passes other runes on.
func (l *KeyList) TypedRune(r rune) {
	if r == ' ' {
		l.List.TypedRune(r)
		return
	}
	forwardRune(l, r)
}

// TypedKey keeps Up, Down and Space and passes other keys on.
func (l *KeyList) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyUp, fyne.KeyDown, fyne.KeySpace:
		l.List.TypedKey(ev)
	default:
		forwardKey(l, ev)
	}
}

// KeySelect is a drop-down that keeps the keys that open it (Space, Up,
// Down) and passes other keys on to the time view.
type KeySelect struct{ widget.Select }

// NewKeySelect returns a drop-down of options, as widget.NewSelect makes
// it, that passes on the keys it does not use.
func NewKeySelect(options []string, changed func(string)) *KeySelect {
	s := &KeySelect{}
	s.Options, s.OnChanged = options, changed
	s.ExtendBaseWidget(s)
	return s
}

// TypedRune passes runes on.
func (s *KeySelect) TypedRune(r rune) { forwardRune(s, r) }

// TypedKey keeps Space, Up and Down and passes other keys on.
func (s *KeySelect) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeySpace, fyne.KeyUp, fyne.KeyDown:
		s.Select.TypedKey(ev)
	default:
		forwardKey(s, ev)
	}
}

// KeyEntry is a text field that gives the keyboard back to the time view
// with Esc, and passes on the window's shortcuts (so Ctrl+K opens the
// finder from it too).
type KeyEntry struct{ widget.Entry }

// NewKeyEntry returns a text field that gives the keyboard back to the
// time view with Esc.
func NewKeyEntry() *KeyEntry {
	e := &KeyEntry{}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey gives up the keyboard on Esc.
func (e *KeyEntry) TypedKey(ev *fyne.KeyEvent) {
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
func (e *KeyEntry) TypedShortcut(s fyne.Shortcut) {
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

// KeysHelp lists the time view's keys for Help > Keyboard Shortcuts.
func KeysHelp() [][2]string {
	var out [][2]string
	for _, b := range KeyBindings {
		out = append(out, [2]string{strings.TrimSpace(b.KeysHelp), b.Help})
	}
	return out
}

// KeyTarget is what the keyboard's view actions act on: the time view of
// the file a window shows.
type KeyTarget interface {
	// ViewAction does a and reports whether it did anything.
	ViewAction(a ViewAction) bool
}
