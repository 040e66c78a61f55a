package app

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// dialogWidget returns the first widget of type T in the dialog on top of
// w for which ok holds.
func dialogWidget[T fyne.CanvasObject](t *testing.T, w *Window, ok func(T) bool) T {
	t.Helper()
	top := w.Fyne().Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog shown")
	}
	for _, o := range test.LaidOutObjects(top) {
		if x, is := o.(T); is && ok(x) {
			return x
		}
	}
	var zero T
	t.Fatalf("the dialog has no such %T", zero)
	return zero
}
