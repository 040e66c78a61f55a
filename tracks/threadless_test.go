package tracks

import (
	"context"
	"image"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/timeline"
)

// askingSource passes a log's overview and detail on, noting whether each
// call for detail asked for the threads; with allThreads it asks the log
// for them whatever the view asked.
type askingSource struct {
	*eventlog.Log
	allThreads bool
	asked      []bool
}

func (s *askingSource) Detail(from, to uint64, nsPerPixel float64, threads bool, ready func()) *timeline.Model {
	s.asked = append(s.asked, threads)
	return s.Log.Detail(from, to, nsPerPixel, threads || s.allThreads, ready)
}

// TestDetailWithoutThreads: a view whose rows show no thread's track (the
// Threads group collapsed) asks for detail without the threads, and draws
// with it the same picture, pixel for pixel, as with a window that has
// them, at zooms from 8 of the overview's buckets to a fiftieth of one;
// scrolled to show a thread's row, it asks for the threads.
func TestDetailWithoutThreads(t *testing.T) {
	lg, err := eventlog.Open(context.Background(), "../testdata/ghc-9.0.2/parwork-N2.eventlog", eventlog.Options{ExactBelow: -1, Buckets: 64})
	if err != nil {
		t.Fatal(err)
	}
	defer lg.Close()
	ov := lg.Overview()
	w := ov.Grid.Width()
	draw := func(src timeline.Source, from, to uint64, collapsed bool) (*View, *image.RGBA) {
		v := New(src)
		v.SetSize(1400, 900, 1)
		v.SetCollapsed(GroupThreads, collapsed)
		v.SetRange(from, to)
		v.Render() // asks for the detail
		lg.WaitDetail()
		return v, v.Render()
	}
	differs := 0
	for _, at := range []uint64{3, 5, 8} {
		for _, width := range []uint64{8 * w, w, w / 50} {
			from := ov.Start + (ov.End-ov.Start)*at/10
			to := from + width
			// Without the threads first: a window with them would serve it.
			bare := &askingSource{Log: lg}
			_, got := draw(bare, from, to, true)
			full := &askingSource{Log: lg, allThreads: true}
			fv, want := draw(full, from, to, true)
			for _, threads := range bare.asked {
				if threads {
					t.Fatalf("[%d, %d): a view showing no thread asked for the threads", from, to)
				}
			}
			if m := lg.Detail(from, to, float64(width)/float64(fv.PlotRect().Dx()), false, nil); m == nil || m.NumThreads() == 0 {
				t.Fatalf("[%d, %d): no window with the threads was made for the test to compare with", from, to)
			}
			if d := diffPixels(got, want); d != 0 {
				t.Errorf("[%d, %d): %d pixels differ between the windows without and with threads", from, to, d)
			}
			_, coarse := draw(timeline.Exact(ov), from, to, true)
			if diffPixels(got, coarse) != 0 {
				differs++
			}
		}
	}
	if differs == 0 {
		t.Error("no view's detail differs from the overview's picture: the test proves nothing")
	}
	src := &askingSource{Log: lg}
	from := ov.Start + (ov.End-ov.Start)/2
	v, _ := draw(src, from, from+w, false)
	if _, ok := v.TrackRect(TrackID{KindThread, ov.Thread(0).ID}); !ok {
		t.Fatal("no thread's row in view: the test proves nothing")
	}
	if len(src.asked) == 0 || !src.asked[len(src.asked)-1] {
		t.Errorf("a view showing threads asked for detail with threads %v", src.asked)
	}
}

// diffPixels counts the pixels where a and b differ.
func diffPixels(a, b *image.RGBA) int {
	if a.Rect != b.Rect {
		return a.Rect.Dx() * a.Rect.Dy()
	}
	n := 0
	for i := 0; i < len(a.Pix); i += 4 {
		if a.Pix[i] != b.Pix[i] || a.Pix[i+1] != b.Pix[i+1] || a.Pix[i+2] != b.Pix[i+2] || a.Pix[i+3] != b.Pix[i+3] {
			n++
		}
	}
	return n
}
