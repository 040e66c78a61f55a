package heapview

import (
	"image"
	"image/color"

	"github.com/hecscope/hecscope/paint"
)

// textSize is the size in pixels of every label heapview draws.
const textSize = 12

// typeface is the font stack's regular face at textSize, with its metrics
// at hand for the chart's layout.
type typeface struct {
	face    *paint.Face
	ascent  int
	descent int
}

// labelFace returns the face labels are drawn in. The error is kept for
// the callers' sake: paint's faces always load (they are compiled in).
func labelFace() (*typeface, error) {
	f := paint.FaceFor(paint.Regular, textSize, 1)
	return &typeface{face: f, ascent: f.Ascent(), descent: f.Descent()}, nil
}

// width returns the width of s in pixels.
func (tf *typeface) width(s string) int { return tf.face.Width(s) }

// draw writes s onto img with its baseline at y and its left edge at x, in
// colour c, clipped to clip. It returns the x after the text.
func (tf *typeface) draw(img *image.RGBA, clip image.Rectangle, x, y int, s string, c color.RGBA) int {
	return tf.face.Draw(img, clip, x, y, s, c)
}

// fit returns s, cut and ended with "…" if needed, so that it is at most
// w pixels wide.
func (tf *typeface) fit(s string, w int) string { return tf.face.Fit(s, w) }

// blend paints colour c over pixel (x, y) of img with coverage a (0–255).
func blend(img *image.RGBA, x, y int, c color.RGBA, a uint8) { paint.Blend(img, x, y, c, a) }
