package app

import (
	"fyne.io/fyne/v2"
	"github.com/hecscope/hecscope/app/kit"
)

// Preference keys of the remembered window size, in Fyne units.
const (
	prefWindowWidth  = "window.width"
	prefWindowHeight = "window.height"
)

// setContent shows content in the window (see fitWindow).
func (w *Window) setContent(content fyne.CanvasObject) {
	w.win.SetContent(kit.FitWindow(content))
}

// windowSize returns the size a new window opens at: the last size a
// window was closed at, or defaultWindowSize.
func (a *App) windowSize() fyne.Size {
	p := a.settings
	width := float32(p.FloatWithFallback(prefWindowWidth, float64(kit.DefaultWindowSize.Width)))
	height := float32(p.FloatWithFallback(prefWindowHeight, float64(kit.DefaultWindowSize.Height)))
	return fyne.NewSize(width, height).Max(kit.WindowMinSize)
}

// rememberSize keeps size as the size new windows open at.
func (a *App) rememberSize(size fyne.Size) {
	if size.Width < kit.WindowMinSize.Width || size.Height < kit.WindowMinSize.Height {
		return // not laid out, or minimised
	}
	p := a.settings
	p.SetFloat(prefWindowWidth, float64(size.Width))
	p.SetFloat(prefWindowHeight, float64(size.Height))
}

// fitSoon shrinks w to fit the screen once it is on it; see fitScreen.
// Windows shown before the app runs are fitted when it starts.
func (a *App) fitSoon(w *Window) {
	if a.started {
		fyne.Do(w.fitScreen) // queued: runs after the caller has shown w
	}
}

// startedRunning fits the windows shown before the app ran to the screen.
func (a *App) startedRunning() {
	a.started = true
	for _, w := range a.windows {
		w.fitScreen()
	}
}

// fitScreen shrinks the window, if it is larger, to screenShare of the
// work area of the screen, and centres it. Only a window of the desktop
// driver that has been shown knows its screen and pixel scale; others are
// left alone.
func (w *Window) fitScreen() { kit.FitToScreen(w.win) }
