package timeline

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hecscope/hecscope/paint"
)

// Axis maps times in nanoseconds to horizontal device pixels and back: the
// time From is drawn at pixel X0, the time To at X0+Width. Views that share an
// Axis line up in time.
type Axis struct {
	From, To uint64  // visible time range in ns, From < To
	X0       float64 // pixel of From
	Width    float64 // pixels from From to To
}

// NewAxis returns an axis showing [from, to] over width pixels starting at
// x0. An empty or reversed range is widened to one nanosecond and a width
// below one pixel to one, so that the mapping is always defined.
func NewAxis(from, to uint64, x0, width float64) Axis {
	if to <= from {
		to = from + 1
	}
	if !(width >= 1) {
		width = 1
	}
	return Axis{From: from, To: to, X0: x0, Width: width}
}

// Span returns the visible duration in ns.
func (a Axis) Span() uint64 { return a.To - a.From }

// PixelsPerNs returns the scale of the axis.
func (a Axis) PixelsPerNs() float64 { return a.Width / float64(a.To-a.From) }

// X returns the pixel at which time t is drawn; times outside the range map
// outside [X0, X0+Width].
func (a Axis) X(t uint64) float64 {
	return a.X0 + (float64(t)-float64(a.From))*a.PixelsPerNs()
}

// Time returns the time drawn at pixel x, clamped to [0, max uint64].
func (a Axis) Time(x float64) uint64 {
	t := float64(a.From) + (x-a.X0)/a.PixelsPerNs()
	if t <= 0 {
		return 0
	}
	if t >= math.MaxUint64 {
		return math.MaxUint64
	}
	return uint64(t)
}

// ColumnTime returns the time at the left edge of pixel column i (counted
// from X0); column i covers [ColumnTime(i), ColumnTime(i+1)).
func (a Axis) ColumnTime(i int) uint64 { return a.Time(a.X0 + float64(i)) }

// FormatDuration writes a duration in ns as every view and command does
// (paint.Duration): "0", "789 ns", "45.6 ms", "1.23 s", "2 min 3 s".
func FormatDuration(ns uint64) string { return paint.Duration(ns) }

// ParseTime reads a time or duration such as "1.5s", "250ms", "800us",
// "800µs", "120ns" or a plain whole number of nanoseconds, and returns it
// in ns ("1.5", a fraction of a nanosecond, is refused).
func ParseTime(s string) (uint64, error) {
	in := strings.TrimSpace(s)
	num, mult := in, 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"ms", 1e6}, {"us", 1e3}, {"µs", 1e3}, {"ns", 1}, {"s", 1e9}} {
		if strings.HasSuffix(in, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(in, u.suffix)), u.mult
			break
		}
	}
	if num == "" {
		return 0, fmt.Errorf("parsing time %q: no number", s)
	}
	if num == in { // no unit: whole nanoseconds
		n, err := strconv.ParseUint(num, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("parsing time %q: a time without a unit is a whole number of nanoseconds (give a unit: 1.5s, 250ms, 800us, 120ns)", s)
		}
		return n, nil
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("parsing time %q: %w", s, err)
	}
	v *= mult
	if math.IsNaN(v) || v < 0 || v >= math.MaxUint64 {
		return 0, fmt.Errorf("parsing time %q: out of range", s)
	}
	return uint64(math.Round(v)), nil
}
