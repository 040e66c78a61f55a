package tracks

import (
	"sync"

	"image"
	"image/color"
	"math"
	"sort"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// Bookmark is a time the user marked, with a name.
type Bookmark struct {
	Time uint64
	Name string
}

// minSpan is the shortest time range a view zooms to, in ns.
const minSpan = 100

// View lays out, draws and hit-tests every track of a run under one time
// axis. It holds the view's state — time range, vertical scroll, collapsed
// groups, pinned tracks, track heights, selection — and the geometry of
// its frame at a size and scale, so that a host only forwards input and
// draws what the view draws. A View is not safe for concurrent use: call
// it from one goroutine (the ready callback excepted, see SetOnReady).
type View struct {
	src      timeline.Source
	heap     *heapview.Heap
	profile  *heapview.Profile
	bands    *heapview.Bands
	bandCols []color.RGBA
	// bandOrder is the order bands are stacked in (SetBandOrder),
	// bandMode how they are drawn (SetBandMode).
	bandOrder heapview.Order
	bandMode  heapview.Mode
	bandLimit int // named bands before OTHER (SetBandLimit; 0: heapview.DefaultBands)

	bookmarks []Bookmark
	highlight *Highlight    // SetHighlight (tracks/highlight.go)
	findings  []findingFlag // SetFindings (tracks/findings.go), by start
	wakeup    *Wakeup       // ShowWakeup (tracks/wakeup.go)

	totals [NumGroups]int // SetGroupTotal (tracks/grouptotal.go)

	w, h  int
	scale float64
	theme paint.Theme

	from, to     uint64
	followEnd    bool   // the range's right edge stays at the end of a growing run
	followWidth  uint64 // while following: the width kept (0: the whole run)
	scrollY      int
	collapsed    [NumGroups]bool
	pins         []TrackID
	marked       TrackID             // SetMarked
	hidden       map[TrackID]bool    // Hide
	heights      map[TrackID]float64 // in points
	selFrom      uint64
	selTo        uint64
	selected     bool
	onReady      func()
	version      int // bumped when a setting that changes the layout changes
	lay          layout
	scratch      scratch
	users        *userIndex
	rates        []heapview.Rate // the heap's allocation rates, computed on first use
	ratesPeak    float64         // the highest of them
	logScale     map[Kind]bool   // the rate kinds on a log scale (SetLogScale)
	spansByLabel bool            // user spans in a track per label, not per thread (SetSpansByLabel)
	runPeaks     runPeakCache    // each HEC's highest spark rate over the run (sparkRunPeak)
	runPeaksMu   sync.Mutex      // guards runPeaks: rows are drawn in parallel
	legendCache  legendCache
	present      presentCache
	cursorSample int // the census the heap profile's legend reads (SetCursor), -1 for none

	// A panel of a larger picture (tracks/panel.go): noTitles hides the
	// groups' titles (SetTitles); placed says the plot spans device x
	// plotX[0] to plotX[1] (SetAxis); caption, in captionCol, names the
	// frame (SetCaption); noLegend hides the legend; heapTop fixes the
	// heap track's scale.
	noTitles   bool
	placed     bool
	plotX      [2]int
	caption    string
	captionCol color.RGBA
	noLegend   bool   // SetLegend
	heapTop    uint64 // SetHeapScale
}

// New returns a view of the run src gives, showing all of it, at 800×600
// device pixels and scale 1 in the light theme.
func New(src timeline.Source) *View {
	v := &View{src: src, w: 800, h: 600, scale: 1, theme: paint.Light, heights: map[TrackID]float64{}, cursorSample: -1}
	v.Fit()
	return v
}

// overview returns the source's overview model (nil without a source).
func (v *View) overview() *timeline.Model {
	if v.src == nil {
		return nil
	}
	return v.src.Overview()
}

// SetSource replaces the run shown, keeping the view's settings; the time
// range is fitted to the new run.
func (v *View) SetSource(src timeline.Source) {
	v.src = src
	v.users = nil
	v.version++
	v.Fit()
}

// SetHeap gives the view the run's heap counters and GCs and its heap
// profile (either may be nil); the profile's bands are its
// heapview.DefaultBands largest.
func (v *View) SetHeap(h *heapview.Heap, p *heapview.Profile) {
	v.heap, v.profile, v.rates = h, p, nil
	v.makeBands()
}

// makeBands reduces the heap profile to its bands, stacked in the view's
// band order, and colours them.
func (v *View) makeBands() {
	v.bands, v.bandCols = nil, nil
	if p := v.profile; p != nil && p.Len() > 0 {
		v.bands = heapview.NewBands(p, heapview.BandOptions{Max: v.bandLimit, Order: v.bandOrder})
		v.bandCols = heapview.BandColors(v.bands)
	}
	v.legendCache = legendCache{}
	v.version++
}

// SetBandOrder stacks the heap profile's bands (and lists them in the
// legend) in order o, as `hecscope render --sort` does: largest, by name
// or fastest-growing first (at the bottom).
func (v *View) SetBandOrder(o heapview.Order) {
	if o == v.bandOrder {
		return
	}
	v.bandOrder = o
	v.makeBands()
}

// SetBandLimit names the heap profile's n largest bands and sums the
// others in OTHER, as `hecscope render --bands` does (0:
// heapview.DefaultBands).
func (v *View) SetBandLimit(n int) {
	if n == v.bandLimit {
		return
	}
	v.bandLimit = n
	v.makeBands()
}

// BandOrder returns the order the heap profile's bands are stacked in.
func (v *View) BandOrder() heapview.Order { return v.bandOrder }

// SetBandMode draws the heap profile's bands in mode m, as `hecscope
// render --mode` does: stacked, stacked as shares of 100 %, or each as
// its own line.
func (v *View) SetBandMode(m heapview.Mode) {
	v.bandMode = m
	v.legendCache = legendCache{} // its swatches: boxes or lines
}

// BandMode returns how the heap profile's bands are drawn.
func (v *View) BandMode() heapview.Mode { return v.bandMode }

// SetBookmarks sets the user's bookmarks (in any order).
func (v *View) SetBookmarks(bs []Bookmark) {
	had := len(v.bookmarks) > 0
	v.bookmarks = append(v.bookmarks[:0], bs...)
	sortBookmarks(v.bookmarks)
	if had != (len(bs) > 0) {
		v.version++
	}
}

// SetOnReady sets what the view calls when detail it asked its source for
// becomes ready (from any goroutine): the host should draw again.
func (v *View) SetOnReady(fn func()) { v.onReady = fn }

// ready is the callback handed to the source.
func (v *View) ready() {
	if fn := v.onReady; fn != nil {
		fn()
	}
}

// SetSize sets the frame's size in device pixels and the scale (device
// pixels per point, 2 on a HiDPI screen; 0 means 1). Text, track heights
// and margins grow with the scale.
func (v *View) SetSize(w, h int, scale float64) {
	if !(scale > 0) || math.IsInf(scale, 0) {
		scale = 1
	}
	v.w, v.h, v.scale = max(w, 1), max(h, 1), math.Min(scale, 16)
	v.clampScroll()
}

// Size returns the frame's size in device pixels and its scale.
func (v *View) Size() (w, h int, scale float64) { return v.w, v.h, v.scale }

// SetDark chooses the dark theme (or the light one).
func (v *View) SetDark(dark bool) { v.theme = paint.ThemeFor(dark) }

// Theme returns the theme the view draws in, whose Cursor, Selection and
// Tooltip colours are for the host's overlays.
func (v *View) Theme() paint.Theme { return v.theme }

// runEnd returns the end of the run known so far (at least 1).
func (v *View) runEnd() uint64 {
	end := uint64(1)
	if ov := v.overview(); ov != nil {
		end = max(end, ov.End)
	}
	if h := v.heap; h != nil {
		if n := len(h.GCs); n > 0 {
			end = max(end, h.GCs[n-1].End)
		}
		for _, s := range []*heapview.Series{&h.Size, &h.Live, &h.Blocks, &h.Allocated} {
			if n := s.Len(); n > 0 {
				end = max(end, s.Time[n-1])
			}
		}
	}
	if v.bands != nil {
		if _, to, ok := v.bands.Span(); ok {
			end = max(end, to)
		}
	}
	return end
}

// Range returns the visible time range [from, to) in ns. After Fit it
// follows the end of a growing run.
func (v *View) Range() (from, to uint64) {
	if v.followEnd {
		end := max(v.runEnd(), minSpan)
		if w := v.followWidth; w > 0 && w < end {
			v.from, v.to = end-w, end
		} else {
			v.from, v.to = 0, end
		}
	}
	return v.from, v.to
}

// Follow shows the last width ns of the run and keeps showing its last
// width ns as it grows (width 0: all of it, as Fit does).
func (v *View) Follow(width uint64) {
	v.followEnd, v.followWidth, v.placed = true, width, false
	if width > 0 {
		v.followWidth = max(width, minSpan)
	}
}

// Following reports whether the view follows the end of a growing run,
// and the width it keeps (0: the whole run).
func (v *View) Following() (bool, uint64) { return v.followEnd, v.followWidth }

// SourceChanged tells the view that its source has new data (a growing
// run): the tracks are laid out again, and a view that follows the end
// moves with it.
func (v *View) SourceChanged() {
	v.users = nil
	v.version++
	v.clampScroll()
}

// Fit shows the whole run, from 0 to its end, and follows the end as the
// run grows.
func (v *View) Fit() {
	v.from, v.to = 0, max(v.runEnd(), minSpan)
	v.followEnd, v.followWidth, v.placed = true, 0, false
}

// SetRange shows [from, to), kept inside the run and at least 100 ns long.
func (v *View) SetRange(from, to uint64) {
	v.followEnd, v.placed = false, false
	end := max(v.runEnd(), minSpan)
	if to > end {
		to = end
	}
	if to < from+minSpan {
		to = from + minSpan
		if to > end {
			to, from = end, end-minSpan
		}
	}
	v.from, v.to = from, to
}

// ZoomAt zooms by factor (above 1 zooms in, below 1 out) keeping the time
// under device x where it is.
func (v *View) ZoomAt(x, factor float64) {
	if !(factor > 0) || math.IsInf(factor, 0) {
		return
	}
	from, to := v.Range()
	g := v.geometry()
	at := g.ax(from, to).Time(math.Min(math.Max(x, float64(g.plot.Min.X)), float64(g.plot.Max.X)))
	span := float64(to-from) / factor
	end := float64(max(v.runEnd(), minSpan))
	span = math.Max(minSpan, math.Min(span, end))
	frac := (float64(at) - float64(from)) / float64(to-from)
	nf := float64(at) - frac*span
	nf = math.Max(0, math.Min(nf, end-span))
	v.SetRange(uint64(nf), uint64(nf+span))
	if nf == 0 && nf+span >= end {
		v.followEnd, v.followWidth = true, 0
	}
}

// Pan moves the view by dx device pixels: a positive dx drags the tracks
// right, showing earlier times.
func (v *View) Pan(dx float64) {
	from, to := v.Range()
	span := float64(to - from)
	shift := -dx / v.geometry().ax(from, to).PixelsPerNs()
	end := float64(max(v.runEnd(), minSpan))
	nf := math.Max(0, math.Min(float64(from)+shift, end-span))
	v.SetRange(uint64(nf), uint64(nf)+uint64(span))
}

// Select selects the time range between device x0 and x1 (either order)
// and returns its length as the axis writes it ("12.4 ms").
func (v *View) Select(x0, x1 float64) string {
	ax := v.Axis()
	a, b := ax.Time(math.Min(x0, x1)), ax.Time(math.Max(x0, x1))
	v.SetSelection(a, b)
	return paint.Duration(b - a)
}

// SetSelection selects [from, to).
func (v *View) SetSelection(from, to uint64) {
	if to < from {
		from, to = to, from
	}
	v.selFrom, v.selTo, v.selected = from, to, true
}

// ClearSelection drops the selection.
func (v *View) ClearSelection() { v.selected = false }

// Selection returns the selected range and whether there is one.
func (v *View) Selection() (from, to uint64, ok bool) { return v.selFrom, v.selTo, v.selected }

// ZoomToSelection shows the selected range, if any, and drops it.
func (v *View) ZoomToSelection() {
	if v.selected && v.selTo > v.selFrom {
		v.SetRange(v.selFrom, v.selTo)
		v.selected = false
	}
}

// ScrollBy scrolls the tracks by dy device pixels (positive: down, to
// later tracks), within the content.
func (v *View) ScrollBy(dy float64) {
	v.scrollY += int(math.Round(dy))
	v.clampScroll()
}

// ScrollTracks scrolls the tracks by n times a thread track's height
// (positive: down): a unit of scrolling that keeps pace with the rows.
func (v *View) ScrollTracks(n float64) {
	v.ScrollBy(n * KindThread.defaultHeight() * v.scale)
}

// ScrollTo scrolls so that content y (device pixels from the top of the
// scrolled tracks) is at the top.
func (v *View) ScrollTo(y int) {
	v.scrollY = y
	v.clampScroll()
}

// Scroll returns the vertical scroll offset, the height of the scrolled
// content and of its viewport, in device pixels (for a scroll bar).
func (v *View) Scroll() (offset, content, viewport int) {
	l := v.ensureLayout()
	g := v.geometry()
	return v.scrollY, l.contentH, g.tracks.Dy()
}

// clampScroll keeps the scroll offset inside the content.
func (v *View) clampScroll() {
	l := v.ensureLayout()
	g := v.geometry()
	v.scrollY = max(0, min(v.scrollY, l.contentH-g.tracks.Dy()))
}

// ToggleGroup collapses an expanded group or expands a collapsed one.
func (v *View) ToggleGroup(g Group) { v.SetCollapsed(g, !v.Collapsed(g)) }

// SetCollapsed collapses or expands a group.
func (v *View) SetCollapsed(g Group, collapsed bool) {
	if g < NumGroups && v.collapsed[g] != collapsed {
		v.collapsed[g] = collapsed
		v.version++
		v.clampScroll()
	}
}

// Collapsed reports whether a group is collapsed.
func (v *View) Collapsed(g Group) bool { return g < NumGroups && v.collapsed[g] }

// Hide hides a track (unpinning it) until ShowHidden, or a Pin or Reveal
// of it.
func (v *View) Hide(id TrackID) {
	if v.hidden[id] {
		return
	}
	if v.Pinned(id) {
		v.Pin(id)
	}
	if v.hidden == nil {
		v.hidden = map[TrackID]bool{}
	}
	v.hidden[id] = true
	v.version++
	v.clampScroll()
}

// NumHidden returns how many tracks are hidden.
func (v *View) NumHidden() int { return len(v.hidden) }

// ShowHidden shows the hidden tracks again.
func (v *View) ShowHidden() {
	if len(v.hidden) > 0 {
		v.hidden = nil
		v.version++
		v.clampScroll()
	}
}

// unhide shows a hidden track again.
func (v *View) unhide(id TrackID) {
	if v.hidden[id] {
		delete(v.hidden, id)
		v.version++
	}
}

// Pin pins a track to the top, above the scrolled tracks, or unpins a
// pinned one. A hidden track is shown again.
func (v *View) Pin(id TrackID) {
	v.unhide(id)
	for i, p := range v.pins {
		if p == id {
			v.pins = append(v.pins[:i], v.pins[i+1:]...)
			v.version++
			v.clampScroll()
			return
		}
	}
	v.pins = append(v.pins, id)
	v.version++
	v.clampScroll()
}

// Pinned reports whether a track is pinned.
func (v *View) Pinned(id TrackID) bool {
	for _, p := range v.pins {
		if p == id {
			return true
		}
	}
	return false
}

// SetMarked marks a track (the one the host jumped to): its header is
// tinted and its row outlined in the selection's colour. The zero TrackID
// marks none.
func (v *View) SetMarked(id TrackID) { v.marked = id }

// Marked returns the marked track (the zero TrackID if none).
func (v *View) Marked() TrackID { return v.marked }

// SetTrackHeight sets a track's height in device pixels (kept between 8
// and 600 points).
func (v *View) SetTrackHeight(id TrackID, h int) {
	pt := math.Max(minTrack, math.Min(maxTrack, float64(h)/v.scale))
	v.heights[id] = pt
	v.version++
	v.clampScroll()
}

// TrackHeight returns a track's height in device pixels.
func (v *View) TrackHeight(id TrackID) int { return v.height(id) }

// ResetTrackHeight gives a track its default height back.
func (v *View) ResetTrackHeight(id TrackID) {
	delete(v.heights, id)
	v.version++
	v.clampScroll()
}

// Tracks returns the tracks shown, pinned first, then group by group in
// order (collapsed groups' tracks left out).
func (v *View) Tracks() []TrackID {
	l := v.ensureLayout()
	var out []TrackID
	for _, r := range l.pinned {
		out = append(out, r.id)
	}
	for _, r := range l.rows {
		if !r.title {
			out = append(out, r.id)
		}
	}
	return out
}

// Reveal expands a track's group, shows the track if it is hidden, and
// scrolls so that it is in view (a pinned track is always in view); false
// if there is no such track.
func (v *View) Reveal(id TrackID) bool {
	v.SetCollapsed(id.Kind.group(), false)
	v.unhide(id)
	l := v.ensureLayout()
	if _, ok := find(l.pinned, id); ok {
		return true
	}
	r, ok := find(l.rows, id)
	if !ok {
		return false
	}
	g := v.geometry()
	if r.y < v.scrollY || r.y+r.h > v.scrollY+g.tracks.Dy() {
		v.ScrollTo(r.y - g.tracks.Dy()/3)
	}
	return true
}

// TrackInView is a track in view and where it is drawn in the frame
// (device pixels, header and plot; the part in view).
type TrackInView struct {
	ID   TrackID
	Rect image.Rectangle
}

// TracksInView returns the tracks in view, pinned first, then from the top
// of the scrolled area, with where each is drawn: what TrackRect says of
// each track, found in the time the rows in view take (a thread-heavy
// log's millions of threads, all expanded, are not looked at).
func (v *View) TracksInView() []TrackInView {
	l := v.ensureLayout()
	g := v.geometry()
	pinned, rows := l.shown(g, v.scrollY)
	var out []TrackInView
	add := func(rs []row, area image.Rectangle, top int) {
		for _, r := range rs {
			if r.title {
				continue
			}
			rect := image.Rect(0, area.Min.Y+r.y-top, g.plot.Max.X, area.Min.Y+r.y-top+r.h).Intersect(area)
			if !rect.Empty() {
				out = append(out, TrackInView{ID: r.id, Rect: rect})
			}
		}
	}
	add(pinned, g.pinned, 0)
	add(rows, g.tracks, v.scrollY)
	return out
}

// TrackRect returns where a track is drawn in the frame (device pixels,
// header and plot), and false if it is not in view.
func (v *View) TrackRect(id TrackID) (image.Rectangle, bool) {
	l := v.ensureLayout()
	g := v.geometry()
	if r, ok := find(l.pinned, id); ok {
		return image.Rect(0, g.pinned.Min.Y+r.y, g.plot.Max.X, g.pinned.Min.Y+r.y+r.h).Intersect(g.pinned), true
	}
	r, ok := find(l.rows, id)
	if !ok {
		return image.Rectangle{}, false
	}
	rect := image.Rect(0, g.tracks.Min.Y+r.y-v.scrollY, g.plot.Max.X, g.tracks.Min.Y+r.y-v.scrollY+r.h).Intersect(g.tracks)
	return rect, !rect.Empty()
}

// sortBookmarks orders bookmarks by time, then name.
func sortBookmarks(bs []Bookmark) {
	sort.SliceStable(bs, func(i, j int) bool {
		if bs[i].Time != bs[j].Time {
			return bs[i].Time < bs[j].Time
		}
		return bs[i].Name < bs[j].Name
	})
}
