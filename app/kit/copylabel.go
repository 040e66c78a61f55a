package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// CopyLabel is a label whose text can be copied from a right-click menu.
// Unlike a selectable label it never takes the keyboard, which stays with
// the time view (see keyBindings).
type CopyLabel struct{ widget.Label }

// NewCopyLabel returns a label of text whose right-click menu copies it.
func NewCopyLabel(text string) *CopyLabel {
	l := &CopyLabel{}
	l.Text = text
	l.ExtendBaseWidget(l)
	return l
}

// TappedSecondary offers to copy the label's text.
func (l *CopyLabel) TappedSecondary(ev *fyne.PointEvent) {
	c := fyne.CurrentApp().Driver().CanvasForObject(l)
	if c == nil {
		return
	}
	copyText := fyne.NewMenuItem("Copy", func() { fyne.CurrentApp().Clipboard().SetContent(l.Text) })
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", copyText), c, ev.AbsolutePosition)
}
