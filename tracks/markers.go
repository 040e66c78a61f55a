package tracks

import (
	"image"
	"math"
	"sort"

	"github.com/hecscope/hecscope/paint"
)

// cluster is a run of markers (or bookmarks) drawn as one flag: those
// within a few pixels of the first.
type cluster struct {
	x        float64 // the first one's x
	first, n int     // index of the first, and how many
	from, to uint64  // times of the first and last
}

// clusterGap is how close (in points) markers are to share a flag.
const clusterGap = 8

// clusters groups n time-ordered items, item i at time at(i), that lie in
// the frame's range into flags: each flag takes the items less than gap
// pixels right of its first one, or, if its count is wider than that,
// those its count covers, so that no flag is drawn over another's count
// (a flag of 314 markers, drawn over by the next, read "3", and its
// tooltip answered for the pointer over the next one). search(t) returns the first item at
// or after t. It costs a few binary searches per flag, however many items.
func (f *frame) clusters(n int, at func(i int) uint64, search func(t uint64) int, gap float64) []cluster {
	var out []cluster
	i := search(f.from)
	for i < n {
		t := at(i)
		if t > f.to {
			break
		}
		x := f.ax.X(t)
		// end returns the end of the flag's items reach pixels right of x:
		// everything up to the end of the range, and at least this one.
		end := func(reach float64) int {
			j := min(max(search(f.ax.Time(x+reach)+1), i+1), n)
			for j > i+1 && at(j-1) > f.to {
				j--
			}
			return j
		}
		j := end(gap)
		// A flag whose count is wider takes in what its count covers (the
		// next flag may cover its right margin), which may widen it by a
		// digit: a few rounds.
		for reach, k := gap, 0; k < 8; k++ {
			w := float64(f.flagRect(x, 0, 1, j-i, f.small).Dx() - px(3, f.s))
			if w <= reach {
				break
			}
			reach, j = w, end(w)
		}
		out = append(out, cluster{x: x, first: i, n: j - i, from: t, to: at(j - 1)})
		i = j
	}
	return out
}

// markerClusters returns the flags of the overview's user markers.
func (f *frame) markerClusters() []cluster {
	ov := f.ov
	if ov == nil || ov.NumMarkers() == 0 {
		return nil
	}
	return f.clusters(ov.NumMarkers(), func(i int) uint64 { return ov.Marker(i).Time }, ov.SearchMarkers, clusterGap*f.s)
}

// bookmarkClusters returns the flags of the bookmarks.
func (f *frame) bookmarkClusters() []cluster {
	bs := f.v.bookmarks
	if len(bs) == 0 {
		return nil
	}
	return f.clusters(len(bs), func(i int) uint64 { return bs[i].Time },
		func(t uint64) int { return sort.Search(len(bs), func(i int) bool { return bs[i].Time >= t }) }, clusterGap*f.s)
}

// maxLines is the most flags whose lines are drawn across the tracks:
// more would hide the tracks (the axis' flags show them all).
const maxLines = 40

// drawMarkerLines draws a thin line across area at each flag of the
// markers and bookmarks, when there are few enough.
func (f *frame) drawMarkerLines(area image.Rectangle) {
	f.c.PushClip(area)
	defer f.c.PopClip()
	for _, k := range []struct {
		cs  []cluster
		ink paint.Ink
	}{{f.markerClusters(), paint.InkMarker}, {f.bookmarkClusters(), paint.InkBookmark}} {
		if len(k.cs) > maxLines {
			continue
		}
		col := paint.WithAlpha(f.th.Ink(k.ink), 0x90)
		for _, c := range k.cs {
			x := int(math.Floor(c.x))
			f.c.Fill(image.Rect(x, area.Min.Y, x+1, area.Max.Y), col)
		}
	}
}

// flagRect returns where a flag at x is drawn in a strip from y0 to y1.
func (f *frame) flagRect(x float64, y0, y1 int, n int, face *paint.Face) image.Rectangle {
	w := px(7, f.s)
	if n > 1 {
		w = max(w, face.Width(paint.CountShort(float64(n)))+px(6, f.s))
	}
	xi := int(math.Floor(x))
	return image.Rect(xi, y0, xi+w, y1)
}

// drawFlags draws a flag per cluster in the strip [y0, y1): a pennant
// off the marker's line, with the count of a cluster in it, and, when
// labels is set, the text of a single marker where it fits before the
// next flag.
func (f *frame) drawFlags(cs []cluster, ink paint.Ink, y0, y1 int, label func(i int) string) {
	col := f.th.Ink(ink)
	face := f.small
	for k, c := range cs {
		r := f.flagRect(c.x, y0, y1, c.n, face)
		x := float64(r.Min.X)
		if c.n > 1 {
			f.c.Fill(r, col)
			paint.TextCentered(f.c, face, paint.CountShort(float64(c.n)), float64(r.Min.X+r.Max.X)/2, float64(y0+y1)/2, f.th.LabelOnBar)
		} else {
			f.c.Polygon([]paint.Point{{X: x, Y: float64(y0)}, {X: float64(r.Max.X), Y: float64(y0+y1) / 2}, {X: x, Y: float64(y1)}}, col)
		}
		f.c.Fill(image.Rect(r.Min.X, y0, r.Min.X+1, y1), col)
		if label == nil || c.n != 1 {
			continue
		}
		room := f.g.plot.Max.X - r.Max.X - px(4, f.s)
		if k+1 < len(cs) {
			room = int(cs[k+1].x) - r.Max.X - px(6, f.s)
		}
		if text := face.Fit(label(c.first), room); text != "" && room > face.Width("…")*3 {
			f.c.Text(face, text, r.Max.X+px(3, f.s), face.Baseline(float64(y0+y1)/2), f.th.Text)
		}
	}
}

// markerText returns the text of marker i.
func (f *frame) markerText(i int) string { return f.ov.String(int32(f.ov.Marker(i).Arg)) }

// bookmarkText returns the name of bookmark i.
func (f *frame) bookmarkText(i int) string { return f.v.bookmarks[i].Name }

// drawMarkerTrack draws the markers' track: the markers' flags with their
// texts in its upper half, the bookmarks' in its lower half.
func (f *frame) drawMarkerTrack(y0, y1 int) {
	top, bottom := f.inset(y0, y1)
	mid := (top + bottom) / 2
	f.drawFlags(f.markerClusters(), paint.InkMarker, top, mid, f.markerText)
	f.drawFlags(f.bookmarkClusters(), paint.InkBookmark, mid+1, bottom, f.bookmarkText)
}

// axisFlags returns the strip of the axis where markers' and bookmarks'
// flags go.
func (f *frame) axisFlags() (markers, bookmarks image.Rectangle) {
	a := f.g.axis
	h := max(px(5, f.s), 3)
	base := a.Max.Y - 1
	return image.Rect(f.g.plot.Min.X, base-h, f.g.plot.Max.X, base), image.Rect(f.g.plot.Min.X, base-2*h-1, f.g.plot.Max.X, base-h-1)
}

// drawAxisFlags draws the flags along the axis' bottom (sticky: they show
// whatever is scrolled).
func (f *frame) drawAxisFlags() {
	mr, br := f.axisFlags()
	f.drawFlags(f.markerClusters(), paint.InkMarker, mr.Min.Y, mr.Max.Y, nil)
	f.drawFlags(f.bookmarkClusters(), paint.InkBookmark, br.Min.Y, br.Max.Y, nil)
}

// hitFlags describes the flag of cs under x in the strip [y0, y1), if
// any: one marker's text and time, or a cluster's count, span and first
// texts.
func (f *frame) hitFlags(h *Hit, cs []cluster, el Element, x, y0, y1 int, text func(i int) string) bool {
	// The last first: of two flags that touch, the later is drawn over
	// the earlier's margin.
	for k := len(cs) - 1; k >= 0; k-- {
		c := cs[k]
		r := f.flagRect(c.x, y0, y1, c.n, f.small)
		if x < r.Min.X-px(2, f.s) || x >= r.Max.X+px(1, f.s) {
			continue
		}
		what := "marker"
		if el == ElemBookmark {
			what = "bookmark"
		}
		h.Element, h.From, h.To, h.Anchor = el, c.from, c.to, r
		if c.n == 1 {
			h.Tip = []string{what + " at " + f.when(c.from), text(c.first)}
			return true
		}
		h.Tip = []string{paint.Count(int64(c.n)) + " " + what + "s from " + f.when(c.from) + " to " + f.when(c.to)}
		for i := c.first; i < c.first+min(c.n, 4); i++ {
			h.Tip = append(h.Tip, "· "+text(i))
		}
		if c.n > 4 {
			h.Tip = append(h.Tip, "…")
		}
		h.Tip = append(h.Tip, "zoom in to tell them apart")
		return true
	}
	return false
}

// hitAxis fills in the flag of a finding, marker or bookmark under (x, y)
// on the axis.
func (f *frame) hitAxis(h *Hit, x, y int) {
	mr, br := f.axisFlags()
	fr := f.findingBand()
	switch {
	case y < fr.Max.Y+1 && len(f.v.findings) > 0:
		f.hitFindings(h, x)
	case y >= mr.Min.Y && y < mr.Max.Y+1 && f.ov != nil:
		f.hitFlags(h, f.markerClusters(), ElemMarker, x, mr.Min.Y, mr.Max.Y, f.markerText)
	case y >= br.Min.Y && y < br.Max.Y:
		f.hitFlags(h, f.bookmarkClusters(), ElemBookmark, x, br.Min.Y, br.Max.Y, f.bookmarkText)
	}
}

// hitMarkerTrack fills in the flag under (x, y) in the markers' track.
func (f *frame) hitMarkerTrack(h *Hit, x, y, y0, y1 int) {
	top, bottom := f.inset(y0, y1)
	mid := (top + bottom) / 2
	if y < mid {
		if f.ov != nil {
			f.hitFlags(h, f.markerClusters(), ElemMarker, x, top, mid, f.markerText)
		}
		return
	}
	f.hitFlags(h, f.bookmarkClusters(), ElemBookmark, x, mid+1, bottom, f.bookmarkText)
}
