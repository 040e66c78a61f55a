package heapview

import (
	"math"
	"strconv"
)

// byteUnits are the binary units heapview writes sizes in.
var byteUnits = [...]string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}

// byteUnit returns the largest binary unit not above v (B for v < 1 KiB)
// and its size in bytes.
func byteUnit(v float64) (string, float64) {
	i, size := 0, 1.0
	for i+1 < len(byteUnits) && v >= size*1024 {
		i++
		size *= 1024
	}
	return byteUnits[i], size
}

// FormatBytes writes a byte count with three significant digits in the
// largest binary unit that keeps it at least 1: "512 B", "1.50 KiB",
// "23.4 MiB", "117 GiB".
func FormatBytes(v uint64) string {
	unit, size := byteUnit(float64(v))
	if size == 1 {
		return strconv.FormatUint(v, 10) + " B"
	}
	x := float64(v) / size
	prec := 2
	switch {
	case x >= 100:
		prec = 0
	case x >= 10:
		prec = 1
	}
	return strconv.FormatFloat(x, 'f', prec, 64) + " " + unit
}

// FormatRate writes a rate in bytes per second, such as "1.23 GiB/s".
func FormatRate(bytesPerSec float64) string {
	if !(bytesPerSec >= 0) || math.IsInf(bytesPerSec, 0) {
		return "? B/s"
	}
	if bytesPerSec >= math.MaxUint64 {
		bytesPerSec = math.MaxUint64
	}
	return FormatBytes(uint64(bytesPerSec)) + "/s"
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
	unit, size := byteUnit(top)
	step := niceStep(top/size/float64(n)) * size
	if step > top {
		// Rounding up left nothing but 0 on the axis (few ticks wanted, top
		// just past a round value): take a step of half the size.
		step = niceStep(top/size/float64(2*n)) * size
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

// PercentTicks returns the ticks of a normalised chart: 0 to 100 % in
// steps of 25 %, or of 50 % when there is room for fewer than 5.
func PercentTicks(n int) []ValueTick {
	step := 25
	if n < 4 {
		step = 50
	}
	var out []ValueTick
	for p := 0; p <= 100; p += step {
		out = append(out, ValueTick{float64(p), strconv.Itoa(p) + "%"})
	}
	return out
}

// niceStep returns the smallest 1, 2 or 5 × 10ᵏ not below x > 0.
func niceStep(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range [...]float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}
