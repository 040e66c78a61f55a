// Package timeline holds what hecscope draws on its time lines: the shared
// time axis, a model of the run built in one pass over the decoded events,
// level-of-detail queries over it, the shared time scale of two runs
// compared (Viewport), and the run's summary statistics (Summarizer,
// SummarizeRange). It draws nothing: package tracks draws every picture of
// the tracks, with paint's palette and fonts.
//
// # Time axis
//
// Axis maps ns to device pixels and back, picks 1-2-5 tick steps and writes
// tick labels in the unit that suits the zoom ("1.5s", "250ms", "12.4µs").
// Every view that shows time (the heap charts too) uses it, so views line up.
// ParseTime reads "1.5s", "250ms", "800us" or raw ns.
//
// # Model
//
// A Builder takes events in file order (Add) and a Snapshot gives an
// immutable *Model. Each HEC and each thread has a Track: a sequence of
// 16-byte, pointer-free Marks, each a change of State (HEC: idle, running
// thread T, GC sync/work/idle/done; thread: runnable, running on HEC h,
// blocked and why, finished). The stop status that ended a run is on the mark
// that ends it. HEC tracks, instant events (thread creation, migration,
// wakeups, GC requests, messages, markers), spark events and SparkCounters
// samples are kept in fixed-size chunks, so growth never copies them and the
// garbage collector sees a handful of pointers per million events; spark
// times take 4 bytes each (32-bit offsets from a per-chunk base). Strings
// (labels, messages) are interned in one table and referred to by index.
// Thread ids index a slice when they are dense, as GHC's are.
//
// File order is not time order: a thread's events come from the blocks of
// several HECs. Thread marks are inserted at their place in time; a wakeup
// logged while the thread runs, or after it finished, is dropped whichever
// arrives first. Per HEC, file order is time order except GC_END, which GHC
// back-dates; a mark stamped before its predecessor is moved up to it.
//
// User messages "START x" / "STOP x" (the ghc-events-analyze convention; a
// leading number, "START 3 x", is an instance id) become UserSpans, each
// with the HEC and the thread that began it, summed per label in
// LabelStats (count, total, min, max, mean). They pair per thread and
// nest, as package spans pairs them: a STOP closes its thread's latest
// START of its label, or, if its thread has none open (a span handed
// over), the latest on any thread.
//
// # Level of detail
//
// A query for [t0, t1] at W pixels (Track.Columns) returns, per pixel column,
// the time spent in each state, the dominant state and its share, and how
// many marks fall in it; InstantColumns and SparkColumns count instant and
// spark events per column. The cost grows with W and the logarithm of the
// number of marks, not with the marks in view.
//
// How: every 32nd mark of a track carries the cumulative time per state up
// to it (a checkpoint), so the time per state up to any instant is one
// binary search, one checkpoint and at most 32 marks away; a column is the
// difference of two such sums. Column boundaries are found by galloping
// forward from the previous one, columns without marks are filled without
// any search, and short steps walk the marks in between.
//
// Why this and not the alternatives, which were studied first:
// ThreadScope's duration trees (a binary tree over the spans, each node
// summarising its subtree, descended until a node fits in a pixel) give the
// same O(W log n) bound but need a node per span with per-state totals and
// must be rebuilt or rebalanced as the log grows, which fights the
// append-only, shareable storage that live snapshots rely on. The merging of
// sub-pixel spans that gotraceui and Tracy do (draw runs of spans narrower
// than a pixel as one block) keeps the picture honest and cheap when spans
// are found by search, but yields "something happened here", not how long
// each state lasted, which the HEC rows and the activity graph need.
// Checkpointed prefix sums are append-only (a snapshot shares them), exact to
// the ns, and cost 2 bytes per mark. Measured on a 124 MB log (16.7 M
// events; 2 HECs plus 64 thread rows at 1920 columns, medians of 5):
// 5.6 ms for the whole run against 12.8 ms for visiting every mark, and
// 0.71 ms for a 1 ms window.
//
// # Incremental growth
//
// The builder only ever appends to storage a snapshot can see, or copies it
// first (the marks of a thread that receive an out-of-order insertion after a
// snapshot). So one goroutine can add events and publish snapshots (as
// eventlog's follow does, through an atomic pointer) while others read the
// snapshots published without locks.
package timeline
