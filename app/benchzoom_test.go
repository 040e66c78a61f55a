package app

import (
	"testing"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/tracks"
)

// TestBenchZoomWaitsForDetail: the zoom benchmark counts a view done only
// once a frame of it is complete. Zoomed in past a big log's overview, the
// first frame stands in the overview's summaries for the detail being
// decoded; the benchmark draws again when the detail is there, and the
// frame it ends on shows no summarised stretch.
func TestBenchZoomWaitsForDetail(t *testing.T) {
	v, l := parworkView(t, eventlog.Options{ExactBelow: -1, Buckets: 16})
	if v.canvas == nil {
		t.Fatal("no canvas")
	}
	ov := l.Overview()
	w := ov.Grid.Width()
	mid := ov.End / 2 / w * w
	script := func(start, end uint64) []ZoomView {
		if start != ov.Start || end != ov.End {
			t.Errorf("script given the run [%d, %d), want [%d, %d)", start, end, ov.Start, ov.End)
		}
		return []ZoomView{{start, end}, {mid, mid + 2*w}, {mid + w/2, mid + w}}
	}
	r := benchZoom(v.canvas, l, 1400, 900, script, nil)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if len(r.Frames) != 3 || len(r.Waits) != 3 || len(r.Views) != 3 || len(r.Drawing) != 3 {
		t.Fatalf("%d frames, %d waits, %d views, %d drawing times; want 3 each", len(r.Frames), len(r.Waits), len(r.Views), len(r.Drawing))
	}
	for i := range r.Frames {
		if r.Drawing[i] <= 0 || r.Drawing[i] > r.Frames[i] {
			t.Errorf("view %d: %v drawing of %v in all", i, r.Drawing[i], r.Frames[i])
		}
	}
	if r.Waits[1] == 0 {
		t.Errorf("zoomed in past the overview, the first frame was counted complete")
	}
	summarised := 0
	v.canvas.With(func(tv *tracks.View) {
		if from, to := tv.Range(); from != mid+w/2 || to != mid+w {
			t.Errorf("the canvas ends on [%d, %d), want the last view [%d, %d)", from, to, mid+w/2, mid+w)
		}
		tv.Render()
		plot := tv.PlotRect()
		for y := plot.Min.Y; y < plot.Max.Y; y += 4 {
			for x := plot.Min.X; x < plot.Max.X; x += 8 {
				if tv.Hit(float64(x), float64(y)).Element == tracks.ElemSummary {
					summarised++
				}
			}
		}
	})
	if summarised != 0 {
		t.Errorf("the last view still shows the overview's summaries at %d points", summarised)
	}
}
