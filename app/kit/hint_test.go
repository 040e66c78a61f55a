package kit

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
)

// TestHintShownWhilePointerRests: a hint label in a window made by
// FitWindow shows its hint on the window's hint layer while the pointer
// rests on it, and hides it when the pointer leaves.
func TestHintShownWhilePointerRests(t *testing.T) {
	fa := test.NewApp()
	defer fa.Quit()
	label := NewHintLabel("—", "no HeapLive events in this log")
	w := test.NewWindow(FitWindow(label))
	defer w.Close()
	w.Resize(fyne.NewSize(400, 200))
	l := label.layer()
	if l == nil || l.Visible() {
		t.Fatalf("hint layer %v before the pointer came", l)
	}
	label.MouseIn(&desktop.MouseEvent{})
	if !l.Visible() || l.Text != label.hint {
		t.Errorf("pointer on the dash: hint shown %v, %q", l.Visible(), l.Text)
	}
	label.MouseOut()
	if l.Visible() {
		t.Error("the hint stays after the pointer left")
	}
}
