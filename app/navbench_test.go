package app

import (
	"context"
	"os"
	"sort"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/hecscope/hecscope/timeline"
)

// navFrameSize is the device size of the timeline in the frame benchmarks:
// a 1600 px wide window at a pixel ratio of 1.
const navFrameW, navFrameH = 1600, 600

// gesture is a sequence of view changes as the controls make them.
type gesture struct {
	name string
	step func(n *timelineNav, i int)
	n    int
}

// navGestures are a wheel zoom in at the pointer (one notch, 10 units, per
// frame, 60 frames: from the whole run down to about 1/64 of it), a drag
// across the plot at that zoom, and zooming back out.
var navGestures = []gesture{
	{"zoom-in", func(n *timelineNav, i int) { scroll(n, fyne.NewPos(1000, 200), 0, 10) }, 60},
	{"pan", func(n *timelineNav, i int) { drag1(n, fyne.NewPos(800, 200), -12) }, 60},
	{"zoom-out", func(n *timelineNav, i int) { scroll(n, fyne.NewPos(600, 200), 0, -10) }, 60},
}

// drag1 reports one step of a drag.
func drag1(n *timelineNav, p fyne.Position, dx float32) {
	n.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(p.X+dx, p.Y)}, Dragged: fyne.Delta{DX: dx}})
}

// BenchmarkNavFramesBig replays the frames of zoom and pan gestures on the
// big log: each frame is the view change plus the full re-render at
// 1600×600 device pixels that the picture then does. It reports the median
// and slowest frame and the frames per second the median allows.
func BenchmarkNavFramesBig(b *testing.B) {
	if _, err := os.Stat(bigLog); err != nil {
		b.Skipf("no big eventlog: %v", err)
	}
	ev, err := loadEventlog(context.Background(), bigLog, nil)
	if err != nil {
		b.Fatal(err)
	}
	benchFrames(b, ev)
}

// BenchmarkNavFramesN2 does the same on the small two-HEC log.
func BenchmarkNavFramesN2(b *testing.B) {
	ev, err := loadEventlog(context.Background(), parworkN2, nil)
	if err != nil {
		b.Fatal(err)
	}
	benchFrames(b, ev)
}

func benchFrames(b *testing.B, ev *Eventlog) {
	a := test.NewApp()
	defer a.Quit()
	n := newTimelineNav(ev.Model, newNavScale(ev.Model.End), "timeline", nil)
	n.Resize(fyne.NewSize(navFrameW, navFrameH))
	for _, g := range navGestures {
		b.Run(g.name, func(b *testing.B) {
			var frames []time.Duration
			for b.Loop() {
				n.fit()
				if g.name != "zoom-in" {
					for range 60 {
						scroll(n, fyne.NewPos(1000, 200), 0, 10)
					}
				}
				for i := range g.n {
					start := time.Now()
					g.step(n, i)
					if _, err := n.render(navFrameW, navFrameH, 1); err != nil {
						b.Fatal(err)
					}
					frames = append(frames, time.Since(start))
				}
			}
			sort.Slice(frames, func(i, j int) bool { return frames[i] < frames[j] })
			med := frames[len(frames)/2]
			b.ReportMetric(float64(med.Microseconds())/1000, "ms/frame-median")
			b.ReportMetric(float64(frames[len(frames)*9/10].Microseconds())/1000, "ms/frame-p90")
			b.ReportMetric(float64(frames[len(frames)-1].Microseconds())/1000, "ms/frame-max")
			b.ReportMetric(1/med.Seconds(), "frames/s-median")
		})
	}
}

// BenchmarkNavThreadRowsBig measures one frame of the thread rows on the
// big log (tens of thousands of threads) at 1600×600, whole run and a
// 1/64 zoom, in each order, once the order has been sorted (the sort is
// done once per order and measured by BenchmarkThreadSortBig).
func BenchmarkNavThreadRowsBig(b *testing.B) {
	if _, err := os.Stat(bigLog); err != nil {
		b.Skipf("no big eventlog: %v", err)
	}
	ev, err := loadEventlog(context.Background(), bigLog, nil)
	if err != nil {
		b.Fatal(err)
	}
	a := test.NewApp()
	defer a.Quit()
	n := newTimelineNav(ev.Model, newNavScale(ev.Model.End), "threads", nil)
	n.Resize(fyne.NewSize(navFrameW, navFrameH))
	for _, zoomed := range []bool{false, true} {
		for o, name := range timeline.ThreadOrders {
			label := "whole/" + name
			if zoomed {
				label = "zoomed/" + name
			}
			b.Run(label, func(b *testing.B) {
				n.fit()
				if zoomed {
					n.zoom(1.0/64, ev.Model.End/2)
				}
				n.threadOrder = timeline.ThreadOrder(o)
				n.threadRows(0, 1) // sorts once per order (reported apart)
				for b.Loop() {
					if _, err := n.render(navFrameW, navFrameH, 1); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkThreadSortBig measures sorting every thread of the big log in
// each order (done once, when an order is first chosen).
func BenchmarkThreadSortBig(b *testing.B) {
	if _, err := os.Stat(bigLog); err != nil {
		b.Skipf("no big eventlog: %v", err)
	}
	ev, err := loadEventlog(context.Background(), bigLog, nil)
	if err != nil {
		b.Fatal(err)
	}
	for o, name := range timeline.ThreadOrders {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				timeline.ThreadRows(ev.Model, 0, ev.Model.End+1, timeline.ThreadOrder(o))
			}
		})
	}
}
