package spans

import (
	"cmp"
	"math"
	"slices"
)

// Verdict is what a comparison of one label's spans in two runs concludes.
type Verdict uint8

const (
	// Same: no change beyond noise (not significant, or within the
	// threshold).
	Same Verdict = iota
	// Slower and Faster: B's spans are significantly longer (shorter) than
	// A's, and their median moved by more than the threshold.
	Slower
	Faster
	// TooFew: one run has fewer than MinSamples finished spans of the
	// label; no verdict.
	TooFew
	// New and Gone: the label occurs only in B, or only in A.
	New
	Gone
)

// String names the verdict as the commands print it.
func (v Verdict) String() string {
	switch v {
	case Slower:
		return "slower"
	case Faster:
		return "faster"
	case TooFew:
		return "too few"
	case New:
		return "new"
	case Gone:
		return "gone"
	}
	return "same"
}

// MinSamples is the fewest spans of a label each run needs for a verdict.
const MinSamples = 5

// DiffOptions says when a change counts.
type DiffOptions struct {
	// Threshold is the smallest relative change of the median that counts
	// (0: 0.05, i.e. 5%).
	Threshold float64
	// Alpha is the significance level of the Mann–Whitney test (0: 0.01).
	Alpha float64
}

// Change is one label's spans in runs A and B.
type Change struct {
	Name string
	Kind Kind
	// A and B are the label's statistics in each run (nil where it does
	// not occur).
	A, B *Label
	// MedianChange is B's median over A's, minus 1 (0.1: 10% longer); 0
	// unless both have spans.
	MedianChange float64
	// P is the two-sided p-value of the Mann–Whitney U test that the
	// durations of A and B come from the same distribution (1 when not
	// tested), and Superiority the probability that a span of B is longer
	// than one of A (ties count half): 0.5 means no shift.
	P, Superiority float64
	Verdict        Verdict
}

// Diff compares the labels of two reports: one Change per label of
// either, in A's order (by total time) and then B's new labels. A label
// gets a verdict only when both runs have MinSamples spans of it, the
// test says the durations differ (p < Alpha), and the median moved by more
// than Threshold in the same direction as the shift the test found.
func Diff(a, b *Report, opt DiffOptions) []Change {
	if opt.Threshold <= 0 {
		opt.Threshold = 0.05
	}
	if opt.Alpha <= 0 {
		opt.Alpha = 0.01
	}
	var out []Change
	seen := make(map[labelKey]bool)
	for _, la := range a.Labels {
		k := labelKey{la.Kind, la.Name}
		seen[k] = true
		out = append(out, compareLabel(la, b.Label(la.Kind, la.Name), opt))
	}
	for _, lb := range b.Labels {
		if !seen[labelKey{lb.Kind, lb.Name}] {
			out = append(out, compareLabel(nil, lb, opt))
		}
	}
	return out
}

// compareLabel compares one label's spans (either side may be nil or
// empty).
func compareLabel(a, b *Label, opt DiffOptions) Change {
	c := Change{A: a, B: b, P: 1, Superiority: 0.5}
	if a != nil {
		c.Name, c.Kind = a.Name, a.Kind
	} else {
		c.Name, c.Kind = b.Name, b.Kind
	}
	na, nb := 0, 0
	if a != nil {
		na = a.Count
	}
	if b != nil {
		nb = b.Count
	}
	switch {
	case na == 0 && nb == 0: // only open spans in both
		c.Verdict = TooFew
		return c
	case na == 0:
		c.Verdict = New
		return c
	case nb == 0:
		c.Verdict = Gone
		return c
	}
	if ma := a.Quantile(.5); ma > 0 {
		c.MedianChange = float64(b.Quantile(.5))/float64(ma) - 1
	}
	if na < MinSamples || nb < MinSamples {
		c.Verdict = TooFew
		return c
	}
	av, ac := a.Durations()
	bv, bc := b.Durations()
	c.P, c.Superiority = MannWhitney(av, ac, bv, bc)
	if c.P < opt.Alpha && math.Abs(c.MedianChange) > opt.Threshold {
		switch {
		case c.MedianChange > 0 && c.Superiority > 0.5:
			c.Verdict = Slower
		case c.MedianChange < 0 && c.Superiority < 0.5:
			c.Verdict = Faster
		}
	}
	return c
}

// MannWhitney tests whether two samples, each given as ascending distinct
// values with their counts, come from the same distribution: it returns
// the two-sided p-value of the Mann–Whitney U test (normal approximation
// with the correction for ties and for continuity) and the probability
// that a value of the second sample exceeds one of the first (ties count
// half). Empty samples give p = 1 and 0.5.
func MannWhitney(av, ac, bv, bc []uint64) (p, superiority float64) {
	var na, nb float64
	for _, n := range ac {
		na += float64(n)
	}
	for _, n := range bc {
		nb += float64(n)
	}
	if na == 0 || nb == 0 {
		return 1, 0.5
	}
	// Walk both in ascending order, ranking each distinct value once: its
	// values take the ranks after those below it, and share their mean.
	var rankB, below, ties float64
	i, j := 0, 0
	for i < len(av) || j < len(bv) {
		var v uint64
		switch {
		case j >= len(bv) || (i < len(av) && av[i] < bv[j]):
			v = av[i]
		default:
			v = bv[j]
		}
		var ka, kb float64
		if i < len(av) && av[i] == v {
			ka = float64(ac[i])
			i++
		}
		if j < len(bv) && bv[j] == v {
			kb = float64(bc[j])
			j++
		}
		t := ka + kb
		rankB += kb * (below + (t+1)/2)
		below += t
		ties += t*t*t - t
	}
	ub := rankB - nb*(nb+1)/2
	superiority = ub / (na * nb)
	n := na + nb
	mean := na * nb / 2
	variance := na * nb / 12 * ((n + 1) - ties/(n*(n-1)))
	if !(variance > 0) {
		return 1, superiority // every value the same
	}
	z := math.Max(math.Abs(ub-mean)-0.5, 0) / math.Sqrt(variance)
	return math.Erfc(z / math.Sqrt2), superiority
}

// SortChanges orders changes by the size of the median's change, largest
// first (verdicts first), ties by name.
func SortChanges(cs []Change) {
	rank := func(v Verdict) int {
		switch v {
		case Slower, Faster:
			return 0
		case New, Gone:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(cs, func(x, y Change) int {
		return cmp.Or(cmp.Compare(rank(x.Verdict), rank(y.Verdict)),
			cmp.Compare(math.Abs(y.MedianChange), math.Abs(x.MedianChange)),
			cmp.Compare(x.Name, y.Name))
	})
}
