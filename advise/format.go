package advise

import (
	"strconv"

	"github.com/hecscope/hecscope/paint"
)

// The figures of findings are written as the rest of hecscope writes them.
var (
	dur   = paint.Duration
	pct   = paint.Percent
	bytes = paint.Bytes
)

// count writes a count with thousands separated.
func count[T ~int | ~uint64](n T) string { return paint.Count(int64(n)) }

// itoa writes a number.
func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

// at writes an instant of the run, as time since the RTS started.
func at(t uint64) string { return dur(t) }

// between writes a time range of the run: "1.2 s–1.5 s".
func between(from, to uint64) string { return at(from) + "–" + at(to) }

// share returns a / b, 0 when b is 0.
func share(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// hecName names capability c.
func hecName(c int32) string { return "HEC " + strconv.Itoa(int(c)) }
