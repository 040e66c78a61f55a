package compare

import (
	"math"
	"slices"
	"sort"

	"github.com/hecscope/hecscope/timeline"
)

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

// GCPauses returns the lengths in ns of the run's stop-the-world GC pauses:
// the maximal intervals during which at least one HEC is in a GC state (the
// HECs of one collection enter and leave it at slightly different times;
// the union is how long the program stood still). Nil for a nil model.
func GCPauses(m *timeline.Model) []uint64 {
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
func ThreadRuns(m *timeline.Model) []uint64 {
	if m == nil {
		return nil
	}
	var out []uint64
	for _, th := range m.Threads() {
		tr := &th.Track
		n := tr.Len()
		for i := 0; i < n; i++ {
			mk := tr.Mark(i)
			if mk.State != timeline.StateRunning {
				continue
			}
			j := i + 1
			for j < n && tr.Mark(j).State == timeline.StateRunning {
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
			sum = max(sum+d, sum) // saturating: an impossible duration does not wrap
			dst[min(max(logBin(max(d, 1))-k0, 0), bins-1)]++
		}
		return sum
	}
	h.SumA = count(a, h.A)
	h.SumB = count(b, h.B)
	return h
}

// MeanA returns the mean of run A's durations (0 without any).
func (h *Histogram) MeanA() uint64 { return mean(h.SumA, h.TotalA) }

// MeanB returns the mean of run B's durations (0 without any).
func (h *Histogram) MeanB() uint64 { return mean(h.SumB, h.TotalB) }

func mean(sum uint64, n int) uint64 {
	if n == 0 {
		return 0
	}
	return sum / uint64(n)
}

// SameCounts reports whether both runs have as many durations: if not,
// their bins are compared as fractions of each run's count (FractionA,
// FractionB), not as counts.
func (h *Histogram) SameCounts() bool { return h.TotalA == h.TotalB }

// FractionA returns the share of run A's durations in bin i.
func (h *Histogram) FractionA(i int) float64 { return fraction(h.A[i], h.TotalA) }

// FractionB returns the share of run B's durations in bin i.
func (h *Histogram) FractionB(i int) float64 { return fraction(h.B[i], h.TotalB) }

func fraction(n, total int) float64 {
	if total == 0 {
		return 0
	}
	return float64(n) / float64(total)
}
