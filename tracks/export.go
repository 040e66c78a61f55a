package tracks

import (
	"fmt"
	"image"
	"image/png"
	"io"

	"github.com/hecscope/hecscope/paint"
)

// ExportOptions says what to export.
type ExportOptions struct {
	// Width is the picture's width in device pixels (0: the view's).
	Width int
	// Scale is its device pixels per point (0: the view's).
	Scale float64
	// From and To bound the time range exported; both 0 means the
	// selection if there is one, else the visible range.
	From, To uint64
	// MaxHeight caps the picture's height (0: 32,000 pixels): tracks that
	// do not fit are left out, and a line at the bottom says how many.
	MaxHeight int
}

// defaultMaxHeight is the tallest export by default.
const defaultMaxHeight = 32000

// export is an export's resolved geometry.
type export struct {
	w, h    int
	s       float64
	from    uint64
	to      uint64
	g       geometry
	left    int // tracks left out for want of height
	content int // height of the scrolled tracks drawn
}

// plan works out an export's size and layout: every track shown, pinned
// and scrolled, at full height, the axis above and the whole legend below.
// It leaves the view at the export's size and scale; the caller restores
// them.
func (v *View) plan(opt ExportOptions) export {
	e := export{w: opt.Width, s: opt.Scale}
	if e.w <= 0 {
		e.w = v.w
	}
	if !(e.s > 0) {
		e.s = v.scale
	}
	e.w = max(e.w, 64)
	e.from, e.to = opt.From, opt.To
	if e.from == 0 && e.to == 0 {
		if a, b, ok := v.Selection(); ok && b > a {
			e.from, e.to = a, b
		} else {
			e.from, e.to = v.Range()
		}
	}
	if e.to <= e.from {
		e.to = e.from + minSpan
	}
	maxH := opt.MaxHeight
	if maxH <= 0 {
		maxH = defaultMaxHeight
	}
	v.w, v.scale = e.w, e.s
	l := v.ensureLayout()
	legendH := v.legendHeight(e.w, 0)
	axisH := px(axisHeight, e.s)
	room := max(maxH-axisH-l.pinnedH-legendH, 0)
	e.content = l.contentH
	if e.content > room {
		// Cut at a row's bottom, and count the tracks below.
		e.content = 0
		for _, r := range l.rows {
			if r.y+r.h > room-px(titleHeight, e.s) {
				if !r.title {
					e.left++
				}
				continue
			}
			e.content = r.y + r.h
		}
		e.content += px(titleHeight, e.s) // the line saying what was left out
	}
	e.h = axisH + l.pinnedH + e.content + legendH
	sbW := px(scrollbarW, e.s)
	g := geometry{s: e.s, w: e.w, h: e.h}
	g.axis = image.Rect(0, 0, e.w, axisH)
	g.pinned = image.Rect(0, axisH, e.w-sbW, axisH+l.pinnedH)
	g.tracks = image.Rect(0, axisH+l.pinnedH, e.w-sbW, axisH+l.pinnedH+e.content)
	g.header = image.Rect(0, axisH, min(px(headerWidth, e.s), e.w/3), g.tracks.Max.Y)
	g.plot = image.Rect(g.header.Max.X, axisH, e.w-sbW, g.tracks.Max.Y)
	g.legend = image.Rect(0, g.tracks.Max.Y, e.w, e.h)
	g.scrollbar = image.Rect(e.w-sbW, g.tracks.Min.Y, e.w, g.tracks.Max.Y)
	e.g = g
	return e
}

// ExportSize returns the size in device pixels of the picture Export
// draws for opt.
func (v *View) ExportSize(opt ExportOptions) (w, h int) {
	w0, h0, s0 := v.w, v.h, v.scale
	e := v.plan(opt)
	v.w, v.h, v.scale = w0, h0, s0
	return e.w, e.h
}

// Export draws the whole canvas as shown onto c, which should be
// ExportSize(opt) big: the axis, every track of every expanded group (not
// just those scrolled into view), pinned ones first, and the whole legend,
// over opt's range. The view's own state is unchanged.
func (v *View) Export(c paint.Canvas, opt ExportOptions) {
	w0, h0, s0 := v.w, v.h, v.scale
	e := v.plan(opt)
	v.w, v.h = e.w, e.h
	f := v.newFrame(c, e.g, e.from, e.to, 0, true)
	l := v.ensureLayout()
	g := e.g
	c.Fill(c.Bounds(), f.th.Background)
	c.Fill(g.header, f.th.Header)
	rows := visible(l.rows, 0, e.content)
	f.prepare(l.pinned, rows)
	f.drawGrid(g.plot)
	f.drawRows(rows, g.tracks, g.tracks.Min.Y)
	if !g.pinned.Empty() {
		f.drawRows(l.pinned, g.pinned, g.pinned.Min.Y)
		c.Fill(image.Rect(0, g.pinned.Max.Y-max(1, px(1, f.s)), g.pinned.Max.X, g.pinned.Max.Y), f.th.Axis)
	}
	if e.left > 0 {
		y := g.tracks.Max.Y - px(titleHeight, e.s)
		c.Fill(image.Rect(0, y, g.tracks.Max.X, g.tracks.Max.Y), f.th.Group)
		c.Text(f.face, fmt.Sprintf("… %s more tracks not exported (the picture would be too tall)", paint.Count(int64(e.left))),
			px(10, e.s), f.face.Baseline(float64(y+g.tracks.Max.Y)/2), f.th.Dim)
	}
	f.drawMarkerLines(image.Rect(g.plot.Min.X, g.pinned.Min.Y, g.plot.Max.X, g.tracks.Max.Y))
	f.drawAxis()
	f.drawAxisFlags()
	f.drawLegend()
	v.w, v.h, v.scale = w0, h0, s0
	v.ensureLayout()
}

// ExportPNG writes the export of opt as a PNG image.
func (v *View) ExportPNG(w io.Writer, opt ExportOptions) error {
	ew, eh := v.ExportSize(opt)
	img := image.NewRGBA(image.Rect(0, 0, ew, eh))
	v.Export(paint.NewRaster(img), opt)
	if err := png.Encode(w, img); err != nil {
		return fmt.Errorf("exporting the tracks as PNG: %w", err)
	}
	return nil
}

// ExportSVG writes the export of opt as an SVG document.
func (v *View) ExportSVG(w io.Writer, opt ExportOptions) error {
	ew, eh := v.ExportSize(opt)
	s := paint.NewSVG(ew, eh)
	v.Export(s, opt)
	if _, err := s.WriteTo(w); err != nil {
		return fmt.Errorf("exporting the tracks as SVG: %w", err)
	}
	return nil
}
