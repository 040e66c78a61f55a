package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// FitColumns is the layout of a table (its one object) that gives its
// columns the width the table is given, as widths shares it out, each time
// that width changes; the table asks for at least minHeight.
type FitColumns struct {
	Table     *widget.Table
	Widths    func(width float32) []float32
	MinHeight float32
	width     float32
}

// Layout implements fyne.Layout.
func (l *FitColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if size.Width != l.width {
		l.width = size.Width
		for c, w := range l.Widths(size.Width) {
			l.Table.SetColumnWidth(c, w)
		}
	}
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// MinSize implements fyne.Layout.
func (l *FitColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	m := fyne.NewSize(0, l.MinHeight)
	for _, o := range objs {
		m = m.Max(o.MinSize())
	}
	return m
}

// TextWidth is how wide s is written in the theme's text.
func TextWidth(s string) float32 {
	return fyne.MeasureText(s, theme.TextSize(), fyne.TextStyle{}).Width
}

// TableSpare is the width of a table that its columns do not get: its
// scroll bar, and the padding between each two of its columns.
func TableSpare(columns int) float32 {
	return theme.ScrollBarSize() + float32(columns-1)*theme.Padding()
}
