// Package spans measures the labelled stretches of a run: user spans — a
// thread's "START x" and "STOP x" user messages (Debug.Trace.traceEventIO,
// the ghc-events-analyze convention; "START 3 x" names instance 3), paired
// per thread and nested — and labelled threads (GHC.Conc.labelThread), each
// from its creation to its end. For every label it gives the count, total,
// mean, median, 90th and 99th percentiles and maximum of the durations, for
// the whole run or the instances that start in a range of time, with a
// duration histogram and the longest instances.
//
// A Collector takes the events in time order (File and Read stream them
// from an eventlog in bounded memory). Durations are kept exactly up to a
// budget (a few million over all labels); past it every label's durations
// are counted in logarithmic buckets instead, and percentiles are then
// within half a percent (Report.Exact says which).
package spans

import (
	"cmp"
	"container/heap"
	"slices"
)

// Kind says what a label names.
type Kind uint8

const (
	// User is a user span label: the x of "START x" / "STOP x".
	User Kind = iota
	// Thread is a thread label: an instance is a thread carrying it, from
	// its creation until it finishes.
	Thread
)

// String returns "user" or "thread".
func (k Kind) String() string {
	if k == Thread {
		return "thread"
	}
	return "user"
}

// Instance is one span of a label.
type Instance struct {
	// Start and End are the span's bounds in ns since the RTS started.
	Start, End uint64
	// Thread is the thread that ran it (0 if unknown), Cap the capability
	// of its start (-1 if none).
	Thread uint32
	Cap    int32
	// ID is the instance number of "START n x" (0 without one).
	ID uint32
}

// Duration returns End − Start.
func (in Instance) Duration() uint64 { return in.End - in.Start }

// Label is the statistics of one label's spans.
type Label struct {
	// Name is the label and Kind what it names.
	Name string
	Kind Kind
	// Count is the number of spans, Total the sum of their durations, Min
	// and Max the shortest and longest (ns).
	Count           int
	Total, Min, Max uint64
	// Open counts spans started (in the range) and never stopped;
	// Unmatched counts STOPs without a START.
	Open, Unmatched int

	dropped  int // STARTs past maxOpen
	dist     distribution
	longest  instanceHeap
	keepLong int
}

// Mean returns the mean duration in ns (0 without spans).
func (l *Label) Mean() uint64 {
	if l.Count == 0 {
		return 0
	}
	return l.Total / uint64(l.Count)
}

// Quantile returns the q-quantile of the durations (0 < q ≤ 1; 0.5 is the
// median) by the nearest-rank method, in ns.
func (l *Label) Quantile(q float64) uint64 { return l.dist.quantile(q, l.Min, l.Max) }

// Histogram returns the durations counted in n bins from Min to Max,
// logarithmic when they span more than a factor of 20.
func (l *Label) Histogram(n int) []Bin { return l.dist.histogram(n, l.Min, l.Max) }

// Longest returns the longest instances kept (Options.Instances at most),
// longest first, ties earliest first.
func (l *Label) Longest() []Instance {
	out := slices.Clone(l.longest)
	slices.SortFunc(out, func(a, b Instance) int {
		if c := cmp.Compare(b.Duration(), a.Duration()); c != 0 {
			return c
		}
		return cmp.Compare(a.Start, b.Start)
	})
	return out
}

// Durations returns the distinct durations in ascending order, each with the
// number of spans that took it (for a sketched label, each bucket's value
// with its count). Tests on two samples (see Diff) use it.
func (l *Label) Durations() (values, counts []uint64) { return l.dist.weighted() }

// add records one span.
func (l *Label) add(in Instance) {
	d := in.Duration()
	if l.Count == 0 || d < l.Min {
		l.Min = d
	}
	l.Max = max(l.Max, d)
	l.Count++
	l.Total += d
	l.dist.add(d)
	if l.keepLong <= 0 {
		return
	}
	if len(l.longest) < l.keepLong {
		heap.Push(&l.longest, in)
	} else if d > l.longest[0].Duration() {
		l.longest[0] = in
		heap.Fix(&l.longest, 0)
	}
}

// instanceHeap is a min-heap of instances by duration (the shortest of
// the longest on top).
type instanceHeap []Instance

func (h instanceHeap) Len() int { return len(h) }
func (h instanceHeap) Less(i, j int) bool {
	if h[i].Duration() != h[j].Duration() {
		return h[i].Duration() < h[j].Duration()
	}
	return h[i].Start > h[j].Start
}
func (h instanceHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *instanceHeap) Push(x any)   { *h = append(*h, x.(Instance)) }
func (h *instanceHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
