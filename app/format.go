package app

import (
	"strconv"
)

// formatBytes writes a byte count in binary units, as the heap charts do:
// "512 B", "17.0 KiB", "118 MiB".
func formatBytes(n int64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	v := float64(n)
	i := -1
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return strconv.FormatFloat(v, 'f', decimalsFor(v), 64) + " " + units[i:i+1] + "iB"
}

// formatCount writes a count compactly: "950", "12.3k", "4.56M", "7.8G".
func formatCount(v float64) string {
	if v < 1000 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	suffix := ""
	for _, s := range []string{"k", "M", "G", "T"} {
		if v < 1000 {
			break
		}
		v /= 1000
		suffix = s
	}
	return strconv.FormatFloat(v, 'f', decimalsFor(v), 64) + suffix
}

// decimalsFor keeps three significant digits for values from 1 to 999.
func decimalsFor(v float64) int {
	switch {
	case v >= 99.95:
		return 0
	case v >= 9.995:
		return 1
	}
	return 2
}
