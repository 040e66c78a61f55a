package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// How big a window is. Fyne grows a window to its content's minimum size
// and never shrinks it back, so a window's content must not ask for more
// than windowMinSize: whatever can grow (rows, tables, text) scrolls inside
// it, and the content is set through setContent, which puts it in a
// scroller as a last resort.
var (
	// DefaultWindowSize is the size of the first window, before the user
	// has sized one (in Fyne units).
	DefaultWindowSize = fyne.NewSize(1280, 800)
	// WindowMinSize is the least size a window's content asks for: less
	// than the most a window opens at on a 1280×800 screen at scale 2.
	WindowMinSize = fyne.NewSize(480, 360)
)

// screenShare is the largest part of the screen's work area (width and
// height) that a window opens at.
const screenShare = 0.92

// FitWindow wraps a window's content so that it never asks the window for
// more than windowMinSize: if the window is made smaller than what the
// content needs, the content scrolls instead of the window growing. A
// hintLayer lies over the content, for its labels' hints (see hint.go).
func FitWindow(content fyne.CanvasObject) fyne.CanvasObject {
	s := container.NewScroll(container.NewStack(content, newHintLayer()))
	s.SetMinSize(WindowMinSize)
	return s
}

// FitToScreen shrinks win, if it is larger, to screenShare of the work
// area of the screen, and centres it (see Window.fitScreen).
func FitToScreen(win fyne.Window) {
	area, ok := screenWorkArea()
	if !ok {
		return
	}
	scale := win.Canvas().Scale()
	if scale <= 0 {
		return
	}
	most := fyne.NewSize(float32(area.Width)*screenShare/scale, float32(area.Height)*screenShare/scale)
	size := win.Canvas().Size()
	if size.Width <= most.Width && size.Height <= most.Height {
		return
	}
	win.Resize(size.Min(most).Max(WindowMinSize))
	win.CenterOnScreen()
}

// screenWorkArea returns the size, in screen pixels, of the primary
// screen's work area (the screen less panels and docks), or false if there
// is no screen to ask: Fyne's desktop driver runs on GLFW, which has
// already been initialised once a window exists; other drivers (the test
// driver) have no screen.
func screenWorkArea() (fyne.Size, bool) {
	if _, ok := fyne.CurrentApp().Driver().(desktop.Driver); !ok {
		return fyne.Size{}, false
	}
	m := glfw.GetPrimaryMonitor()
	if m == nil {
		return fyne.Size{}, false
	}
	_, _, width, height := m.GetWorkarea()
	if width <= 0 || height <= 0 {
		if mode := m.GetVideoMode(); mode != nil {
			width, height = mode.Width, mode.Height
		}
	}
	if width <= 0 || height <= 0 {
		return fyne.Size{}, false
	}
	return fyne.NewSize(float32(width), float32(height)), true
}
