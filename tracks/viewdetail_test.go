package tracks

import (
	"context"
	"image"
	"math/bits"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/timeline"
)

// askingSource passes a log's overview and detail on, noting whether each
// call for detail asked for the threads.
type askingSource struct {
	*eventlog.Log
	asked []bool
}

func (s *askingSource) Detail(from, to uint64, nsPerPixel float64, threads bool, ready func()) *timeline.Model {
	s.asked = append(s.asked, threads)
	return s.Log.Detail(from, to, nsPerPixel, threads, ready)
}

// wholeSource serves every view's detail at once with a window that holds
// everything (Log.Window: the threads and the user spans too) over the
// range and on the grid the log's detail for the view covers.
type wholeSource struct {
	*eventlog.Log
	t *testing.T
}

func (s wholeSource) Detail(from, to uint64, nsPerPixel float64, _ bool, _ func()) *timeline.Model {
	if !s.WantsDetail(nsPerPixel) {
		return nil
	}
	w := s.Overview().Grid.Width()
	half := (to - from) / 8
	lo, hi := (from-min(from, half))/w*w, (to+half+w-1)/w*w
	var shift uint8
	if nsPerPixel/2 >= 2 {
		shift = uint8(min(bits.Len64(uint64(nsPerPixel/2))-1, 32))
	}
	m, err := s.Window(context.Background(), lo, hi, timeline.Grid{Shift: shift})
	if err != nil {
		s.t.Fatal(err)
	}
	return m
}

// TestDetailForViews: a view whose rows show no thread's track (the
// Threads group collapsed) asks for detail without the threads, and draws
// with the window it gets (no threads, no user spans) the same picture,
// pixel for pixel, as with a window that holds everything, at zooms from
// 8 of the overview's buckets to a fiftieth of one, on a log of many
// threads and on one of many user spans; scrolled to show a thread's row,
// it asks for the threads.
func TestDetailForViews(t *testing.T) {
	for _, path := range []string{"../testdata/ghc-9.0.2/parwork-N2.eventlog", "../testdata/ghc-9.0.2/userheavy-N2.eventlog"} {
		lg, err := eventlog.Open(context.Background(), path, eventlog.Options{ExactBelow: -1, Buckets: 64})
		if err != nil {
			t.Fatal(err)
		}
		defer lg.Close()
		ov := lg.Overview()
		if ov.NumThreads() == 0 || ov.NumUserSpans() == 0 {
			t.Fatalf("%s: %d threads, %d user spans: the test proves nothing", path, ov.NumThreads(), ov.NumUserSpans())
		}
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
				src := &askingSource{Log: lg}
				v, got := draw(src, from, to, true)
				if !showsGroup(v, GroupUser) {
					t.Fatalf("%s: no user spans' row in view: the test proves less than it says", path)
				}
				for _, threads := range src.asked {
					if threads {
						t.Fatalf("%s [%d, %d): a view showing no thread asked for the threads", path, from, to)
					}
				}
				_, want := draw(wholeSource{Log: lg, t: t}, from, to, true)
				if d := diffPixels(got, want); d != 0 {
					t.Errorf("%s [%d, %d): %d pixels differ between the view's window and one that holds everything", path, from, to, d)
				}
				if _, coarse := draw(timeline.Exact(ov), from, to, true); diffPixels(got, coarse) != 0 {
					differs++
				}
			}
		}
		if differs == 0 {
			t.Errorf("%s: no view's detail differs from the overview's picture: the test proves nothing", path)
		}
		src := &askingSource{Log: lg}
		from := ov.Start + (ov.End-ov.Start)/2
		v, _ := draw(src, from, from+w, false)
		if _, ok := v.TrackRect(TrackID{KindThread, ov.Thread(0).ID}); !ok {
			t.Fatalf("%s: no thread's row in view: the test proves nothing", path)
		}
		if len(src.asked) == 0 || !src.asked[len(src.asked)-1] {
			t.Errorf("%s: a view showing threads asked for detail with threads %v", path, src.asked)
		}
	}
}

// showsGroup reports whether a row of group g's tracks is in view.
func showsGroup(v *View, g Group) bool {
	pinned, rows := v.ensureLayout().shown(v.geometry(), v.scrollY)
	for _, rs := range [][]row{pinned, rows} {
		for _, r := range rs {
			if !r.title && r.id.Kind.info().group == g {
				return true
			}
		}
	}
	return false
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
