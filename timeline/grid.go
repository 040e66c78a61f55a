package timeline

import "math/bits"

// Grid divides time into buckets of 2^Shift ns, the resolution of an
// overview model: where a track changes state at least collapseAt times
// within one bucket, the overview keeps only how long it spent in each state
// there (a stretch), so that its size follows the number of buckets rather
// than the number of events. Shift 0 is no grid: every mark is kept.
type Grid struct {
	Shift uint8
}

// collapseAt is how many marks (or instants, or sparks of one kind) one
// bucket of a track must hold before they are summarised: below it the
// marks cost less than their summary.
const collapseAt = 8

// maxGridShift keeps a bucket short enough for its durations to fit in 32
// bits of ns.
const maxGridShift = 32

// GridFor returns the grid that cuts a run lasting span ns into at most
// buckets buckets (more only for runs longer than buckets × 4.3 s).
func GridFor(span uint64, buckets int) Grid {
	if buckets <= 0 || span == 0 {
		return Grid{}
	}
	per := (span + uint64(buckets) - 1) / uint64(buckets)
	s := bits.Len64(per - 1) // the smallest power of two ≥ per
	return Grid{Shift: uint8(min(max(s, 1), maxGridShift))}
}

// On reports whether the grid summarises at all.
func (g Grid) On() bool { return g.Shift > 0 }

// Width returns the width of a bucket in ns (0 without a grid).
func (g Grid) Width() uint64 {
	if !g.On() {
		return 0
	}
	return 1 << g.Shift
}

// bucket returns the bucket holding time t.
func (g Grid) bucket(t uint64) uint64 { return t >> g.Shift }

// start returns the first time of bucket b.
func (g Grid) start(b uint64) uint64 { return b << g.Shift }

// Bucket returns the bucket holding time t (0 without a grid).
func (g Grid) Bucket(t uint64) int {
	if !g.On() {
		return 0
	}
	return int(min(t>>g.Shift, 1<<40))
}

// Start returns the first time of bucket b.
func (g Grid) Start(b int) uint64 {
	if !g.On() {
		return 0
	}
	return uint64(b) << g.Shift
}

// Buckets returns how many buckets cover [0, end] (1 without a grid).
func (g Grid) Buckets(end uint64) int { return g.Bucket(end) + 1 }
