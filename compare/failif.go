package compare

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hecscope/hecscope/timeline"
)

// A Limit is a threshold on one row's change that a CI job checks, such as
// "wall>+5%" (wall time grew by more than 5 %) or "gc_max_pause>+1ms" (the
// longest pause grew by more than a millisecond): KEY, then > or <, then a
// signed change, relative with % or in the row's unit (durations with ns,
// us, ms or s; else a plain number, fractions in percentage points with
// pp).
type Limit struct {
	// Spec is the limit as written.
	Spec string
	// Key is the row's key; Above says the limit is crossed by a change
	// above Change (else below it).
	Key   string
	Above bool
	// Change is the limit: a relative change if Relative, else a change
	// in the row's unit (fractions: points as a fraction, 0.02 for 2pp).
	Change   float64
	Relative bool
}

// ParseLimit reads a limit such as "wall>+5%", "span:parse.p90>+10%",
// "productivity<-2pp" or "gc_max_pause>+500us".
func ParseLimit(spec string) (Limit, error) {
	i := strings.LastIndexAny(spec, "<>")
	if i <= 0 || i == len(spec)-1 {
		return Limit{}, fmt.Errorf("limit %q: want KEY>CHANGE or KEY<CHANGE, as wall>+5%%", spec)
	}
	l := Limit{Spec: spec, Key: strings.TrimSpace(spec[:i]), Above: spec[i] == '>'}
	v := strings.TrimSpace(spec[i+1:])
	sign := 1.0
	switch {
	case strings.HasPrefix(v, "+"):
		v = v[1:]
	case strings.HasPrefix(v, "-"), strings.HasPrefix(v, "−"):
		sign = -1
		v = strings.TrimPrefix(strings.TrimPrefix(v, "-"), "−")
	}
	var err error
	switch {
	case strings.HasSuffix(v, "%"):
		l.Relative = true
		l.Change, err = strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
		l.Change /= 100
	case strings.HasSuffix(v, "pp"):
		l.Change, err = strconv.ParseFloat(strings.TrimSuffix(v, "pp"), 64)
		l.Change /= 100
	case strings.TrimRight(v, "0123456789.") != "":
		var ns uint64
		ns, err = timeline.ParseTime(v)
		l.Change = float64(ns)
	default:
		l.Change, err = strconv.ParseFloat(v, 64)
	}
	if err != nil || math.IsNaN(l.Change) || math.IsInf(l.Change, 0) {
		return Limit{}, fmt.Errorf("limit %q: cannot read the change %q", spec, spec[i+1:])
	}
	l.Change *= sign
	return l, nil
}

// Crossing is the result of checking one limit.
type Crossing struct {
	Limit Limit
	// Row is the row checked (nil if the comparison has none of that key).
	Row *Row
	// Crossed says the limit is crossed; Reason says how, or why it could
	// not be checked (which counts as crossed: a CI check must not pass on
	// a figure it could not see).
	Crossed bool
	Reason  string
}

// Check checks the limit against c.
func (l Limit) Check(c *Comparison) Crossing {
	out := Crossing{Limit: l, Row: c.Row(l.Key)}
	r := out.Row
	switch {
	case r == nil:
		out.Crossed, out.Reason = true, fmt.Sprintf("%s: no row %q in this comparison", l.Spec, l.Key)
		return out
	case !r.HasA || !r.HasB:
		out.Crossed, out.Reason = true, fmt.Sprintf("%s: a run lacks %s", l.Spec, r.Name)
		return out
	}
	change, unit := r.Delta(), ""
	if l.Relative {
		rel, ok := r.Relative()
		if !ok {
			if r.Delta() == 0 {
				rel = 0
			} else {
				rel = math.Copysign(math.Inf(1), r.Delta())
			}
		}
		change, unit = rel, "%"
	}
	if (l.Above && change > l.Change) || (!l.Above && change < l.Change) {
		out.Crossed = true
	}
	shown := fmt.Sprintf("%+.4g", change)
	if unit == "%" {
		shown = fmt.Sprintf("%+.1f%%", 100*change)
	}
	word := "within"
	if out.Crossed {
		word = "crossed"
	}
	out.Reason = fmt.Sprintf("%s %s: %s changed by %s (A %s, B %s)", l.Spec, word, r.Name, shown, showCompareValue(r.A, r.Unit), showCompareValue(r.B, r.Unit))
	return out
}
