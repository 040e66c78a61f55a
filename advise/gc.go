package advise

import (
	"fmt"
	"iter"
	"strings"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// Thresholds of the GC findings (see the package doc for the reasoning).
const (
	// The share of the HECs' time spent collecting garbage that makes an
	// info, a warning and a problem.
	gcInfoShare    = 0.05
	gcWarnShare    = 0.10
	gcProblemShare = 0.25
	// gcMinNS: below this much GC time per HEC a run is too short for its
	// GC share to be worth more than an info (a program of a few ms spends
	// a good part of it starting up).
	gcMinNS = 10e6
	// gcNursery is the nursery suggested for a run whose minor collections
	// dominate its GC time.
	gcNursery = 64 << 20
	// gcWorkShare: parallel GC threads that worked less than this share of
	// their GC time spent more of it waiting than collecting.
	gcWorkShare = 0.5
	// A pause of at least pauseLong is long; the long pauses are a warning
	// when together they last pauseWarnShare of the range. A long pause
	// that copied slower than pauseSlowCopy bytes/s spent it waiting.
	pauseLong      = 100e6
	pauseWarnShare = 0.10
	pauseSlowCopy  = 100 << 20
	// Heap growth: live data that climbs to a peak (at least
	// growthMinBytes) from at least growthInfo times less, over
	// growthMinPoints measurements or more spanning growthMinSpan of the
	// range, rising at growthRising of them or more; a warning from
	// growthWarn times when the major collections took growthGCShare of
	// the range.
	growthInfo      = 2
	growthWarn      = 4
	growthMinBytes  = 8 << 20
	growthMinPoints = 4
	growthMinSpan   = 1.0 / 3
	growthRising    = 0.7
	growthGCShare   = 0.10
)

// gcsInRange yields the collections that begin in the range, from the
// heap's list (a copy of it cost a log of 450 k collections 32 MB each
// time).
func (r *run) gcsInRange() iter.Seq[*heapview.GC] {
	return func(yield func(*heapview.GC) bool) {
		for i := range r.heap.GCs {
			if g := &r.heap.GCs[i]; g.Start >= r.from && g.Start < r.to && !yield(g) {
				return
			}
		}
	}
}

// gc reports the share of the run spent collecting garbage, and what would
// make it smaller.
func (r *run) gc() []Finding {
	h := len(r.hecs)
	if h == 0 {
		return nil
	}
	tot := r.totals()
	var gcTime, work uint64
	for k := range tot {
		gcTime += tot[k].GC()
		work += tot[k][timeline.StateGCWork]
	}
	capacity := r.span() * uint64(h)
	s := share(gcTime, capacity)
	if s < gcInfoShare {
		return nil
	}
	n := 0
	var gen [2]struct {
		n     int
		pause uint64
	}
	stats := false
	for g := range r.gcsInRange() {
		n++
		if !g.HasStats {
			continue
		}
		stats = true
		k := min(int(g.Gen), 1)
		gen[k].n++
		gen[k].pause += g.Pause()
	}
	if n == 0 {
		n = r.sum.GC.Total.Collections
	}
	secs := float64(r.span()) / 1e9
	ev := []string{fmt.Sprintf("the HECs spent %s of their time collecting garbage (%s per HEC, of %s)",
		pct(s), dur(gcTime/uint64(h)), dur(r.span()))}
	if n > 0 {
		ev = append(ev, fmt.Sprintf("%s, %s", collectionsNoun(n), paint.Rate(float64(n)/secs, "s")))
	}
	if stats {
		ev = append(ev, fmt.Sprintf("generation 0: %s collections, %s in all; older generations: %s collections, %s in all",
			count(gen[0].n), dur(gen[0].pause), count(gen[1].n), dur(gen[1].pause)))
	}
	alloc := r.sum.Heap.Allocated
	if alloc > 0 {
		line := fmt.Sprintf("allocated %s, %s/s", bytes(alloc), bytes(uint64(float64(alloc)/secs)))
		if n > 0 {
			line += fmt.Sprintf("; a collection every %s of allocation", bytes(alloc/uint64(n)))
		}
		ev = append(ev, line)
	}
	nur, hasNursery := r.nursery()
	if hasNursery {
		ev = append(ev, fmt.Sprintf("nursery (-A): %s per HEC, from %s", bytes(nur.bytes), nur.from))
	}
	if live := r.sum.Heap.MaxLive; live > 0 {
		ev = append(ev, "largest live data: "+bytes(live))
	}
	parallelWaste := false
	if h > 1 && work > 0 {
		ws := share(work, gcTime)
		ev = append(ev, fmt.Sprintf("GC threads worked %s of their GC time; the rest they waited, to start or for each other", pct(ws)))
		parallelWaste = ws < gcWorkShare
	}
	var sug []string
	if census, ok := r.heapProfiled(); ok {
		ev = append(ev, "the run was heap-profiled ("+census+"): every census is a major collection")
		sug = append(sug, "Heap profiling adds a major collection at every census: measure GC in a run without -h first.")
	}
	minor := !stats || gen[0].pause >= gen[1].pause
	switch {
	case minor && hasNursery && nur.bytes < gcNursery && alloc > 0:
		now := gen[0].n
		if !stats {
			now = n
		}
		then := max(1, (alloc+gcNursery*uint64(h)-1)/(gcNursery*uint64(h)))
		if now > 0 {
			then = min(then, uint64(now))
		}
		lead := "Most collections are minor ones of a " + bytes(nur.bytes) + " nursery."
		if !stats {
			lead = "The log does not say which generation each collection was; most are usually minor ones, of a " +
				bytes(nur.bytes) + " nursery here."
		}
		sug = append(sug, fmt.Sprintf("%s With +RTS -A64m the nursery fills %.0f times less often: "+
			"about %s instead of %s, and their time falls roughly with their number, since most of a bigger nursery is garbage "+
			"by the time it is collected. It costs %s of memory (64 MiB per HEC).",
			lead, float64(gcNursery)/float64(nur.bytes), collectionsNoun(int(then)), count(now), bytes(gcNursery*uint64(h))))
	case minor && nur.bytes < gcNursery:
		sug = append(sug, "If most collections are minor ones, a bigger nursery (+RTS -A64m) makes them rarer.")
	}
	if stats && !minor {
		sug = append(sug, fmt.Sprintf("Collections of the old generation take most of the GC time (%s over %s): they copy all live data. "+
			"Keep less data live (a heap profile, +RTS -hT, shows what it is), or collect the old generation less often with +RTS -F3 "+
			"(more memory); --nonmoving-gc (GHC ≥ 8.10) collects it alongside the program.", dur(gen[1].pause), count(gen[1].n)))
	}
	if parallelWaste {
		sug = append(sug, "The parallel GC threads waited more than they worked: for a small heap, +RTS -qg (one GC thread) "+
			"or -qn2 (fewer GC threads) costs less.")
	}
	if len(sug) == 0 {
		sug = append(sug, "Allocate less: strict fields and accumulators (foldl', modifyIORef'), unboxed vectors instead of lists.")
	}
	sev := Info
	switch {
	case float64(gcTime/uint64(h)) < gcMinNS:
	case s >= gcProblemShare:
		sev = Problem
	case s >= gcWarnShare:
		sev = Warning
	}
	return []Finding{{Kind: KindGC, Severity: sev, From: r.from, To: r.to,
		Title:    fmt.Sprintf("Garbage collection takes %s of the HECs' time, waiting in it included (%s collections)", pct(s), count(n)),
		Evidence: ev, Suggestion: strings.Join(sug, " "), Tracks: Tracks{Caps: r.caps(), GC: true}}}
}

// heapProfiled reports whether the run's RTS options ask for a heap
// profile (-h, -hT, -hc, …), and says which, with the census interval.
func (r *run) heapProfiled() (string, bool) {
	prof, every := "", "0.1 s"
	for _, o := range rtsOptions(r.sum.Args, r.sum.Env) {
		switch {
		case strings.HasPrefix(o, "-h"):
			prof = o
		case strings.HasPrefix(o, "-i") && len(o) > 2:
			every = o[2:] + " s"
		}
	}
	if prof == "" {
		return "", false
	}
	return "+RTS " + prof + ", a census every " + every, true
}

// gcPauses reports the collections that stopped the program long.
func (r *run) gcPauses() []Finding {
	var long []heapview.GC
	var sum uint64
	for g := range r.gcsInRange() {
		if float64(g.Pause()) >= pauseLong {
			long = append(long, *g)
			sum += g.Pause()
		}
	}
	if len(long) == 0 {
		return nil
	}
	worst := long[0]
	for _, g := range long {
		if g.Pause() > worst.Pause() {
			worst = g
		}
	}
	p := worst.Pause()
	ev := []string{fmt.Sprintf("%s paused %s or more, %s in all (%s of the %s)",
		collectionsNoun(len(long)), dur(pauseLong), dur(sum), pct(share(sum, r.span())), r.noun())}
	what := fmt.Sprintf("the longest, at %s: %s", at(worst.Start), dur(p))
	var sug string
	switch {
	case !worst.HasStats:
		ev = append(ev, what)
		sug = "Long pauses copy much live data, or wait for every HEC to stop: keep less data live, and keep -N within the free cores."
	case float64(worst.Copied) < pauseSlowCopy*float64(p)/1e9:
		ev = append(ev, what+fmt.Sprintf(", generation %d, copying only %s (%s/s)", worst.Gen, bytes(worst.Copied),
			bytes(uint64(float64(worst.Copied)/(float64(p)/1e9)))))
		sug = "The pause was mostly waiting, not copying: for every HEC to stop (a thread in a loop that does not allocate; compile with " +
			"-fno-omit-yields), or for an OS thread the OS did not run (more HECs, -N, than free cores)."
	case worst.Major():
		ev = append(ev, what+fmt.Sprintf(", generation %d, copying %s", worst.Gen, bytes(worst.Copied)))
		sug = "Old-generation collections copy all live data: keep less data live (a heap profile, +RTS -hT, shows what), or use " +
			"--nonmoving-gc (GHC ≥ 8.10), which collects the old generation alongside the program with short pauses."
	default:
		ev = append(ev, what+fmt.Sprintf(", generation 0, copying %s", bytes(worst.Copied)))
		sug = "A minor collection copies what survives the nursery: much of it survives here. Use a smaller -A or nursery chunks (-n4m) to " +
			"shorten each pause, or keep less data alive between collections."
	}
	sev := Info
	if float64(sum) >= pauseWarnShare*float64(r.span()) {
		sev = Warning
	}
	return []Finding{{Kind: KindGCPause, Severity: sev, From: worst.Start, To: worst.End,
		Title:    fmt.Sprintf("%s stopped the program for %s or more; the longest for %s", collectionsNoun(len(long)), dur(pauseLong), dur(p)),
		Evidence: ev, Suggestion: sug, Tracks: Tracks{Caps: r.caps(), GC: true}}}
}

// collectionsNoun writes "1 collection" or "N collections".
func collectionsNoun(n int) string {
	if n == 1 {
		return "1 collection"
	}
	return count(n) + " collections"
}

// heapGrowth reports live data that grows through the range: the climb
// from the lowest live data before its peak to the peak.
func (r *run) heapGrowth() []Finding {
	l := &r.heap.Live
	var ts, vs []uint64
	for i := range l.Len() {
		if t := l.Time[i]; t >= r.from && t < r.to {
			ts, vs = append(ts, t), append(vs, l.Value[i])
		}
	}
	n := len(ts)
	if n < growthMinPoints {
		return nil
	}
	peak := 0
	for i, v := range vs {
		if v > vs[peak] {
			peak = i
		}
	}
	low := 0
	for i := range peak {
		if vs[i] < vs[low] {
			low = i
		}
	}
	rising := 0
	for i := low + 1; i <= peak; i++ {
		if vs[i] >= vs[i-1] {
			rising++
		}
	}
	lo, hi := vs[low], vs[peak]
	growth := share(hi, lo)
	steps := peak - low
	if lo == 0 || steps+1 < growthMinPoints || growth < growthInfo || hi < growthMinBytes ||
		float64(rising) < growthRising*float64(steps) || float64(ts[peak]-ts[low]) < growthMinSpan*float64(r.span()) {
		return nil
	}
	var major uint64
	var majors int
	for g := range r.gcsInRange() {
		if g.Major() {
			major += g.Pause()
			majors++
		}
	}
	climb := ts[peak] - ts[low]
	ev := []string{
		fmt.Sprintf("live data after collections grew from %s to %s (×%.1f) in %s, %s to %s, rising at %s/s",
			bytes(lo), bytes(hi), growth, dur(climb), at(ts[low]), at(ts[peak]), bytes(uint64(float64(hi-lo)/(float64(climb)/1e9)))),
		fmt.Sprintf("it rose at %d of the %d collections that measured it meanwhile", rising, steps),
	}
	if last := vs[n-1]; peak < n-1 && last < hi/2 {
		ev = append(ev, fmt.Sprintf("then it fell to %s by %s: the data was released (or the thunks holding it evaluated) only then", bytes(last), at(ts[n-1])))
	}
	if majors > 0 {
		ev = append(ev, fmt.Sprintf("%s major collections took %s (%s of the %s), each copying all live data", count(majors), dur(major),
			pct(share(major, r.span())), r.noun()))
	}
	sev := Info
	if growth >= growthWarn && share(major, r.span()) >= growthGCShare {
		sev = Warning
	}
	return []Finding{{Kind: KindHeapGrowth, Severity: sev, From: ts[low], To: ts[peak],
		Title:    fmt.Sprintf("Live data grows from %s to %s over %s", bytes(lo), bytes(hi), dur(climb)),
		Evidence: ev,
		Suggestion: "If the program is not meant to keep this data, find what grows with a heap profile (+RTS -hT, or -hy/-hc in a profiled build). " +
			"Common causes: lazy accumulators (foldl, modifyIORef, Data.Map.Lazy's insertWith, a lazy State) that build chains of thunks, " +
			"and a reference kept to the head of a list that is consumed elsewhere.",
		Tracks: Tracks{Heap: true, GC: true}}}
}
