package compareview

import (
	"fmt"
	"image"
	"math"
	"strings"
	"sync"

	"github.com/hecscope/hecscope/compare"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/tracks"
)

// compareReader reads the compare picture at the pointer: what a run's
// panel shows (as the main window's track canvas says it: the track view
// that drew the panel hit-tests it), a distribution's bin, a run's heap.
type compareReader struct {
	mu sync.Mutex
	// layout is where the picture last drawn at the canvas's size put its
	// parts and the track views that drew its panels (zero when it was
	// drawn at another size, scaled to fit).
	layout compare.PictureLayout
}

// setLayout keeps the layout of the picture just drawn.
func (r *compareReader) setLayout(l compare.PictureLayout) {
	r.mu.Lock()
	r.layout = l
	r.mu.Unlock()
}

// reset forgets the layout (the runs were swapped).
func (r *compareReader) reset() { r.setLayout(compare.PictureLayout{}) }

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
// device pixel (x, y), none for nothing: what the track view of a run's
// panel or heap lane says is there, or a distribution's bin.
func (r *compareReader) tipAt(x, y float64) []string {
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
	if i, h := l.Hit(x, y); i >= 0 {
		if !h.HasTime {
			return h.Tip // a track's name, a legend's entry
		}
		// Both runs' times at x, then what the run's track view says.
		title := fmt.Sprintf("%s at %s", runTag(i), paint.Time(h.Time, step(i)))
		if to, ok := timeAt(1 - i); ok {
			title += fmt.Sprintf("  ·  %s at %s", runTag(1-i), paint.Time(to, step(1-i)))
		}
		return append([]string{title}, h.Tip...)
	}
	for _, d := range l.Distributions {
		if pt.In(d.Plot) {
			return distributionTip(d, x)
		}
	}
	return nil
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
