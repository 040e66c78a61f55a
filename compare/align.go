package compare

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hecscope/hecscope/timeline"
)

// Alignment is where two runs are lined up: the time of each drawn at the
// same place, and the stretches compared over the time both cover begin.
type Alignment struct {
	// A and B are the aligned times of the runs (ns).
	A, B uint64
	// Label describes the alignment ("" for the start).
	Label string
}

// AlignUsage says what ParseAlign accepts.
const AlignUsage = "start, marker:TEXT (the first marker containing TEXT), span:LABEL (the start of the first span LABEL) or offset:T (B drawn T later than A; -T: earlier)"

// ParseAlign finds the alignment spec names in the runs a and b, whose
// models it needs for markers and spans: "start", "marker:TEXT",
// "span:LABEL" or "offset:T" (T a duration such as 1.5s or -20ms).
func ParseAlign(spec string, a, b *Run) (Alignment, error) {
	kind, arg, _ := strings.Cut(spec, ":")
	switch kind {
	case "", "start":
		if arg != "" {
			break
		}
		return Alignment{}, nil
	case "marker", "span":
		if arg == "" {
			break
		}
		if a.Model == nil || b.Model == nil {
			return Alignment{}, fmt.Errorf("aligning at %s: a run has no model", spec)
		}
		find := timeline.FindMarker
		what := "marker"
		if kind == "span" {
			find, what = timeline.FindSpanStart, "span"
		}
		ta, okA := find(a.Model, arg)
		tb, okB := find(b.Model, arg)
		switch {
		case !okA:
			return Alignment{}, fmt.Errorf("aligning: run A (%s) has no %s %q", a.Name, what, arg)
		case !okB:
			return Alignment{}, fmt.Errorf("aligning: run B (%s) has no %s %q", b.Name, what, arg)
		}
		return Alignment{A: ta, B: tb, Label: fmt.Sprintf("aligned at %s %q (A %s, B %s)", what, arg,
			timeline.FormatDuration(ta), timeline.FormatDuration(tb))}, nil
	case "offset":
		neg := strings.HasPrefix(arg, "-")
		t, err := timeline.ParseTime(strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "+"))
		if err != nil || arg == "" {
			break
		}
		if neg {
			return Alignment{B: t, Label: "B drawn " + timeline.FormatDuration(t) + " earlier than A"}, nil
		}
		return Alignment{A: t, Label: "B drawn " + timeline.FormatDuration(t) + " later than A"}, nil
	}
	return Alignment{}, fmt.Errorf("%w %q: use %s", ErrAlignSpec, spec, AlignUsage)
}

// ErrAlignSpec is the error of an alignment ParseAlign cannot read (as
// opposed to one the runs lack).
var ErrAlignSpec = errors.New("unknown alignment")
