package tracks

import (
	"image"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

var (
	bigOnce  sync.Once
	bigModel *timeline.Model
)

// big10M returns the synthetic 10-million-event, 8,000-thread model (built
// once per process).
func big10M(b *testing.B) *timeline.Model {
	bigOnce.Do(func() {
		start := time.Now()
		bigModel = synthModel(4, 8000, 10_000_000)
		b.Logf("built the 10M-event model in %v: %d threads, %s of run", time.Since(start).Round(time.Millisecond),
			bigModel.NumThreads(), paint.Duration(bigModel.End))
	})
	return bigModel
}

// BenchmarkFrame10M draws 1920×1080 frames of a synthetic 10-million-event,
// 8,000-thread model at five zoom levels, from the whole run to 1 µs, each
// at the top of the tracks (activity, HECs, the first threads) and scrolled
// to the middle of the threads, and reports the median time per frame. Frames alternate
// between two ranges a pixel apart, so that none reuses the HECs' columns
// of the frame before (as a frame that only scrolls does).
func BenchmarkFrame10M(b *testing.B) {
	m := big10M(b)
	v := New(timeline.Exact(m))
	v.SetSize(1920, 1080, 1)
	img := image.NewRGBA(image.Rect(0, 0, 1920, 1080))
	cv := paint.NewRaster(img)
	mid := m.End / 2
	levels := []struct {
		name string
		span uint64
	}{{"whole", m.End}, {"100ms", 100e6}, {"1ms", 1e6}, {"10µs", 10e3}, {"1µs", 1e3}}
	_, content, viewport := v.Scroll()
	scrolls := []struct {
		name string
		y    int
	}{{"top", 0}, {"threads", content/2 - viewport/2}}
	for _, lv := range levels {
		for _, sc := range scrolls {
			b.Run(lv.name+"/"+sc.name, func(b *testing.B) {
				from, to := mid-lv.span/2, mid+lv.span/2
				if lv.span >= m.End {
					from, to = 0, m.End
				}
				nudge := max(lv.span/1900, 1)
				v.ScrollTo(sc.y)
				var times []time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					k := uint64(i % 2)
					v.SetRange(from+k*nudge, to+k*nudge)
					start := time.Now()
					v.Draw(cv)
					times = append(times, time.Since(start))
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/frame(median)")
			})
		}
	}
}

// BenchmarkHECColumns10M summarises the HEC tracks of the 10-million-event
// model over the whole run at 1920 columns, on one goroutine: the part of a
// whole-run frame that depends most on how the marks are searched.
func BenchmarkHECColumns10M(b *testing.B) {
	m := big10M(b)
	ax := timeline.NewAxis(0, m.End, 0, 1920)
	var cols []timeline.Column
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for c := range m.HECs {
			cols = m.HECs[c].Track.Columns(ax, 1920, cols)
		}
	}
}
