package app

import (
	"fmt"
	"image"
	"math"
	"strings"
	"sync"

	"github.com/hecscope/hecscope/compare"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// compareReader reads the compare picture at the pointer: the state of a
// run's HEC (as the main window's track canvas says it, through a
// tracks.View of the run), a distribution's bin, a run's heap.
type compareReader struct {
	mu sync.Mutex
	// layout is where the picture last drawn at the canvas's size put its
	// parts (zero when it was drawn at another size, scaled to fit).
	layout compare.PictureLayout
	// views hit-test each run's panel: a tracks.View of the run over the
	// panel's axis (rebuilt when the axis changes), with viewAxes the
	// axes they were set up for.
	views    [2]*tracks.View
	viewAxes [2]timeline.Axis
}

// setLayout keeps the layout of the picture just drawn.
func (r *compareReader) setLayout(l compare.PictureLayout) {
	r.mu.Lock()
	r.layout = l
	r.mu.Unlock()
}

// reset forgets the layout and the runs' views (the runs were swapped).
func (r *compareReader) reset() {
	r.mu.Lock()
	r.layout = compare.PictureLayout{}
	r.views, r.viewAxes = [2]*tracks.View{}, [2]timeline.Axis{}
	r.mu.Unlock()
}

// cursorAt returns the device rows the cursor line at device pixel (x, y)
// spans: through both runs' panels, and through both heap lanes (none
// without heaps) but not the distributions between, whose x is no time;
// false when the point is not over a time axis of the panels or lanes.
func (r *compareReader) cursorAt(x, y float64) (spans [2][2]int, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	l := &r.layout
	pt := image.Pt(int(math.Floor(x)), int(math.Floor(y)))
	for i := range 2 {
		ax := l.Axes[i]
		inTime := ax.Width > 0 && x >= ax.X0 && x < ax.X0+ax.Width
		ok = ok || (inTime && (pt.In(l.Panels[i]) || pt.In(l.Heaps[i])))
	}
	if !ok {
		return spans, false
	}
	spans[0] = [2]int{l.Panels[0].Min.Y, l.Panels[1].Max.Y}
	if !l.Heaps[1].Empty() {
		spans[1] = [2]int{l.Heaps[0].Min.Y, l.Heaps[1].Max.Y}
	}
	return spans, true
}

// runTag is how the picture calls run i.
func runTag(i int) string { return [2]string{"A", "B"}[i] }

// tipAt returns the lines of the tooltip of what the picture shows at
// device pixel (x, y), none for nothing. models and heaps are the runs'
// (A's first), scale the device pixel ratio.
func (r *compareReader) tipAt(x, y float64, models [2]*timeline.Model, heaps [2]*heapview.Heap, scale float64) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	l := &r.layout
	pt := image.Pt(int(math.Floor(x)), int(math.Floor(y)))
	if l.Size == (image.Point{}) || !pt.In(image.Rectangle{Max: l.Size}) {
		return nil
	}
	// timeAt returns run i's time at x, if its axis reaches there.
	timeAt := func(i int) (uint64, bool) {
		ax := l.Axes[i]
		if ax.Width <= 0 || x < ax.X0 || x >= ax.X0+ax.Width {
			return 0, false
		}
		return ax.Time(x), true
	}
	step := func(i int) uint64 { return tracks.PointStep(l.Axes[i].PixelsPerNs()) }
	for i := range 2 {
		if !pt.In(l.Panels[i]) {
			continue
		}
		t, ok := timeAt(i)
		if !ok {
			return nil
		}
		title := fmt.Sprintf("%s at %s", runTag(i), paint.Time(t, step(i)))
		if to, ok := timeAt(1 - i); ok {
			title += fmt.Sprintf("  ·  %s at %s", runTag(1-i), paint.Time(to, step(1-i)))
		}
		lines := []string{title}
		for _, row := range l.Rows[i] {
			if pt.In(row.Rect) {
				lines = append(lines, r.rowTip(i, row, t, y, models[i], scale)...)
				break
			}
		}
		return lines
	}
	for _, d := range l.Distributions {
		if pt.In(d.Plot) {
			return distributionTip(d, x)
		}
	}
	for i := range 2 {
		if !pt.In(l.Heaps[i]) {
			continue
		}
		t, ok := timeAt(i)
		if !ok || heaps[i] == nil {
			return nil
		}
		lines := []string{fmt.Sprintf("%s's heap at %s", runTag(i), paint.Time(t, step(i)))}
		for _, s := range []struct {
			name   string
			series *heapview.Series
		}{{"heap size", &heaps[i].Size}, {"live data", &heaps[i].Live}} {
			if v, ok := s.series.At(t); ok {
				lines = append(lines, fmt.Sprintf("%s %s", s.name, heapview.FormatBytes(v)))
			}
		}
		return lines
	}
	return nil
}

// rowTip returns what the track canvas's tooltip says about the HEC row or
// activity graph row of run i at time t: the same track of a tracks.View
// of the run, hit at t and at the height in its row that y is in row.
func (r *compareReader) rowTip(i int, row timeline.PanelRow, t uint64, y float64, m *timeline.Model, scale float64) []string {
	id := tracks.TrackID{Kind: tracks.KindActivity}
	switch {
	case row.HEC >= len(m.HECs):
		return nil
	case row.Activity && row.HEC >= 0:
		id = tracks.TrackID{Kind: tracks.KindHECActivity, ID: uint32(m.HECs[row.HEC].Cap)}
	case !row.Activity:
		id = tracks.TrackID{Kind: tracks.KindHEC, ID: uint32(m.HECs[row.HEC].Cap)}
	}
	v := r.view(i, m, scale)
	if !v.Reveal(id) {
		return nil
	}
	rect, ok := v.TrackRect(id)
	if !ok {
		return nil
	}
	// The same height within the track as within the row.
	frac := (y - float64(row.Rect.Min.Y)) / float64(max(row.Rect.Dy(), 1))
	ty := float64(rect.Min.Y) + math.Min(math.Max(frac, 0), 0.999)*float64(rect.Dy())
	h := v.Hit(v.X(t), ty)
	if h.Area != tracks.AreaPlot {
		return nil
	}
	return h.Tip
}

// view returns a tracks.View of run i (model m) whose plot spans the
// panel's axis: as many pixels for the same times.
func (r *compareReader) view(i int, m *timeline.Model, scale float64) *tracks.View {
	ax := r.layout.Axes[i]
	if r.views[i] != nil && r.viewAxes[i] == ax {
		return r.views[i]
	}
	v := tracks.New(timeline.Exact(m))
	v.SetDark(darkTheme())
	width := max(int(math.Round(ax.Width)), 1)
	// Tall enough for every HEC's track; the header and scroll bar come
	// on top of the plot's width.
	height := 4000
	v.SetSize(width+400, height, scale)
	w, _, _ := v.Size()
	v.SetSize(w+width-v.PlotRect().Dx(), height, scale)
	v.SetRange(ax.From, ax.To)
	r.views[i], r.viewAxes[i] = v, ax
	return v
}

// distributionTip says what bin of distribution d is at device x, and how
// many of each run's durations it counts.
func distributionTip(d compare.DistributionArea, x float64) []string {
	h := d.Histogram
	bins := len(h.A)
	if bins == 0 || len(h.Edges) != bins+1 {
		return nil
	}
	i := int((x - float64(d.Plot.Min.X)) * float64(bins) / float64(max(d.Plot.Dx(), 1)))
	i = min(max(i, 0), bins-1)
	title, _, _ := strings.Cut(h.Title, " (")
	count := func(tag string, n, total int) string {
		if total == 0 {
			return tag + ": none"
		}
		return fmt.Sprintf("%s: %d of %d (%.1f%%)", tag, n, total, 100*float64(n)/float64(total))
	}
	return []string{
		fmt.Sprintf("%s from %s to %s", title, paint.Duration(h.Edges[i]), paint.Duration(h.Edges[i+1])),
		count("A", h.A[i], h.TotalA),
		count("B", h.B[i], h.TotalB),
	}
}
