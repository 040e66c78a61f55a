package timeline

import (
	"slices"
	"strconv"
	"strings"

	"github.com/hecscope/hecscope/ingest"
)

// RTSStats are the figures `+RTS -s` prints at the end of a run, each by
// the RTS's own definition (rts/Stats.c of GHC 9.0: stat_endGC,
// stat_exitReport), as far as the eventlog gives them. They hold for a
// whole run only: Available is false for a range, a joined log, a
// restarted eventlog, and a log that stops before the RTS's final report;
// and for a log from a GHC before 9.0, whose -s defined some of them
// otherwise. They are checked against GHC 9.0.2's -s (README.md).
//
// Where the eventlog carries the very numbers the RTS adds up they are
// exact: bytes allocated (Heap.Allocated: each capability's last
// HeapAllocated counter, which stat_exitReport writes as it computes -s),
// bytes copied (Heap.Copied), maximum residency (Heap.MaxLive) and its
// samples, the collections, parallel collections, elapsed time, average
// and maximum pause per generation (GC.Gens: the RTS writes the GC start
// and end of the capability that leads a collection with the very clock
// readings -s adds up), the spark counts (Sparks.Total), and here MaxSlop,
// WorkBalance and GCElapsedNS. The division of the run into INIT, MUT, GC
// and EXIT is approximate (HasPhases): the eventlog does not record where
// initialisation ends and shutdown begins, only the main OS thread's calls
// into Haskell a few microseconds from them. CPU times, and everything
// made of them, are not in the eventlog at all.
type RTSStats struct {
	// Available says the log holds a whole run up to the RTS's final
	// report; if not, Why says what is missing and no figure holds.
	Available bool
	Why       string

	// Generations is the number of GC generations (the HeapInfoGHC
	// event); 0 if the log does not say.
	Generations int
	// MaxSlop is "bytes maximum slop": the largest slop of the major
	// collections (those of the oldest generation) only. HasMaxSlop is
	// false without Generations or a major collection.
	MaxSlop    uint64
	HasMaxSlop bool
	// MajorGCs counts the major collections: -s's "sample(s)" of maximum
	// residency.
	MajorGCs int
	// ParCopied and ParBalancedCopied sum, over the parallel collections
	// (more than one GC thread), the bytes copied and the "balanced" bytes
	// copied of their GCStatsGHC events.
	ParCopied, ParBalancedCopied uint64
	// WorkBalance is "Parallel GC work balance" as a fraction (0 serial, 1
	// perfect): ParBalancedCopied / ParCopied; 0 when no collection was
	// parallel, when -s prints no such line. HasWorkBalance is false when
	// the log's GCStatsGHC events lack the balanced count (before GHC 8.4).
	WorkBalance    float64
	HasWorkBalance bool
	// GCElapsedNS is "GC time (elapsed)": the elapsed time of every
	// collection, each from its GC start to its GC end on the capability
	// that led it (GC.Reported.ElapsedNS). HasGCElapsed is false when a
	// profiled RTS made heap censuses: -s then takes their time out of
	// GC time, and the eventlog does not time them; GCWhy says so.
	GCElapsedNS  uint64
	HasGCElapsed bool
	GCWhy        string

	// HasPhases says the log shows where INIT ends and EXIT begins: the
	// main OS thread's calls into Haskell (TaskCreate and TaskDelete
	// events of the task whose kernel thread is the process), the one of
	// the program's main the one before the RTS's last (hs_exit's
	// flushStdHandles), after the threaded RTS's own during
	// initialisation. PhasesWhy says why not.
	HasPhases bool
	PhasesWhy string
	// InitNS is "INIT time (elapsed)": from the RTS's start to the end of
	// the threaded RTS's call that starts the I/O manager, or to the main
	// call's start in the non-threaded RTS (stat_endInit is a few μs
	// later, or earlier).
	InitNS uint64
	// MutatorNS is "MUT time (elapsed)": from InitNS to the main call's
	// end (stat_startExit is a few μs later), less the elapsed time of the
	// collections that began before it.
	MutatorNS uint64
	// ExitNS is "EXIT time (elapsed)": from the main call's end to ElapsedNS,
	// less the collections after it.
	ExitNS uint64
	// ElapsedNS is "Total time (elapsed)": the time of the RTS's final
	// report, when it writes each capability's last HeapAllocated.
	ElapsedNS uint64
	// Productivity is "Productivity … of total elapsed" as a fraction:
	// (ElapsedNS − GC − INIT − EXIT) / ElapsedNS. HasProductivity needs
	// HasPhases and HasGCElapsed.
	Productivity    float64
	HasProductivity bool
}

// gcStatsFullSize is the size of a GCStatsGHC event with the balanced
// count (GHC ≥ 8.4): 10 bytes of header and 58 of payload.
const gcStatsFullSize = 10 + 58

// maxMainCalls bounds the main OS thread's calls into Haskell a
// Summarizer keeps: a program run from Haskell's main makes 2 or 3.
const maxMainCalls = 4

// mainCall is one outermost call of the main OS thread into Haskell,
// [start, end] in ns.
type mainCall struct{ start, end uint64 }

// rtsAcc is what a Summarizer keeps for RTSStats.
type rtsAcc struct {
	generations   int
	slop          []uint64 // the largest slop per generation
	parCopied     uint64
	parBalanced   uint64
	shortStats    bool // a GCStatsGHC event lacks the balanced count
	heapProfiling bool // a HeapProfBegin event

	// The process id; the tasks created on its main OS thread; that
	// thread's calls into Haskell (at most maxMainCalls, counted in
	// nCalls) and the one open.
	hasPid    bool
	pid       uint64
	mainTasks []uint64
	calls     []mainCall
	nCalls    int
	callOpen  bool
	callStart uint64
}

// addRTS takes what ev tells the RTS figures.
func (z *Summarizer) addRTS(ev *ingest.Event) {
	a := &z.rts
	switch ev.Kind {
	case ingest.KindHeapInfoGHC:
		a.generations = int(min(ev.Args[1], maxGeneration+1))
	case ingest.KindHeapProfBegin:
		a.heapProfiling = true
	case ingest.KindOSProcessPid:
		if !a.hasPid {
			a.hasPid, a.pid = true, ev.Args[1]
		}
	case ingest.KindGCStatsGHC:
		if g := ev.Args[1]; g <= maxGeneration {
			for int(g) >= len(a.slop) {
				a.slop = append(a.slop, 0)
			}
			a.slop[g] = max(a.slop[g], ev.Args[3])
		}
		if len(ev.Raw) < gcStatsFullSize {
			a.shortStats = true
		}
		if ev.Args[5] > 1 {
			a.parCopied += ev.Args[2]
			a.parBalanced += ev.Args[8]
		}
	case ingest.KindTaskCreate:
		// rts_lock writes it for an outermost call into Haskell, a worker
		// as it starts; the main OS thread's kernel thread id is the
		// process id (Linux).
		if a.hasPid && ev.Args[2] == a.pid {
			if !slices.Contains(a.mainTasks, ev.Args[0]) && len(a.mainTasks) < maxMainCalls {
				a.mainTasks = append(a.mainTasks, ev.Args[0])
			}
			a.callOpen, a.callStart = true, ev.Time
		}
	case ingest.KindTaskDelete:
		if a.callOpen && slices.Contains(a.mainTasks, ev.Args[0]) {
			if len(a.calls) < maxMainCalls {
				a.calls = append(a.calls, mainCall{a.callStart, max(a.callStart, ev.Time)})
			}
			a.nCalls++
			a.callOpen = false
		}
	}
}

// rtsStats computes the RTS figures of the Summary s the Summarizer has
// just made (its GC, heap and status filled in).
func (z *Summarizer) rtsStats(s *Summary) RTSStats {
	a := &z.rts
	var r RTSStats
	// The final report: the last HeapAllocated counters, after the last
	// collection ended.
	var report uint64
	for _, c := range z.caps {
		if c != nil && c.hasAlloc {
			report = max(report, c.allocLastNS)
		}
	}
	var lastGCEnd uint64
	for _, l := range z.leads {
		lastGCEnd = max(lastGCEnd, l.end)
	}
	switch {
	case z.joined:
		r.Why = "the log was joined while the program ran; -s counts from its start"
		return r
	case s.Status.State != ingest.StateComplete:
		r.Why = "the log is not complete; -s is computed at the program's exit"
		return r
	case s.RTS == "":
		r.Why = "the log does not say which GHC wrote it"
		return r
	case !ghcAtLeast(s.RTS, 9, 0):
		r.Why = "the log was written by " + strings.Fields(s.RTS)[0] + "; hecscope follows -s as GHC 9.0 defines it, and earlier GHCs defined productivity and work balance otherwise"
		return r
	case !s.Heap.HasStats || !s.Heap.HasAllocated:
		r.Why = "the log has no GCStatsGHC or HeapAllocated events (GHC before 7.6, or no GC events)"
		return r
	case report <= lastGCEnd:
		r.Why = "the log has no allocation counters after its last collection: it stops before the RTS's final report"
		return r
	}
	r.Available = true
	r.Generations = a.generations
	if g := a.generations; g > 0 && g <= len(s.GC.Gens) {
		r.MajorGCs = s.GC.Gens[g-1].Collections
		if g <= len(a.slop) && r.MajorGCs > 0 {
			r.MaxSlop, r.HasMaxSlop = a.slop[g-1], true
		}
	}
	r.ParCopied, r.ParBalancedCopied = a.parCopied, a.parBalanced
	if !a.shortStats {
		r.HasWorkBalance = true
		if a.parCopied > 0 {
			r.WorkBalance = float64(a.parBalanced) / float64(a.parCopied)
		}
	}
	r.GCElapsedNS = s.GC.Reported.ElapsedNS
	r.HasGCElapsed = true
	if a.heapProfiling && profiledRTS(s.RTS) {
		r.HasGCElapsed = false
		r.GCWhy = "a profiled RTS's -s takes the heap censuses' time out of GC time, and the eventlog does not time them"
	}

	// INIT, MUT, EXIT.
	calls := a.calls
	want := 2 // the program's main, then hs_exit's flushStdHandles
	if threadedRTS(s.RTS) {
		want = 3 // after the I/O manager's start during initialisation
	}
	switch {
	case !a.hasPid:
		r.PhasesWhy = "the log has no process id, by which hecscope finds the main OS thread"
	case a.nCalls == 0:
		r.PhasesWhy = "the log has no task events of the main OS thread (they come with -l's scheduler events)"
	case a.nCalls != want || a.callOpen:
		r.PhasesWhy = "the main OS thread did not call into Haskell as a program whose main is Haskell's does"
	}
	if r.PhasesWhy == "" {
		// The program's main call; initialisation ends as the threaded
		// RTS's call to start the I/O manager ends (main's may wait for
		// a capability a while), else as main's begins.
		main := calls[len(calls)-2]
		initEnd := main.start
		if want == 3 {
			initEnd = min(calls[0].end, main.start)
		}
		var before, after uint64
		for _, l := range z.leads {
			if l.start < main.end {
				before += l.end - l.start
			} else {
				after += l.end - l.start
			}
		}
		r.HasPhases = true
		r.ElapsedNS = report
		r.InitNS = initEnd
		r.MutatorNS = main.end - initEnd - min(before, main.end-initEnd)
		r.ExitNS = report - main.end - min(after, report-main.end)
		if r.HasGCElapsed && report > 0 {
			r.HasProductivity = true
			busy := min(r.GCElapsedNS+r.InitNS+r.ExitNS, report)
			r.Productivity = float64(report-busy) / float64(report)
		}
	}
	return r
}

// ghcAtLeast reports whether the RTS identifier (such as "GHC-9.0.2
// rts_thr_l") names GHC major.minor or later.
func ghcAtLeast(id string, major, minor int) bool {
	f := strings.Fields(id)
	if len(f) == 0 || !strings.HasPrefix(f[0], "GHC-") {
		return false
	}
	v := strings.Split(strings.TrimPrefix(f[0], "GHC-"), ".")
	var n [2]int
	for i := 0; i < len(n) && i < len(v); i++ {
		x, err := strconv.Atoi(v[i])
		if err != nil {
			return false
		}
		n[i] = x
	}
	return n[0] > major || n[0] == major && n[1] >= minor
}

// rtsWays returns the ways of an RTS identifier such as "GHC-9.0.2
// rts_thr_l": "thr", "l".
func rtsWays(id string) []string {
	f := strings.Fields(id)
	if len(f) == 0 {
		return nil
	}
	return strings.Split(f[len(f)-1], "_")[1:]
}

// threadedRTS reports whether the RTS identifier names a threaded RTS.
func threadedRTS(id string) bool {
	for _, w := range rtsWays(id) {
		if w == "thr" {
			return true
		}
	}
	return false
}

// profiledRTS reports whether the RTS identifier names a profiled RTS.
func profiledRTS(id string) bool {
	for _, w := range rtsWays(id) {
		if w == "p" {
			return true
		}
	}
	return false
}

// WithholdRTS leaves out the RTS figures of a Summary that is of part of
// a run only (a time range, a restarted eventlog), saying why: -s is of
// the whole run.
func (s *Summary) WithholdRTS(why string) { s.RTSStats = RTSStats{Why: why} }

// WhyRestarted is why a restarted eventlog (see Inherit) has no RTS
// figures. (The eventlog before a restart has none either: it stops
// before the RTS's final report.)
const WhyRestarted = "the program restarted its logging, so this eventlog holds only part of the run; -s is of the whole run"

// Why the RTS's maximum slop or work balance may be absent from a log
// that has the other RTS figures.
const (
	WhyNoMaxSlop     = "the log does not say which generation is the oldest (HeapInfoGHC), or has no collection of it"
	WhyNoWorkBalance = "the log's GCStatsGHC events lack the balanced bytes copied (GHC before 8.4)"
)
