package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Deferred keeps its content out of the window until it is first laid
// out at a size, as the content of a tab is once the tab is shown. Until
// then the content asks nothing of the window: Fyne refreshes the content
// of every tab when the tabs are first drawn, even of those hidden, and
// for the eventlog view's twelve tabs that made their renderers and
// measured every label they hold (wrapped ones several times): 75–80 ms
// of the UI thread before a loaded log could be shown, against 30–45 ms
// with only the selected tab's. A Deferred has no minimum size before it
// is laid out.
type Deferred struct {
	widget.BaseWidget
	content fyne.CanvasObject
}

// NewDeferred holds content until it is first laid out.
func NewDeferred(content fyne.CanvasObject) *Deferred {
	d := &Deferred{content: content}
	d.ExtendBaseWidget(d)
	return d
}

// Content returns what d holds, shown or not yet.
func (d *Deferred) Content() fyne.CanvasObject { return d.content }

// CreateRenderer shows nothing until the first layout at a size.
func (d *Deferred) CreateRenderer() fyne.WidgetRenderer { return &deferredRenderer{d: d} }

type deferredRenderer struct {
	d       *Deferred
	objects []fyne.CanvasObject // nil until placed, then the content
}

func (r *deferredRenderer) Layout(size fyne.Size) {
	if r.objects == nil {
		if size.Width <= 0 || size.Height <= 0 {
			return
		}
		r.objects = []fyne.CanvasObject{r.d.content}
	}
	r.d.content.Move(fyne.NewPos(0, 0))
	r.d.content.Resize(size)
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
		if s := r.d.Size(); r.d.Visible() && s.Width > 0 && s.Height > 0 {
			r.Layout(s)
		}
		return
	}
	r.d.content.Refresh()
}

func (r *deferredRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *deferredRenderer) Destroy()                     {}
