package tracks

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"github.com/hecscope/hecscope/timeline"
)

// This file makes a View a panel of a larger picture: a named view of
// its groups (hecscope render --view, the comparison's panels), without
// the titles a picture that cannot be clicked has no use for, its tracks
// sized to fill it, its plot on a time axis it shares with other runs',
// and a caption naming the run.

// views are, for each view of a run a picture shows, the groups of tracks
// it shows expanded.
var views = map[string][]Group{
	// What a window shows at first, without the threads (a big run has
	// hundreds of thousands: see "threads") and the heap.
	"timeline": {GroupActivity, GroupHECs, GroupSparks, GroupUser},
	// The activity graphs and each HEC's states: the comparison's panels
	// by default.
	"hecs":     {GroupActivity, GroupHECs},
	"activity": {GroupActivity},
	"sparks":   {GroupSparks},
	"threads":  {GroupThreads},
}

// Views returns the names of the views SetView shows, sorted.
func Views() []string {
	names := make([]string, 0, len(views))
	for k := range views {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// ViewGroups returns the groups view name shows expanded, and whether
// there is such a view.
func ViewGroups(name string) ([]Group, bool) {
	gs, ok := views[name]
	return gs, ok
}

// SetView expands the groups of view name (one of Views()) and collapses
// the others.
func (v *View) SetView(name string) error {
	gs, ok := views[name]
	if !ok {
		return fmt.Errorf("unknown view %q (views: %s)", name, strings.Join(Views(), ", "))
	}
	for g := range NumGroups {
		v.SetCollapsed(g, true)
	}
	for _, g := range gs {
		v.SetCollapsed(g, false)
	}
	return nil
}

// SetTitles shows or hides the groups' title rows. Without them a
// collapsed group shows nothing at all: the view is a fixed picture of
// its expanded groups' tracks, for a picture that cannot be clicked (the
// comparison's panels).
func (v *View) SetTitles(show bool) {
	if v.noTitles == !show {
		return
	}
	v.noTitles = !show
	v.version++
	v.clampScroll()
}

// FitTracks gives every track shown a height in proportion to its
// default height, such that together they fill the scrolled tracks'
// viewport (each between 8 and 600 points; a view whose tracks do not fit
// at 8 points is cut at the bottom). Group titles keep their height.
func (v *View) FitTracks() {
	for _, id := range v.Tracks() {
		delete(v.heights, id)
	}
	v.version++
	l := v.ensureLayout()
	var titles, tracks int
	for _, r := range l.rows {
		if r.title {
			titles += r.h
		} else {
			tracks += r.h
		}
	}
	room := v.geometry().tracks.Dy() - titles
	if tracks == 0 || room <= 0 {
		v.clampScroll()
		return
	}
	f := float64(room) / float64(tracks)
	for _, r := range l.rows {
		if !r.title {
			// Rounded down so that the rows never add up to more than the room.
			v.heights[r.id] = math.Max(minTrack, math.Min(maxTrack, math.Floor(float64(r.h)*f)/v.scale))
		}
	}
	v.version++
	v.clampScroll()
}

// SetAxis shows the run on ax, an axis that a picture of several runs on
// one time scale lays out for it (the comparison: timeline.Viewport.Axes):
// the plot spans device x ax.X0 to ax.X0+ax.Width, rounded to whole
// pixels and kept inside the plot's usual span, the tracks left and right
// of it blank, and shows ax.From to ax.To, which may reach past the run's
// end. Axis() then returns the axis drawn. SetRange, Fit and Follow (and
// the zooms and pans that call them) give the plot its usual span back.
func (v *View) SetAxis(ax timeline.Axis) {
	v.placed = true
	v.plotX = [2]int{int(math.Round(ax.X0)), int(math.Round(ax.X0 + ax.Width))}
	v.from, v.to = ax.From, max(ax.To, ax.From+1)
	v.followEnd = false
}

// place moves the plot of g, laid out as usual, to the span SetAxis set.
func (v *View) place(g geometry) geometry {
	if !v.placed {
		return g
	}
	x0 := min(max(v.plotX[0], g.plot.Min.X), g.plot.Max.X-1)
	x1 := max(min(v.plotX[1], g.plot.Max.X), x0+1)
	g.plot.Min.X, g.plot.Max.X = x0, x1
	return g
}

// PlotSpan returns the device x range [x0, x1) of the plot of a frame w
// device pixels wide at scale s, laid out as usual: where a picture that
// stacks frames of runs on one time scale puts that scale.
func PlotSpan(w int, s float64) (x0, x1 int) {
	if !(s > 0) || math.IsInf(s, 0) {
		s = 1
	}
	g := geometryFor(max(w, 1), 1, math.Min(s, 16), 0, 0)
	return g.plot.Min.X, g.plot.Max.X
}

// SetCaption names the frame: the axis's corner above the headers shows
// text in colour c where it shows the visible span without one ("" for
// the span again). A picture of several runs names each one there.
func (v *View) SetCaption(text string, c color.RGBA) { v.caption, v.captionCol = text, c }

// SetLegend shows or hides the legend's strip. A picture of several frames
// that name the same things (the comparison's heap lanes) shows one
// legend.
func (v *View) SetLegend(show bool) {
	if v.noLegend == !show {
		return
	}
	v.noLegend = !show
	v.legendCache = legendCache{}
	v.version++
	v.clampScroll()
}

// SetHeapScale tops the heap track's byte scale at top bytes, for frames
// whose heaps are read on one scale (the comparison's heap lanes); 0
// scales it to the peak in view.
func (v *View) SetHeapScale(top uint64) { v.heapTop = top }
