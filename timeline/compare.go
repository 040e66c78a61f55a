package timeline

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/hecscope/hecscope/ingest"
)

// Run is one side of a comparison: a run's summary and, when it was built,
// its model (for user spans, per-HEC utilisation and the distributions).
type Run struct {
	// Name identifies the run in tables and pictures (a file name, a saved
	// profile's name).
	Name string
	// Summary is the run's whole-run summary.
	Summary Summary
	// Model is the run's timeline model; nil leaves out the rows and
	// distributions that need it.
	Model *Model
}

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
	VerdictSame    Verdict = iota // equal values, or a change that is neither good nor bad
	VerdictBetter                 // B improves on A
	VerdictWorse                  // B is worse than A
	VerdictMissing                // one of the runs lacks the figure
)

// String returns "same", "better", "worse" or "missing".
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
	}
	return "invalid"
}

// DiffRow is one row of the table of differences between run A and run B.
//
// Values are float64: integer figures (ns, bytes, counts) are exact up to
// 2^53, which is 104 days in ns or 8 PiB.
type DiffRow struct {
	// Group is the section the row belongs to: "Time", "GC", "Heap",
	// "Sparks", "Threads", "User spans", "HECs" or "Distributions".
	Group string
	// Name is the figure, such as "Productivity" or "HEC 1 running".
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
}

// Delta returns B − A (0 unless both runs have the figure).
func (r DiffRow) Delta() float64 {
	if !r.HasA || !r.HasB {
		return 0
	}
	return r.B - r.A
}

// Relative returns (B − A) / A and true, or 0 and false when a run lacks the
// figure or A is 0 (no relative change can be given).
func (r DiffRow) Relative() (float64, bool) {
	if !r.HasA || !r.HasB || r.A == 0 {
		return 0, false
	}
	return (r.B - r.A) / math.Abs(r.A), true
}

// Verdict says whether B is better, worse or the same as A on this row.
func (r DiffRow) Verdict() Verdict {
	if !r.HasA || !r.HasB {
		return VerdictMissing
	}
	d := r.B - r.A
	switch {
	case d == 0 || r.Better == BetterNeither:
		return VerdictSame
	case (d < 0) == (r.Better == BetterLower):
		return VerdictBetter
	}
	return VerdictWorse
}

// Histogram is a distribution of durations of both runs over shared
// logarithmic bins, so that the two can be drawn overlaid.
type Histogram struct {
	// Title says what is counted, such as "GC pauses".
	Title string
	// Edges are the bin boundaries in ns, increasing: bin i counts the
	// durations d with Edges[i] ≤ d < Edges[i+1] (the last bin includes its
	// upper edge). There are four bins per decade, at 10^(k/4) ns; no edges
	// when neither run has a duration.
	Edges []uint64
	// A and B are the runs' counts per bin (len(Edges)−1 each).
	A, B []int
	// TotalA and TotalB are the numbers of durations; SumA and SumB their
	// sums in ns.
	TotalA, TotalB int
	SumA, SumB     uint64
	// QuantA and QuantB are the runs' quantiles (ns): the median, the 90th
	// and 99th percentiles and the maximum (nearest rank); zeros without
	// durations.
	QuantA, QuantB Quantiles
}

// Quantiles are the median, 90th and 99th percentiles and the maximum of
// a set of durations (ns), each the nearest-rank value.
type Quantiles struct {
	P50, P90, P99, Max uint64
}

// quantiles returns the quantiles of v (which it does not change).
func quantiles(v []uint64) Quantiles {
	if len(v) == 0 {
		return Quantiles{}
	}
	s := slices.Clone(v)
	slices.Sort(s)
	rank := func(p float64) uint64 {
		// Nearest rank: the smallest value with at least p of the values
		// at or below it.
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return Quantiles{P50: rank(0.5), P90: rank(0.9), P99: rank(0.99), Max: s[len(s)-1]}
}

// Comparison is everything the compare view shows about two runs.
type Comparison struct {
	// A and B are the names of the runs; deltas are B − A.
	A, B string
	// Rows is the table of differences, in display order.
	Rows []DiffRow
	// GCPauses and ThreadRuns are the distributions of stop-the-world GC
	// pauses and of the lengths of thread runs (empty without models).
	GCPauses, ThreadRuns Histogram
}

// Compare builds the table of differences and the distributions of run b
// against run a.
func Compare(a, b *Run) *Comparison {
	c := &Comparison{A: a.Name, B: b.Name}
	sa, sb := &a.Summary, &b.Summary
	add := func(group, name string, u Unit, better Better, va, vb float64, hasA, hasB bool) {
		c.Rows = append(c.Rows, DiffRow{Group: group, Name: name, Unit: u, A: va, B: vb, HasA: hasA, HasB: hasB, Better: better})
	}
	both := func(group, name string, u Unit, better Better, va, vb float64) {
		add(group, name, u, better, va, vb, true, true)
	}
	// ThreadScope shows mutator time, GC time and productivity only for
	// logs with heap information.
	ha, hb := sa.HasHeap, sb.HasHeap

	both("Time", "Wall time", UnitNS, BetterLower, f(sa.TotalNS), f(sb.TotalNS))
	add("Time", "Mutator time", UnitNS, BetterLower, f(sa.MutatorNS), f(sb.MutatorNS), ha, hb)
	add("Time", "GC time", UnitNS, BetterLower, f(sa.GC.Total.ElapsedNS), f(sb.GC.Total.ElapsedNS), ha, hb)
	add("Time", "Productivity", UnitFraction, BetterHigher, sa.Productivity, sb.Productivity, ha, hb)

	add("GC", "Collections", UnitCount, BetterLower, float64(sa.GC.Total.Collections), float64(sb.GC.Total.Collections), ha, hb)
	add("GC", "Collections (RTS)", UnitCount, BetterLower, float64(sa.GC.RTSCollections), float64(sb.GC.RTSCollections),
		sa.GC.RTSCollections > 0, sb.GC.RTSCollections > 0)
	add("GC", "Longest pause", UnitNS, BetterLower, f(sa.GC.Total.MaxPauseNS), f(sb.GC.Total.MaxPauseNS), ha, hb)
	add("GC", "Mean pause", UnitNS, BetterLower, f(sa.GC.Total.MeanPauseNS()), f(sb.GC.Total.MeanPauseNS()), ha, hb)
	add("GC", "Copied", UnitBytes, BetterLower, f(sa.Heap.Copied), f(sb.Heap.Copied), ha, hb)

	add("Heap", "Allocated", UnitBytes, BetterLower, f(sa.Heap.Allocated), f(sb.Heap.Allocated), ha, hb)
	add("Heap", "Allocation rate", UnitBytesPerSecond, BetterNeither, f(sa.Heap.AllocRate), f(sb.Heap.AllocRate), ha, hb)
	add("Heap", "Max heap size", UnitBytes, BetterLower, f(sa.Heap.MaxSize), f(sb.Heap.MaxSize), ha, hb)
	add("Heap", "Max live", UnitBytes, BetterLower, f(sa.Heap.MaxLive), f(sb.Heap.MaxLive), ha, hb)

	spa, spb := len(sa.Sparks.PerCap) > 0, len(sb.Sparks.PerCap) > 0
	ta, tb := &sa.Sparks.Total, &sb.Sparks.Total
	add("Sparks", "Sparks created", UnitCount, BetterNeither, f(ta.Created), f(tb.Created), spa, spb)
	add("Sparks", "Sparks converted", UnitCount, BetterHigher, f(ta.Converted), f(tb.Converted), spa, spb)
	add("Sparks", "Sparks fizzled", UnitCount, BetterLower, f(ta.Fizzled), f(tb.Fizzled), spa, spb)
	add("Sparks", "Sparks overflowed", UnitCount, BetterLower, f(ta.Overflowed), f(tb.Overflowed), spa, spb)
	add("Sparks", "Sparks GC'd", UnitCount, BetterLower, f(ta.GCd), f(tb.GCd), spa, spb)

	both("Threads", "Threads created", UnitCount, BetterNeither, f(sa.Threads), f(sb.Threads))
	both("Threads", "HECs", UnitCount, BetterNeither, float64(sa.Capabilities), float64(sb.Capabilities))

	if a.Model != nil || b.Model != nil {
		c.labelRows(a.Model, b.Model)
		c.hecRows(a.Model, b.Model)
		pa, pb := GCPauses(a.Model), GCPauses(b.Model)
		c.GCPauses = NewHistogram("GC pauses", pa, pb)
		ra, rb := ThreadRuns(a.Model), ThreadRuns(b.Model)
		c.ThreadRuns = NewHistogram("Thread runs", ra, rb)
		c.quantileRows(&c.GCPauses, "GC pause", BetterLower, a.Model != nil, b.Model != nil)
		c.quantileRows(&c.ThreadRuns, "Thread run", BetterNeither, a.Model != nil, b.Model != nil)
	}
	return c
}

func f(v uint64) float64 { return float64(v) }

// quantileRows adds the median, 90th percentile and maximum of a
// distribution to the "Distributions" group (runs without a model, or
// without any duration, lack them).
func (c *Comparison) quantileRows(h *Histogram, name string, better Better, modelA, modelB bool) {
	hasA, hasB := modelA && h.TotalA > 0, modelB && h.TotalB > 0
	for _, q := range []struct {
		label  string
		va, vb uint64
	}{
		{"median", h.QuantA.P50, h.QuantB.P50},
		{"p90", h.QuantA.P90, h.QuantB.P90},
		{"longest", h.QuantA.Max, h.QuantB.Max},
	} {
		c.Rows = append(c.Rows, DiffRow{Group: "Distributions", Name: name + " " + q.label, Unit: UnitNS,
			A: f(q.va), B: f(q.vb), HasA: hasA, HasB: hasB, Better: better})
	}
}

// labelRows adds, per user-span label of either run (in order of first
// appearance, A's first), the total time spent in the label's spans.
func (c *Comparison) labelRows(ma, mb *Model) {
	type pair struct {
		a, b       *LabelStats
		hasA, hasB bool
	}
	var order []string
	byName := map[string]*pair{}
	collect := func(m *Model, isA bool) {
		if m == nil {
			return
		}
		for i := range m.Labels {
			l := &m.Labels[i]
			name := m.String(l.Label)
			p, ok := byName[name]
			if !ok {
				p = &pair{}
				byName[name] = p
				order = append(order, name)
			}
			if isA {
				p.a, p.hasA = l, true
			} else {
				p.b, p.hasB = l, true
			}
		}
	}
	collect(ma, true)
	collect(mb, false)
	for _, name := range order {
		p := byName[name]
		var va, vb, na, nb float64
		if p.hasA {
			va, na = f(p.a.Total), float64(p.a.Count)
		}
		if p.hasB {
			vb, nb = f(p.b.Total), float64(p.b.Count)
		}
		c.Rows = append(c.Rows,
			DiffRow{Group: "User spans", Name: name + " total", Unit: UnitNS, A: va, B: vb, HasA: p.hasA, HasB: p.hasB, Better: BetterLower},
			DiffRow{Group: "User spans", Name: name + " count", Unit: UnitCount, A: na, B: nb, HasA: p.hasA, HasB: p.hasB, Better: BetterNeither})
	}
}

// hecRows adds each HEC's utilisation: the share of the run (from time 0 to
// the last event) it spent running Haskell code, and the share it spent in
// GC.
func (c *Comparison) hecRows(ma, mb *Model) {
	ua, ga := utilisation(ma)
	ub, gb := utilisation(mb)
	for h := 0; h < max(len(ua), len(ub)); h++ {
		row := func(name string, xa, xb []float64, better Better) DiffRow {
			r := DiffRow{Group: "HECs", Name: "HEC " + strconv.Itoa(h) + " " + name, Unit: UnitFraction, Better: better}
			if h < len(xa) {
				r.A, r.HasA = xa[h], true
			}
			if h < len(xb) {
				r.B, r.HasB = xb[h], true
			}
			return r
		}
		c.Rows = append(c.Rows, row("running", ua, ub, BetterHigher), row("GC", ga, gb, BetterLower))
	}
}

// utilisation returns, per HEC, the fractions of [0, m.End] it spent running
// a thread and in GC; nil for a nil or empty model.
func utilisation(m *Model) (run, gc []float64) {
	if m == nil || m.End == 0 {
		return nil, nil
	}
	span := float64(m.End)
	for _, d := range m.RangeTimes(0, m.End) {
		run = append(run, float64(d[StateRunning])/span)
		gc = append(gc, float64(d.GC())/span)
	}
	return run, gc
}

// GCPauses returns the lengths in ns of the run's stop-the-world GC pauses:
// the maximal intervals during which at least one HEC is in a GC state (the
// HECs of one collection enter and leave it at slightly different times;
// the union is how long the program stood still). Nil for a nil model.
func GCPauses(m *Model) []uint64 {
	if m == nil {
		return nil
	}
	type span struct{ from, to uint64 }
	var spans []span
	for c := range m.HECs {
		tr := &m.HECs[c].Track
		n := tr.Len()
		for i := 0; i < n; i++ {
			mk := tr.Mark(i)
			if !mk.State.GC() {
				continue
			}
			j := i + 1
			for j < n && tr.Mark(j).State.GC() {
				j++
			}
			end := tr.End()
			if j < n {
				end = tr.Mark(j).Time
			}
			spans = append(spans, span{mk.Time, max(end, mk.Time)})
			i = j - 1
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
	var out []uint64
	for i := 0; i < len(spans); {
		from, to := spans[i].from, spans[i].to
		j := i + 1
		for j < len(spans) && spans[j].from <= to {
			to = max(to, spans[j].to)
			j++
		}
		out = append(out, to-from)
		i = j
	}
	return out
}

// ThreadRuns returns the lengths in ns of every period a Haskell thread ran
// without stopping (from a run mark to the thread's next change of state; a
// thread still running at the end of the log runs to the last event). Nil
// for a nil model.
func ThreadRuns(m *Model) []uint64 {
	if m == nil {
		return nil
	}
	var out []uint64
	for t := range m.Threads {
		tr := &m.Threads[t].Track
		n := tr.Len()
		for i := 0; i < n; i++ {
			mk := tr.Mark(i)
			if mk.State != StateRunning {
				continue
			}
			j := i + 1
			for j < n && tr.Mark(j).State == StateRunning {
				j++
			}
			end := tr.End()
			if j < n {
				end = tr.Mark(j).Time
			}
			out = append(out, max(end, mk.Time)-mk.Time)
			i = j - 1
		}
	}
	return out
}

// binsPerDecade is the resolution of the histograms' logarithmic bins.
const binsPerDecade = 4

// logEdge returns the k-th logarithmic bin edge, 10^(k/binsPerDecade) ns
// rounded to an integer.
// (math.MaxUint64 for the edges past the largest duration).
func logEdge(k int) uint64 {
	e := math.Round(math.Pow(10, float64(k)/binsPerDecade))
	if e >= math.MaxUint64 {
		return math.MaxUint64
	}
	return uint64(e)
}

// logBin returns the k with logEdge(k) ≤ d < logEdge(k+1), for d ≥ 1.
func logBin(d uint64) int {
	k := int(math.Floor(math.Log10(float64(d)) * binsPerDecade))
	// Correct the floating-point estimate against the rounded edges.
	for k > 0 && logEdge(k) > d {
		k--
	}
	for e := logEdge(k + 1); e <= d && e != math.MaxUint64; e = logEdge(k + 1) {
		k++
	}
	return k
}

// NewHistogram bins the durations (ns) of two runs over shared logarithmic
// bins: four per decade, from the decade of the shortest duration to the
// bin holding the longest. Durations of 0 count in the first bin.
func NewHistogram(title string, a, b []uint64) Histogram {
	h := Histogram{Title: title, TotalA: len(a), TotalB: len(b), QuantA: quantiles(a), QuantB: quantiles(b)}
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for _, v := range [][]uint64{a, b} {
		for _, d := range v {
			lo, hi = min(lo, max(d, 1)), max(hi, d)
		}
	}
	if lo > hi {
		return h
	}
	k0 := logBin(lo) / binsPerDecade * binsPerDecade
	k1 := logBin(max(hi, 1)) + 1
	for k := k0; k <= k1; k++ {
		h.Edges = append(h.Edges, logEdge(k))
	}
	bins := len(h.Edges) - 1
	h.A, h.B = make([]int, bins), make([]int, bins)
	count := func(v []uint64, dst []int) uint64 {
		var sum uint64
		for _, d := range v {
			sum += d
			dst[min(max(logBin(max(d, 1))-k0, 0), bins-1)]++
		}
		return sum
	}
	h.SumA = count(a, h.A)
	h.SumB = count(b, h.B)
	return h
}

// ReadRun decodes a whole eventlog from src in one pass into a Run named
// name: its Summary and its Model. A truncated or corrupt log gives the run
// of what decodes (Summary.Status says where it ends); the error is non-nil
// only if reading src failed.
func ReadRun(src io.Reader, name string) (*Run, error) {
	r := ingest.NewReader(src)
	z := NewSummarizer()
	b := NewBuilder()
	var ev ingest.Event
	for r.Next(&ev) {
		z.Add(&ev)
		b.Add(&ev)
	}
	run := &Run{Name: name, Summary: z.Summary(r.Header(), r.Status()), Model: b.Snapshot()}
	if err := r.Err(); err != nil {
		return run, fmt.Errorf("reading run %s: %w", name, err)
	}
	return run, notEmpty(run.Summary.Status)
}

// FormatPoints writes the size of a difference of two fractions in
// percentage points, without sign: "4.4pp", or with two decimals below
// 0.1pp ("0.04pp") so that a small change does not read as none.
func FormatPoints(d float64) string {
	p := 100 * math.Abs(d)
	if p < 0.1 {
		return strconv.FormatFloat(p, 'f', 2, 64) + "pp"
	}
	return strconv.FormatFloat(p, 'f', 1, 64) + "pp"
}
