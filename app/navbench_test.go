package app

import (
	"context"
	"os"
	"sort"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
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
	ev, err := LoadEventlog(context.Background(), bigLog, nil)
	if err != nil {
		b.Fatal(err)
	}
	benchFrames(b, ev)
}

// BenchmarkNavFramesN2 does the same on the small two-HEC log.
func BenchmarkNavFramesN2(b *testing.B) {
	ev, err := LoadEventlog(context.Background(), parworkN2, nil)
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
