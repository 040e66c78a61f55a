package advise

import (
	"fmt"
	"strings"

	"github.com/hecscope/hecscope/paint"
)

// Thresholds of the sparks and threads findings (see the package doc).
const (
	// sparkMin sparks at least make a finding; a pattern (duds, fizzles,
	// …) is named from sparkPattern of the sparks.
	sparkMin     = 100
	sparkPattern = 0.10
	// Sparks that came to nothing (dud, overflowed, fizzled, GC'd): an
	// info from sparkInfoWaste of them; with the HECs idle sparkWarnIdle
	// of their time, a warning from sparkWarnWaste; a problem when fewer
	// than sparkProblemConverted ran and the HECs idled sparkProblemIdle.
	sparkInfoWaste        = 0.2
	sparkWarnWaste        = 0.5
	sparkWarnIdle         = 0.10
	sparkProblemConverted = 0.10
	sparkProblemIdle      = 0.25
	// Threads: an info from threadsInfo created at threadsInfoRate a
	// second; a warning from threadsWarn whose mean running time is under
	// threadsShortNS.
	threadsInfo     = 1000
	threadsInfoRate = 1000
	threadsWarn     = 10000
	threadsShortNS  = 10e3
)

// idleShare returns the share of the HECs' time in the range spent idle.
func (r *run) idleShare() float64 {
	var idle uint64
	for k := range r.hecs {
		for i := range len(r.edges) - 1 {
			idle += r.idle(k, i)
		}
	}
	return share(idle, r.span()*uint64(len(r.hecs)))
}

// sparks reports sparks that did not run in parallel, by what became of
// them.
func (r *run) sparks() []Finding {
	c := r.sum.Sparks.Total
	if c.Total < sparkMin {
		return nil
	}
	h := len(r.hecs)
	if h == 1 {
		return []Finding{{Kind: KindSparks, Severity: Info, From: r.from, To: r.to,
			Title:      fmt.Sprintf("%s sparks on a single HEC: none can run in parallel", count(c.Total)),
			Evidence:   []string{fmt.Sprintf("%s sparks, %s converted, on 1 HEC", count(c.Total), count(c.Converted))},
			Suggestion: "Run with +RTS -N (one HEC per core) so that the sparks can run in parallel (the program must be built with -threaded).",
			Tracks:     Tracks{Caps: r.caps(), Sparks: true}}}
	}
	waste := c.Dud + c.Overflowed + c.Fizzled + c.GCd
	ws := share(waste, c.Total)
	idle := r.idleShare()
	conv := share(c.Converted, c.Total)
	var sev Severity
	switch {
	case ws >= sparkWarnWaste && conv < sparkProblemConverted && idle >= sparkProblemIdle:
		sev = Problem
	case ws >= sparkWarnWaste && idle >= sparkWarnIdle:
		sev = Warning
	case ws >= sparkInfoWaste || c.Overflowed > 0:
		sev = Info
	default:
		return nil
	}
	ev := []string{fmt.Sprintf("%s sparks: %s converted (%s), %s dud, %s overflowed, %s fizzled, %s GC'd",
		count(c.Total), count(c.Converted), pct(conv), count(c.Dud), count(c.Overflowed), count(c.Fizzled), count(c.GCd)),
		fmt.Sprintf("the HECs were idle %s of their time", pct(idle))}
	var sug []string
	worst, worstN := "", uint64(0)
	pattern := func(n uint64, name, meaning, advice string) {
		if float64(n) < sparkPattern*float64(c.Total) && !(name == "overflowed" && n > 0) {
			return
		}
		ev = append(ev, fmt.Sprintf("%s %s (%s): %s", count(n), name, pct(share(n, c.Total)), meaning))
		sug = append(sug, advice)
		if n > worstN {
			worst, worstN = name, n
		}
	}
	pattern(c.Dud, "dud", "already evaluated when sparked, so there was nothing to run",
		"Spark the computation, not its result: par on a value already evaluated is a dud.")
	pattern(c.Overflowed, "overflowed", "dropped because the HEC's spark pool was full (4096 sparks by default, +RTS -e)",
		"Spark fewer, bigger pieces at once (parListChunk, parBuffer) rather than one spark per element.")
	pattern(c.Fizzled, "fizzled", "already evaluated by the time a HEC took the spark, mostly by the parent that sparked it",
		"Let the parent work on something else before it demands a sparked value (a `par` b `pseq` (a + b)), and make sparks big enough to be worth stealing.")
	pattern(c.GCd, "GC'd", "no longer needed when a collection found them unconverted: their results were never used",
		"Use the value a strategy returns (x `using` s, withStrategy), not the original, and spark only what is used.")
	if len(sug) == 0 {
		sug = append(sug, "Spark fewer, bigger pieces of work.")
	}
	title := fmt.Sprintf("%s of %s sparks came to nothing", count(waste), count(c.Total))
	if worst != "" {
		title += fmt.Sprintf(" (mostly %s)", worst)
	}
	return []Finding{{Kind: KindSparks, Severity: sev, From: r.from, To: r.to, Title: title,
		Evidence: ev, Suggestion: strings.Join(sug, " "), Tracks: Tracks{Caps: r.caps(), Sparks: true}}}
}

// threads reports many threads created for little work each.
func (r *run) threads() []Finding {
	f := &r.threadFigs
	secs := float64(r.span()) / 1e9
	rate := float64(f.created) / secs
	if f.created < threadsInfo || rate < threadsInfoRate {
		return nil
	}
	mean := f.createdRunning / uint64(f.created)
	sev := Info
	if f.created >= threadsWarn && float64(mean) < threadsShortNS {
		sev = Warning
	}
	return []Finding{{Kind: KindThreads, Severity: sev, From: r.from, To: r.to,
		Title: fmt.Sprintf("%s threads created, %s, running %s each on average", count(f.created), paint.Rate(rate, "s"), dur(mean)),
		Evidence: []string{
			fmt.Sprintf("%s threads created in the %s (%s), %s", count(f.created), r.noun(), dur(r.span()), paint.Rate(rate, "s")),
			fmt.Sprintf("they ran %s in all, %s each on average", dur(f.createdRunning), dur(mean)),
		},
		Suggestion: "Every thread costs a trip through the scheduler to create, run and finish. Give each thread more work " +
			"(a pool of workers taking items from a queue); for pure parallel work, sparks (par, Strategies) cost less than threads.",
		// The HECs' tracks show the threads' creation.
		Tracks: Tracks{Caps: r.caps()}}}
}
