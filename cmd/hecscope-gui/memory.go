package main

import (
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/hecscope/hecscope/eventlog"
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

// loadingShare is the part of the size of the logs being loaded
// (eventlog.Loading) that the Go heap may use before the collector is made
// to run early: a log's models hold 0.2–0.35× its size once loaded (0.34×
// for a 165 MB log of 103 k threads, 0.20× for a 1.24 GB one), so while it
// loads, collecting to keep the heap under that only repeats work. On the
// 1.24 GB log, with the heap's limit at 0.3× the file from the start of the
// load rather than 1.25× what is live (which starts small), loading took
// 5.3 s instead of 6.5 s and 8.0 s of CPU instead of 11 (medians of six
// alternating runs), for the same peak resident set (525–563 MB against
// 534–557 MB). For a log under ~335 MB the floor is higher anyway.
const loadingShare = 0.3

// limitMemory keeps a soft limit on the Go heap of max(memoryFloor, 1.25 ×
// the live heap plus what the runtime holds besides the heap's objects and
// its free pages, loadingShare × the logs being loaded), raised as the
// models grow. Loading leaves garbage behind
// (the loader's buffers, the progress pictures' overviews), and with the
// default pace the peak is twice the live heap: on a 180 MB log the limit
// takes the app's peak resident set from ~310 MB to ~265 MB, on a 1.1 GB
// log with 650 k threads from ~750 MB to ~550 MB. Because the limit follows
// the live heap, a log whose models need more than the floor never makes
// the collector run without pause. What the runtime holds besides (its
// spans' unused parts, stacks, metadata: ~55 MB with a 175 MB live heap)
// counts against the limit too: without it, 1.25× the live heap left the
// heap no room (user1g.eventlog, 14 M user spans: a collection every
// 20–50 ms while zooming, --bench-zoom p50 40–78 ms instead of 16).
func limitMemory() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"}, {Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"}}
	limit := int64(memoryFloor)
	debug.SetMemoryLimit(limit)
	for range time.Tick(250 * time.Millisecond) {
		metrics.Read(sample)
		for i := range sample {
			if sample[i].Value.Kind() != metrics.KindUint64 {
				return
			}
		}
		u := func(i int) int64 { return int64(sample[i].Value.Uint64()) }
		besides := max(u(1)-u(2)-u(3)-u(4), 0)
		want := max(int64(memoryFloor), u(0)*5/4+besides, int64(loadingShare*float64(eventlog.Loading())))
		if want != limit {
			limit = want
			debug.SetMemoryLimit(limit)
		}
	}
}
