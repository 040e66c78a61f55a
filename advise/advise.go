package advise

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/timeline"
)

// Kind is what a finding is about.
type Kind string

// The kinds of finding, in the order a report lists findings of equal
// severity. The package doc says what each looks for and when.
const (
	KindSequential Kind = "sequential"  // one HEC works while the others idle with nothing to run
	KindImbalance  Kind = "imbalance"   // HECs share the parallel work unevenly
	KindBlocking   Kind = "blocking"    // threads wait most of their lives while HECs idle
	KindSparks     Kind = "sparks"      // sparks that did not run in parallel
	KindGC         Kind = "gc"          // garbage collection takes a large share of the run
	KindGCPause    Kind = "gc-pause"    // single collections that stop the program long
	KindHeapGrowth Kind = "heap-growth" // live data that grows through the run
	KindThreads    Kind = "threads"     // many short-lived threads
)

// Kinds lists every kind, in report order.
var Kinds = []Kind{KindSequential, KindImbalance, KindBlocking, KindSparks, KindGC, KindGCPause, KindHeapGrowth, KindThreads}

// Severity says how much a finding matters.
type Severity uint8

// Severities, from least to most.
const (
	// Info is a figure worth knowing that costs the run little.
	Info Severity = iota
	// Warning is a cost worth fixing: a tenth of the run or so.
	Warning
	// Problem is a cost that dominates the run: a quarter or more.
	Problem
)

var severityNames = [...]string{"info", "warning", "problem"}

// String returns "info", "warning" or "problem".
func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return "invalid"
}

// MarshalText writes the severity's name (for JSON).
func (s Severity) MarshalText() ([]byte, error) {
	if int(s) >= len(severityNames) {
		return nil, fmt.Errorf("severity %d: no such severity", s)
	}
	return []byte(s.String()), nil
}

// Finding is one answer to "why is my program slow?": what, how much it
// matters, when, the figures from the log that show it, and what to try.
type Finding struct {
	Kind     Kind
	Severity Severity
	// From and To are the time range the finding is about, in ns since
	// the RTS started (the whole range analysed for a finding about the
	// run as a whole).
	From, To uint64
	// Title says it in one line.
	Title string
	// Evidence are the figures, one statement each.
	Evidence []string
	// Suggestion is what to try: an RTS flag or a change to the code.
	Suggestion string
	// Tracks are the timeline's tracks that show the evidence.
	Tracks Tracks
}

// MaxThreads is the most threads a finding's Tracks name.
const MaxThreads = 100

// Tracks names what of the timeline shows a finding: the HECs and the
// threads it is about, and whether the GC pauses, the heap or the HECs'
// sparks show it too.
type Tracks struct {
	// Caps are the HECs, by capability number, in ascending order.
	Caps []int32
	// Threads are thread ids, those that matter most first (at most
	// MaxThreads of them).
	Threads []uint32
	// GC: the GC pauses show it; Heap: the heap's size and live data;
	// Sparks: the spark counters of the HECs in Caps.
	GC, Heap, Sparks bool
}

// Input is what Analyze reads: the models of one loaded eventlog.
type Input struct {
	// Model is the timeline (HEC and thread tracks); required.
	Model *timeline.Model
	// Summary is the run's statistics, or for a range those of the range
	// (timeline.SummarizeRange); nil if there are none.
	Summary *timeline.Summary
	// Heap is the heap counters and collections; nil if there are none.
	Heap *heapview.Heap
	// From and To bound the range analysed; To = 0 means through the end
	// of the run, and a range is clipped to the run.
	From, To uint64
}

// Analyze looks through a run (or a range of it) for what made it slow and
// returns the findings, most severe first. A run with nothing to say gets
// none. Its cost grows with the number of thread state changes in the
// model, and with the number of HECs times a fixed number of windows.
func Analyze(in Input) []Finding {
	r := newRun(in)
	if r == nil {
		return nil
	}
	var out []Finding
	seq := r.sequential()
	out = append(out, seq...)
	out = append(out, r.imbalance()...)
	out = append(out, r.blocking()...)
	out = append(out, r.sparks()...)
	out = append(out, r.gc()...)
	out = append(out, r.gcPauses()...)
	out = append(out, r.heapGrowth()...)
	out = append(out, r.threads()...)
	slices.SortStableFunc(out, func(a, b Finding) int {
		if c := cmp.Compare(b.Severity, a.Severity); c != 0 {
			return c
		}
		if c := cmp.Compare(slices.Index(Kinds, a.Kind), slices.Index(Kinds, b.Kind)); c != 0 {
			return c
		}
		return cmp.Compare(a.From, b.From)
	})
	return out
}
