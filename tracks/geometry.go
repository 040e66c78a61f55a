package tracks

import (
	"image"

	"github.com/hecscope/hecscope/timeline"
)

// geometry is where the parts of a frame go, in device pixels.
type geometry struct {
	s    float64
	w, h int
	// axis is the sticky time axis across the top (header part included).
	axis image.Rectangle
	// pinned is the pinned tracks' area, tracks the scrolled tracks'
	// viewport; both span the headers and the plot.
	pinned, tracks image.Rectangle
	// header is the headers' column, from the axis to the legend.
	header image.Rectangle
	// plot is where time runs, from the axis to the legend: its x range is
	// the time axis's.
	plot image.Rectangle
	// legend is the legend's strip at the bottom, scrollbar the scroll
	// bar's gutter at the right of the tracks.
	legend, scrollbar image.Rectangle
}

// px converts points to device pixels at scale s.
func px(pt, s float64) int { return int(pt*s + 0.5) }

// geometryFor lays out a w×h frame at scale s whose pinned tracks need
// pinnedH pixels and whose legend needs legendH (both capped so that the
// scrolled tracks keep room).
func geometryFor(w, h int, s float64, pinnedH, legendH int) geometry {
	g := geometry{s: s, w: w, h: h}
	headerW := min(px(headerWidth, s), w/3)
	axisH := min(px(axisHeight, s), h/4)
	sbW := min(px(scrollbarW, s), w/20)
	legendH = min(legendH, h/4)
	top := axisH
	bottom := h - legendH
	pinnedH = min(pinnedH, (bottom-top)/2)
	g.axis = image.Rect(0, 0, w, axisH)
	g.pinned = image.Rect(0, top, w-sbW, top+pinnedH)
	g.tracks = image.Rect(0, top+pinnedH, w-sbW, max(bottom, top+pinnedH))
	g.header = image.Rect(0, top, headerW, bottom)
	g.plot = image.Rect(headerW, top, max(w-sbW, headerW+1), max(bottom, top+1))
	g.legend = image.Rect(0, bottom, w, h)
	g.scrollbar = image.Rect(w-sbW, top+pinnedH, w, bottom)
	return g
}

// ax returns the time axis of the plot for [from, to).
func (g geometry) ax(from, to uint64) timeline.Axis {
	return timeline.NewAxis(from, to, float64(g.plot.Min.X), float64(g.plot.Dx()))
}

// geometry lays out the view's frame.
func (v *View) geometry() geometry {
	l := v.ensureLayout()
	return v.place(geometryFor(v.w, v.h, v.scale, l.pinnedH, v.legendHeight(v.w, v.legendLines())))
}

// Axis returns the mapping between times and device x of the current
// frame: Axis().X(t) and Axis().Time(x).
func (v *View) Axis() timeline.Axis {
	from, to := v.Range()
	return v.geometry().ax(from, to)
}

// X returns the device x at which time t is drawn.
func (v *View) X(t uint64) float64 { return v.Axis().X(t) }

// Time returns the time drawn at device x.
func (v *View) Time(x float64) uint64 { return v.Axis().Time(x) }

// PlotRect returns the area where time runs (pinned and scrolled tracks,
// headers excluded): where the host draws the cursor line and the
// selection's shade.
func (v *View) PlotRect() image.Rectangle { return v.geometry().plot }

// AxisRect returns the sticky time axis's strip (its header part
// included), where the host writes the cursor's time and the selection's
// length.
func (v *View) AxisRect() image.Rectangle { return v.geometry().axis }

// HeaderRect returns the column of the track headers.
func (v *View) HeaderRect() image.Rectangle { return v.geometry().header }

// TracksRect returns the scrolled tracks' viewport (headers and plot).
func (v *View) TracksRect() image.Rectangle { return v.geometry().tracks }

// PinnedRect returns the pinned tracks' area (empty when none is pinned).
func (v *View) PinnedRect() image.Rectangle { return v.geometry().pinned }

// LegendRect returns the legend's strip.
func (v *View) LegendRect() image.Rectangle { return v.geometry().legend }

// ScrollbarRect returns the scroll bar's gutter, right of the scrolled
// tracks.
func (v *View) ScrollbarRect() image.Rectangle { return v.geometry().scrollbar }
