package main

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// memoryFloor is the Go heap the app lets grow freely: below it the garbage
// collector keeps its default pace (the heap may reach twice what is
// live). The window alone holds ~30 MB (Fyne's fonts, mostly); a floor of
// three times that leaves a small log's app collecting rarely. On a 165 MB
// log, 96 MiB rather than 128 MiB takes the peak of the app's own memory
// from ~159 MB to ~142 MB for 20 collections instead of 12 (GC 6 % of the
// load's CPU instead of 2 %); lower (64 MiB) the collector runs so often
// that loading takes 1.4× as long.
const memoryFloor = 96 << 20

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
