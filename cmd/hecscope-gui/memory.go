package main

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// memoryFloor is the Go heap the app lets grow freely: below it the garbage
// collector keeps its default pace (the heap may reach twice what is
// live). The window alone holds ~30 MB (Fyne's fonts, mostly); a floor of
// four times that leaves a small log's app collecting rarely. Lower (64
// MiB) the collector runs so often while a 180 MB log loads that loading
// takes 1.4× as long.
const memoryFloor = 128 << 20

// limitMemory keeps a soft limit on the Go heap of max(memoryFloor, 1.25 ×
// the live heap), raised as the models grow. Loading leaves garbage behind
// (the loader's buffers, the progress pictures' overviews), and with the
// default pace the peak is twice the live heap: on a 180 MB log the limit
// takes the app's peak resident set from ~310 MB to ~265 MB, on a 1.1 GB
// log with 650 k threads from ~750 MB to ~550 MB. Because the limit follows
// the live heap, a log whose models need more than the floor never makes
// the collector run without pause.
func limitMemory() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	limit := int64(memoryFloor)
	debug.SetMemoryLimit(limit)
	for range time.Tick(250 * time.Millisecond) {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		want := max(int64(memoryFloor), int64(sample[0].Value.Uint64())*5/4)
		if want != limit {
			limit = want
			debug.SetMemoryLimit(limit)
		}
	}
}
