package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

const compareUsage = "usage: hecscope compare [--json] A B"

// runCompare implements `hecscope compare [--json] A B`: the table of
// differences between two runs (B against A; see timeline.Compare) as
// aligned text, or one JSON object with --json. Exit codes are those of
// summary: 1 if a log cannot be read or is corrupt (the table is still
// printed for what decodes), 2 for usage errors.
func runCompare(args []string) int {
	asJSON, files, code, ok := jsonAndFiles("compare", compareUsage, args)
	if !ok {
		return code
	}
	if len(files) != 2 {
		fmt.Fprintln(os.Stderr, compareUsage)
		return 2
	}
	var runs [2]*timeline.Run
	for i, path := range files {
		r, err := loadRun(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
			return 1
		}
		switch st := r.Summary.Status; st.State {
		case ingest.StateCorrupt:
			fmt.Fprintf(os.Stderr, "hecscope: %s: %s\n", path, st)
			code = 1
		case ingest.StateTruncated:
			fmt.Fprintf(os.Stderr, "hecscope: %s: %s\n", path, st)
		}
		runs[i] = r
	}
	c := timeline.Compare(runs[0], runs[1])
	var err error
	if asJSON {
		err = writeCompareJSON(os.Stdout, runs, c)
	} else {
		err = writeCompareText(os.Stdout, runs, c)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: writing comparison: %v\n", err)
		return 1
	}
	return code
}

// loadRun reads the eventlog at path into a run named after the file.
func loadRun(path string) (*timeline.Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := timeline.ReadRun(f, filepath.Base(path))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// showValue formats a comparison value in its unit.
func showValue(v float64, u timeline.Unit) string {
	switch u {
	case timeline.UnitNS:
		return showTime(uint64(math.Max(v, 0)))
	case timeline.UnitBytes:
		return showBytesShort(uint64(math.Max(v, 0)))
	case timeline.UnitBytesPerSecond:
		return showBytesShort(uint64(math.Max(v, 0))) + "/s"
	case timeline.UnitFraction:
		return fmt.Sprintf("%.1f%%", 100*v)
	}
	return commas(uint64(math.Max(v, 0)))
}

// showDelta formats a signed difference in its unit (fractions in
// percentage points).
func showDelta(d float64, u timeline.Unit) string {
	sign := "+"
	if d < 0 {
		sign = "−"
	}
	if d == 0 {
		return "0"
	}
	if u == timeline.UnitFraction {
		return sign + timeline.FormatPoints(d)
	}
	return sign + showValue(math.Abs(d), u)
}

// showRelative formats a relative change as a signed percentage.
func showRelative(r timeline.DiffRow) string {
	rel, ok := r.Relative()
	if !ok {
		return ""
	}
	if rel == 0 {
		return "0%"
	}
	sign := "+"
	if rel < 0 {
		sign = "−"
	}
	return fmt.Sprintf("%s%.1f%%", sign, 100*math.Abs(rel))
}

// describeRun is the one-line description of a run: program, arguments
// and RTS.
func describeRun(r *timeline.Run) string {
	s := &r.Summary
	parts := []string{}
	if s.Program != "" {
		parts = append(parts, strings.Join(append([]string{filepath.Base(s.Program)}, s.Args...), " "))
	}
	if s.RTS != "" {
		parts = append(parts, s.RTS)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// writeCompareText prints the comparison as aligned text: the runs, the
// table by group, and the two distributions as counts per bin.
func writeCompareText(w io.Writer, runs [2]*timeline.Run, c *timeline.Comparison) error {
	var b strings.Builder
	fmt.Fprintf(&b, "A: %s%s\nB: %s%s\n", c.A, describeRun(runs[0]), c.B, describeRun(runs[1]))
	t := &table{}
	t.add("", "A", "B", "B − A", "change", "")
	group := ""
	for _, r := range c.Rows {
		if r.Group != group {
			group = r.Group
			t.add(group+":", "", "", "", "", "")
		}
		va, vb, d := "—", "—", ""
		if r.HasA {
			va = showValue(r.A, r.Unit)
		}
		if r.HasB {
			vb = showValue(r.B, r.Unit)
		}
		if r.HasA && r.HasB {
			d = showDelta(r.Delta(), r.Unit)
		}
		verdict := ""
		switch v := r.Verdict(); v {
		case timeline.VerdictBetter, timeline.VerdictWorse:
			verdict = v.String()
		}
		t.add("  "+r.Name, va, vb, d, showRelative(r), verdict)
	}
	b.WriteString("\n")
	if err := writeString(w, b.String()); err != nil {
		return err
	}
	if err := t.write(w, true); err != nil {
		return err
	}
	for _, h := range []*timeline.Histogram{&c.GCPauses, &c.ThreadRuns} {
		if err := writeHistogramText(w, h); err != nil {
			return err
		}
	}
	return nil
}

func writeString(w io.Writer, s string) error {
	_, err := io.WriteString(w, s)
	return err
}

// writeHistogramText prints a distribution: per bin, its range and the
// counts of A and B with bars scaled to the larger count.
func writeHistogramText(w io.Writer, h *timeline.Histogram) error {
	if len(h.Edges) < 2 {
		return writeString(w, fmt.Sprintf("\n%s: none\n", h.Title))
	}
	mean := func(sum uint64, n int) string {
		if n == 0 {
			return "—"
		}
		return showTime(sum / uint64(n))
	}
	head := fmt.Sprintf("\n%s (A: %d, mean %s, median %s, p90 %s; B: %d, mean %s, median %s, p90 %s):\n", h.Title,
		h.TotalA, mean(h.SumA, h.TotalA), showTime(h.QuantA.P50), showTime(h.QuantA.P90),
		h.TotalB, mean(h.SumB, h.TotalB), showTime(h.QuantB.P50), showTime(h.QuantB.P90))
	if err := writeString(w, head); err != nil {
		return err
	}
	// Leave out empty bins at both ends.
	lo, hi := 0, len(h.A)
	for lo < hi && h.A[lo] == 0 && h.B[lo] == 0 {
		lo++
	}
	for hi > lo && h.A[hi-1] == 0 && h.B[hi-1] == 0 {
		hi--
	}
	top := 1
	for i := lo; i < hi; i++ {
		top = max(top, h.A[i], h.B[i])
	}
	bar := func(n int, ch string) string {
		k := (n*20 + top - 1) / top
		return strings.Repeat(ch, k) + strings.Repeat(" ", 20-k)
	}
	t := &table{}
	t.add("", "A", "", "B", "")
	for i := lo; i < hi; i++ {
		t.add(fmt.Sprintf("%s – %s", timeline.FormatDuration(h.Edges[i]), timeline.FormatDuration(h.Edges[i+1])),
			fmt.Sprint(h.A[i]), bar(h.A[i], "#"), fmt.Sprint(h.B[i]), bar(h.B[i], "="))
	}
	return t.write(w, true)
}

// jsonRun describes one run in the JSON comparison.
type jsonRun struct {
	Name    string   `json:"name"`
	Program string   `json:"program"`
	Args    []string `json:"args"`
	RTS     string   `json:"rts"`
	Status  string   `json:"status"`
}

// jsonRow is one row of the JSON comparison; values a run lacks are null.
type jsonRow struct {
	Group    string   `json:"group"`
	Name     string   `json:"name"`
	Unit     string   `json:"unit"`
	A        *float64 `json:"a"`
	B        *float64 `json:"b"`
	Delta    *float64 `json:"delta"`
	Relative *float64 `json:"relative"`
	Better   string   `json:"better"`
	Verdict  string   `json:"verdict"`
}

// jsonHistogram is one distribution of the JSON comparison.
type jsonHistogram struct {
	Title   string   `json:"title"`
	EdgesNS []uint64 `json:"edges_ns"`
	A       []int    `json:"a"`
	B       []int    `json:"b"`
	TotalA  int      `json:"total_a"`
	TotalB  int      `json:"total_b"`
	SumANS  uint64   `json:"sum_a_ns"`
	SumBNS  uint64   `json:"sum_b_ns"`
	// QuantilesA and QuantilesB are the median, 90th and 99th percentiles
	// and maximum (ns).
	QuantilesA jsonQuantiles `json:"quantiles_a"`
	QuantilesB jsonQuantiles `json:"quantiles_b"`
}

// jsonQuantiles are a distribution's quantiles in the JSON comparison.
type jsonQuantiles struct {
	P50 uint64 `json:"p50_ns"`
	P90 uint64 `json:"p90_ns"`
	P99 uint64 `json:"p99_ns"`
	Max uint64 `json:"max_ns"`
}

// writeCompareJSON prints the comparison as one JSON object.
func writeCompareJSON(w io.Writer, runs [2]*timeline.Run, c *timeline.Comparison) error {
	out := struct {
		A          jsonRun         `json:"a"`
		B          jsonRun         `json:"b"`
		Rows       []jsonRow       `json:"rows"`
		Histograms []jsonHistogram `json:"histograms"`
	}{Rows: []jsonRow{}}
	for i, r := range runs {
		s := &r.Summary
		jr := jsonRun{Name: r.Name, Program: s.Program, Args: s.Args, RTS: s.RTS, Status: s.Status.State.String()}
		if jr.Args == nil {
			jr.Args = []string{}
		}
		if i == 0 {
			out.A = jr
		} else {
			out.B = jr
		}
	}
	ptr := func(v float64) *float64 { return &v }
	for _, r := range c.Rows {
		jr := jsonRow{Group: r.Group, Name: r.Name, Unit: r.Unit.String(), Better: r.Better.String(), Verdict: r.Verdict().String()}
		if r.HasA {
			jr.A = ptr(r.A)
		}
		if r.HasB {
			jr.B = ptr(r.B)
		}
		if r.HasA && r.HasB {
			jr.Delta = ptr(r.Delta())
		}
		if rel, ok := r.Relative(); ok {
			jr.Relative = ptr(rel)
		}
		out.Rows = append(out.Rows, jr)
	}
	for _, h := range []*timeline.Histogram{&c.GCPauses, &c.ThreadRuns} {
		jh := jsonHistogram{Title: h.Title, EdgesNS: h.Edges, A: h.A, B: h.B, TotalA: h.TotalA, TotalB: h.TotalB, SumANS: h.SumA, SumBNS: h.SumB,
			QuantilesA: jsonQuantiles(h.QuantA), QuantilesB: jsonQuantiles(h.QuantB)}
		if jh.EdgesNS == nil {
			jh.EdgesNS, jh.A, jh.B = []uint64{}, []int{}, []int{}
		}
		out.Histograms = append(out.Histograms, jh)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
