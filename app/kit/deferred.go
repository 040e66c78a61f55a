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
	// placed says the content has been laid out: from then on it is shown,
	// whatever renderer Fyne makes of d (it drops those unused for a
	// while).
	placed bool
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
func (d *Deferred) CreateRenderer() fyne.WidgetRenderer {
	r := &deferredRenderer{d: d}
	if d.placed {
		r.objects = []fyne.CanvasObject{d.content}
	}
	return r
}

type deferredRenderer struct {
	d       *Deferred
	objects []fyne.CanvasObject // nil until placed, then the content
}

// Layout places the content at the first size with room.
func (r *deferredRenderer) Layout(size fyne.Size) {
	if !r.place(size) {
		return
	}
	r.d.content.Move(fyne.NewPos(0, 0))
	r.d.content.Resize(size)
}

// place says whether the content is placed, placing it if size has room.
func (r *deferredRenderer) place(size fyne.Size) bool {
	if r.objects == nil {
		if size.Width <= 0 || size.Height <= 0 {
			return false
		}
		r.d.placed = true
		r.objects = []fyne.CanvasObject{r.d.content}
	}
	return true
}

func (r *deferredRenderer) MinSize() fyne.Size {
	if r.objects == nil {
		return fyne.Size{}
	}
	return r.d.content.MinSize()
}

func (r *deferredRenderer) Refresh() {
	if r.objects == nil {
		// Shown (a hidden tab selected) at the size it already had.
		size := r.d.Size()
		if !r.d.Visible() || !r.place(size) {
			return
		}
		r.d.content.Resize(size)
	}
	r.d.content.Refresh()
}

func (r *deferredRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *deferredRenderer) Destroy()                     {}
