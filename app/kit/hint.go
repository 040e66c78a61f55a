package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A hint is a line of text shown beside the pointer while it rests on a
// label: why a figure reads "—". Fyne has no tooltips for widgets, and a
// pop-up would take the pointer's events from the label under it, so a
// window's content carries a hintLayer over it (see fitWindow), which the
// labels show their hints in.

// hintLayer lies over a window's content, as large as it: it draws one
// hint box, or nothing, and takes no events.
type hintLayer struct {
	widget.BaseWidget
	Text string
	at   fyne.Position // the box's top left, in the layer
}

func newHintLayer() *hintLayer {
	l := &hintLayer{}
	l.ExtendBaseWidget(l)
	l.Hide()
	return l
}

// show shows text with its box's top left at absolute position at.
func (l *hintLayer) show(text string, at fyne.Position) {
	l.Text = text
	l.at = at.Subtract(fyne.CurrentApp().Driver().AbsolutePositionForObject(l))
	l.Show()
	l.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (l *hintLayer) CreateRenderer() fyne.WidgetRenderer {
	r := &hintRenderer{l: l, back: canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground)),
		label: canvas.NewText("", theme.Color(theme.ColorNameForeground))}
	r.back.StrokeColor = theme.Color(theme.ColorNameShadow)
	r.back.StrokeWidth = 1
	r.back.CornerRadius = theme.InputRadiusSize()
	return r
}

type hintRenderer struct {
	l     *hintLayer
	back  *canvas.Rectangle
	label *canvas.Text
}

// hintPad is the room between a hint's text and its box.
const hintPad = 6

func (r *hintRenderer) Layout(size fyne.Size) {
	ts := fyne.MeasureText(r.label.Text, r.label.TextSize, r.label.TextStyle)
	box := ts.Add(fyne.NewSize(2*hintPad, 2*hintPad))
	// Kept inside the layer: left of the pointer near the right edge,
	// above it near the bottom.
	at := r.l.at
	at.X = max(0, min(at.X, size.Width-box.Width))
	if at.Y+box.Height > size.Height {
		at.Y = max(0, at.Y-box.Height-2*theme.TextSize())
	}
	r.back.Move(at)
	r.back.Resize(box)
	r.label.Move(at.Add(fyne.NewPos(hintPad, hintPad)))
	r.label.Resize(ts)
}

func (r *hintRenderer) MinSize() fyne.Size { return fyne.Size{} }

func (r *hintRenderer) Refresh() {
	r.back.FillColor = theme.Color(theme.ColorNameOverlayBackground)
	r.back.StrokeColor = theme.Color(theme.ColorNameShadow)
	r.label.Color = theme.Color(theme.ColorNameForeground)
	r.label.TextSize = theme.TextSize()
	r.label.Text = r.l.Text
	r.Layout(r.l.Size())
	r.back.Refresh()
	r.label.Refresh()
}

func (r *hintRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.back, r.label} }

func (r *hintRenderer) Destroy() {}

// HintLabel is a copyLabel that shows a hint while the pointer rests on it.
type HintLabel struct {
	CopyLabel
	hint string // shown while the pointer rests on the label
}

// NewHintLabel returns a label of text that shows hint while the pointer
// rests on it.
func NewHintLabel(text, hint string) *HintLabel {
	l := &HintLabel{hint: hint}
	l.Text = text
	l.ExtendBaseWidget(l)
	return l
}

// layer returns the hint layer of the window l is in, nil if it has none.
func (l *HintLabel) layer() *hintLayer {
	c := fyne.CurrentApp().Driver().CanvasForObject(l)
	if c == nil {
		return nil
	}
	var found *hintLayer
	var walk func(o fyne.CanvasObject, depth int)
	walk = func(o fyne.CanvasObject, depth int) {
		switch x := o.(type) {
		case *hintLayer:
			found = x
		case *fyne.Container:
			// The layer is the last object of the stack fitWindow makes,
			// one or two levels under the canvas's content.
			if depth < 2 && len(x.Objects) > 0 {
				walk(x.Objects[len(x.Objects)-1], depth+1)
			}
		case *container.Scroll:
			if depth < 2 {
				walk(x.Content, depth+1)
			}
		}
	}
	walk(c.Content(), 0)
	return found
}

// MouseIn shows the hint below the pointer.
func (l *HintLabel) MouseIn(ev *desktop.MouseEvent) { l.MouseMoved(ev) }

// MouseMoved keeps the hint beside the pointer.
func (l *HintLabel) MouseMoved(ev *desktop.MouseEvent) {
	if h := l.layer(); h != nil && l.hint != "" {
		h.show(l.hint, ev.AbsolutePosition.Add(fyne.NewPos(12, 18)))
	}
}

// MouseOut hides the hint.
func (l *HintLabel) MouseOut() {
	if h := l.layer(); h != nil {
		h.Hide()
	}
}
