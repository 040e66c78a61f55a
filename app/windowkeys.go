package app

import (
	"fyne.io/fyne/v2"
	"github.com/hecscope/hecscope/app/kit"
)

// bindKeys makes the window's canvas pass keys that no focused widget takes
// to the shown view's time view.
func (w *Window) bindKeys() {
	c := w.win.Canvas()
	c.SetOnTypedRune(func(r rune) {
		if a, ok := kit.RuneAction(r); ok {
			w.viewAction(a)
		}
	})
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if a, ok := kit.KeyAction(ev.Name); ok {
			w.viewAction(a)
		}
	})
}

// viewAction does a on the window's time view, if it has one.
func (w *Window) viewAction(a kit.ViewAction) bool {
	if w.view != nil {
		if t := w.view.KeyTarget(); t != nil {
			return t.ViewAction(a)
		}
	}
	return false
}

// KeyTarget is the track canvas.
func (v *eventlogView) KeyTarget() kit.KeyTarget {
	if v.canvas == nil {
		return nil
	}
	return v.canvas
}
