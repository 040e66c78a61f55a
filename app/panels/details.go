package panels

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/tracks"
)

// NewDetails returns the Details tab's contents before anything is
// clicked; ShowHit fills it.
func NewDetails() *fyne.Container {
	return container.NewVBox(widget.NewLabel("Click a span, GC or user span on the timeline to see it here."))
}

// ShowHit shows in details (made by NewDetails) what was clicked on the
// timeline: the lines of its tooltip, the first in bold, and a span's
// extent. It reports whether there was anything to show (a hit without a
// tooltip leaves details as they were).
func ShowHit(details *fyne.Container, h tracks.Hit) bool {
	if len(h.Tip) == 0 {
		return false
	}
	box := container.NewVBox()
	for i, line := range h.Tip {
		l := widget.NewLabel(line)
		l.Wrapping = fyne.TextWrapWord
		l.TextStyle.Bold = i == 0
		box.Add(l)
	}
	if h.To > h.From {
		box.Add(widget.NewLabel(fmt.Sprintf("From %s to %s (%s). Double-click to zoom to it.",
			paint.Time(h.From, 1), paint.Time(h.To, 1), paint.Duration(h.To-h.From))))
	}
	details.Objects = []fyne.CanvasObject{box}
	details.Refresh()
	return true
}
