package app

import (
	"fyne.io/fyne/v2"
	"github.com/hecscope/hecscope/app/kit"
)

// keyTargetView is a view with a time view the keys act on.
type keyTargetView interface {
	// keyTarget returns the time view, or nil if the view has none.
	KeyTarget() kit.KeyTarget
}

// bindKeys makes the window's canvas pass keys that no focused widget takes
// to the shown view's time view.
func (w *Window) bindKeys() {
	c := w.win.Canvas()
	c.SetOnTypedRune(func(r rune) {
		if a, ok := kit.RuneAction(r); ok {
			w.ViewAction(a)
		}
	})
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if a, ok := kit.KeyAction(ev.Name); ok {
			w.ViewAction(a)
		}
	})
}

// viewAction does a on the window's time view, if it has one.
func (w *Window) ViewAction(a kit.ViewAction) bool {
	if v, ok := w.view.(keyTargetView); ok {
		if t := v.KeyTarget(); t != nil {
			return t.ViewAction(a)
		}
	}
	return false
}

// keyTarget is the track canvas.
func (v *eventlogView) KeyTarget() kit.KeyTarget {
	if v.canvas == nil {
		return nil
	}
	return v.canvas
}
