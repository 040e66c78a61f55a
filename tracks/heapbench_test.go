package tracks

import (
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
)

// BenchmarkHeapView draws 1920×1080 frames of a view of the heap alone
// (as `hecscope render --view heap` and a .hp file's picture draw it) of
// a profile of 1,000 censuses × 5,000 closure types, reduced to 15 bands
// and OTHER, in each band mode, and reports the median time per frame.
func BenchmarkHeapView(b *testing.B) {
	hp := &ingest.HeapProfile{}
	labels := make([]string, 5000)
	for i := range labels {
		labels[i] = "closure_" + strconv.Itoa(i)
	}
	for s := range 1000 {
		smp := ingest.HeapSample{Time: float64(s) / 100, Complete: true}
		for i, l := range labels {
			smp.Entries = append(smp.Entries, ingest.HeapEntry{Label: l, Bytes: uint64((i*7919+s*104729)%100_000 + 1)})
		}
		hp.Samples = append(hp.Samples, smp)
	}
	prof, err := heapview.FromHeapProfile(hp)
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range []heapview.Mode{heapview.ModeArea, heapview.ModeNormalised, heapview.ModeLines} {
		b.Run(m.String(), func(b *testing.B) {
			v := New(nil)
			v.SetHeap(nil, prof)
			v.SetBandMode(m)
			v.SetSize(1920, 1080, 1)
			v.FitTracks()
			v.Render()
			var times []time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				v.Render()
				times = append(times, time.Since(start))
			}
			sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/frame-median")
		})
	}
}
