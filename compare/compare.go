// Package compare compares two runs of a program: the table of differences
// between their figures (each row with a stable key, its definition said in
// its name), the distributions of their GC pauses and thread runs, verdicts
// that say "better" or "worse" only beyond a noise threshold and never on
// the totals of a run that did not finish, the comparison over the time
// both runs cover, the thresholds a CI job checks (FailIf), where to align
// two runs, and the picture that shows both on one time scale.
//
// Two definitions of the GC figures exist, and both are shown, labelled:
// ThreadScope's counting (timeline.GCSummary: a collection counts only when
// its leading capability's events come in one order, timed in whole
// microseconds; the "Time" rows follow it) and every collection the RTS
// made (the GC stops, "HECs stopped" as the canvas's tooltips say: each
// stop of the world, from the first HEC entering GC to the last leaving it,
// whose count is the RTS's; a collection's pause in the summary's GC table is
// shorter, timed on the HEC that ran it).
package compare

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// Run is one side of a comparison: a run's summary and, when it was built,
// its model (for user spans, per-HEC shares and the distributions).
type Run struct {
	// Name identifies the run in tables and pictures (a file name, a saved
	// profile's name).
	Name string
	// Summary is the run's whole-run summary; its Status says whether the
	// run is complete.
	Summary timeline.Summary
	// Model is the run's timeline model; nil leaves out the rows and
	// distributions that need it.
	Model *timeline.Model
	// Path is the eventlog the run was read from ("" if none): the
	// comparison over the time both runs cover reads it again. Offset and
	// Length are the bytes of it that hold the run's eventlog, when the
	// file holds several one after another (Length 0: the whole file).
	Path           string
	Offset, Length int64
}

// wholeUntil returns the time up to which the run's log holds every
// capability's events: the last event's for a complete run; for a partial
// one with a model, the earliest of its HECs' ends (the capabilities of a
// cut log end at their last events, timeline.Builder.EndCapabilities: the
// blocks of the others after that were lost with the rest of the file).
func (r *Run) wholeUntil() uint64 {
	whole := r.Summary.LastNS
	if m := r.Model; m != nil && r.Partial() {
		for h := range m.HECs {
			if e := m.HECs[h].Track.End(); e > m.Start {
				whole = min(whole, e)
			}
		}
	}
	return whole
}

// Partial reports whether the run did not end with the log's end marker
// (truncated or corrupt): its totals cover only part of it.
func (r *Run) Partial() bool { return r.Summary.Status.State != ingest.StateComplete }

// Unit says how a comparison row's values are measured.
type Unit uint8

// Units of comparison rows.
const (
	UnitCount          Unit = iota // a number of things
	UnitNS                         // nanoseconds
	UnitBytes                      // bytes
	UnitFraction                   // a fraction in [0, 1] (shown as a percentage)
	UnitBytesPerSecond             // bytes per second
)

// String returns the unit's name as the JSON output spells it.
func (u Unit) String() string {
	switch u {
	case UnitCount:
		return "count"
	case UnitNS:
		return "ns"
	case UnitBytes:
		return "bytes"
	case UnitFraction:
		return "fraction"
	case UnitBytesPerSecond:
		return "bytes/s"
	}
	return "invalid"
}

// Better says which direction of change is an improvement.
type Better int8

// Directions of improvement.
const (
	BetterNeither Better = 0  // a change is neither good nor bad (e.g. sparks created)
	BetterLower   Better = -1 // smaller is better (times, pauses, bytes)
	BetterHigher  Better = 1  // larger is better (productivity, sparks converted)
)

// String returns "lower", "higher" or "neither".
func (b Better) String() string {
	switch b {
	case BetterLower:
		return "lower"
	case BetterHigher:
		return "higher"
	}
	return "neither"
}

// Verdict is how run B compares with run A on one row.
type Verdict int8

// Verdicts of a comparison row.
const (
	// VerdictSame: equal values, a change within the noise threshold, or a
	// change that is neither good nor bad.
	VerdictSame Verdict = iota
	// VerdictBetter: B improves on A beyond the threshold.
	VerdictBetter
	// VerdictWorse: B is worse than A beyond the threshold.
	VerdictWorse
	// VerdictMissing: one of the runs lacks the figure.
	VerdictMissing
	// VerdictPartial: no verdict, because a run did not finish and the
	// figure covers only part of it (see Comparison.Partial).
	VerdictPartial
)

// String returns "same", "better", "worse", "missing" or "partial".
func (v Verdict) String() string {
	switch v {
	case VerdictSame:
		return "same"
	case VerdictBetter:
		return "better"
	case VerdictWorse:
		return "worse"
	case VerdictMissing:
		return "missing"
	case VerdictPartial:
		return "partial"
	}
	return "invalid"
}

// DefaultThreshold is the relative change below which a difference is
// noise: 5 %.
const DefaultThreshold = 0.05

// Row is one row of the table of differences between run A and run B.
//
// Values are float64: integer figures (ns, bytes, counts) are exact up to
// 2^53, which is 104 days in ns or 8 PiB.
type Row struct {
	// Key is the row's stable name for scripts and FailIf: "wall",
	// "gc_max_pause", "span:parse.p90", "hec:1.running", …
	Key string
	// Group is the section the row belongs to: "Time", "GC", "Heap",
	// "Sparks", "Threads", "User spans", "HECs" or "Distributions".
	Group string
	// Name is the figure as people read it, with the definition it uses
	// when there are several ("Collections (ThreadScope's counting)").
	Name string
	// Unit is what A, B and Delta measure.
	Unit Unit
	// A and B are the two runs' values; HasA and HasB say whether the run
	// has the figure at all (a HEC the other run lacks, a user-span label
	// only one run logs, heap figures of a log without heap events).
	A, B       float64
	HasA, HasB bool
	// Better is the direction in which a change is an improvement.
	Better Better
	// Threshold is the relative change up to which the row's verdict is
	// "same" (Options.Threshold).
	Threshold float64
	// Partial says that a run did not finish, so that the row's figures
	// cover only part of it: the row gets no verdict.
	Partial bool
}

// Delta returns B − A (0 unless both runs have the figure).
func (r Row) Delta() float64 {
	if !r.HasA || !r.HasB {
		return 0
	}
	return r.B - r.A
}

// Relative returns (B − A) / A and true, or 0 and false when a run lacks the
// figure or A is 0 (no relative change can be given).
func (r Row) Relative() (float64, bool) {
	if !r.HasA || !r.HasB || r.A == 0 {
		return 0, false
	}
	return (r.B - r.A) / math.Abs(r.A), true
}

// Verdict says whether B is better, worse or the same as A on this row: a
// change counts only beyond the threshold (relative to A; any change from
// 0 counts), and a row of a partial run gets none.
func (r Row) Verdict() Verdict {
	if !r.HasA || !r.HasB {
		return VerdictMissing
	}
	if r.Partial {
		return VerdictPartial
	}
	d := r.B - r.A
	if d == 0 || r.Better == BetterNeither {
		return VerdictSame
	}
	if rel, ok := r.Relative(); ok && math.Abs(rel) < r.Threshold {
		return VerdictSame
	}
	if (d < 0) == (r.Better == BetterLower) {
		return VerdictBetter
	}
	return VerdictWorse
}

// Options says how to compare.
type Options struct {
	// Threshold is the relative change below which a difference is noise
	// ("same"); 0 means DefaultThreshold, a negative value none.
	Threshold float64
}

// threshold returns the threshold to apply.
func (o Options) threshold() float64 {
	switch {
	case o.Threshold == 0:
		return DefaultThreshold
	case o.Threshold < 0:
		return 0
	}
	return o.Threshold
}

// Comparison is everything the compare views show about two runs.
type Comparison struct {
	// A and B are the names of the runs; deltas are B − A.
	A, B string
	// StatusA and StatusB are how the runs' logs end.
	StatusA, StatusB ingest.Status
	// Partial says that a run did not finish: no row gets a verdict (see
	// Covered for a comparison that can).
	Partial bool
	// Threshold is the noise threshold the verdicts use.
	Threshold float64
	// Rows is the table of differences, in display order.
	Rows []Row
	// GCPauses and ThreadRuns are the distributions of stop-the-world GC
	// pauses (every collection the RTS made) and of the lengths of thread
	// runs (empty without models).
	GCPauses, ThreadRuns Histogram
}

// Row returns the row with the given key, or nil.
func (c *Comparison) Row(key string) *Row {
	for i := range c.Rows {
		if c.Rows[i].Key == key {
			return &c.Rows[i]
		}
	}
	return nil
}

// Compare builds the table of differences and the distributions of run b
// against run a.
func Compare(a, b *Run, opt Options) *Comparison {
	c := &Comparison{A: a.Name, B: b.Name, StatusA: a.Summary.Status, StatusB: b.Summary.Status,
		Partial: a.Partial() || b.Partial(), Threshold: opt.threshold()}
	sa, sb := &a.Summary, &b.Summary
	// ThreadScope shows mutator time, GC time and productivity only for
	// logs with heap information.
	ha, hb := sa.HasHeap, sb.HasHeap
	add := func(key, group, name string, u Unit, better Better, va, vb float64, hasA, hasB bool) {
		c.Rows = append(c.Rows, Row{Key: key, Group: group, Name: name, Unit: u, A: va, B: vb, HasA: hasA, HasB: hasB, Better: better})
	}

	add("wall", "Time", "Wall time", UnitNS, BetterLower, f(sa.TotalNS), f(sb.TotalNS), true, true)
	// The GC time each summary's time figures use (ThreadScope's count for
	// a whole run with heap events, the GC pauses for a stretch or an old
	// log), compared only where both runs count it alike.
	gcA, okA := sa.GCTime()
	gcB, okB := sb.GCTime()
	how := ""
	switch {
	case okA && okB && sa.GCFrom != sb.GCFrom:
		how = " (" + gcCounting(sa.GCFrom) + " vs " + gcCounting(sb.GCFrom) + ": not compared)"
		okA, okB = false, false
	case okA:
		how = " (" + gcCounting(sa.GCFrom) + ")"
	case okB:
		how = " (" + gcCounting(sb.GCFrom) + ")"
	}
	add("mutator", "Time", "Mutator time"+how, UnitNS, BetterLower, f(sa.MutatorNS), f(sb.MutatorNS), okA, okB)
	add("gc", "Time", "GC time"+how, UnitNS, BetterLower, f(gcA), f(gcB), okA, okB)
	add("productivity", "Time", "Productivity"+how, UnitFraction, BetterHigher, sa.Productivity, sb.Productivity, okA, okB)

	add("gc_collections_threadscope", "GC", "Collections (ThreadScope's counting)", UnitCount, BetterLower,
		float64(sa.GC.Total.Collections), float64(sb.GC.Total.Collections), ha, hb)
	add("gc_max_pause_threadscope", "GC", "Longest pause (ThreadScope's counting)", UnitNS, BetterLower,
		f(sa.GC.Total.MaxPauseNS), f(sb.GC.Total.MaxPauseNS), ha, hb)
	add("gc_mean_pause_threadscope", "GC", "Mean pause (ThreadScope's counting)", UnitNS, BetterLower,
		f(sa.GC.Total.MeanPauseNS()), f(sb.GC.Total.MeanPauseNS()), ha, hb)
	add("gc_collections_rts", "GC", "Collections (RTS's count)", UnitCount, BetterLower, float64(sa.GC.RTSCollections), float64(sb.GC.RTSCollections),
		sa.GC.RTSCollections > 0, sb.GC.RTSCollections > 0)
	// A heap figure is there only if its log has its events: a log
	// without HeapLive has no residency, not 0 (which made max_live
	// −100 %).
	hpa, hpb := &sa.Heap, &sb.Heap
	add("gc_copied", "GC", "Copied", UnitBytes, BetterLower, f(hpa.Copied), f(hpb.Copied), hpa.HasStats, hpb.HasStats)

	add("allocated", "Heap", "Allocated", UnitBytes, BetterLower, f(hpa.Allocated), f(hpb.Allocated), hpa.HasAllocated, hpb.HasAllocated)
	add("alloc_rate", "Heap", "Allocation rate", UnitBytesPerSecond, BetterNeither, f(hpa.AllocRate), f(hpb.AllocRate),
		sa.HasAllocRate() && ha, sb.HasAllocRate() && hb)
	add("max_heap", "Heap", "Max heap size", UnitBytes, BetterLower, f(hpa.MaxSize), f(hpb.MaxSize), hpa.HasSize, hpb.HasSize)
	add("max_live", "Heap", "Max live", UnitBytes, BetterLower, f(hpa.MaxLive), f(hpb.MaxLive), hpa.HasLive, hpb.HasLive)

	spa, spb := len(sa.Sparks.PerCap) > 0, len(sb.Sparks.PerCap) > 0
	ta, tb := &sa.Sparks.Total, &sb.Sparks.Total
	// Created counts the sparks that entered a pool; duds never did (the
	// summary's Total, ThreadScope's, is created + dud + overflowed).
	add("sparks.created", "Sparks", "Sparks created (entered a pool)", UnitCount, BetterNeither, f(ta.Created), f(tb.Created), spa, spb)
	add("sparks.dud", "Sparks", "Sparks dud (already evaluated)", UnitCount, BetterNeither, f(ta.Dud), f(tb.Dud), spa, spb)
	add("sparks.converted", "Sparks", "Sparks converted", UnitCount, BetterHigher, f(ta.Converted), f(tb.Converted), spa, spb)
	add("sparks.fizzled", "Sparks", "Sparks fizzled", UnitCount, BetterLower, f(ta.Fizzled), f(tb.Fizzled), spa, spb)
	add("sparks.overflowed", "Sparks", "Sparks overflowed", UnitCount, BetterLower, f(ta.Overflowed), f(tb.Overflowed), spa, spb)
	add("sparks.gcd", "Sparks", "Sparks GC'd", UnitCount, BetterLower, f(ta.GCd), f(tb.GCd), spa, spb)

	add("threads", "Threads", "Threads created", UnitCount, BetterNeither, f(sa.Threads), f(sb.Threads), true, true)
	add("hecs", "Threads", "HECs", UnitCount, BetterNeither, float64(sa.Capabilities), float64(sb.Capabilities), true, true)

	if a.Model != nil || b.Model != nil {
		c.GCPauses = NewHistogram("GC stops (every collection: HECs stopped, first HEC in GC to last out)", GCPauses(a.Model), GCPauses(b.Model))
		c.ThreadRuns = NewHistogram("Thread runs", ThreadRuns(a.Model), ThreadRuns(b.Model))
		c.distributionRows(&c.GCPauses, "gc_pause", "GC stop", BetterLower, a.Model != nil, b.Model != nil)
		c.distributionRows(&c.ThreadRuns, "thread_run", "Thread run", BetterNeither, a.Model != nil, b.Model != nil)
		c.labelRows(a.Model, b.Model)
		c.hecRows(a.Model, b.Model)
	}
	for i := range c.Rows {
		c.Rows[i].Threshold, c.Rows[i].Partial = c.Threshold, c.Partial
	}
	return c
}

func f(v uint64) float64 { return float64(v) }

// gcCounting names, for a row's name, how a summary's GC time counts.
func gcCounting(from timeline.GCSource) string {
	if from == timeline.GCFromThreadScope {
		return "ThreadScope's counting"
	}
	return "GC pauses"
}

// distributionRows adds the count, mean, median, 90th percentile and
// maximum of a distribution (runs without a model, or without any
// duration, lack them). The GC stops' longest is gc_max_pause.
func (c *Comparison) distributionRows(h *Histogram, key, name string, better Better, modelA, modelB bool) {
	group := "Distributions"
	hasA, hasB := modelA && h.TotalA > 0, modelB && h.TotalB > 0
	def, countDef := "", ""
	if key == "gc_pause" {
		def, countDef = " (HECs stopped)", " (every collection)"
	}
	count := func(n int, has bool) float64 {
		if !has {
			return 0
		}
		return float64(n)
	}
	c.Rows = append(c.Rows, Row{Key: key + "s", Group: group, Name: name + "s" + countDef, Unit: UnitCount,
		A: count(h.TotalA, modelA), B: count(h.TotalB, modelB), HasA: modelA, HasB: modelB, Better: BetterNeither})
	maxKey := key + ".max"
	if key == "gc_pause" {
		maxKey = "gc_max_pause"
	}
	for _, q := range []struct {
		key, label string
		va, vb     uint64
	}{
		{key + ".mean", "mean", h.MeanA(), h.MeanB()},
		{key + ".p50", "median", h.QuantA.P50, h.QuantB.P50},
		{key + ".p90", "p90", h.QuantA.P90, h.QuantB.P90},
		{maxKey, "longest", h.QuantA.Max, h.QuantB.Max},
	} {
		c.Rows = append(c.Rows, Row{Key: q.key, Group: group, Name: name + " " + q.label + def, Unit: UnitNS,
			A: f(q.va), B: f(q.vb), HasA: hasA, HasB: hasB, Better: better})
	}
}

// labelRows adds, per user-span label of either run (in order of first
// appearance, A's first), the total time spent in the label's spans, their
// count, and the median, 90th percentile and longest of their durations.
func (c *Comparison) labelRows(ma, mb *timeline.Model) {
	type side struct {
		total uint64
		count int
		durs  []uint64
		has   bool
	}
	type pair struct{ a, b side }
	var order []string
	byName := map[string]*pair{}
	collect := func(m *timeline.Model, isA bool) {
		if m == nil {
			return
		}
		get := func(name string) *side {
			p, ok := byName[name]
			if !ok {
				p = &pair{}
				byName[name] = p
				order = append(order, name)
			}
			if isA {
				return &p.a
			}
			return &p.b
		}
		for i := range m.Labels {
			l := &m.Labels[i]
			s := get(m.String(l.Label))
			s.total, s.count, s.has = l.Total, l.Count, true
		}
		for i := 0; i < m.NumUserSpans(); i++ {
			sp := m.UserSpan(i)
			s := get(m.String(sp.Label))
			s.durs = append(s.durs, sp.End-min(sp.Start, sp.End))
		}
	}
	collect(ma, true)
	collect(mb, false)
	for _, name := range order {
		p := byName[name]
		qa, qb := quantiles(p.a.durs), quantiles(p.b.durs)
		key := "span:" + name
		row := func(suffix, label string, u Unit, better Better, va, vb float64) Row {
			return Row{Key: key + "." + suffix, Group: "User spans", Name: name + " " + label, Unit: u,
				A: va, B: vb, HasA: p.a.has, HasB: p.b.has, Better: better}
		}
		c.Rows = append(c.Rows,
			row("total", "total", UnitNS, BetterLower, f(p.a.total), f(p.b.total)),
			row("count", "count", UnitCount, BetterNeither, float64(p.a.count), float64(p.b.count)),
			row("p50", "median", UnitNS, BetterLower, f(qa.P50), f(qb.P50)),
			row("p90", "p90", UnitNS, BetterLower, f(qa.P90), f(qb.P90)),
			row("max", "longest", UnitNS, BetterLower, f(qa.Max), f(qb.Max)))
	}
}

// hecRows adds each HEC's shares of the run (from time 0 to the last
// event, or to its frontier in a cut log): running Haskell code, and in
// any GC state (working, waiting or synchronising: more than the GC time,
// which counts a collection once).
func (c *Comparison) hecRows(ma, mb *timeline.Model) {
	sa, sb := shares(ma), shares(mb)
	caps := make([]int32, 0, len(sa)+len(sb))
	for cp := range sa {
		caps = append(caps, cp)
	}
	for cp := range sb {
		if _, ok := sa[cp]; !ok {
			caps = append(caps, cp)
		}
	}
	slices.Sort(caps)
	for _, cp := range caps {
		h := strconv.Itoa(int(cp))
		row := func(key, name string, pick func(hecShare) float64, better Better) Row {
			r := Row{Key: "hec:" + h + "." + key, Group: "HECs", Name: "HEC " + h + " " + name,
				Unit: UnitFraction, Better: better}
			if x, ok := sa[cp]; ok {
				r.A, r.HasA = pick(x), true
			}
			if x, ok := sb[cp]; ok {
				r.B, r.HasB = pick(x), true
			}
			return r
		}
		c.Rows = append(c.Rows, row("running", "running (share of wall time)", func(x hecShare) float64 { return x.run }, BetterHigher),
			row("gc", "in any GC state (share of wall time)", func(x hecShare) float64 { return x.gc }, BetterLower))
	}
}

// hecShare is the fractions of a run's wall time (up to the HEC's
// frontier) a HEC spent running a thread and in a GC state.
type hecShare struct{ run, gc float64 }

// shares returns the shares of [0, m.End] of each HEC, by capability
// number, of the time it is known for (up to its frontier: a cut log's
// HEC is not idle where its data ends, only unknown); nil for a nil or
// empty model.
func shares(m *timeline.Model) map[int32]hecShare {
	if m == nil || m.End == 0 {
		return nil
	}
	out := make(map[int32]hecShare, len(m.HECs))
	for i, d := range m.RangeTimes(0, m.End) {
		span := float64(d.Total())
		if span == 0 {
			continue
		}
		out[m.HECs[i].Cap] = hecShare{run: float64(d[timeline.StateRunning]) / span, gc: float64(d.GC()) / span}
	}
	return out
}

// FormatPoints writes the size of a difference of two fractions in
// percentage points, without sign: "4.4pp", or with two decimals below
// 0.1pp ("0.04pp") so that a small change does not read as none.
func FormatPoints(d float64) string {
	p := 100 * math.Abs(d)
	if p < 0.1 {
		return fmt.Sprintf("%.2fpp", p)
	}
	return fmt.Sprintf("%.1fpp", p)
}
