package compareview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// columnsLayout lays objects out in rows of a fixed number of cells, each
// column as wide as its widest cell and each row as tall as its tallest,
// with a gap between columns; the columns keep their widths when the
// container is wider (the rest is left empty on the right). Fyne's grid
// makes every column as wide as the widest cell of all: the table of
// differences, whose row names are long and whose numbers are short, asked
// for six times its name column (1,718 units for N1 against N2), so the
// compare window opened wider than a 1280-pixel screen and cut its last
// columns off.
type columnsLayout struct {
	cols int
	// gap is the space between two columns, in Fyne units.
	gap float32
}

// newColumnsLayout returns a columnsLayout of cols columns, gap apart.
func newColumnsLayout(cols int, gap float32) *columnsLayout {
	return &columnsLayout{cols: max(cols, 1), gap: gap}
}

// sizes returns the widths of the columns and the heights of the rows of
// the visible objects.
func (l *columnsLayout) sizes(objects []fyne.CanvasObject) (widths, heights []float32) {
	widths = make([]float32, l.cols)
	i := 0
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		ms := o.MinSize()
		col, row := i%l.cols, i/l.cols
		if row == len(heights) {
			heights = append(heights, 0)
		}
		widths[col] = max(widths[col], ms.Width)
		heights[row] = max(heights[row], ms.Height)
		i++
	}
	return widths, heights
}

// MinSize is the sum of the columns' widths and gaps by the sum of the
// rows' heights.
func (l *columnsLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	widths, heights := l.sizes(objects)
	var s fyne.Size
	for _, w := range widths {
		s.Width += w
	}
	s.Width += l.gap * float32(l.cols-1)
	for _, h := range heights {
		s.Height += h
	}
	s.Height += theme.Padding() * float32(max(len(heights)-1, 0)) / 2
	return s
}

// Layout places each visible object in its cell.
func (l *columnsLayout) Layout(objects []fyne.CanvasObject, _ fyne.Size) {
	widths, heights := l.sizes(objects)
	rowGap := theme.Padding() / 2
	i := 0
	var x, y float32
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		col, row := i%l.cols, i/l.cols
		if col == 0 {
			x = 0
			if row > 0 {
				y += heights[row-1] + rowGap
			}
		}
		o.Move(fyne.NewPos(x, y))
		o.Resize(fyne.NewSize(widths[col], heights[row]))
		x += widths[col] + l.gap
		i++
	}
}

// fitText returns s cut, with an ellipsis, to at most width units in the
// text size and style given.
func fitText(s string, width, size float32, style fyne.TextStyle) string {
	if fyne.MeasureText(s, size, style).Width <= width {
		return s
	}
	r := []rune(s)
	for n := len(r) - 1; n > 0; n-- {
		cut := string(r[:n]) + "…"
		if fyne.MeasureText(cut, size, style).Width <= width {
			return cut
		}
	}
	return "…"
}
