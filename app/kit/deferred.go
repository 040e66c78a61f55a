package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Deferred keeps its content out of the window until it is first laid
// out at a size, as the content of a tab is once the tab is shown: the
// content is made beforehand, but its renderers are made and its labels
// measured only then. Fyne refreshes the content of every tab whenever the
// tabs are refreshed, the hidden ones too; for the eventlog view's twelve
// tabs, setting the loaded view in the window took 82–102 ms of the UI
// thread's CPU, and 29–31 ms with the hidden tabs' contents deferred
// (parwork-N2.eventlog, three runs each). A Deferred asks for no room
// before it is laid out.
type Deferred struct {
	widget.BaseWidget
	content fyne.CanvasObject
	// shown holds the content once it has been laid out (nil before): from
	// then on it is shown, whatever renderer Fyne makes of d (it drops
	// those unused for a while).
	shown []fyne.CanvasObject
}

// NewDeferred holds content until it is first laid out.
func NewDeferred(content fyne.CanvasObject) *Deferred {
	d := &Deferred{content: content}
	d.ExtendBaseWidget(d)
	return d
}

// Content returns what d holds, shown or not yet.
func (d *Deferred) Content() fyne.CanvasObject { return d.content }

// CreateRenderer shows the content once it has been placed.
func (d *Deferred) CreateRenderer() fyne.WidgetRenderer { return deferredRenderer{d} }

// place says whether the content is placed, placing it if size has room.
func (d *Deferred) place(size fyne.Size) bool {
	if d.shown == nil {
		if size.Width <= 0 || size.Height <= 0 {
			return false
		}
		d.shown = []fyne.CanvasObject{d.content}
	}
	return true
}

type deferredRenderer struct{ d *Deferred }

// Layout places the content at the first size with room.
func (r deferredRenderer) Layout(size fyne.Size) {
	if !r.d.place(size) {
		return
	}
	r.d.content.Move(fyne.NewPos(0, 0))
	r.d.content.Resize(size)
}

func (r deferredRenderer) MinSize() fyne.Size {
	if r.d.shown == nil {
		return fyne.Size{}
	}
	return r.d.content.MinSize()
}

func (r deferredRenderer) Refresh() {
	if r.d.shown == nil {
		// Shown (a hidden tab selected) at the size it already had.
		size := r.d.Size()
		if !r.d.Visible() || !r.d.place(size) {
			return
		}
		r.d.content.Resize(size)
	}
	r.d.content.Refresh()
}

func (r deferredRenderer) Objects() []fyne.CanvasObject { return r.d.shown }
func (r deferredRenderer) Destroy()                     {}
