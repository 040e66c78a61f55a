package paint

import (
	"image"
	"image/color"
	"math"
)

// Point is a position in device pixels.
type Point struct{ X, Y float64 }

// Canvas is a drawing surface in device pixels, with the origin at the top
// left. Colours are straight (not premultiplied): R, G and B are the
// colour, A its opacity, and a colour with A < 255 is blended over what is
// there. Every operation is clipped to the current clip rectangle (at
// first the canvas's bounds). Raster draws into an image.RGBA and SVG
// writes SVG text, so the same drawing code makes both.
type Canvas interface {
	// Bounds returns the canvas's extent.
	Bounds() image.Rectangle
	// Fill fills a rectangle of whole pixels.
	Fill(r image.Rectangle, c color.RGBA)
	// Column fills pixel column x from y = top down to y = bottom
	// (fractional; top < bottom), the partly covered end pixels blended
	// by their coverage: the stroke of area graphs and step lines drawn
	// one column at a time.
	Column(x int, top, bottom float64, c color.RGBA)
	// Line draws an anti-aliased straight line of the given width.
	Line(x0, y0, x1, y1, width float64, c color.RGBA)
	// Polyline draws an anti-aliased open path of the given width through
	// pts.
	Polyline(pts []Point, width float64, c color.RGBA)
	// Polygon fills the closed polygon through pts (anti-aliased).
	Polygon(pts []Point, c color.RGBA)
	// Text draws s in face f with its baseline's left end at (x, y).
	Text(f *Face, s string, x, y int, c color.RGBA)
	// PushClip narrows the clip rectangle to its intersection with r
	// until the matching PopClip.
	PushClip(r image.Rectangle)
	// PopClip restores the clip rectangle of before the last PushClip.
	PopClip()
}

// StrokeRect draws the one-pixel outline just inside r.
func StrokeRect(c Canvas, r image.Rectangle, col color.RGBA) {
	if r.Empty() {
		return
	}
	c.Fill(image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+1), col)
	c.Fill(image.Rect(r.Min.X, r.Max.Y-1, r.Max.X, r.Max.Y), col)
	c.Fill(image.Rect(r.Min.X, r.Min.Y+1, r.Min.X+1, r.Max.Y-1), col)
	c.Fill(image.Rect(r.Max.X-1, r.Min.Y+1, r.Max.X, r.Max.Y-1), col)
}

// TextCentered draws s centred on (x, y) both ways (y being the middle of
// the capitals).
func TextCentered(c Canvas, f *Face, s string, x, y float64, col color.RGBA) {
	c.Text(f, s, int(x-float64(f.Width(s))/2+0.5), f.Baseline(y), col)
}

// TextOnPlate draws s with its baseline at (x, y) on a box of colour
// plate a little larger than the text, so that a label written over a plot
// stays readable where curves or bars run under it.
func TextOnPlate(c Canvas, f *Face, s string, x, y int, col, plate color.RGBA) {
	if s == "" {
		return
	}
	pad := max(1, f.Height()/8)
	c.Fill(image.Rect(x-pad, y-f.Ascent()-pad, x+f.Width(s)+pad, y+f.Descent()+pad), plate)
	c.Text(f, s, x, y, col)
}

// ColumnLine draws the line through pts, whose X only grows (a series over
// time), one pixel column at a time: each column from the highest to the
// lowest point of the line within it, widened by width and with its ends
// blended by their coverage. For a dense series it looks as Polyline does
// at these widths, at a fraction of the cost of stroking a path.
func ColumnLine(c Canvas, pts []Point, width float64, col color.RGBA) {
	half := width / 2
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		if b.X <= a.X {
			continue
		}
		slope := (b.Y - a.Y) / (b.X - a.X)
		last := int(math.Ceil(b.X)) - 1
		if i == len(pts)-1 {
			last = int(math.Floor(b.X))
		}
		for x := int(math.Floor(a.X)); x <= last; x++ {
			l, r := math.Max(float64(x), a.X), math.Min(float64(x+1), b.X)
			if r < l {
				r = l
			}
			y0, y1 := a.Y+slope*(l-a.X), a.Y+slope*(r-a.X)
			if y0 > y1 {
				y0, y1 = y1, y0
			}
			c.Column(x, y0-half, y1+half, col)
		}
	}
}
