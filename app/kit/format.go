package kit

import "github.com/hecscope/hecscope/paint"

// FormatBytes writes a byte count as every view does (paint.Bytes):
// "512 B", "17.0 KiB", "118 MiB"; a negative count as 0 B.
func FormatBytes(n int64) string { return paint.Bytes(uint64(max(n, 0))) }

// FormatCount writes a count compactly as every view does
// (paint.CountShort): "950", "12.3 k", "4.56 M".
func FormatCount(v float64) string { return paint.CountShort(v) }
