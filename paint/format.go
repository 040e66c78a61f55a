package paint

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// timeUnits are the units times and durations are written in, largest
// first, with their size in ns.
var timeUnits = [...]struct {
	name string
	size uint64
}{{"s", 1e9}, {"ms", 1e6}, {"µs", 1e3}, {"ns", 1}}

// unitOf returns the index in timeUnits of the largest unit not above t
// (ns for t < 1 µs).
func unitOf(t uint64) int {
	for i, u := range timeUnits {
		if t >= u.size {
			return i
		}
	}
	return len(timeUnits) - 1
}

// Time writes the time t (ns since the start of the run) for a time axis
// whose ticks lie step ns apart: "0" at the origin, else in the largest
// unit not above t, with the decimals needed to tell ticks step apart and
// no trailing zeros: Time(250_000, 50_000) = "250 µs",
// Time(10_150_000_000, 50_000_000) = "10.15 s". A step of 0 means 1 ns.
func Time(t, step uint64) string {
	if t == 0 {
		return "0"
	}
	if step == 0 {
		step = 1
	}
	u := timeUnits[unitOf(t)]
	decimals := 0
	for d := u.size; d > 1 && step%d != 0; d /= 10 {
		decimals++
	}
	whole, frac := t/u.size, t%u.size
	s := strconv.FormatUint(whole, 10)
	if decimals > 0 && frac > 0 {
		// The fraction's first `decimals` digits, exactly (no float).
		digits := strconv.FormatUint(u.size+frac, 10)[1:]
		digits = strings.TrimRight(digits[:decimals], "0")
		if digits != "" {
			s += "." + digits
		}
	}
	return s + " " + u.name
}

// Duration writes a duration in ns with three significant digits in the
// largest unit that keeps it at least 1, trailing zeros dropped: "0",
// "789 ns", "6.97 µs", "45.6 ms", "1.2 s"; a minute or more as minutes and
// seconds ("2 min 3 s"), an hour or more as hours and minutes.
func Duration(ns uint64) string {
	if ns == 0 {
		return "0"
	}
	const minute, hour = 60e9, 3600e9
	switch {
	case ns >= hour:
		h := ns / hour
		m := (ns%hour + minute/2) / minute
		if m == 60 {
			h, m = h+1, 0
		}
		return strconv.FormatUint(h, 10) + " h " + strconv.FormatUint(m, 10) + " min"
	case ns >= minute-5e8: // 59.5 s rounds to a minute
		m := ns / minute
		s := (ns%minute + 5e8) / 1e9
		if s == 60 {
			m, s = m+1, 0
		}
		if m >= 60 {
			return Duration(m * minute)
		}
		return strconv.FormatUint(m, 10) + " min " + strconv.FormatUint(s, 10) + " s"
	}
	i := unitOf(ns)
	if i == len(timeUnits)-1 {
		return strconv.FormatUint(ns, 10) + " ns"
	}
	v := sig3(float64(ns) / float64(timeUnits[i].size))
	if v >= 1000 && i > 0 { // 999.7 µs is 1 ms
		i--
		v = sig3(float64(ns) / float64(timeUnits[i].size))
	}
	return trimFloat(v) + " " + timeUnits[i].name
}

// sig3 rounds v ≥ 1 to three significant digits.
func sig3(v float64) float64 {
	if v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	p := math.Pow(10, 2-math.Floor(math.Log10(v)))
	return math.Round(v*p) / p
}

// trimFloat writes v with at most three decimals and no trailing zeros.
func trimFloat(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// byteUnits are the binary units sizes are written in.
var byteUnits = [...]string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}

// ByteUnit returns the largest binary unit not above v (B for v < 1 KiB)
// and its size in bytes.
func ByteUnit(v float64) (string, float64) {
	i, size := 0, 1.0
	for i+1 < len(byteUnits) && v >= size*1024 {
		i++
		size *= 1024
	}
	return byteUnits[i], size
}

// Bytes writes a byte count with three significant digits in the largest
// binary unit that keeps it at least 1: "0 B", "512 B", "1.50 KiB",
// "23.4 MiB", "117 GiB".
func Bytes(v uint64) string {
	unit, size := ByteUnit(float64(v))
	if size == 1 {
		return strconv.FormatUint(v, 10) + " B"
	}
	x := float64(v) / size
	prec := 2
	switch {
	case x >= 99.95:
		prec = 0
	case x >= 9.995:
		prec = 1
	}
	return strconv.FormatFloat(x, 'f', prec, 64) + " " + unit
}

// ByteRate writes a rate in bytes per second, such as "1.23 GiB/s" ("? B/s"
// for a negative or not-a-number rate).
func ByteRate(bytesPerSec float64) string {
	if !(bytesPerSec >= 0) || math.IsInf(bytesPerSec, 0) {
		return "? B/s"
	}
	if bytesPerSec >= math.MaxUint64 {
		bytesPerSec = math.MaxUint64
	}
	return Bytes(uint64(bytesPerSec)) + "/s"
}

// Count writes a count in full with thousands separated: "950", "1,444",
// "12,345,678".
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// CountShort writes a count or a measure compactly, with three
// significant digits where it is shortened: "0", "0.52", "950", "1,444"
// stays short as "1.44 k", "12.3 k", "4.56 M", "7.8 G".
func CountShort(v float64) string {
	if math.IsNaN(v) {
		return "?"
	}
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	if math.IsInf(v, 0) {
		return sign + "∞"
	}
	if v < 1000 {
		switch {
		case v == 0:
			return "0"
		case v >= 99.95 || v == math.Trunc(v):
			return sign + strconv.FormatFloat(math.Round(v), 'f', 0, 64)
		case v >= 9.995:
			return sign + trimFloat(math.Round(v*10)/10)
		case v >= 0.01:
			return sign + trimFloat(math.Round(v*100)/100)
		}
		return sign + strconv.FormatFloat(v, 'g', 2, 64)
	}
	suffix := ""
	for _, s := range [...]string{"k", "M", "G", "T", "P", "E"} {
		if sig3(v) < 1000 {
			break
		}
		v /= 1000
		suffix = s
	}
	return sign + trimFloat(sig3(v)) + " " + suffix
}

// Rate writes a rate of things per unit of time: Rate(12_300, "s") =
// "12.3 k/s", Rate(0.5, "ms") = "0.5/ms".
func Rate(v float64, per string) string {
	return CountShort(v) + "/" + per
}

// Percent writes a fraction (0.62) as a percentage: "62%", "4.5%", "0.3%",
// "<0.1%" for a positive fraction below a thousandth, "0%" for none.
func Percent(f float64) string {
	p := f * 100
	switch {
	case !(p > 0):
		return "0%"
	case p < 0.1:
		return "<0.1%"
	case p < 9.95:
		return trimFloat(math.Round(p*10)/10) + "%"
	}
	return strconv.FormatFloat(math.Round(p), 'f', 0, 64) + "%"
}

// ValueTick is one mark on a value axis.
type ValueTick struct {
	Value float64 // bytes, or percent on a normalised chart
	Label string
}

// ByteTicks returns ticks from 0 up to at most top bytes, about n of them
// and never 0 alone, at round multiples of the unit that suits top (1, 2 or
// 5 × 10ᵏ KiB, MiB, …), labelled like "20 MiB" or "1.5 GiB".
func ByteTicks(top float64, n int) []ValueTick {
	if !(top > 0) || n < 1 {
		return []ValueTick{{0, "0"}}
	}
	unit, size := ByteUnit(top)
	step := NiceStep(top/size/float64(n)) * size
	if step > top {
		// Rounding up left nothing but 0 on the axis (few ticks wanted, top
		// just past a round value): take a step of half the size.
		step = NiceStep(top/size/float64(2*n)) * size
	}
	decimals := 0
	for s := step / size; s < 1 && decimals < 3; s *= 10 {
		decimals++
	}
	if size == 1 && step < 1 {
		step, decimals = 1, 0
	}
	var out []ValueTick
	for k := 0; ; k++ {
		v := float64(k) * step
		if v > top*(1+1e-9) {
			break
		}
		label := strconv.FormatFloat(v/size, 'f', decimals, 64) + " " + unit
		if k == 0 {
			label = "0"
		}
		out = append(out, ValueTick{v, label})
	}
	return out
}

// NiceStep returns the smallest 1, 2 or 5 × 10ᵏ not below x > 0.
func NiceStep(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range [...]float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}

// TimeStep returns the smallest 1, 2 or 5 × 10ⁿ ns that is at least need
// ns (1 for need ≤ 1): the distance between a time axis's major ticks.
func TimeStep(need float64) uint64 {
	step := uint64(1)
	for {
		for _, m := range [3]uint64{1, 2, 5} {
			if s := step * m; float64(s) >= need {
				return s
			}
		}
		if step > math.MaxUint64/100 {
			return step * 10
		}
		step *= 10
	}
}

// CountOf writes a count of things with their noun in the right number:
// "1 span", "0 spans", "1,444 spans".
func CountOf(n int64, one, many string) string {
	if n == 1 || n == -1 {
		return Count(n) + " " + one
	}
	return Count(n) + " " + many
}

// EventCount writes the number of events of a log as ghc-events' show and
// the event list list them, block markers included and named: "14,392
// events (3 block markers)", or "412 events" without markers.
func EventCount(events, blockMarkers uint64) string {
	n := int64(min(events+blockMarkers, 1<<62))
	if blockMarkers == 0 {
		return CountOf(n, "event", "events")
	}
	return CountOf(n, "event", "events") + " (" + CountOf(int64(min(blockMarkers, 1<<62)), "block marker", "block markers") + ")"
}

// ThreadScopeTime writes nanoseconds as ThreadScope's Time tab does: with
// three decimals in ns, μs, ms or s ("1.234ms").
func ThreadScopeTime(ns uint64) string {
	v := float64(ns)
	switch {
	case v < 1e3:
		return fmt.Sprintf("%.3fns", v)
	case v < 1e6:
		return fmt.Sprintf("%.3fμs", v/1e3)
	case v < 1e9:
		return fmt.Sprintf("%.3fms", v/1e6)
	}
	return fmt.Sprintf("%.3fs", v/1e9)
}
