package spans

import (
	"math"
	"slices"
	"sort"
)

// gamma is the ratio between the bounds of two successive buckets of a
// sketched distribution: a quantile read from one is within half a percent
// of the true value.
const gamma = 1.01

var logGamma = math.Log(gamma)

// zeroBucket is the bucket of zero durations in a sketch.
const zeroBucket = math.MinInt32

// distribution holds the durations of one label: every one of them while
// they are few enough (exact), or their counts per logarithmic bucket once
// the collector's budget of exact values is spent (sketched).
type distribution struct {
	exact   []uint64
	sorted  bool
	buckets map[int32]uint64 // non-nil once sketched
	n       int
}

// add records the duration d.
func (d *distribution) add(v uint64) {
	d.n++
	if d.buckets != nil {
		d.buckets[bucketOf(v)]++
		return
	}
	d.exact = append(d.exact, v)
	d.sorted = false
}

// sketch turns the exact values into bucket counts and frees them.
func (d *distribution) sketch() {
	if d.buckets != nil {
		return
	}
	d.buckets = make(map[int32]uint64)
	for _, v := range d.exact {
		d.buckets[bucketOf(v)]++
	}
	d.exact = nil
}

// bucketOf returns the logarithmic bucket of v.
func bucketOf(v uint64) int32 {
	if v == 0 {
		return zeroBucket
	}
	return int32(math.Floor(math.Log(float64(v)) / logGamma))
}

// bucketValue returns the value a bucket stands for: the geometric middle of
// its bounds.
func bucketValue(b int32) uint64 {
	if b == zeroBucket {
		return 0
	}
	return uint64(math.Round(math.Exp((float64(b) + 0.5) * logGamma)))
}

// sortedExact returns the exact values in ascending order.
func (d *distribution) sortedExact() []uint64 {
	if !d.sorted {
		slices.Sort(d.exact)
		d.sorted = true
	}
	return d.exact
}

// weighted returns the distinct values (a sketch's bucket values) in
// ascending order with how many durations each stands for.
func (d *distribution) weighted() (values []uint64, counts []uint64) {
	if d.buckets == nil {
		for _, v := range d.sortedExact() {
			if n := len(values); n > 0 && values[n-1] == v {
				counts[n-1]++
				continue
			}
			values = append(values, v)
			counts = append(counts, 1)
		}
		return values, counts
	}
	keys := make([]int32, 0, len(d.buckets))
	for b := range d.buckets {
		keys = append(keys, b)
	}
	slices.Sort(keys)
	for _, b := range keys {
		values = append(values, bucketValue(b))
		counts = append(counts, d.buckets[b])
	}
	return values, counts
}

// quantile returns the q-quantile (0 < q ≤ 1) by the nearest-rank method:
// the smallest duration with at least q·n durations at or below it; for a
// sketch, its bucket's value clamped to [lo, hi] (the exact extremes).
func (d *distribution) quantile(q float64, lo, hi uint64) uint64 {
	if d.n == 0 {
		return 0
	}
	rank := int(math.Ceil(q * float64(d.n)))
	rank = min(max(rank, 1), d.n)
	if d.buckets == nil {
		return d.sortedExact()[rank-1]
	}
	values, counts := d.weighted()
	var seen uint64
	for i, v := range values {
		seen += counts[i]
		if seen >= uint64(rank) {
			return min(max(v, lo), hi)
		}
	}
	return hi
}

// Bin is one bar of a duration histogram: Count durations d with
// Lo ≤ d < Hi (the last bin also holds d = Hi).
type Bin struct {
	Lo, Hi uint64
	Count  int
}

// histogram cuts [lo, hi] into n bins — logarithmic when the durations span
// more than a factor of 20, linear otherwise — and counts the durations in
// each.
func (d *distribution) histogram(n int, lo, hi uint64) []Bin {
	if d.n == 0 || n <= 0 {
		return nil
	}
	if hi <= lo {
		return []Bin{{Lo: lo, Hi: hi, Count: d.n}}
	}
	bounds := make([]uint64, n+1)
	logScale := lo > 0 && float64(hi)/float64(lo) > 20
	for i := range bounds {
		f := float64(i) / float64(n)
		if logScale {
			bounds[i] = uint64(math.Round(float64(lo) * math.Pow(float64(hi)/float64(lo), f)))
		} else {
			bounds[i] = lo + uint64(math.Round(f*float64(hi-lo)))
		}
	}
	bounds[0], bounds[n] = lo, hi
	bins := make([]Bin, n)
	for i := range bins {
		bins[i] = Bin{Lo: bounds[i], Hi: bounds[i+1]}
	}
	values, counts := d.weighted()
	for i, v := range values {
		v = min(max(v, lo), hi)
		// The first bin whose upper bound is above v (the last for hi).
		k := sort.Search(n, func(k int) bool { return bounds[k+1] > v })
		k = min(k, n-1)
		bins[k].Count += int(counts[i])
	}
	return bins
}
