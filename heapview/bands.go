package heapview

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// DefaultBands is how many named bands Bands keeps unless told otherwise.
const DefaultBands = 15

// OtherName is the name of the band that gathers every band not among the
// largest ones.
const OtherName = "OTHER"

// Order is the order in which bands are stacked and listed.
type Order uint8

const (
	// BySize puts the band with the largest integrated size first.
	BySize Order = iota
	// ByName sorts bands by name.
	ByName
	// ByGrowth puts the fastest-growing band first (the slope of a
	// least-squares line through its censuses), which brings leaks up.
	ByGrowth
)

// BandOptions says how to reduce a Profile to bands.
type BandOptions struct {
	// Max is how many named bands to keep; the rest go into OTHER.
	// 0 means DefaultBands.
	Max int
	// Order is the order of the kept bands; OTHER always comes last.
	Order Order
}

// Bands is a Profile reduced to its largest bands, as a dense matrix: the
// value of every band at every sample. Band 0 is drawn at the bottom of a
// stacked chart and listed first in a legend. If the profile has more
// distinct names than BandOptions.Max, the last band is OTHER, the sum of
// all the others.
type Bands struct {
	// Source says how to read the sample times (see Profile).
	Source Source

	names    names     // band names, in band order
	times    []uint64  // sample times, ns
	values   []uint64  // values[b*len(times)+s]
	totals   []uint64  // per sample, sum over bands
	integral []float64 // per band, sum over censuses, bytes
	growth   []float64 // per band, bytes per census
	other    int       // index of OTHER, -1 if none
	dropped  int       // number of names gathered into OTHER
}

// NewBands reduces p to its opt.Max largest bands by integrated size,
// gathering the rest into OTHER, and orders them by opt.Order.
//
// The integrated size of a band is the sum of its values over all censuses:
// the area under the band with the census interval as the unit of time. The
// RTS takes censuses at a fixed interval of its profiling clock, and this
// measure does not depend on which clock a file's times are written in
// (elapsed time in an eventlog, mutator CPU time in a .hp file), so the
// eventlog and the .hp file of one run choose the same bands. eventlog2html
// ranks its bands the same way.
func NewBands(p *Profile, opt BandOptions) *Bands {
	keep := opt.Max
	if keep <= 0 {
		keep = DefaultBands
	}
	ns := p.Len()

	// Integrated size of every name.
	integral := make([]float64, p.NumNames())
	for k, n := range p.band {
		integral[n] += float64(p.bytes[k])
	}

	// The largest ones, ties broken by name so the choice is stable.
	order := make([]int, p.NumNames())
	for i := range order {
		order[i] = i
	}
	bigger := func(i, j int) bool {
		if integral[i] != integral[j] {
			return integral[i] > integral[j]
		}
		return string(p.names.bytes(i)) < string(p.names.bytes(j))
	}
	if len(order) > keep {
		sort.Slice(order, func(a, b int) bool { return bigger(order[a], order[b]) })
	}
	kept := order
	dropped := 0
	if len(order) > keep {
		kept = order[:keep]
		dropped = len(order) - keep
	}

	bd := &Bands{Source: p.Source, times: append([]uint64(nil), p.time...), other: -1, dropped: dropped}
	nb := len(kept)
	if dropped > 0 {
		nb++
	}
	slot := make([]int32, p.NumNames())
	for i := range slot {
		slot[i] = int32(nb - 1) // OTHER unless kept
	}
	for b, n := range kept {
		slot[n] = int32(b)
	}
	bd.values = make([]uint64, nb*ns)
	for s := 0; s < ns; s++ {
		a, b := p.start[s], p.start[s+1]
		for k := a; k < b; k++ {
			v := &bd.values[int(slot[p.band[k]])*ns+s]
			if sum := *v + p.bytes[k]; sum >= *v {
				*v = sum
			} else {
				*v = math.MaxUint64
			}
		}
	}
	bandName := make([]string, nb)
	for b, n := range kept {
		bandName[b] = p.Name(n)
	}
	if dropped > 0 {
		bd.other = nb - 1
		bandName[nb-1] = OtherName
	}
	// Growth is measured over the censuses that hold anything: GHC writes
	// an empty census at the start and end of a .hp file but not into the
	// eventlog, and they say nothing about how bands grow.
	nonEmpty := make([]bool, ns)
	for s := 0; s < ns; s++ {
		nonEmpty[s] = p.start[s+1] > p.start[s]
	}
	bd.integral = make([]float64, nb)
	bd.growth = make([]float64, nb)
	for b := 0; b < nb; b++ {
		row := bd.values[b*ns : (b+1)*ns]
		for _, v := range row {
			bd.integral[b] += float64(v)
		}
		bd.growth[b] = slope(row, nonEmpty)
	}
	bd.reorder(opt.Order, bandName)
	bd.totals = make([]uint64, ns)
	for b := 0; b < nb; b++ {
		for s := 0; s < ns; s++ {
			if t := bd.totals[s] + bd.values[b*ns+s]; t >= bd.totals[s] {
				bd.totals[s] = t
			} else {
				bd.totals[s] = math.MaxUint64
			}
		}
	}
	return bd
}

// reorder sorts the bands by o, keeping OTHER last, and fills the name
// table from names (indexed by the current band order).
func (bd *Bands) reorder(o Order, name []string) {
	nb, ns := len(name), len(bd.times)
	named := nb
	if bd.other >= 0 {
		named--
	}
	perm := make([]int, nb)
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm[:named], func(a, b int) bool {
		i, j := perm[a], perm[b]
		switch o {
		case ByName:
			if name[i] != name[j] {
				return name[i] < name[j]
			}
		case ByGrowth:
			if bd.growth[i] != bd.growth[j] {
				return bd.growth[i] > bd.growth[j]
			}
		}
		if bd.integral[i] != bd.integral[j] {
			return bd.integral[i] > bd.integral[j]
		}
		return name[i] < name[j]
	})
	values := make([]uint64, len(bd.values))
	integral := make([]float64, nb)
	growth := make([]float64, nb)
	for b, from := range perm {
		copy(values[b*ns:(b+1)*ns], bd.values[from*ns:(from+1)*ns])
		integral[b], growth[b] = bd.integral[from], bd.growth[from]
		bd.names.internString(name[from])
	}
	bd.values, bd.integral, bd.growth = values, integral, growth
}

// slope returns the least-squares slope of the values v[i] with use[i]
// against their rank among those: how many bytes a band gains per census;
// 0 for fewer than two censuses.
func slope(v []uint64, use []bool) float64 {
	var n, mv float64
	for i, x := range v {
		if use[i] {
			n++
			mv += float64(x)
		}
	}
	if n < 2 {
		return 0
	}
	mv /= n
	mi := (n - 1) / 2
	var num, den, k float64
	for i, x := range v {
		if !use[i] {
			continue
		}
		d := k - mi
		num += d * (float64(x) - mv)
		den += d * d
		k++
	}
	return num / den
}

// Len returns the number of bands.
func (bd *Bands) Len() int { return bd.names.len() }

// Samples returns the number of samples.
func (bd *Bands) Samples() int { return len(bd.times) }

// Name returns the name of band b.
func (bd *Bands) Name(b int) string { return bd.names.get(b) }

// Other returns the index of the OTHER band, or -1 if every band is named.
func (bd *Bands) Other() int { return bd.other }

// Dropped returns how many distinct names OTHER gathers.
func (bd *Bands) Dropped() int { return bd.dropped }

// Time returns the time of sample s in ns.
func (bd *Bands) Time(s int) uint64 { return bd.times[s] }

// Value returns band b's bytes at sample s.
func (bd *Bands) Value(b, s int) uint64 { return bd.values[b*len(bd.times)+s] }

// Row returns band b's bytes at every sample; the slice aliases bd.
func (bd *Bands) Row(b int) []uint64 {
	ns := len(bd.times)
	return bd.values[b*ns : (b+1)*ns]
}

// Total returns the sum of all bands at sample s.
func (bd *Bands) Total(s int) uint64 { return bd.totals[s] }

// Integral returns band b's integrated size: the sum of its values over
// all censuses, in bytes (see NewBands).
func (bd *Bands) Integral(b int) float64 { return bd.integral[b] }

// Growth returns band b's growth in bytes per census: the slope of the
// least-squares line through its values at the censuses that hold any
// data.
func (bd *Bands) Growth(b int) float64 { return bd.growth[b] }

// Span returns the times of the first and last samples; ok is false when
// there are no samples.
func (bd *Bands) Span() (from, to uint64, ok bool) {
	if len(bd.times) == 0 {
		return 0, 0, false
	}
	return bd.times[0], bd.times[len(bd.times)-1], true
}

// Nearest returns the sample closest in time to t, or -1 if there are no
// samples.
func (bd *Bands) Nearest(t uint64) int {
	n := len(bd.times)
	if n == 0 {
		return -1
	}
	i := sort.Search(n, func(i int) bool { return bd.times[i] >= t })
	switch {
	case i == 0:
		return 0
	case i == n:
		return n - 1
	case t-bd.times[i-1] <= bd.times[i]-t:
		return i - 1
	}
	return i
}

// ValuesAt writes into dst (grown as needed) the value of every band at
// time t, interpolated linearly between the samples on either side as the
// charts draw it; at a sample's time these are the sample's values. It
// returns false, and zeros, when t is outside the sampled span.
func (bd *Bands) ValuesAt(t uint64, dst []uint64) ([]uint64, bool) {
	nb, ns := bd.Len(), len(bd.times)
	dst = append(dst[:0], make([]uint64, nb)...)
	if ns == 0 || t < bd.times[0] || t > bd.times[ns-1] {
		return dst, false
	}
	i := sort.Search(ns, func(i int) bool { return bd.times[i] >= t })
	if bd.times[i] == t {
		// The last sample at this time, so that a run of samples at one
		// instant reads as its final state.
		for i+1 < ns && bd.times[i+1] == t {
			i++
		}
		for b := 0; b < nb; b++ {
			dst[b] = bd.values[b*ns+i]
		}
		return dst, true
	}
	t0, t1 := bd.times[i-1], bd.times[i]
	f := float64(t-t0) / float64(t1-t0)
	for b := 0; b < nb; b++ {
		v0, v1 := float64(bd.values[b*ns+i-1]), float64(bd.values[b*ns+i])
		dst[b] = uint64(math.Round(v0 + (v1-v0)*f))
	}
	return dst, true
}

// Mode is how the bands are drawn (tracks.View.SetBandMode, `hecscope
// render --mode`).
type Mode uint8

const (
	// ModeArea stacks the bands: the top of the stack is the total.
	ModeArea Mode = iota
	// ModeNormalised stacks the bands scaled to 100 % at every instant,
	// showing each band's share of the profiled heap.
	ModeNormalised
	// ModeLines draws every band as its own line from zero.
	ModeLines
)

// String returns the mode's name as ParseMode reads it.
func (m Mode) String() string {
	switch m {
	case ModeArea:
		return "area"
	case ModeNormalised:
		return "normalised"
	case ModeLines:
		return "lines"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ParseMode reads a mode name: area, normalised (or normalized) or lines.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "area":
		return ModeArea, nil
	case "normalised", "normalized":
		return ModeNormalised, nil
	case "lines":
		return ModeLines, nil
	}
	return 0, fmt.Errorf("unknown heap chart mode %q (want area, normalised or lines)", s)
}
