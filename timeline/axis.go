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

// Tick is one mark on a time axis.
type Tick struct {
	Time  uint64  // ns
	X     float64 // pixel
	Major bool    // major ticks carry a label
	Label string  // e.g. "1.5s", "250ms", "12.4µs"; empty on minor ticks
}

// TickStep returns the distance in ns between major ticks: the smallest
// 1, 2 or 5 × 10ⁿ ns whose ticks lie at least minSpacing pixels apart.
func (a Axis) TickStep(minSpacing float64) uint64 {
	if !(minSpacing > 0) {
		minSpacing = 1
	}
	return paint.TimeStep(minSpacing / a.PixelsPerNs())
}

// Ticks returns the major and minor ticks inside the range, in time order,
// major ticks at least minSpacing pixels apart. Major ticks are labelled with
// their time since the start of the run, in the unit that suits the step.
func (a Axis) Ticks(minSpacing float64) []Tick {
	step := a.TickStep(minSpacing)
	minor := step / 5
	if leading(step) == 2 {
		minor = step / 4
	}
	if minor == 0 {
		minor = step
	}
	first := (a.From + minor - 1) / minor * minor
	var ticks []Tick
	for t := first; t <= a.To; t += minor {
		major := t%step == 0
		tk := Tick{Time: t, X: a.X(t), Major: major}
		if major {
			tk.Label = FormatTime(t, step)
		}
		ticks = append(ticks, tk)
		if t > math.MaxUint64-minor {
			break
		}
	}
	return ticks
}

// leading returns the first decimal digit of n > 0.
func leading(n uint64) uint64 {
	for n >= 10 {
		n /= 10
	}
	return n
}

// unitFor returns the unit in which times a step apart are best written, and
// its size in ns.
func unitFor(step uint64) (string, uint64) {
	switch {
	case step >= 1e9:
		return "s", 1e9
	case step >= 1e6:
		return "ms", 1e6
	case step >= 1e3:
		return "µs", 1e3
	default:
		return "ns", 1
	}
}

// FormatTime writes the time t (ns) for an axis whose ticks lie step ns
// apart: in the largest unit no more than ten steps long, with the decimals
// needed to tell ticks apart. FormatTime(1_500_000_000, 500_000_000) = "1.5s",
// FormatTime(250_000_000, 50_000_000) = "250ms". A step of 0 means 1 ns.
func FormatTime(t, step uint64) string {
	if step == 0 {
		step = 1
	}
	span := step
	if span <= math.MaxUint64/10 {
		span *= 10
	}
	unit, size := unitFor(span)
	decimals := 0
	for d := size; d > 1 && step%d != 0; d /= 10 {
		decimals++
	}
	return strconv.FormatFloat(float64(t)/float64(size), 'f', decimals, 64) + unit
}

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
