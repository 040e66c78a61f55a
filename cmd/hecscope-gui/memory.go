package main

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// memoryFloor is the Go heap the app lets grow freely: below it the garbage
// collector keeps its default pace (the heap may reach twice what is live).
const memoryFloor = 384 << 20

// limitMemory keeps a soft limit on the Go heap of max(memoryFloor, 1.25 ×
// the live heap), raised as the models grow. Loading leaves garbage behind
// (each progress picture is a new overview; the loader's per-thread state
// lives until the final one is made), and with the default pace the peak is
// twice the live heap: on a 1.1 GB log with 650 k threads the limit takes
// the peak resident set from ~750 MB to ~575 MB at no measurable cost in
// load time. Because the limit follows the live heap, a log whose models
// need more than the floor never makes the collector run without pause.
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
