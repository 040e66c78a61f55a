package timeline

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hecscope/hecscope/ingest"
)

// Summary is the statistics of a whole run, or of a time range of it, as
// ThreadScope's "Time", "Heap", "GC", "Spark stats" and "Process info" tabs
// define them, plus a few figures ThreadScope does not show (event counts,
// threads created, decode status), and those of `+RTS -s` by the RTS's
// own definitions (RTSStats).
//
// Times are in nanoseconds. Where a figure is ThreadScope's, it is computed
// the way ThreadScope computes it, including ThreadScope's rounding of every
// event timestamp up to a whole microsecond; such figures are therefore
// multiples of 1000 ns. The doc comment of each field says which.
//
// The definitions are those ThreadScope uses for the whole log, which is
// what a Summarizer computes. For a selected time range [s, e] ThreadScope
// takes the events with s ≤ time ≤ e and changes four rules: the total time
// is e − s; the HeapAllocated and SparkCounters figures are each
// capability's last value minus its first one in the range (not minus 0);
// the first GCStatsGHC in the range is left out of Copied as well as of the
// par-copied sums; and a collection any capability may have begun before s
// is not counted.
type Summary struct {
	// Status is how decoding ended (complete, truncated or corrupt).
	Status ingest.Status
	// TimeFaults are the events whose timestamps lay outside their block's
	// declared range: every figure takes them at a time inside it (see
	// ingest.TimeFault), so that none stretches the run.
	TimeFaults ingest.TimeFaults
	// CapFaults are the blocks whose marker claims a capability the log
	// never created (see ingest.CapFault). Their events count where the
	// marker puts them.
	CapFaults ingest.CapFaults

	// Program is the program name: the first string of the first
	// ProgramArgs event; "" if the log has none. (ThreadScope looks for
	// ProgramArgs, ProgramEnv, RTSIdentifier and WallClockTime among the
	// first 1000 events only; GHC writes them at startup, but into the RTS's
	// global block, which may reach the file late.)
	Program string
	// Args are the program's arguments (the ProgramArgs strings after the
	// name), RTS options included.
	Args []string
	// Env is the program's environment ("VAR=value" strings of the
	// ProgramEnv event) in the order logged; nil if the log has none.
	Env []string
	// RTS is the RTS identifier, such as "GHC-9.0.2 rts_thr_l".
	RTS string
	// StartWall is the wall-clock time the RTS started: the first
	// WallClockTime event's clock minus its timestamp; the zero Time if the
	// log has none. (ThreadScope's "Start time" subtracts the timestamp in
	// microseconds as if it were nanoseconds, so it shows a time a little
	// later than this.)
	StartWall time.Time
	// InheritedFrom is set when the log does not say which program wrote
	// it (a restarted eventlog, see Inherit): Program, Args, Env, RTS,
	// StartWall and CreatedCaps are then those of the file's eventlog
	// number InheritedFrom (counted from 1); 0 when they are the log's own.
	InheritedFrom int

	// FirstNS and LastNS are the smallest and largest event timestamps,
	// exact; block markers do not count (ThreadScope does not see them).
	FirstNS, LastNS uint64
	// TotalNS is ThreadScope's "Total time": from the RTS start (time 0) to
	// the last event, whose timestamp is rounded up to a microsecond; for a
	// joined log, from the join (JoinedNS, rounded up alike).
	TotalNS uint64
	// JoinedNS is, for a log recorded from a stream that was joined while
	// the program ran (it begins with a join mark, see ingest.JoinMark),
	// the time from which its figures hold: every figure of the Summary
	// covers only the events from then on, by the rules SummarizeRange
	// applies to a selection, but that the counters of allocation and
	// sparks count from their first value after the join, and the heap
	// size from its first sample after it (the recording holds none
	// before). 0 for a log of the whole run.
	JoinedNS uint64
	// GCFrom says where the GC time of the Time figures (GCTime), and so
	// MutatorNS and Productivity, come from; GCFromNone when the log holds
	// no GC events (they are then absent, not 0).
	GCFrom GCSource
	// MutatorNS is ThreadScope's "Mutator time": TotalNS less the GC time
	// (GCTime); 0 when GCFrom is GCFromNone.
	MutatorNS uint64
	// Productivity is ThreadScope's productivity, MutatorNS / TotalNS, as a
	// fraction in [0, 1]; 0 when TotalNS is 0 or GCFrom is GCFromNone.
	Productivity float64

	// Capabilities is the number of capabilities (HECs) that occur: those
	// the Startup event counts, those created (CapCreate, CapsetAssignCap)
	// and those any event belongs to; at least 1 if there are events
	// (ThreadScope always shows HEC 0). It is not one more than the highest
	// number: a corrupt block marker's capability 4095 adds one.
	Capabilities int
	// CapNumbers are those capabilities' numbers, in increasing order
	// (0 … Capabilities−1 in a sound log).
	CapNumbers []int32
	// CreatedCaps are the capabilities the log creates (the Startup
	// event's count, CapCreate and CapsetAssignCap events), in increasing
	// order; nil if it records none.
	CreatedCaps []int32
	// Events counts the decoded events, block markers excluded.
	Events uint64
	// BlockMarkers counts the block markers, which are not among Events
	// but which ghc-events' show and hecscope's event list list as events
	// (see ListedEvents).
	BlockMarkers uint64
	// Types counts events per event type, block markers excluded, in order
	// of type id; types with no events are left out.
	// The counts sum to Events.
	Types []TypeCount
	// Threads counts the threads created (CreateThread events).
	Threads uint64

	// Range says the Summary is of a time range of the run
	// (SummarizeRange), [RangeFrom, RangeTo] in ns: every figure is of the
	// range, but for the run's description (Program, Args, Env, RTS,
	// StartWall, Capabilities, CapNumbers, CreatedCaps) and Status.
	Range              bool
	RangeFrom, RangeTo uint64
	// ThreadsRan counts, of a range, the threads that ran in it: those
	// running on a HEC at its start and those a RunThread event in it
	// started; ThreadsRanFirst are the lowest MaxThreadsListed of their
	// ids, in increasing order.
	ThreadsRan      uint64
	ThreadsRanFirst []uint32

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
	// RTSStats are the figures of `+RTS -s` by the RTS's definitions,
	// those the fields above do not give alike (bytes allocated and
	// copied, maximum residency, the collections by generation and the
	// sparks they do), and which are exact.
	RTSStats RTSStats

	// Segments are, for a file holding several eventlogs one after another
	// (a program that restarted its logging), the summary of each, in file
	// order: the Summary itself is the first one's. Nil for a file of one
	// eventlog (or a stream).
	Segments []Segment
}

// MaxThreadsListed is how many of the threads that ran in a range a Summary
// lists by id (ThreadsRanFirst).
const MaxThreadsListed = 10

// GCSource is where a Summary's GC time comes from.
type GCSource uint8

const (
	// GCFromNone: the log holds no GC events; there is no GC time.
	GCFromNone GCSource = iota
	// GCFromThreadScope: ThreadScope's count (GCSummary.Total), for a run
	// whose log has heap events, as ThreadScope shows it.
	GCFromThreadScope
	// GCFromPauses: the collections' pauses (GCSummary.Pauses), from the
	// GC start and end events: for a log without heap events (old GHCs),
	// and for every range.
	GCFromPauses
)

// String says where the GC time comes from, for a label or a JSON field:
// "threadscope", "gc_events" or "none".
func (g GCSource) String() string {
	switch g {
	case GCFromThreadScope:
		return "threadscope"
	case GCFromPauses:
		return "gc_events"
	}
	return "none"
}

// Describe says in words where the GC time comes from, for a tooltip or a
// footnote.
func (g GCSource) Describe() string {
	switch g {
	case GCFromThreadScope:
		return "ThreadScope's count: the collections led by a HEC that synchronised them, from its GC start to its GC end"
	case GCFromPauses:
		return "the GC start and end events: each collection from its GC start to its GC end on the HEC that ran it"
	}
	return "the log has no GC events"
}

// GCTime returns the GC time the Time figures use (GCFrom says whose), and
// false if there is none.
func (s *Summary) GCTime() (uint64, bool) {
	switch s.GCFrom {
	case GCFromThreadScope:
		return s.GC.Total.ElapsedNS, true
	case GCFromPauses:
		return s.GC.Pauses.ElapsedNS, true
	}
	return 0, false
}

// Collections returns the number of collections the Time figures count
// (GCFrom says whose) and their longest pause, and false if there are none
// to count.
func (s *Summary) Collections() (n int, maxPauseNS uint64, ok bool) {
	switch s.GCFrom {
	case GCFromThreadScope:
		return s.GC.Total.Collections, s.GC.Total.MaxPauseNS, true
	case GCFromPauses:
		return s.GC.Pauses.Count, s.GC.Pauses.MaxNS, true
	}
	return 0, 0, false
}

// HasAllocRate reports whether the allocation rate is known: the log
// records allocation, and the mutator time is known and not 0.
func (s *Summary) HasAllocRate() bool {
	return s.Heap.HasAllocated && s.GCFrom != GCFromNone && s.MutatorNS > 0
}

// Segment is one eventlog of a file that holds several: where it lies and
// its summary (whose Status offsets count from the file's start).
type Segment struct {
	Offset, End int64
	Summary     Summary
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

// HeapSummary is ThreadScope's "Heap" tab. A figure whose events the log
// (or the range) lacks is absent, not 0: its Has flag says so.
type HeapSummary struct {
	// HasSize, HasLive and HasAllocated say whether there are HeapSize,
	// HeapLive and HeapAllocated events to give MaxSize, MaxLive and
	// Allocated; HasStats whether there are GCStatsGHC events to give
	// MaxSlop and Copied. (HeapLive comes only after a major collection.)
	HasSize, HasLive, HasAllocated, HasStats bool
	// MaxSize is the largest HeapSize value (bytes).
	MaxSize uint64
	// MaxLive is ThreadScope's "Max heap residency": the largest HeapLive
	// value (bytes).
	MaxLive uint64
	// Allocated is the total allocation: for each capability, its last
	// HeapAllocated counter (which counts from 0 at the start of the run),
	// summed over capabilities (bytes). ThreadScope assumes the 0 start for
	// capabilities 0–999 only; for higher ones it subtracts their first
	// counter, and so does this.
	Allocated uint64
	// AllocRate is Allocated divided by the mutator time (MutatorNS) in
	// seconds, truncated (bytes per second); 0 when either is 0.
	AllocRate uint64
	// MaxSlop is the largest slop of any GCStatsGHC event (bytes).
	MaxSlop uint64
	// Copied is the sum of the bytes copied of all GCStatsGHC events.
	Copied uint64
}

// GCSummary is ThreadScope's "GC" tab, and GHC's own count of collections
// by generation.
//
// Total is ThreadScope's count. ThreadScope counts and times a collection only on the capability that
// leads it, and only when that capability's events come in the order GCStart,
// GlobalSync (or GCStatsGHC), GCEnd once sorted by microsecond. GHC ≥ 8
// writes GCEnd after the GlobalSync and GCStatsGHC of the same collection
// with an earlier timestamp, so whether a collection counts depends on
// whether its GCEnd falls in an earlier microsecond than them (not counted)
// or the same one (counted). ThreadScope therefore shows fewer collections,
// and less GC time, than the run had; RTSCollections gives GHC's own count.
type GCSummary struct {
	// Total is the "GC Total" row; its ElapsedNS is the "GC time". A
	// collection counts when its leader's GlobalSync (or, failing that, its
	// GCStatsGHC) comes between the leader's GCStart and GCEnd; it is timed
	// from that GCStart to that GCEnd, in whole microseconds.
	Total GenStats
	// RTSCollections counts the collections GHC reported (GCStatsGHC
	// events), whether ThreadScope counts them or not; 0 for logs from
	// before GHC 7.6, which lack the event.
	RTSCollections int
	// Gens are the rows for generations 0..n (at least 0 and 1) of every
	// collection GHC reported, each counted once, in the generation its
	// GCStatsGHC names, with the bytes it copied and its pause (see
	// GCRowsDefinition). Unlike ThreadScope's rows, which count only the
	// collections Total counts and lose the generation of some of them,
	// they add up to Reported.
	Gens []GenStats
	// Reported is the sum of Gens (Gen −1): RTSCollections collections,
	// with a GCStatsGHC naming a damaged generation counted here only.
	Reported GenStats
	// ParThreads is the largest number of parallel GC threads of any
	// GCStatsGHC event; 1 if there is none.
	ParThreads int
	// Pauses are the collections' pauses from the GC start and end events
	// alone: each collection's from its GC start to its GC end on the HEC
	// that ran it (that wrote its GCStatsGHC), as the GC table counts them
	// (heapview.GC.Pause); in a log without GCStatsGHC events (GHC before
	// 7.6), from the first HEC's GC start to the last one's GC end. Of a
	// range: those that overlap it, clipped to it.
	Pauses Pauses
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

// Pauses counts GC pauses.
type Pauses struct {
	// Count is the number of pauses; ElapsedNS their total length and
	// MaxNS the longest, exact to the ns.
	Count            int
	ElapsedNS, MaxNS uint64
}

// GCRowsDefinition says in words what GCSummary.Gens and Reported count,
// for the GC tables of the app and the CLI.
const GCRowsDefinition = "every collection the RTS reported, in the generation it collected; " +
	"pause = GC start to GC end on the HEC that ran it"

// GenStats is one row of a GC table: one generation, or all.
type GenStats struct {
	// Gen is the generation, or -1 for the total.
	Gen int
	// Collections and ParCollections count the collections (of this
	// generation) and those of them whose GCStatsGHC reports more than one
	// GC thread.
	Collections, ParCollections int
	// ElapsedNS and MaxPauseNS are the sum and the maximum of the
	// collections' pauses. In ThreadScope's Total each is measured on the
	// collection's leading capability (its GlobalSync) from its GCStart to
	// its GCEnd, in whole microseconds; in Gens and Reported on the
	// capability that wrote the collection's GCStatsGHC, from its GCStart
	// to its GCEnd, exact to the ns (heapview.GC.Pause, the pause the GC
	// track shows).
	ElapsedNS, MaxPauseNS uint64
	// Copied sums the bytes copied of the row's collections (in Total,
	// of every GCStatsGHC event, as ThreadScope's "Copied during GC").
	Copied uint64
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

// MeanPauseNS returns the mean pause of the row's collections (ThreadScope's
// "Avg pause"): ElapsedNS / Collections, or 0 without collections.
func (g GenStats) MeanPauseNS() uint64 {
	if g.Collections == 0 {
		return 0
	}
	return g.ElapsedNS / uint64(g.Collections)
}

// ListedEvents returns the number of events ghc-events' show and
// hecscope's event list list: Events and the block markers.
func (s *Summary) ListedEvents() uint64 { return s.Events + s.BlockMarkers }

// PerKind returns the event counts per Kind name ("RunThread", …), summing
// the types that decode as the same kind; undecodable types count as
// "Unknown".
func (s *Summary) PerKind() map[string]uint64 {
	m := make(map[string]uint64, len(s.Types))
	for _, t := range s.Types {
		m[t.Kind.String()] += t.Count
	}
	return m
}

// PerDesc returns the event counts per event type description, summing the
// types that share a description.
func (s *Summary) PerDesc() map[string]uint64 {
	m := make(map[string]uint64, len(s.Types))
	for _, t := range s.Types {
		m[t.Desc] += t.Count
	}
	return m
}

// Micros rounds a timestamp up to a whole microsecond, as ThreadScope does
// to every event when it loads a log, and returns it in microseconds.
func Micros(ns uint64) uint64 {
	return ns/1000 + min(ns%1000, 1)
}

// gcMode is where one capability stands in ThreadScope's per-capability GC
// state machine, reduced to what decides the statistics: whether the
// capability leads the collection it is in.
type gcMode uint8

const (
	gcOutside gcMode = iota // no GC begun, or the last one ended
	gcStarted               // GCStart seen
	gcSynced                // this cap's GlobalSync (or GCStatsGHC) seen while started: it leads the GC
	gcStatted               // and then its GCStatsGHC: the generation is known
)

// maxPending bounds the GC events a capability may hold back while waiting
// for its (back-dated) GCEnd; a log that exceeds it is malformed, and the
// oldest events are then processed without waiting.
const maxPending = 16

// maxGeneration is the highest GC generation the summary keeps; GHC's
// default is 1 and real programs stay far below this, so a GCStatsGHC naming
// a higher one is treated as damaged and not attributed to a generation.
const maxGeneration = 255

// gcEvent is a GlobalSync or GCStatsGHC event held back until the GCEnd of
// its collection, which GHC writes after them with an earlier timestamp.
type gcEvent struct {
	kind   ingest.Kind
	micros uint64
	gen    int
	par    int
}

// gcReport is what a GCStatsGHC says about its collection that Gens count.
type gcReport struct {
	gen int
	par int
}

// capState is what the summarizer keeps per capability.
type capState struct {
	mode    gcMode
	startUS uint64 // GCStart time of the current GC, microseconds
	pending []gcEvent

	// For Gens: whether a GC is open on the capability and since when
	// (ns), the reports of its GCStatsGHC events waiting for its GCEnd,
	// and the pause of its last GC.
	rtsOpen   bool
	rtsStart  uint64
	rtsHeld   []gcReport
	lastPause uint64
	lastStart uint64 // the start of the GC lastPause is of

	// For Pauses: whether a GC is open on the capability, and since when.
	stopOpen  bool
	stopStart uint64

	hasAlloc            bool
	allocFirst, alloc   uint64
	allocLastNS         uint64 // the time of the last HeapAllocated
	hasSparks           bool
	sparkFirst, sparkAt [6]uint64 // created, dud, overflowed, converted, fizzled, gc'd
}

// Summarizer accumulates a Summary from a stream of events in one pass. Its
// memory depends on the number of capabilities and event types, and on the
// number of collections (32 bytes each, for GCSummary.Pauses), not on the
// length of the log.
//
// ThreadScope sorts all events by timestamp rounded up to the microsecond
// (ties keep file order) before running its statistics. Only two things in
// its statistics depend on that order: each capability's own sequence of GC
// events (GHC back-dates GCEnd, writing it after the GlobalSync and
// GCStatsGHC events of the same collection) and which GCStatsGHC comes
// first. The Summarizer reproduces both without sorting the log: it holds a
// capability's GlobalSync and GCStatsGHC events back until that
// capability's GCEnd, puts the GCEnd among them by its rounded timestamp,
// and remembers the earliest GCStatsGHC. Everything else it needs is either
// order-independent (maxima, sums) or per capability, where file order is
// time order.
type Summarizer struct {
	s    Summary
	caps []*capState
	// types[id] counts events of type id; kinds[id] is what they decode as.
	types []uint64
	kinds []ingest.Kind

	maxCap    int32
	startupN  int
	eventCaps []int32 // the capabilities events belong to, in order
	created   []int32 // the capabilities created, in order
	seenEvent bool
	seenArgs  bool
	seenEnv   bool
	seenRTS   bool
	seenWall  bool

	copied   []uint64   // bytes copied per generation
	reported []GenStats // Gens: every reported collection per generation
	damaged  GenStats   // reported collections of a damaged generation

	parThreads         int
	parMax, parTot     uint64
	hasFirstStats      bool
	firstStatsUS       uint64
	firstMax, firstTot uint64

	// stops is the union of the capabilities' GC intervals so far, in
	// time order, disjoint; leads the collections' intervals on the
	// capabilities that ran them (wrote their GCStatsGHC), in any order.
	stops, leads []gcStop

	// joined is set for a log that begins with a join mark: its figures
	// cover only the events from time from on.
	joined bool
	from   uint64

	// rts accumulates what RTSStats needs beyond the figures above.
	rts rtsAcc
}

// gcStop is a time the world was stopped for GC, [start, end] in ns.
type gcStop struct{ start, end uint64 }

// pausesIn counts the intervals of stops that overlap [from, to], each
// clipped to it.
func pausesIn(stops []gcStop, from, to uint64) Pauses {
	var out Pauses
	for _, p := range stops {
		if p.end < from || p.start > to {
			continue
		}
		d := min(p.end, to) - max(p.start, from)
		out.Count++
		out.ElapsedNS += d
		out.MaxNS = max(out.MaxNS, d)
	}
	return out
}

// pausesIn counts the collections' pauses (GCSummary.Pauses) that overlap
// [from, to], clipped to it.
func (z *Summarizer) pausesIn(from, to uint64) Pauses {
	if z.s.Heap.HasStats {
		return pausesIn(z.leads, from, to)
	}
	return pausesIn(z.stops, from, to)
}

// addStop adds a capability's GC interval [start, end] to the union of
// those seen. The capabilities' blocks come in any order, but each one's
// intervals overlap the other capabilities' of the same collection, so the
// union keeps about one interval per collection.
func (z *Summarizer) addStop(start, end uint64) {
	st := z.stops
	i := sort.Search(len(st), func(i int) bool { return st[i].end >= start })
	if i == len(st) {
		z.stops = append(st, gcStop{start, end})
		return
	}
	if st[i].start > end {
		z.stops = slices.Insert(st, i, gcStop{start, end})
		return
	}
	j := i
	for j+1 < len(st) && st[j+1].start <= end {
		j++
	}
	st[i] = gcStop{min(st[i].start, start), max(st[j].end, end)}
	z.stops = slices.Delete(st, i+1, j+1)
}

// NewSummarizer returns an empty Summarizer.
func NewSummarizer() *Summarizer {
	return &Summarizer{maxCap: -1}
}

func (z *Summarizer) cap(c int32) *capState {
	for int(c) >= len(z.caps) {
		z.caps = append(z.caps, nil)
	}
	if z.caps[c] == nil {
		z.caps[c] = &capState{}
	}
	return z.caps[c]
}

// Add accumulates one event. It keeps nothing that aliases ev.
func (z *Summarizer) Add(ev *ingest.Event) {
	s := &z.s
	// Block markers are counted apart: no figure of ThreadScope's sees them.
	if ev.Kind == ingest.KindBlockMarker {
		if !z.joined || ev.Time >= z.from {
			s.BlockMarkers++
		}
		return
	}
	if at, ok := ingest.JoinMark(ev); ok {
		// A log that begins with a join mark was joined while the program
		// ran: its figures hold from then on.
		if !z.seenEvent && !z.joined {
			z.joined, z.from = true, at
		}
		return
	}
	if z.joined && ev.Time < z.from {
		// State replayed from before the join, or the start of a block
		// that began before it: it describes the run, but the figures
		// cover only the time after the join.
		z.describe(ev)
		return
	}
	if !z.seenEvent || ev.Time < s.FirstNS {
		s.FirstNS = ev.Time
	}
	if !z.seenEvent || ev.Time > s.LastNS {
		s.LastNS = ev.Time
	}
	z.seenEvent = true
	if ev.Cap > z.maxCap {
		z.maxCap = ev.Cap
	}
	if ev.Cap >= 0 {
		z.eventCaps = addCap(z.eventCaps, ev.Cap)
	}
	s.Events++
	for int(ev.Type) >= len(z.types) {
		z.types = append(z.types, 0)
		z.kinds = append(z.kinds, ingest.KindUnknown)
	}
	z.types[ev.Type]++
	z.kinds[ev.Type] = ev.Kind

	z.describe(ev)
	us := Micros(ev.Time)
	switch ev.Kind {
	case ingest.KindCreateThread:
		s.Threads++
	case ingest.KindHeapInfoGHC, ingest.KindHeapProfBegin, ingest.KindOSProcessPid,
		ingest.KindTaskCreate, ingest.KindTaskDelete:
		z.addRTS(ev)
	case ingest.KindHeapSize:
		s.Heap.HasSize = true
		s.Heap.MaxSize = max(s.Heap.MaxSize, ev.Args[1])
	case ingest.KindHeapLive:
		s.Heap.HasLive = true
		s.Heap.MaxLive = max(s.Heap.MaxLive, ev.Args[1])
	case ingest.KindHeapAllocated:
		s.Heap.HasAllocated = true
		if ev.Cap >= 0 {
			c := z.cap(ev.Cap)
			if !c.hasAlloc {
				c.hasAlloc = true
				c.allocFirst = ev.Args[1]
			}
			c.alloc = ev.Args[1]
			c.allocLastNS = ev.Time
		}
	case ingest.KindSparkCounters:
		if ev.Cap >= 0 {
			c := z.cap(ev.Cap)
			cur := sparkOrder(ev.SparkCounters())
			if !c.hasSparks {
				c.hasSparks = true
				c.sparkFirst = cur
			}
			c.sparkAt = cur
		}
	case ingest.KindGCStatsGHC:
		s.Heap.HasStats = true
		z.addGCStats(ev, us)
		z.addRTS(ev)
		r := gcReport{gen: int(min(ev.Args[1], maxGeneration+1)), par: int(min(ev.Args[5], 1<<16))}
		if ev.Cap < 0 {
			z.report(r, 0)
			break
		}
		c := z.cap(ev.Cap)
		z.hold(c, gcEvent{kind: ev.Kind, micros: us, gen: int(ev.Args[1]), par: int(ev.Args[5])})
		if c.rtsOpen {
			// GHC writes it before its (back-dated) GCEnd.
			c.rtsHeld = append(c.rtsHeld, r)
		} else {
			z.report(r, c.lastPause)
			if c.lastPause > 0 || c.lastStart > 0 {
				z.leads = append(z.leads, gcStop{c.lastStart, c.lastStart + c.lastPause})
			}
		}
	case ingest.KindGCGlobalSync:
		if ev.Cap >= 0 {
			z.hold(z.cap(ev.Cap), gcEvent{kind: ev.Kind, micros: us})
		}
	case ingest.KindGCStart:
		if ev.Cap >= 0 {
			c := z.cap(ev.Cap)
			z.flush(c)
			c.mode = gcStarted
			c.startUS = us
			for _, r := range c.rtsHeld {
				z.report(r, 0) // a GC that never ended
			}
			c.rtsOpen, c.rtsStart, c.rtsHeld = true, ev.Time, c.rtsHeld[:0]
			c.stopOpen, c.stopStart = true, ev.Time
		}
	case ingest.KindGCEnd:
		if ev.Cap >= 0 {
			c := z.cap(ev.Cap)
			z.endGC(c, us)
			if c.stopOpen {
				z.addStop(c.stopStart, max(c.stopStart, ev.Time))
				c.stopOpen = false
			}
			if c.rtsOpen {
				c.lastPause = ev.Time - min(c.rtsStart, ev.Time)
				c.lastStart = c.rtsStart
				for _, r := range c.rtsHeld {
					z.report(r, c.lastPause)
					z.leads = append(z.leads, gcStop{c.rtsStart, c.rtsStart + c.lastPause})
				}
				c.rtsOpen, c.rtsHeld = false, c.rtsHeld[:0]
			}
		}
	}
}

// describe takes what ev says about the run as a whole (the program, its
// RTS, its start, its capabilities), which holds whether or not the event
// falls in the time the figures cover.
func (z *Summarizer) describe(ev *ingest.Event) {
	s := &z.s
	z.maxCap = max(z.maxCap, ev.Cap)
	if ev.Cap >= 0 {
		z.eventCaps = addCap(z.eventCaps, ev.Cap)
	}
	switch ev.Kind {
	case ingest.KindStartup:
		z.startupN = max(z.startupN, int(ev.Args[0]))
	case ingest.KindCapCreate:
		z.created = addCap(z.created, int32(ev.Args[0]))
	case ingest.KindCapsetAssignCap:
		z.created = addCap(z.created, int32(ev.Args[1]))
	case ingest.KindProgramArgs:
		if !z.seenArgs {
			z.seenArgs = true
			if strs := ev.Strings(); len(strs) > 0 {
				s.Program, s.Args = strs[0], strs[1:]
			}
		}
	case ingest.KindProgramEnv:
		if !z.seenEnv {
			z.seenEnv = true
			s.Env = ev.Strings()
		}
	case ingest.KindRTSIdentifier:
		if !z.seenRTS {
			z.seenRTS = true
			s.RTS = ev.Text()
		}
	case ingest.KindWallClockTime:
		if !z.seenWall {
			z.seenWall = true
			wall := time.Unix(int64(ev.Args[1]), int64(ev.Args[2]))
			s.StartWall = wall.Add(-time.Duration(ev.Time)).UTC()
		}
	}
}

// SummarySelection is the events a Summarizer needs to see one by one; of
// all others it needs only their Tally (see ingest.Skim). Of the
// cumulative counters (allocation, sparks) it keeps only each capability's
// first and last.
var SummarySelection = ingest.Selection{
	Kinds: []ingest.Kind{
		ingest.KindStartup, ingest.KindCapCreate, ingest.KindCapsetAssignCap,
		ingest.KindProgramArgs, ingest.KindProgramEnv, ingest.KindRTSIdentifier, ingest.KindWallClockTime,
		ingest.KindHeapSize, ingest.KindHeapLive,
		ingest.KindGCStart, ingest.KindGCEnd, ingest.KindGCGlobalSync, ingest.KindGCStatsGHC,
		ingest.KindHeapInfoGHC, ingest.KindHeapProfBegin, ingest.KindOSProcessPid,
		ingest.KindTaskCreate, ingest.KindTaskDelete,
	},
	Ends: []ingest.Kind{ingest.KindHeapAllocated, ingest.KindSparkCounters},
}

// AddTally accumulates the events a skim only counted: with Add on each
// event the skim handed out, it has the effect of Add on every event,
// provided the counted ones are none that SummarySelection selects
// entirely, and of its Ends kinds none that is a capability's first or last.
func (z *Summarizer) AddTally(t *ingest.Tally) {
	s := &z.s
	for id, tt := range t.Types {
		if tt.Kind == ingest.KindBlockMarker {
			s.BlockMarkers += tt.Count
			continue
		}
		if tt.Count == 0 {
			continue
		}
		for id >= len(z.types) {
			z.types = append(z.types, 0)
			z.kinds = append(z.kinds, ingest.KindUnknown)
		}
		z.types[id] += tt.Count
		z.kinds[id] = tt.Kind
		if tt.Kind == ingest.KindCreateThread {
			s.Threads += tt.Count
		}
	}
	s.Events += t.Events
	if t.FirstNS > t.LastNS {
		return // no events
	}
	if !z.seenEvent || t.FirstNS < s.FirstNS {
		s.FirstNS = t.FirstNS
	}
	if !z.seenEvent || t.LastNS > s.LastNS {
		s.LastNS = t.LastNS
	}
	z.seenEvent = true
	z.maxCap = max(z.maxCap, t.MaxCap)
	for _, c := range t.Caps {
		z.eventCaps = addCap(z.eventCaps, c)
	}
}

// addCap returns caps, a set in increasing order, with c in it.
func addCap(caps []int32, c int32) []int32 {
	if n := len(caps); n > 0 && caps[n-1] == c {
		return caps
	}
	i, found := slices.BinarySearch(caps, c)
	if found {
		return caps
	}
	return slices.Insert(caps, i, c)
}

// OddCapNumbers returns the numbers of the capabilities if they are not 0
// … Capabilities−1, nil if they are.
func (s *Summary) OddCapNumbers() []int32 {
	for i, c := range s.CapNumbers {
		if int(c) != i {
			return s.CapNumbers
		}
	}
	return nil
}

// CapabilitiesText is the number of capabilities, with their numbers when
// they are not 0 … n−1: "2", "3 (numbers 0, 1, 4095)".
func (s *Summary) CapabilitiesText() string {
	nums := s.OddCapNumbers()
	if nums == nil {
		return strconv.Itoa(s.Capabilities)
	}
	const shown = 16
	var parts []string
	for i, c := range nums {
		if i == shown-1 && len(nums) > shown {
			parts = append(parts, fmt.Sprintf("… %d more", len(nums)-i))
			break
		}
		parts = append(parts, strconv.Itoa(int(c)))
	}
	return fmt.Sprintf("%d (numbers %s)", s.Capabilities, strings.Join(parts, ", "))
}

// CapsBeyond reports whether some capability that occurs is not among
// those the log created (when it records them), or lies ingest.FarCaps or
// more beyond the number that occur: blocks may then claim capabilities
// the log never had (see ingest.FindCapFaults), which SummarizeFile looks
// for.
func (s *Summary) CapsBeyond() bool {
	for _, c := range s.CapNumbers {
		if len(s.CreatedCaps) > 0 {
			if _, ok := slices.BinarySearch(s.CreatedCaps, c); !ok {
				return true
			}
		} else if int(c) >= len(s.CapNumbers)+ingest.FarCaps {
			return true
		}
	}
	return false
}

// addGCStats accumulates the order-independent parts of a GCStatsGHC event.
func (z *Summarizer) addGCStats(ev *ingest.Event, us uint64) {
	h := &z.s.Heap
	h.Copied += ev.Args[2]
	z.s.GC.RTSCollections++
	if g := ev.Args[1]; g <= maxGeneration {
		for int(g) >= len(z.copied) {
			z.copied = append(z.copied, 0)
		}
		z.copied[g] += ev.Args[2]
	}
	h.MaxSlop = max(h.MaxSlop, ev.Args[3])
	z.parThreads = max(z.parThreads, int(ev.Args[5]))
	parMax, parTot := ev.Args[6], ev.Args[7]
	z.parMax += parMax
	z.parTot += parTot
	// ThreadScope leaves out the par-copied figures of the first GCStatsGHC
	// in time order (ties: the first in the file).
	if !z.hasFirstStats || us < z.firstStatsUS {
		z.hasFirstStats = true
		z.firstStatsUS = us
		z.firstMax, z.firstTot = parMax, parTot
	}
}

// report counts a collection GHC reported, of pause pauseNS, in Gens.
func (z *Summarizer) report(r gcReport, pauseNS uint64) {
	addReport(&z.reported, &z.damaged, r, pauseNS)
}

// addReport counts a collection of pause pauseNS in its generation's row of
// gens (grown as needed), or in damaged if its generation is out of range.
func addReport(gens *[]GenStats, damaged *GenStats, r gcReport, pauseNS uint64) {
	g := damaged
	if r.gen >= 0 && r.gen <= maxGeneration {
		for r.gen >= len(*gens) {
			*gens = append(*gens, GenStats{Gen: len(*gens)})
		}
		g = &(*gens)[r.gen]
	}
	g.Collections++
	if r.par > 1 {
		g.ParCollections++
	}
	g.ElapsedNS += pauseNS
	g.MaxPauseNS = max(g.MaxPauseNS, pauseNS)
}

// hold queues a GlobalSync or GCStatsGHC event until its capability's GCEnd.
func (z *Summarizer) hold(c *capState, e gcEvent) {
	if len(c.pending) == maxPending {
		z.apply(c, c.pending[0])
		c.pending = append(c.pending[:0], c.pending[1:]...)
	}
	c.pending = append(c.pending, e)
}

// flush processes all held events of a capability, in order.
func (z *Summarizer) flush(c *capState) {
	for _, e := range c.pending {
		z.apply(c, e)
	}
	c.pending = c.pending[:0]
}

// endGC processes a GCEnd at time us (microseconds) where ThreadScope's
// stable sort puts it: after the held events not later than it, before the
// others.
func (z *Summarizer) endGC(c *capState, us uint64) {
	i := 0
	for i < len(c.pending) && c.pending[i].micros <= us {
		z.apply(c, c.pending[i])
		i++
	}
	switch c.mode {
	case gcSynced, gcStatted:
		// The capability led this GC: its pause is the GC's pause.
		d := us - min(c.startUS, us)
		z.addPause(&z.s.GC.Total, d)
	}
	c.mode = gcOutside
	for _, e := range c.pending[i:] {
		z.apply(c, e)
	}
	c.pending = c.pending[:0]
}

func (z *Summarizer) addPause(g *GenStats, us uint64) {
	g.ElapsedNS += us * 1000
	g.MaxPauseNS = max(g.MaxPauseNS, us*1000)
}

// apply runs a GlobalSync or GCStatsGHC event through the capability's
// state, counting the collections it leads.
func (z *Summarizer) apply(c *capState, e gcEvent) {
	switch {
	case c.mode == gcStarted:
		// GlobalSync, or a GCStatsGHC that came before it (ThreadScope's
		// workaround for coarse timestamps): this capability leads the GC.
		c.mode = gcSynced
		z.s.GC.Total.Collections++
	case c.mode == gcSynced && e.kind == ingest.KindGCStatsGHC:
		if e.gen < 0 || e.gen > maxGeneration {
			return
		}
		c.mode = gcStatted
		if e.par > 1 {
			z.s.GC.Total.ParCollections++
		}
	}
}

// Summary returns the statistics of the events added so far. h is the log's
// header (for the event type descriptions; nil if it was never read) and st
// how decoding ended. The Summarizer can keep accumulating afterwards.
func (z *Summarizer) Summary(h *ingest.Header, st ingest.Status) Summary {
	s := z.s
	s.Status = st
	s.Args = append([]string(nil), s.Args...)
	s.Env = append([]string(nil), s.Env...)
	if len(s.Env) == 0 {
		s.Env = nil
	}

	s.CreatedCaps = slices.Clone(z.created)
	for c := range min(z.startupN, 1<<16) {
		s.CreatedCaps = addCap(s.CreatedCaps, int32(c))
	}
	s.CapNumbers = slices.Clone(s.CreatedCaps)
	for _, c := range z.eventCaps {
		s.CapNumbers = addCap(s.CapNumbers, c)
	}
	if z.seenEvent && len(s.CapNumbers) == 0 {
		s.CapNumbers = []int32{0} // ThreadScope always shows HEC 0
	}
	s.Capabilities = len(s.CapNumbers)
	s.Types = nil
	for id, n := range z.types {
		if n == 0 {
			continue
		}
		t := TypeCount{ID: uint16(id), Count: n, Kind: z.kinds[id]}
		if h != nil {
			if et, ok := h.Lookup(uint16(id)); ok {
				t.Desc = et.Desc
			}
		}
		s.Types = append(s.Types, t)
	}

	// GC: held events of GCs that never ended still count as ThreadScope
	// would count them.
	gcTotal := s.GC.Total
	gens := append([]GenStats(nil), z.reported...)
	damaged := z.damaged
	for _, c := range z.caps {
		if c == nil {
			continue
		}
		mode := c.mode
		for _, e := range c.pending {
			switch {
			case mode == gcStarted:
				mode = gcSynced
				gcTotal.Collections++
			case mode == gcSynced && e.kind == ingest.KindGCStatsGHC && e.gen >= 0 && e.gen <= maxGeneration:
				mode = gcStatted
				if e.par > 1 {
					gcTotal.ParCollections++
				}
			}
		}
		for _, r := range c.rtsHeld {
			addReport(&gens, &damaged, r, 0) // a GC that has not ended (yet)
		}
	}
	// Generations 0 to the highest of 1 and those copied in.
	for len(gens) < max(2, len(z.copied)) {
		gens = append(gens, GenStats{Gen: len(gens)})
	}
	for g, c := range z.copied {
		gens[g].Copied = c
	}
	reported := damaged
	reported.Gen, reported.Copied = -1, s.Heap.Copied
	for _, g := range gens {
		reported.Collections += g.Collections
		reported.ParCollections += g.ParCollections
		reported.ElapsedNS += g.ElapsedNS
		reported.MaxPauseNS = max(reported.MaxPauseNS, g.MaxPauseNS)
	}
	gcTotal.Gen = -1
	gcTotal.Copied = s.Heap.Copied
	s.GC.Total = gcTotal
	s.GC.Gens = gens
	s.GC.Reported = reported
	s.GC.ParThreads = max(z.parThreads, 1)
	if z.hasFirstStats {
		s.GC.ParMaxCopied = z.parMax - z.firstMax
		s.GC.ParTotalCopied = z.parTot - z.firstTot
	}
	if s.GC.ParThreads > 1 && s.GC.ParMaxCopied > 0 {
		s.GC.HasWorkBalance = true
		s.GC.WorkBalance = 100 * (float64(s.GC.ParTotalCopied)/float64(s.GC.ParMaxCopied) - 1) / float64(s.GC.ParThreads-1)
	}

	// A joined log: the rules for a selected range (see SummarizeRange)
	// from the join on.
	if z.joined {
		s.JoinedNS = z.from
	}

	// Time.
	if z.seenEvent {
		s.TotalNS = Micros(s.LastNS) * 1000
		if z.joined {
			s.TotalNS = (Micros(s.LastNS) - min(Micros(z.from), Micros(s.LastNS))) * 1000
		}
	}
	s.GC.Pauses = z.pausesIn(0, math.MaxUint64)
	// ThreadScope's figures where it shows them (a log with heap
	// information); else the GC events', which every GHC writes.
	s.HasHeap = s.Heap.MaxSize != 0
	switch {
	case z.joined:
		// A range of a run whose GHC writes GC events: none in it is a GC
		// time of 0.
		s.GCFrom = GCFromPauses
	case s.HasHeap:
		s.GCFrom = GCFromThreadScope
	case s.GC.Pauses.Count > 0:
		s.GCFrom = GCFromPauses
	}
	s.setMutator()

	// Heap.
	s.Heap.Allocated = 0
	s.Sparks = SparkSummary{}
	for i, c := range z.caps {
		if c == nil {
			continue
		}
		if c.hasAlloc {
			// ThreadScope starts the counters of capabilities 0–999 at 0;
			// a joined log starts them where they stood at the join.
			first := uint64(0)
			if i >= 1000 || z.joined {
				first = c.allocFirst
			}
			s.Heap.Allocated += c.alloc - min(first, c.alloc)
		}
		if c.hasSparks {
			var d [6]uint64
			for k := range d {
				d[k] = c.sparkAt[k] - min(c.sparkFirst[k], c.sparkAt[k])
			}
			s.Sparks.addCap(i, d)
		}
	}
	s.setAllocRate()
	s.RTSStats = z.rtsStats(&s)
	return s
}

// sparkOrder puts a SparkCounters event's counts in the order addCap takes.
func sparkOrder(c ingest.SparkCounts) [6]uint64 {
	return [6]uint64{c.Created, c.Dud, c.Overflowed, c.Converted, c.Fizzled, c.GCd}
}

// addCap adds capability c's spark counts, in the SparkCounters field order
// (created, dud, overflowed, converted, fizzled, GC'd), to the per-capability
// rows and the total.
func (s *SparkSummary) addCap(c int, d [6]uint64) {
	sc := SparkCounts{
		Created: d[0], Dud: d[1], Overflowed: d[2],
		Converted: d[3], Fizzled: d[4], GCd: d[5],
		Total: d[0] + d[1] + d[2],
	}
	s.PerCap = append(s.PerCap, CapSparks{Cap: c, SparkCounts: sc})
	t := &s.Total
	t.Total += sc.Total
	t.Created += sc.Created
	t.Converted += sc.Converted
	t.Overflowed += sc.Overflowed
	t.Dud += sc.Dud
	t.GCd += sc.GCd
	t.Fizzled += sc.Fizzled
}

// setMutator derives the mutator time and productivity from TotalNS and the
// GC time GCFrom names; both are 0 (absent) without one.
func (s *Summary) setMutator() {
	s.MutatorNS, s.Productivity = 0, 0
	gc, ok := s.GCTime()
	if !ok {
		return
	}
	s.MutatorNS = s.TotalNS - min(gc, s.TotalNS)
	if s.TotalNS > 0 {
		s.Productivity = float64(s.MutatorNS) / float64(s.TotalNS)
	}
}

// setAllocRate derives the allocation rate, per second of mutator time
// counted in whole microseconds as ThreadScope does; 0 if it is not known
// (HasAllocRate).
func (s *Summary) setAllocRate() {
	s.Heap.AllocRate = 0
	if s.HasAllocRate() && s.MutatorNS >= 1000 && s.Heap.Allocated > 0 {
		s.Heap.AllocRate = uint64(float64(s.Heap.Allocated) / (float64(s.MutatorNS/1000) / 1e6))
	}
}

// SummarizeFile returns the Summary of the eventlog file at path. A regular
// file is skimmed (see ingest.SkimFile): only the events the statistics
// need are decoded, on all cores; anything else (a FIFO, a device) is read
// as a stream. The error is non-nil only if the file could not be read.
func SummarizeFile(path string) (Summary, error) {
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && !beginsJoined(path) {
		z := NewSummarizer()
		r, err := ingest.SkimFile(path, SummarySelection, z.Add)
		if err != nil {
			return Summary{}, fmt.Errorf("summarising eventlog: %w", err)
		}
		z.AddTally(&r.Tally)
		s := z.Summary(r.Header, r.Status)
		s.TimeFaults = r.TimeFaults
		if s.CapsBeyond() {
			if err := s.findCapFaultsFile(path); err != nil {
				return s, err
			}
		}
		if st := s.Status; st.State == ingest.StateComplete && st.Trailing >= 8 {
			// Bytes after the end marker: perhaps more eventlogs.
			segs, err := summarizeSegments(path)
			if err != nil {
				return s, err
			}
			if len(segs) > 1 {
				s.Segments = segs
			}
		}
		return s, notEmpty(s.Status)
	}
	f, err := os.Open(path)
	if err != nil {
		return Summary{}, fmt.Errorf("summarising eventlog: %w", err)
	}
	defer f.Close()
	return Summarize(f)
}

// SummarizeAt returns the Summary of the eventlog held in r, size bytes
// from its start: one segment of a file holding several (an
// io.SectionReader over it, see ingest.FindSegments), skimmed as
// SummarizeFile skims a file. Byte offsets in it (Status, TimeFaults)
// count from r's start. It does not look past the end marker for more
// eventlogs. The error is non-nil only if r could not be read.
func SummarizeAt(r io.ReaderAt, size int64) (Summary, error) {
	if readerBeginsJoined(io.NewSectionReader(r, 0, size)) {
		return Summarize(io.NewSectionReader(r, 0, size))
	}
	z := NewSummarizer()
	res, err := ingest.SkimAt(r, size, SummarySelection, z.Add)
	if err != nil {
		return Summary{}, fmt.Errorf("summarising eventlog: %w", err)
	}
	z.AddTally(&res.Tally)
	s := z.Summary(res.Header, res.Status)
	s.TimeFaults = res.TimeFaults
	if s.CapsBeyond() {
		ix, err := ingest.NewIndex(r, size)
		if err != nil {
			return s, fmt.Errorf("summarising eventlog: %w", err)
		}
		s.CapFaults = ingest.FindCapFaults(r, ix, s.CreatedCaps)
	}
	return s, notEmpty(s.Status)
}

// findCapFaultsFile sets s.CapFaults to the blocks of the eventlog file at
// path that claim capabilities the log never created.
func (s *Summary) findCapFaultsFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("summarising eventlog: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("summarising eventlog: %w", err)
	}
	ix, err := ingest.NewIndex(f, st.Size())
	if err != nil {
		return fmt.Errorf("summarising eventlog %s: %w", path, err)
	}
	s.CapFaults = ingest.FindCapFaults(f, ix, s.CreatedCaps)
	return nil
}

// readerBeginsJoined is beginsJoined for the log read from src.
func readerBeginsJoined(src io.Reader) bool {
	d := ingest.NewReader(src)
	var ev ingest.Event
	for d.Next(&ev) {
		if ev.Kind != ingest.KindBlockMarker {
			_, ok := ingest.JoinMark(&ev)
			return ok
		}
	}
	return false
}

// summarizeSegments returns the summary of each eventlog of the file at
// path (see ingest.FindSegments).
func summarizeSegments(path string) ([]Segment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("summarising eventlog segments: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("summarising eventlog segments: %w", err)
	}
	found, err := ingest.FindSegments(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("summarising eventlog segments: %w", err)
	}
	out := make([]Segment, 0, len(found))
	for i, g := range found {
		s, err := Summarize(io.NewSectionReader(f, g.Offset, g.End-g.Offset))
		if err != nil {
			return nil, fmt.Errorf("summarising eventlog segment at byte %d: %w", g.Offset, err)
		}
		s.Status = g.Status
		if i > 0 {
			s.Inherit(&out[0].Summary, 1)
		}
		out = append(out, Segment{Offset: g.Offset, End: g.End, Summary: s})
	}
	return out, nil
}

// beginsJoined reports whether the log at path begins with a join mark.
// Such a log is summarised by decoding it whole, since a skim would count
// the state replayed before the join among its events.
func beginsJoined(path string) bool {
	f, err := ingest.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var ev ingest.Event
	for f.Next(&ev) {
		if ev.Kind != ingest.KindBlockMarker {
			_, ok := ingest.JoinMark(&ev)
			return ok
		}
	}
	return false
}

// Summarize decodes a whole eventlog from src and returns its Summary. The
// error is non-nil only if reading src failed; a corrupt or truncated log is
// summarised as far as it decodes, with Summary.Status saying where it ends.
func Summarize(src io.Reader) (Summary, error) {
	r := ingest.NewReader(src)
	z := NewSummarizer()
	var ev ingest.Event
	for r.Next(&ev) {
		z.Add(&ev)
	}
	s := z.Summary(r.Header(), r.Status())
	s.TimeFaults = r.TimeFaults()
	if err := r.Err(); err != nil {
		return s, fmt.Errorf("summarising eventlog: %w", err)
	}
	return s, notEmpty(s.Status)
}

// ErrEmpty is the error of an input without a single byte: no eventlog at
// all (a log cut anywhere later is only truncated).
var ErrEmpty = errors.New("empty file: not an eventlog")

// notEmpty returns ErrEmpty if decoding ended, truncated, at byte 0.
func notEmpty(st ingest.Status) error {
	if st.State == ingest.StateTruncated && st.Offset == 0 {
		return ErrEmpty
	}
	return nil
}
