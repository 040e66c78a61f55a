package heapview

import "github.com/hecscope/hecscope/paint"

// FormatBytes writes a byte count with three significant digits in the
// largest binary unit that keeps it at least 1: "512 B", "1.50 KiB",
// "23.4 MiB", "117 GiB" (paint.Bytes).
func FormatBytes(v uint64) string { return paint.Bytes(v) }

// FormatRate writes a rate in bytes per second, such as "1.23 GiB/s"
// (paint.ByteRate).
func FormatRate(bytesPerSec float64) string { return paint.ByteRate(bytesPerSec) }

// ValueTick is one mark on a value axis.
type ValueTick = paint.ValueTick

// ByteTicks returns ticks from 0 up to at most top bytes, about n of them
// (paint.ByteTicks).
func ByteTicks(top float64, n int) []ValueTick { return paint.ByteTicks(top, n) }

// PercentTicks returns the ticks of a normalised chart (paint.PercentTicks).
func PercentTicks(n int) []ValueTick { return paint.PercentTicks(n) }
