package tracks

import (
	"strings"
	"testing"

	"github.com/hecscope/hecscope/timeline"
)

// detailSource is a Source whose detail is another model: one that holds
// the tiny model's threads in a different order, as a detail of a range
// may.
type detailSource struct {
	ov, detail *timeline.Model
	asked      int
	ready      func()
}

func (s *detailSource) Overview() *timeline.Model { return s.ov }
func (s *detailSource) Detail(from, to uint64, nsPerPixel float64, _ bool, ready func()) *timeline.Model {
	s.asked++
	s.ready = ready
	return s.detail
}

// TestDrawsThroughSource draws from a source whose detail model lists the
// threads in another order: each thread's track must be drawn from its
// own thread, found by id, and the view must hand the source its ready
// callback.
func TestDrawsThroughSource(t *testing.T) {
	ov := tiny()
	// The detail: thread 2 created first, so it is Threads[0].
	detail := tinyReordered(timeline.NewOverviewBuilder(timeline.Grid{}))
	if detail.Thread(0).ID != 2 {
		t.Fatalf("detail's first thread is %d", detail.Thread(0).ID)
	}
	src := &detailSource{ov: ov, detail: detail}
	v := New(src)
	called := 0
	v.SetOnReady(func() { called++ })
	v.SetSize(1000+px(headerWidth, 1)+px(scrollbarW, 1), 700, 1)
	img := v.Render()
	if src.asked == 0 || src.ready == nil {
		t.Fatal("the view did not ask its source for detail")
	}
	src.ready()
	if called != 1 {
		t.Errorf("ready callback called %d times", called)
	}
	ax := v.Axis()
	y1, y2 := rowMid(t, v, TrackID{KindThread, 1}), rowMid(t, v, TrackID{KindThread, 2})
	x := int(ax.X(250))
	if got := inkAt(v.Theme(), img.RGBAAt(x, y1)); got.Name() != "running" {
		t.Errorf("thread 1 at 250 ns: %s, want running", got.Name())
	}
	if got := inkAt(v.Theme(), img.RGBAAt(x, y2)); got.Name() == "running" {
		t.Errorf("thread 2 at 250 ns drawn running: drawn by index, not id")
	}
	h := v.Hit(float64(x)+0.5, float64(y2)+0.5)
	if h.Track.ID != 2 || h.Element != ElemSpan || !strings.Contains(strings.Join(h.Tip, " "), "runnable") {
		t.Errorf("hit on thread 2: %+v", h)
	}
}

// tinyReordered builds the tiny model's run with thread 2's events first.
func tinyReordered(b *timeline.Builder) *timeline.Model {
	for _, e := range tinyEvents() {
		if e.Kind == tinyCreate && e.Args[0] == 1 {
			continue
		}
		b.Add(&e)
		if e.Kind == tinyCreate && e.Args[0] == 2 {
			c := e
			c.Args[0] = 1
			c.Cap = 0
			b.Add(&c)
		}
	}
	b.Finish()
	return b.Snapshot()
}

// summarisedView returns a view, drawn once at 1400×700, of the overview
// of a synthetic run on a grid of the given number of buckets, whose busy
// buckets are summarised.
func summarisedView(buckets int) *View {
	b := timeline.NewOverviewBuilder(timeline.GridFor(400_000_000, buckets))
	newSynth(2, 40, 100_000).build(b)
	b.Finish()
	v := New(timeline.Exact(b.Snapshot()))
	v.SetSize(1400, 700, 1)
	v.Render()
	return v
}

// TestSummaries draws an overview whose busy stretches are summarised and
// hits one: it says how many changes and the time per state, and asks to
// zoom in.
func TestSummaries(t *testing.T) {
	v := summarisedView(256)
	found := false
	for _, id := range []TrackID{{KindHEC, 0}, {KindHEC, 1}} {
		r, _ := v.TrackRect(id)
		for x := v.PlotRect().Min.X; x < v.PlotRect().Max.X && !found; x++ {
			h := v.Hit(float64(x)+0.5, float64(r.Max.Y)-3)
			if h.Element == ElemSummary {
				found = true
				tip := strings.Join(h.Tip, "\n")
				if !strings.Contains(tip, "changes in") || !strings.Contains(tip, "zoom in for detail") || !strings.Contains(tip, "%") {
					t.Errorf("summary tip %q", tip)
				}
				if h.To <= h.From || h.Time < h.From || h.Time >= h.To {
					t.Errorf("summary range [%d, %d) for time %d", h.From, h.To, h.Time)
				}
			}
		}
	}
	if !found {
		t.Error("no summarised stretch hit on an overview")
	}
}

// TestSummaryNarrowerThanPixel: where an overview's summarised stretches
// are narrower than a pixel (a fine grid, the whole run in view), a hit
// describes the pixel, counting each stretch's changes, not the one
// stretch under the pointer ("11 changes in 262 µs" in a pixel of 18 ms).
func TestSummaryNarrowerThanPixel(t *testing.T) {
	v := summarisedView(1 << 12)
	mixed := 0
	for _, id := range []TrackID{{KindHEC, 0}, {KindHEC, 1}} {
		r, _ := v.TrackRect(id)
		for x := v.PlotRect().Min.X; x < v.PlotRect().Max.X; x++ {
			h := v.Hit(float64(x)+0.5, float64(r.Max.Y)-3)
			switch h.Element {
			case ElemSummary:
				ax, col := v.Axis(), x-v.PlotRect().Min.X
				t0, t1 := ax.ColumnTime(col), ax.ColumnTime(col+1)
				if h.From > t0 || h.To < t1 {
					t.Fatalf("%v at x %d: a summary of [%d, %d) for the pixel [%d, %d): %q", id, x, h.From, h.To, t0, t1, h.Tip)
				}
			case ElemMixed:
				if strings.Contains(h.Tip[1], "changes in this pixel") {
					mixed++
				}
			}
		}
	}
	if mixed == 0 {
		t.Fatal("no pixel described as holding several changes: the test proves nothing")
	}
}
