package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// fitColumns is the layout of a table (its one object) that gives its
// columns the width the table is given, as widths shares it out, each time
// that width changes; the table asks for at least minHeight.
type fitColumns struct {
	table     *widget.Table
	widths    func(width float32) []float32
	minHeight float32
	width     float32
}

// Layout implements fyne.Layout.
func (l *fitColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if size.Width != l.width {
		l.width = size.Width
		for c, w := range l.widths(size.Width) {
			l.table.SetColumnWidth(c, w)
		}
	}
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// MinSize implements fyne.Layout.
func (l *fitColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	m := fyne.NewSize(0, l.minHeight)
	for _, o := range objs {
		m = m.Max(o.MinSize())
	}
	return m
}

// textWidth is how wide s is written in the theme's text.
func textWidth(s string) float32 {
	return fyne.MeasureText(s, theme.TextSize(), fyne.TextStyle{}).Width
}

// tableSpare is the width of a table that its columns do not get: its
// scroll bar, and the padding between each two of its columns.
func tableSpare(columns int) float32 {
	return theme.ScrollBarSize() + float32(columns-1)*theme.Padding()
}
