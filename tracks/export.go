package tracks

import (
	"fmt"
	"image"
	"math"

	"github.com/hecscope/hecscope/paint"
)

// Export limits.
const (
	// MaxPageHeight is the tallest page of an export of all tracks, in
	// device pixels: a taller export is cut into pages (common image
	// tools refuse pictures much taller, ImageMagick's default policy past
	// 16,000 pixels).
	MaxPageHeight = 16000
	// MaxPages is the most pages an export of all tracks is cut into;
	// ExportPages refuses more.
	MaxPages = 20
)

// ExportOptions says what to export.
type ExportOptions struct {
	// All exports every track shown — pinned ones and every track of each
	// expanded group, not just those scrolled into view — at full height,
	// with the axis above and the whole legend below. Otherwise the export
	// is the frame as the view shows it: its size, its scroll, the tracks
	// in view.
	All bool
	// Zoom is how many of the picture's pixels stand for one of the view's
	// device pixels in each direction (0 means 1; 2 is a picture for a
	// screen of twice the density, text and lines included).
	Zoom float64
	// From and To bound the time range exported; both 0 means the visible
	// range.
	From, To uint64
	// PageHeight is the tallest page of an All export (0: MaxPageHeight).
	PageHeight int
}

// ExportPage is one picture of an export: its size in device pixels and,
// for an export of all tracks, the part of the scrolled tracks it shows.
type ExportPage struct {
	Width, Height int
	// Tracks is how many scrolled tracks the page shows (group titles not
	// counted, pinned tracks not counted: every page repeats them).
	Tracks int
	// top and bottom bound the scrolled content the page shows (device
	// pixels from the top of the scrolled tracks).
	top, bottom int
}

// ErrTooManyPages is why ExportPages refuses an export of all tracks.
type ErrTooManyPages struct {
	// Width and Height are the size the export would have as one picture;
	// Pages how many pages it would take, Tracks how many tracks it shows.
	Width, Height, Pages, Tracks int
}

// Error says how big the export would be.
func (e *ErrTooManyPages) Error() string {
	return fmt.Sprintf("the %s tracks would make a picture %s × %s px: %d pages of at most %s px, and the most is %d",
		paint.Count(int64(e.Tracks)), paint.Count(int64(e.Width)), paint.Count(int64(e.Height)),
		e.Pages, paint.Count(MaxPageHeight), MaxPages)
}

// exportState is the view's size, scale and scroll, kept while an export
// lays the view out at its own.
type exportState struct {
	w, h, scrollY int
	s             float64
}

// resize lays the view out for opt's zoom and returns what to restore.
func (v *View) resize(opt ExportOptions) exportState {
	old := exportState{w: v.w, h: v.h, scrollY: v.scrollY, s: v.scale}
	z := opt.Zoom
	if !(z > 0) {
		z = 1
	}
	v.w = max(int(math.Round(float64(old.w)*z)), 64)
	v.h = max(int(math.Round(float64(old.h)*z)), 64)
	v.scale = old.s * z
	v.scrollY = int(math.Round(float64(old.scrollY) * z))
	v.clampScroll()
	return old
}

// restore gives the view back the size, scale and scroll resize took.
func (v *View) restore(old exportState) {
	v.w, v.h, v.scale, v.scrollY = old.w, old.h, old.s, old.scrollY
	v.ensureLayout()
}

// exportRange returns the time range opt exports.
func (v *View) exportRange(opt ExportOptions) (from, to uint64) {
	from, to = opt.From, opt.To
	if from == 0 && to == 0 {
		from, to = v.Range()
	}
	if to <= from {
		to = from + minSpan
	}
	return from, to
}

// allGeometry lays out a page of an All export whose scrolled part is
// content pixels tall, at the view's current width and scale.
func (v *View) allGeometry(content int) geometry {
	l := v.ensureLayout()
	w, s := v.w, v.scale
	axisH := px(axisHeight, s)
	legendH := v.legendHeight(w, 0)
	h := axisH + l.pinnedH + content + legendH
	sbW := px(scrollbarW, s)
	g := geometry{s: s, w: w, h: h}
	g.axis = image.Rect(0, 0, w, axisH)
	g.pinned = image.Rect(0, axisH, w-sbW, axisH+l.pinnedH)
	g.tracks = image.Rect(0, axisH+l.pinnedH, w-sbW, axisH+l.pinnedH+content)
	g.header = image.Rect(0, axisH, min(px(headerWidth, s), w/3), g.tracks.Max.Y)
	g.plot = image.Rect(g.header.Max.X, axisH, w-sbW, g.tracks.Max.Y)
	g.legend = image.Rect(0, g.tracks.Max.Y, w, h)
	g.scrollbar = image.Rect(w-sbW, g.tracks.Min.Y, w, g.tracks.Max.Y)
	return g
}

// ExportSize returns the size in device pixels of opt's export as one
// picture (for All, before any cutting into pages), and how many tracks
// it shows, pinned ones included.
func (v *View) ExportSize(opt ExportOptions) (w, h, tracks int) {
	old := v.resize(opt)
	defer v.restore(old)
	l := v.ensureLayout()
	if !opt.All {
		return v.w, v.h, len(l.pinned) + len(trackRows(visible(l.rows, v.scrollY, v.scrollY+v.geometry().tracks.Dy())))
	}
	g := v.allGeometry(l.contentH)
	return g.w, g.h, len(l.pinned) + len(trackRows(l.rows))
}

// trackRows returns the rows of rs that are tracks (not group titles).
func trackRows(rs []row) []row {
	out := make([]row, 0, len(rs))
	for _, r := range rs {
		if !r.title {
			out = append(out, r)
		}
	}
	return out
}

// ExportPages returns the pictures opt's export is drawn on: one for the
// view as shown; for all tracks, as many as keep each at most
// opt.PageHeight tall, cut between tracks, each with the axis and pinned
// tracks above and the legend below. It refuses (ErrTooManyPages) an
// export of all tracks that would take more than MaxPages pages.
func (v *View) ExportPages(opt ExportOptions) ([]ExportPage, error) {
	old := v.resize(opt)
	defer v.restore(old)
	l := v.ensureLayout()
	if !opt.All {
		g := v.geometry()
		n := len(trackRows(visible(l.rows, v.scrollY, v.scrollY+g.tracks.Dy())))
		return []ExportPage{{Width: v.w, Height: v.h, Tracks: n, top: v.scrollY, bottom: v.scrollY + g.tracks.Dy()}}, nil
	}
	maxH := opt.PageHeight
	if maxH <= 0 {
		maxH = MaxPageHeight
	}
	frame := v.allGeometry(0).h // axis, pinned tracks and legend
	room := max(maxH-frame, 1)
	var pages []ExportPage
	add := func(top, bottom, n int) {
		pages = append(pages, ExportPage{Width: v.w, Height: frame + bottom - top, Tracks: n, top: top, bottom: bottom})
	}
	top, n := 0, 0
	for i, r := range l.rows {
		// A page ends before the row that would overflow it, or before a
		// group's title that would be its last row.
		end := r.y + r.h
		if r.title && i+1 < len(l.rows) {
			end = l.rows[i+1].y + l.rows[i+1].h
		}
		if end-top > room && r.y > top {
			add(top, r.y, n)
			top, n = r.y, 0
		}
		if !r.title {
			n++
		}
	}
	if l.contentH > top || len(pages) == 0 {
		add(top, l.contentH, n)
	}
	if len(pages) > MaxPages {
		g := v.allGeometry(l.contentH)
		return nil, &ErrTooManyPages{Width: g.w, Height: g.h, Pages: len(pages), Tracks: len(l.pinned) + len(trackRows(l.rows))}
	}
	return pages, nil
}

// Export draws page p of opt's export (one of ExportPages(opt)) onto c,
// whose bounds should be the page's size: the frame as shown, or a part
// of all the tracks with the axis and the pinned tracks above it and the
// whole legend below, over opt's range. The view's own state is
// unchanged.
func (v *View) Export(c paint.Canvas, opt ExportOptions, p ExportPage) {
	old := v.resize(opt)
	defer v.restore(old)
	from, to := v.exportRange(opt)
	if !opt.All {
		v.drawFrame(c, v.geometry(), from, to, v.scrollY, true)
		return
	}
	l := v.ensureLayout()
	g := v.allGeometry(p.bottom - p.top)
	h0 := v.h
	v.h = g.h
	defer func() { v.h = h0 }()
	rows := visible(l.rows, p.top, p.bottom)
	f := v.newFrame(c, g, from, to, 0, true, showsThreads(l.pinned, rows))
	c.Fill(c.Bounds(), f.th.Background)
	c.Fill(g.header, f.th.Header)
	f.prepare(l.pinned, rows)
	f.drawGrid(g.plot)
	f.drawRows(rows, g.tracks, g.tracks.Min.Y-p.top)
	if !g.pinned.Empty() {
		f.drawRows(l.pinned, g.pinned, g.pinned.Min.Y)
		c.Fill(image.Rect(0, g.pinned.Max.Y-max(1, px(1, f.s)), g.pinned.Max.X, g.pinned.Max.Y), f.th.Axis)
	}
	f.drawMarkerLines(image.Rect(g.plot.Min.X, g.pinned.Min.Y, g.plot.Max.X, g.tracks.Max.Y))
	f.drawAxis()
	f.drawAxisFlags()
	f.drawLegend()
}
