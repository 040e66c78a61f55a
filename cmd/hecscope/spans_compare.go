package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hecscope/hecscope/spans"
)

// runSpansCompare implements `hecscope spans --compare A B`: every label's
// span statistics in runs A and B side by side, the change of the median,
// the p-value of a Mann–Whitney U test on the two runs' durations, and a
// verdict (slower/faster) only where the test is significant at alpha and
// the median moved by more than threshold ("5%" or "0.05").
func runSpansCompare(partA, partB logPart, from, to uint64, threshold string, alpha float64, asJSON bool) int {
	th, err := parseShare(threshold)
	if err != nil || !(alpha > 0 && alpha < 1) {
		if err == nil {
			err = fmt.Errorf("--alpha %v: want a level between 0 and 1", alpha)
		}
		fmt.Fprintf(os.Stderr, "hecscope spans: %v\n%s\n", err, spansUsage)
		return 2
	}
	opt := spans.Options{From: from, To: to}
	ra, err := spansOf(partA, opt)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		return 1
	}
	rb, err := spansOf(partB, opt)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		return 1
	}
	dopt := spans.DiffOptions{Threshold: th, Alpha: alpha}
	cs := spans.Diff(ra, rb, dopt)
	spans.SortChanges(cs)
	if asJSON {
		err = writeSpansDiffJSON(os.Stdout, cs, dopt)
	} else {
		err = writeSpansDiffText(os.Stdout, cs, dopt)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: writing the comparison: %v\n", err)
		return 1
	}
	return max(statusCode(partA.path, ra.Status), statusCode(partB.path, rb.Status))
}

// parseShare reads a relative change: "5%" or "0.05".
func parseShare(s string) (float64, error) {
	t := strings.TrimSpace(s)
	scale := 1.0
	if strings.HasSuffix(t, "%") {
		t, scale = strings.TrimSuffix(t, "%"), 0.01
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || !(f >= 0) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("--threshold %q: want a share such as 5%% or 0.05", s)
	}
	return f * scale, nil
}

// jsonSpanChange is one label of `spans --compare --json`.
type jsonSpanChange struct {
	Label        string    `json:"label"`
	Kind         string    `json:"kind"`
	A            *jsonSpan `json:"a"`
	B            *jsonSpan `json:"b"`
	MedianChange float64   `json:"p50_change"`
	P            float64   `json:"p_value"`
	Superiority  float64   `json:"p_b_longer"`
	Verdict      string    `json:"verdict"`
}

// spanJSON returns a label's row of `spans --json`, nil for none.
func spanJSON(l *spans.Label) *jsonSpan {
	if l == nil {
		return nil
	}
	return &jsonSpan{Label: l.Name, Kind: l.Kind.String(), Count: l.Count, Total: l.Total, Mean: l.Mean(),
		P50: l.Quantile(.5), P90: l.Quantile(.9), P99: l.Quantile(.99), Max: l.Max, Open: l.Open, Unmatched: l.Unmatched}
}

// writeSpansDiffJSON writes {"threshold","alpha","spans":[...]}.
func writeSpansDiffJSON(w io.Writer, cs []spans.Change, opt spans.DiffOptions) error {
	out := struct {
		Threshold float64          `json:"threshold"`
		Alpha     float64          `json:"alpha"`
		Spans     []jsonSpanChange `json:"spans"`
	}{Threshold: opt.Threshold, Alpha: opt.Alpha, Spans: []jsonSpanChange{}}
	for _, c := range cs {
		out.Spans = append(out.Spans, jsonSpanChange{Label: c.Name, Kind: c.Kind.String(), A: spanJSON(c.A), B: spanJSON(c.B),
			MedianChange: c.MedianChange, P: c.P, Superiority: c.Superiority, Verdict: c.Verdict.String()})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// writeSpansDiffText writes the comparison as an aligned table.
func writeSpansDiffText(w io.Writer, cs []spans.Change, opt spans.DiffOptions) error {
	if len(cs) == 0 {
		_, err := fmt.Fprintln(w, "no user spans (START x / STOP x messages) or thread labels in either run")
		return err
	}
	side := func(l *spans.Label, f func(*spans.Label) uint64) string {
		if l == nil || l.Count == 0 {
			return "-"
		}
		return dur(l.Count, f(l))
	}
	count := func(l *spans.Label) string {
		if l == nil {
			return "0"
		}
		return strconv.Itoa(l.Count)
	}
	p50 := func(l *spans.Label) uint64 { return l.Quantile(.5) }
	p90 := func(l *spans.Label) uint64 { return l.Quantile(.9) }
	total := func(l *spans.Label) uint64 { return l.Total }
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "count A\tcount B\tp50 A\tp50 B\tchange\tp90 A\tp90 B\ttotal A\ttotal B\tp-value\tverdict\tkind\t  label")
	for _, c := range cs {
		change, pv := "-", "-"
		if c.A != nil && c.B != nil && c.A.Count > 0 && c.B.Count > 0 {
			change = fmt.Sprintf("%+.1f%%", 100*c.MedianChange)
		}
		if c.Verdict != spans.TooFew && c.Verdict != spans.New && c.Verdict != spans.Gone {
			pv = strconv.FormatFloat(c.P, 'g', 2, 64)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t  %s\n", count(c.A), count(c.B),
			side(c.A, p50), side(c.B, p50), change, side(c.A, p90), side(c.B, p90), side(c.A, total), side(c.B, total),
			pv, c.Verdict, c.Kind, c.Name)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "verdict: Mann-Whitney U on the two runs' durations, p < %g, and the median moved by more than %g%% (fewer than %d spans in a run: no verdict)\n",
		opt.Alpha, 100*opt.Threshold, spans.MinSamples)
	return err
}
