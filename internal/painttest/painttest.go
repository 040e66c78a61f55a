// Package painttest records what is drawn on a paint.Canvas, for tests
// that check where text lands.
package painttest

import (
	"image"
	"image/color"

	"github.com/hecscope/hecscope/paint"
)

// TextRecorder is a canvas that draws as the canvas it wraps does and
// keeps every Text call.
type TextRecorder struct {
	paint.Canvas
	// Texts are the strings drawn, in order, with the boxes they cover.
	Texts []DrawnText
}

// DrawnText is one Text call: the string and the box it covers.
type DrawnText struct {
	S   string
	Box image.Rectangle
}

// Text records s and its box, then draws it.
func (c *TextRecorder) Text(f *paint.Face, s string, x, y int, col color.RGBA) {
	c.Texts = append(c.Texts, DrawnText{s, image.Rect(x, y-f.Ascent(), x+f.Width(s), y+f.Descent())})
	c.Canvas.Text(f, s, x, y, col)
}
