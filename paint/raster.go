package paint

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"
)

// Raster is a Canvas that draws into an image.RGBA: rectangles by writing
// pixels directly, lines and polygons with an anti-aliasing rasteriser
// over their bounding box only, text from cached glyph masks. A Raster is
// not safe for concurrent use.
type Raster struct {
	img   *image.RGBA
	clip  image.Rectangle
	stack []image.Rectangle
	rz    vector.Rasterizer
}

// NewRaster returns a canvas drawing into img.
func NewRaster(img *image.RGBA) *Raster {
	return &Raster{img: img, clip: img.Bounds()}
}

// Image returns the image drawn into.
func (r *Raster) Image() *image.RGBA { return r.img }

// Bounds returns the image's bounds.
func (r *Raster) Bounds() image.Rectangle { return r.img.Bounds() }

// Clip returns the current clip rectangle.
func (r *Raster) Clip() image.Rectangle { return r.clip }

// PushClip narrows the clip rectangle.
func (r *Raster) PushClip(c image.Rectangle) {
	r.stack = append(r.stack, r.clip)
	r.clip = r.clip.Intersect(c)
}

// PopClip restores the previous clip rectangle.
func (r *Raster) PopClip() {
	if n := len(r.stack); n > 0 {
		r.clip, r.stack = r.stack[n-1], r.stack[:n-1]
	}
}

// Fill fills a rectangle: an opaque colour by copying pixel runs, a
// translucent one by blending.
func (r *Raster) Fill(rect image.Rectangle, c color.RGBA) { FillRect(r.img, rect.Intersect(r.clip), c) }

// Column fills column x from top to bottom with blended end pixels.
func (r *Raster) Column(x int, top, bottom float64, c color.RGBA) {
	FillColumn(r.img, r.clip, x, top, bottom, c)
}

// FillRect fills rect (clipped to img) with c: an opaque colour by copying
// pixel runs, a translucent one by blending. It is Raster's Fill for code
// that draws into an image without a Canvas.
func FillRect(img *image.RGBA, rect image.Rectangle, c color.RGBA) {
	rect = rect.Intersect(img.Bounds())
	if rect.Empty() || c.A == 0 {
		return
	}
	if c.A != 0xff {
		for y := rect.Min.Y; y < rect.Max.Y; y++ {
			for x := rect.Min.X; x < rect.Max.X; x++ {
				blendPixel(img, x, y, c, uint32(c.A))
			}
		}
		return
	}
	n := 4 * rect.Dx()
	first := img.PixOffset(rect.Min.X, rect.Min.Y)
	row := img.Pix[first : first+n]
	row[0], row[1], row[2], row[3] = c.R, c.G, c.B, c.A
	for k := 4; k < n; k *= 2 {
		copy(row[k:], row[:k])
	}
	for y := rect.Min.Y + 1; y < rect.Max.Y; y++ {
		o := img.PixOffset(rect.Min.X, y)
		copy(img.Pix[o:o+n], row)
	}
}

// FillColumn fills pixel column x of img from y = top down to y = bottom
// (fractional), clipped to clip; the partly covered end pixels are
// blended by their coverage. It is Raster's Column for code that draws
// into an image without a Canvas.
func FillColumn(img *image.RGBA, clip image.Rectangle, x int, top, bottom float64, c color.RGBA) {
	clip = clip.Intersect(img.Bounds())
	if x < clip.Min.X || x >= clip.Max.X || c.A == 0 {
		return
	}
	top = math.Max(top, float64(clip.Min.Y))
	bottom = math.Min(bottom, float64(clip.Max.Y))
	if !(bottom > top) {
		return
	}
	a := uint32(c.A)
	y0, y1 := int(math.Floor(top)), int(math.Ceil(bottom))
	if y1-y0 == 1 {
		blendPixel(img, x, y0, c, uint32((bottom-top)*float64(a)+0.5))
		return
	}
	first, last := y0, y1-1
	if cov := float64(y0+1) - top; cov < 0.996 {
		blendPixel(img, x, y0, c, uint32(cov*float64(a)+0.5))
		first++
	}
	if cov := bottom - float64(last); cov < 0.996 {
		blendPixel(img, x, last, c, uint32(cov*float64(a)+0.5))
		last--
	}
	if a != 0xff {
		for y := first; y <= last; y++ {
			blendPixel(img, x, y, c, a)
		}
		return
	}
	i := img.PixOffset(x, first)
	for y := first; y <= last; y++ {
		p := img.Pix[i : i+4 : i+4]
		p[0], p[1], p[2], p[3] = c.R, c.G, c.B, 0xff
		i += img.Stride
	}
}

// Line draws a line; an axis-parallel line of whole-pixel width on pixel
// boundaries is a Fill.
func (r *Raster) Line(x0, y0, x1, y1, width float64, c color.RGBA) {
	if width <= 0 {
		return
	}
	if w := math.Round(width); w == width {
		half := w / 2
		if x0 == x1 && x0-half == math.Floor(x0-half) {
			lo, hi := math.Min(y0, y1), math.Max(y0, y1)
			r.Fill(image.Rect(int(x0-half), int(math.Round(lo)), int(x0+half), int(math.Round(hi))), c)
			return
		}
		if y0 == y1 && y0-half == math.Floor(y0-half) {
			lo, hi := math.Min(x0, x1), math.Max(x0, x1)
			r.Fill(image.Rect(int(math.Round(lo)), int(y0-half), int(math.Round(hi)), int(y0+half)), c)
			return
		}
	}
	r.Polyline([]Point{{x0, y0}, {x1, y1}}, width, c)
}

// Polyline strokes the path through pts: each segment a quadrilateral of
// the line's width, rasterised together (overlaps do not darken) in runs
// of segments a few dozen pixels wide, so that the rasteriser works over
// the line's neighbourhood and not over the whole box a long, steep curve
// spans.
func (r *Raster) Polyline(pts []Point, width float64, c color.RGBA) {
	if len(pts) < 2 || width <= 0 {
		return
	}
	half := width / 2
	const runWidth = 48 // pixels of x a run of segments spans at most
	var quads [][4]Point
	start := 0 // the first point of the current run
	flush := func(end int) {
		if len(quads) > 0 {
			r.fillPaths(bbox(pts[start:end+1], half+1), quads, c)
		}
		quads, start = quads[:0], end
	}
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		dx, dy := b.X-a.X, b.Y-a.Y
		l := math.Hypot(dx, dy)
		if l == 0 {
			if len(pts) == 2 { // a dot
				quads = append(quads, square(a, half))
			}
			continue
		}
		nx, ny := -dy/l*half, dx/l*half
		// Extend each segment by half the width so that joints close.
		ex, ey := dx/l*half*0.5, dy/l*half*0.5
		quads = append(quads, [4]Point{{a.X + nx - ex, a.Y + ny - ey}, {b.X + nx + ex, b.Y + ny + ey},
			{b.X - nx + ex, b.Y - ny + ey}, {a.X - nx - ex, a.Y - ny - ey}})
		if math.Abs(b.X-pts[start].X) >= runWidth {
			flush(i)
		}
	}
	flush(len(pts) - 1)
}

// Polygon fills the polygon through pts.
func (r *Raster) Polygon(pts []Point, c color.RGBA) {
	if len(pts) < 3 {
		return
	}
	r.fillPath(bbox(pts, 1), pts, c)
}

// square returns the square of half-side h around p.
func square(p Point, h float64) [4]Point {
	return [4]Point{{p.X - h, p.Y - h}, {p.X + h, p.Y - h}, {p.X + h, p.Y + h}, {p.X - h, p.Y + h}}
}

// bbox returns the pixel rectangle holding pts grown by pad.
func bbox(pts []Point, pad float64) image.Rectangle {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	clamp := func(v float64) int { return int(math.Max(-1<<20, math.Min(1<<20, v))) }
	return image.Rect(clamp(math.Floor(minX-pad)), clamp(math.Floor(minY-pad)), clamp(math.Ceil(maxX+pad)), clamp(math.Ceil(maxY+pad)))
}

// fillPaths rasterises the quadrilaterals, each turned to wind the same
// way so that overlaps add up to full coverage instead of cancelling.
func (r *Raster) fillPaths(box image.Rectangle, quads [][4]Point, c color.RGBA) {
	box = box.Intersect(r.clip)
	if box.Empty() || len(quads) == 0 {
		return
	}
	r.rz.Reset(box.Dx(), box.Dy())
	ox, oy := float32(box.Min.X), float32(box.Min.Y)
	for _, q := range quads {
		area := 0.0
		for i := range q {
			j := (i + 1) % 4
			area += q[i].X*q[j].Y - q[j].X*q[i].Y
		}
		if area < 0 {
			q[1], q[3] = q[3], q[1]
		}
		r.rz.MoveTo(float32(q[0].X)-ox, float32(q[0].Y)-oy)
		for _, p := range q[1:] {
			r.rz.LineTo(float32(p.X)-ox, float32(p.Y)-oy)
		}
		r.rz.ClosePath()
	}
	r.rz.DrawOp = draw.Over
	r.rz.Draw(r.img, box, image.NewUniform(color.NRGBA{c.R, c.G, c.B, c.A}), image.Point{})
}

// fillPath rasterises one closed path.
func (r *Raster) fillPath(box image.Rectangle, pts []Point, c color.RGBA) {
	box = box.Intersect(r.clip)
	if box.Empty() {
		return
	}
	r.rz.Reset(box.Dx(), box.Dy())
	ox, oy := float32(box.Min.X), float32(box.Min.Y)
	r.rz.MoveTo(float32(pts[0].X)-ox, float32(pts[0].Y)-oy)
	for _, p := range pts[1:] {
		r.rz.LineTo(float32(p.X)-ox, float32(p.Y)-oy)
	}
	r.rz.ClosePath()
	r.rz.DrawOp = draw.Over
	r.rz.Draw(r.img, box, image.NewUniform(color.NRGBA{c.R, c.G, c.B, c.A}), image.Point{})
}

// Text draws s from cached glyph masks.
func (r *Raster) Text(f *Face, s string, x, y int, c color.RGBA) {
	if f == nil || s == "" || c.A == 0 {
		return
	}
	f.Draw(r.img, r.clip, x, y, s, c)
}
