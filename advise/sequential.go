package advise

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/hecscope/hecscope/timeline"
)

// Thresholds of the sequential and imbalance findings (see the package
// doc for the reasoning).
const (
	// A window is sequential when the HECs together run between seqBusy
	// and seqAlone HECs' worth of Haskell code (of the window's time
	// outside GC), so that the others idle, and at most seqRunnable
	// threads are runnable on average.
	seqBusy     = 0.6
	seqAlone    = 1.2
	seqRunnable = 0.2
	// A window in which the HECs spend more than half the time in GC
	// neither makes nor breaks a period; other windows lasting up to
	// seqGap of the range in a row may lie inside one (a burst of
	// parallel work in a sequential stretch does not cut it in two).
	seqGap = 0.05
	// A period is reported when it lasts at least seqMinShare of the range
	// and seqMinNS; it is a problem from seqProblemShare.
	seqMinShare     = 0.10
	seqMinNS        = 50e6
	seqProblemShare = 0.25
	// Imbalance: over the parallel windows, the busiest HEC runs at least
	// imbBusiest of its non-GC time, the least busy at most imbRatio of
	// that, and the capacity left unused by the HECs below the busiest is
	// at least imbMinShare of all (and imbMinNS); a problem from
	// imbProblemShare.
	imbBusiest      = 0.5
	imbRatio        = 0.7
	imbMinShare     = 0.10
	imbMinNS        = 50e6
	imbProblemShare = 0.25
)

// windowKind is how a window is classed for the sequential finding.
type windowKind uint8

const (
	windowOther      windowKind = iota // parallel, idle, or in between
	windowSequential                   // one HEC works, the others idle with nothing to run
	windowGC                           // mostly garbage collection
)

// classify classes window i.
func (r *run) classify(i int) windowKind {
	h := len(r.hecs)
	w := float64(r.width(i))
	var gc, run uint64
	for k := range r.hecs {
		d := &r.hec[k][i]
		gc += d.GC()
		run += d[timeline.StateRunning]
	}
	eff := w - float64(gc)/float64(h)
	if eff*2 < w {
		return windowGC
	}
	// The HECs together run about one HEC's worth of Haskell code, whichever
	// HEC runs it (a thread handed from one to another is still alone).
	if h < 2 || float64(run) < seqBusy*eff || float64(run) > seqAlone*eff || float64(r.runnable[i]) > seqRunnable*w {
		return windowOther
	}
	return windowSequential
}

// period is a run of windows [first, last].
type period struct{ first, last int }

// sequentialPeriods returns the stretches of sequential windows (with GC
// windows and short gaps inside them), and each window's class.
func (r *run) sequentialPeriods() ([]period, []windowKind) {
	n := len(r.edges) - 1
	kinds := make([]windowKind, n)
	var out []period
	open := false
	var cur period
	gap := 0
	maxGap := max(2, int(seqGap*float64(n)))
	for i := range n {
		kinds[i] = r.classify(i)
		switch kinds[i] {
		case windowSequential:
			if !open {
				cur, open = period{i, i}, true
			}
			cur.last, gap = i, 0
		case windowOther:
			if open {
				if gap++; gap > maxGap {
					out = append(out, cur)
					open = false
				}
			}
		}
	}
	if open {
		out = append(out, cur)
	}
	return out, kinds
}

// noun names the range analysed: "run", or "range" for a part of it.
func (r *run) noun() string {
	if r.from <= r.m.Start && r.to >= r.m.End {
		return "run"
	}
	return "range"
}

// sequential reports the periods in which one HEC worked alone.
func (r *run) sequential() []Finding {
	if len(r.hecs) < 2 {
		return nil
	}
	span := r.span()
	var kept []period
	var total uint64
	for _, p := range r.periods {
		d := r.edges[p.last+1] - r.edges[p.first]
		if float64(d) >= seqMinShare*float64(span) && float64(d) >= seqMinNS {
			kept = append(kept, p)
			total += d
		}
	}
	var out []Finding
	for _, p := range kept {
		out = append(out, r.sequentialFinding(p, len(kept), total))
	}
	return out
}

// sequentialFinding describes period p, one of n kept that last total.
func (r *run) sequentialFinding(p period, n int, total uint64) Finding {
	from, to := r.edges[p.first], r.edges[p.last+1]
	d := to - from
	span := r.span()
	h := len(r.hecs)
	// Each HEC's share of the period running Haskell code.
	type hecShare struct {
		k   int
		run uint64
	}
	var shares []hecShare
	var gc uint64
	for k := range r.hecs {
		var run uint64
		for i := p.first; i <= p.last; i++ {
			run += r.hec[k][i][timeline.StateRunning]
			gc += r.hec[k][i].GC()
		}
		shares = append(shares, hecShare{k, run})
	}
	slices.SortStableFunc(shares, func(a, b hecShare) int { return cmp.Compare(b.run, a.run) })
	var runs []string
	for _, s := range shares {
		runs = append(runs, fmt.Sprintf("%s %s", hecName(r.hecs[s.k]), pct(share(s.run, d))))
	}
	// Runnable and blocked threads on average over the period's
	// sequential windows (in a collection every thread is runnable).
	var runnable, seqTime uint64
	var blocked [numWaits]uint64
	for i := p.first; i <= p.last; i++ {
		if r.kinds[i] != windowSequential {
			continue
		}
		seqTime += r.width(i)
		runnable += r.runnable[i]
		for w := range numWaits {
			blocked[w] += r.blocked[w][i]
		}
	}
	var busy uint64
	for _, s := range shares {
		busy += s.run
	}
	ev := []string{
		fmt.Sprintf("%.2f of the %d HECs busy on average; time running Haskell code: %s (GC: %s of the HECs' time)",
			share(busy, d), h, strings.Join(runs, ", "), pct(share(gc, d*uint64(h)))),
		fmt.Sprintf("runnable threads waiting for a HEC outside GC: %.2f on average (none would be 0)", share(runnable, seqTime)),
	}
	tracks := Tracks{Caps: r.caps()}
	if k, run := r.topRunner(from, to); run > 0 {
		ev = append(ev, fmt.Sprintf("%s ran %s of it", r.threadName(k), pct(share(run, d))))
		tracks.Threads = []uint32{r.m.ThreadRecord(k).ID}
	}
	waiting := ""
	for w := range numWaits {
		if avg := share(blocked[w], seqTime); avg >= 0.5 && w != waitUnknown {
			ev = append(ev, fmt.Sprintf("threads blocked on %s meanwhile: %.1f on average", waitNames[w], avg))
			if waiting == "" && w <= waitThrowTo {
				waiting = waitNames[w]
			}
		}
	}
	saved := d - d/uint64(h)
	ev = append(ev, fmt.Sprintf("%s of the %s; spread over all %d HECs it would take %s, and the %s %s less (%s)",
		pct(share(d, span)), r.noun(), h, dur(d/uint64(h)), r.noun(), dur(saved), pct(share(saved, span))))
	if n > 1 {
		ev = append(ev, fmt.Sprintf("%d such periods in all: %s (%s of the %s)", n, dur(total), pct(share(total, span)), r.noun()))
	}
	sev := Warning
	if float64(d) >= seqProblemShare*float64(span) {
		sev = Problem
	}
	sug := "Nothing else could run here: this stretch of the program is sequential. Find what it computes " +
		"(user markers or START/STOP spans, or a cost-centre profile: build with -prof and run with +RTS -p) and split it: " +
		"par/pseq or Control.Parallel.Strategies (parMap rdeepseq, parListChunk) for pure work, forkIO or async's mapConcurrently for independent I/O."
	if waiting != "" {
		sug = "The other threads were blocked on " + waiting + " (see the blocking finding) while one thread worked: " +
			"they wait for what it holds or produces. Shorten what is done while holding it, or split the shared state, so that the threads can run at the same time."
	}
	return Finding{Kind: KindSequential, Severity: sev, From: from, To: to,
		Title:    fmt.Sprintf("Only one HEC busy at a time for %s (%s of the %s), %s", dur(d), pct(share(d, span)), r.noun(), between(from, to)),
		Evidence: ev, Suggestion: sug, Tracks: tracks}
}

// topRunner returns the index in the model of the thread that ran most
// during [from, to), and how long; -1 and 0 if none ran.
func (r *run) topRunner(from, to uint64) (int, uint64) {
	best, bestK := uint64(0), -1
	for k, th := range r.m.Threads() {
		if th.Track.Len() == 0 || th.First >= to || (th.Finished != 0 && th.Finished <= from) {
			continue
		}
		if run := th.Track.Durations(from, to)[timeline.StateRunning]; run > best {
			best, bestK = run, k
		}
	}
	return bestK, best
}

// imbalance reports HECs that did less of the parallel work than the
// busiest one.
func (r *run) imbalance() []Finding {
	h := len(r.hecs)
	if h < 2 {
		return nil
	}
	run := make([]uint64, h)
	avail := make([]uint64, h)
	var idleRunnable, parTime uint64
	first, last := -1, -1
	for i, kd := range r.kinds {
		if kd != windowOther {
			continue
		}
		w := r.width(i)
		var idle uint64
		for k := range r.hecs {
			d := &r.hec[k][i]
			run[k] += d[timeline.StateRunning]
			avail[k] += w - min(d.GC(), w)
			idle += r.idle(k, i)
		}
		idleRunnable += min(idle, r.runnable[i])
		parTime += w
		if first < 0 {
			first = i
		}
		last = i
	}
	if first < 0 {
		return nil
	}
	util := make([]float64, h)
	best := 0
	for k := range util {
		util[k] = share(run[k], avail[k])
		if util[k] > util[best] {
			best = k
		}
	}
	var lost, all float64
	worst := best
	for k := range util {
		lost += (util[best] - util[k]) * float64(avail[k])
		all += float64(avail[k])
		if util[k] < util[worst] {
			worst = k
		}
	}
	if util[best] < imbBusiest || util[worst] > imbRatio*util[best] || lost < imbMinShare*all || lost < imbMinNS {
		return nil
	}
	sev := Warning
	if lost >= imbProblemShare*all {
		sev = Problem
	}
	var utils []string
	for k := range util {
		utils = append(utils, fmt.Sprintf("%s %s", hecName(r.hecs[k]), pct(util[k])))
	}
	ev := []string{
		fmt.Sprintf("outside the sequential periods and GC (%s), the HECs ran Haskell code: %s", dur(parTime), strings.Join(utils, ", ")),
		fmt.Sprintf("capacity left unused below the busiest HEC: %s of HEC time (%s)", dur(uint64(lost)), pct(lost/all)),
		fmt.Sprintf("HEC time idle while threads were runnable: %s", dur(idleRunnable)),
	}
	sug := "The parallel work is split unevenly: make more, smaller pieces than HECs (parListChunk with smaller chunks, parBuffer, " +
		"or a pool of workers taking work from a shared queue) so that a HEC that finishes early finds more to do."
	if float64(idleRunnable) >= 0.5*lost {
		sug = "Threads waited, runnable, while a HEC idled: the HEC's OS thread did not run (more HECs, -N, than free cores: other " +
			"processes, or -N above the number of cores), or the threads were tied to a busy HEC (forkOn, or +RTS -qm, which stops " +
			"threads migrating). Keep -N within the free cores, and use forkIO rather than forkOn."
	}
	// The tracks: the busiest HEC and those that fell short of it.
	var caps []int32
	for k := range util {
		if k == best || util[k] <= imbRatio*util[best] {
			caps = append(caps, r.hecs[k])
		}
	}
	slices.Sort(caps)
	return []Finding{{Kind: KindImbalance, Severity: sev, From: r.edges[first], To: r.edges[last+1],
		Title: fmt.Sprintf("The HECs share the parallel work unevenly: %s busy %s, %s only %s",
			hecName(r.hecs[best]), pct(util[best]), hecName(r.hecs[worst]), pct(util[worst])),
		Evidence: ev, Suggestion: sug, Tracks: Tracks{Caps: caps}}}
}
