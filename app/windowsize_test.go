package app

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/tracks"
)

// shownContent returns what the window shows, inside the scroller that
// setContent puts it in.
func shownContent(t *testing.T, w *Window) fyne.CanvasObject {
	t.Helper()
	s, ok := w.Fyne().Content().(*container.Scroll)
	if !ok {
		t.Fatalf("the window's content is a %T, not set through setContent", w.Fyne().Content())
	}
	return s.Content
}

// checkFits fails if what the window shows asks for more than
// windowMinSize: Fyne would then grow the window (or, with setContent's
// scroller, the whole window would scroll).
func checkFits(t *testing.T, what string, w *Window) {
	t.Helper()
	o := shownContent(t, w)
	if m := o.MinSize(); m.Width > kit.WindowMinSize.Width || m.Height > kit.WindowMinSize.Height {
		t.Errorf("%s asks for %v, more than %v:\n%s", what, m, kit.WindowMinSize, largest(t, o, 0))
	}
}

// largest describes the objects in o that ask for the most room, to say
// which part of a view grew.
func largest(t *testing.T, o fyne.CanvasObject, depth int) string {
	m := o.MinSize()
	s := fmt.Sprintf("%s%T %v\n", strings.Repeat("  ", depth), o, m)
	if depth > 8 || (m.Width <= kit.WindowMinSize.Width && m.Height <= kit.WindowMinSize.Height) {
		return s
	}
	var children []fyne.CanvasObject
	switch x := o.(type) {
	case *fyne.Container:
		children = x.Objects
	case fyne.Widget:
		children = test.TempWidgetRenderer(t, x).Objects()
	}
	for _, c := range children {
		if cm := c.MinSize(); cm.Width > kit.WindowMinSize.Width || cm.Height > kit.WindowMinSize.Height {
			s += largest(t, c, depth+1)
		}
	}
	return s
}

// TestWindowContentFitsSmallWindows opens the kinds of page a window shows
// and checks that none asks for more than a small window, whatever rows are
// shown: so the window opens at a size that fits the screen and never grows.
func TestWindowContentFitsSmallWindows(t *testing.T) {
	a, done := newTestApp(t)
	start := a.ShowStart()
	checkFits(t, "the start page", start)

	for _, path := range []string{parworkN2, "../testdata/ghc-9.0.2/heap-hc.eventlog", "../testdata/ghc-9.0.2/heap-hc.hp", corpus + "ThreadScope__sealions.eventlog"} {
		if m := newLoadingView(path, "").root.MinSize(); m.Width > kit.WindowMinSize.Width || m.Height > kit.WindowMinSize.Height {
			t.Errorf("the loading page of %s asks for %v, more than %v", path, m, kit.WindowMinSize)
		}
		w := a.Open(path)
		await(t, done)
		checkFits(t, path, w)
		v, ok := w.view.(*eventlogView)
		if !ok || v.canvas == nil {
			continue
		}
		v.showAllTracks()
		checkFits(t, path+" with every track shown", w)
		v.canvas.With(func(tv *tracks.View) {
			for g := tracks.Group(0); g < tracks.NumGroups; g++ {
				tv.SetCollapsed(g, true)
			}
		})
		v.canvas.Changed()
		checkFits(t, path+" with every group collapsed", w)
	}

	w := a.Open("../testdata/no-such-file.eventlog")
	await(t, done)
	checkFits(t, "the error page", w)
}

// TestWindowSizeRemembered closes a window the user has resized and checks
// that the next window opens at that size, and that sizes too small to be a
// real window's are not remembered.
func TestWindowSizeRemembered(t *testing.T) {
	a, _ := newTestApp(t)
	w := a.ShowStart()
	if got := w.Fyne().Canvas().Size(); got != kit.DefaultWindowSize {
		t.Errorf("the first window opened at %v, want %v", got, kit.DefaultWindowSize)
	}
	want := fyne.NewSize(900, 610)
	w.Fyne().Resize(want)
	w.Fyne().Close()
	w = a.ShowStart()
	if got := w.Fyne().Canvas().Size(); got != want {
		t.Errorf("the next window opened at %v, want the last size %v", got, want)
	}
	w.Fyne().Resize(fyne.NewSize(10, 10))
	w.Fyne().Close()
	if got := a.ShowStart().Fyne().Canvas().Size(); got != want {
		t.Errorf("after a window closed at 10×10 the next opened at %v, want %v", got, want)
	}
}
