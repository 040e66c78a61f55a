package timeline

import (
	"time"

	"github.com/hecscope/hecscope/ingest"
)

// Summary is the statistics of a whole run, or of a time range of it, as
// ThreadScope's "Time", "Heap", "GC", "Spark stats" and "Process info" tabs
// define them, plus a few figures ThreadScope does not show (event counts,
// threads created, decode status).
//
// Times are in nanoseconds. Where a figure is ThreadScope's, it is computed
// the way ThreadScope computes it, including ThreadScope's rounding of every
// event timestamp up to a whole microsecond; such figures are therefore
// multiples of 1000 ns. The doc comment of each field says which.
type Summary struct {
	// Status is how decoding ended (complete, truncated or corrupt).
	Status ingest.Status

	// Program is the program name: the first string of the first
	// ProgramArgs event; "" if the log has none.
	Program string
	// Args are the program's arguments (the ProgramArgs strings after the
	// name), RTS options included.
	Args []string
	// Env is the program's environment ("VAR=value" strings of the
	// ProgramEnv event) in the order logged; nil if the log has none.
	Env []string
	// RTS is the RTS identifier, such as "GHC-9.0.2 rts_thr_l".
	RTS string
	// StartWall is the wall-clock time the RTS started: the WallClockTime
	// event's clock minus its timestamp; the zero Time if the log has none.
	StartWall time.Time

	// FirstNS and LastNS are the smallest and largest event timestamps, exact
	// (block markers included, as ThreadScope includes them).
	FirstNS, LastNS uint64
	// TotalNS is ThreadScope's "Total time": from the RTS start (time 0) to
	// the last event, whose timestamp is rounded up to a microsecond.
	TotalNS uint64
	// MutatorNS is ThreadScope's "Mutator time": TotalNS − GC.ElapsedNS.
	MutatorNS uint64
	// Productivity is ThreadScope's productivity, MutatorNS / TotalNS, as a
	// fraction in [0, 1]; 0 when TotalNS is 0.
	Productivity float64

	// Capabilities is the number of capabilities (HECs): the largest of the
	// Startup event's count, one more than the highest capability that
	// created (CapCreate), and one more than the highest capability any
	// event belongs to (ThreadScope's HEC count).
	Capabilities int
	// Events counts the decoded events, block markers excluded.
	Events uint64
	// Types counts events per event type declared in the header, block
	// markers excluded, in header order; types with no events are left out.
	// The counts sum to Events.
	Types []TypeCount
	// Threads counts the threads created (CreateThread events).
	Threads uint64

	// HasHeap reports whether the log has heap information, by ThreadScope's
	// rule: a HeapSize event with a non-zero size. Without it ThreadScope
	// shows mutator time, GC time, productivity and the Heap and GC tabs as
	// unavailable.
	HasHeap bool
	// Heap is the "Heap" tab.
	Heap HeapSummary
	// GC is the "GC" tab plus the "GC time" of the "Time" tab.
	GC GCSummary
	// Sparks is the "Spark stats" tab.
	Sparks SparkSummary
}

// TypeCount is how many events of one declared event type a log holds.
type TypeCount struct {
	// ID is the event type id.
	ID uint16
	// Desc is the description the header gives for the type.
	Desc string
	// Kind is what hecscope decodes the type as (KindUnknown if it cannot).
	Kind ingest.Kind
	// Count is the number of events of the type.
	Count uint64
}

// HeapSummary is ThreadScope's "Heap" tab.
type HeapSummary struct {
	// MaxSize is the largest HeapSize value (bytes).
	MaxSize uint64
	// MaxLive is ThreadScope's "Max heap residency": the largest HeapLive
	// value (bytes).
	MaxLive uint64
	// Allocated is the total allocation: for each capability, its last
	// HeapAllocated counter (which counts from 0 at the start of the run),
	// summed over capabilities (bytes).
	Allocated uint64
	// AllocRate is Allocated divided by the mutator time in seconds,
	// truncated (bytes per second); 0 when either is 0.
	AllocRate uint64
	// MaxSlop is the largest slop of any GCStatsGHC event (bytes).
	MaxSlop uint64
	// Copied is the sum of the bytes copied of all GCStatsGHC events.
	Copied uint64
}

// GCSummary is ThreadScope's "GC" tab.
type GCSummary struct {
	// Total is the "GC Total" row; its ElapsedNS is the "GC time".
	Total GenStats
	// Gens are the rows for generations 0..n (at least 0 and 1).
	Gens []GenStats
	// ParThreads is the largest number of parallel GC threads of any
	// GCStatsGHC event; 1 if there is none.
	ParThreads int
	// ParMaxCopied and ParTotalCopied sum the "max par copied" and "total par
	// copied" bytes of the GCStatsGHC events, except the first one (which
	// ThreadScope leaves out).
	ParMaxCopied, ParTotalCopied uint64
	// WorkBalance is ThreadScope's parallel GC work balance in percent
	// (0 = serial, 100 = perfect): 100 × (ParTotalCopied/ParMaxCopied − 1)
	// / (ParThreads − 1). HasWorkBalance is false (ThreadScope: "N/A") when
	// ParThreads ≤ 1 or ParMaxCopied is 0.
	WorkBalance    float64
	HasWorkBalance bool
}

// GenStats is one row of ThreadScope's GC table: one generation, or all.
type GenStats struct {
	// Gen is the generation, or -1 for the total.
	Gen int
	// Collections and ParCollections count the collections (of this
	// generation) and those of them done by more than one GC thread.
	Collections, ParCollections int
	// ElapsedNS and MaxPauseNS are the sum and the maximum of the
	// collections' pauses, each measured on the collection's main capability.
	ElapsedNS, MaxPauseNS uint64
}

// SparkCounts are the spark figures of ThreadScope's "Spark stats" tab.
type SparkCounts struct {
	// Total is every spark the program tried to create: created (entered the
	// spark pool) + dud + overflowed. It is ThreadScope's "Total" column.
	Total uint64
	// Created counts the sparks that entered a spark pool.
	Created uint64
	// Converted, Overflowed, Dud, GCd and Fizzled count the sparks with each
	// outcome.
	Converted, Overflowed, Dud, GCd, Fizzled uint64
}

// CapSparks are the spark counts of one capability.
type CapSparks struct {
	// Cap is the capability.
	Cap int
	SparkCounts
}

// SparkSummary is ThreadScope's "Spark stats" tab: for each capability with
// SparkCounters events, the difference between its last and first counters
// (the first is all zeros in a whole run), and their sum.
type SparkSummary struct {
	// Total sums PerCap.
	Total SparkCounts
	// PerCap are the capabilities' counts, in capability order.
	PerCap []CapSparks
}
