package trackcanvas

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"github.com/hecscope/hecscope/paint"
)

// Tooltip is a box of lines of text shown beside the pointer over a
// picture (the track canvas, the compare window's picture), in a paint
// theme's tooltip colours; its first line, the title, is bold. Its objects
// are laid over the picture by the picture's widget.
type Tooltip struct {
	back  *canvas.Rectangle
	lines []*canvas.Text
}

// NewTooltip returns a hidden tooltip of at most maxTipLines lines.
func NewTooltip() *Tooltip {
	t := &Tooltip{back: canvas.NewRectangle(color.Transparent)}
	t.back.Hide()
	for i := 0; i < maxTipLines; i++ {
		line := canvas.NewText("", color.Black)
		line.TextStyle.Bold = i == 0
		line.Hide()
		t.lines = append(t.lines, line)
	}
	return t
}

// Objects returns the box and its lines, in the order they are drawn.
func (t *Tooltip) Objects() []fyne.CanvasObject {
	objs := []fyne.CanvasObject{t.back}
	for _, l := range t.lines {
		objs = append(objs, l)
	}
	return objs
}

// Visible reports whether the tooltip is shown.
func (t *Tooltip) Visible() bool { return t.back.Visible() }

// Place shows text (at most maxTipLines lines; none hides the tooltip)
// beside anchor, inside area (both in canvas units) of owner, the widget
// that shows it, in th's colours. It refreshes only its objects.
func (t *Tooltip) Place(owner fyne.CanvasObject, text []string, anchor fyne.Position, area fyne.Size, th paint.Theme) {
	const pad = float32(3)
	n := min(len(text), maxTipLines)
	var w, h float32
	for i, l := range t.lines {
		if i >= n {
			l.Hide()
			continue
		}
		l.Show()
		l.Text = text[i]
		l.TextSize = theme.TextSize() * 0.9
		l.Color = Straight(th.TooltipText)
		ts := fyne.MeasureText(l.Text, l.TextSize, l.TextStyle)
		w = max(w, ts.Width)
		h += ts.Height
	}
	if n == 0 {
		t.back.Hide()
	} else {
		t.back.Show()
		w += 4 * pad
		h += 2 * pad
		x, y := anchor.X+16, anchor.Y+18
		if x+w > area.Width {
			x = max(anchor.X-16-w, 0)
		}
		if y+h > area.Height {
			y = max(anchor.Y-12-h, 0)
		}
		t.back.FillColor = Straight(th.Tooltip)
		t.back.StrokeColor = Straight(th.TooltipEdge)
		t.back.StrokeWidth = 1
		t.back.CornerRadius = 4
		t.back.Move(fyne.NewPos(x, y))
		t.back.Resize(fyne.NewSize(w, h))
		ty := y + pad
		for _, l := range t.lines[:n] {
			l.Move(fyne.NewPos(x+2*pad, ty))
			ty += fyne.MeasureText(l.Text, l.TextSize, l.TextStyle).Height
		}
	}
	// Through the owner's canvas: an object hidden since it was made is
	// not known to the driver as being on any canvas, so canvas.Refresh
	// of it alone repaints nothing (the compare window showed no tooltip).
	refresh := canvas.Refresh
	if fc := fyne.CurrentApp().Driver().CanvasForObject(owner); fc != nil {
		refresh = fc.Refresh
	}
	for _, o := range t.Objects() {
		refresh(o)
	}
}
