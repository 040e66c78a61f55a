package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hecscope/hecscope/compare"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

const compareUsage = "usage: hecscope compare [--json] [--threshold PCT] [--align start|marker:TEXT|span:LABEL|offset:T] [--fail-if 'KEY>+5%']... [--segment-a N] [--segment-b N] A B\n" +
	"       (--segment-a/-b N: the Nth of the eventlogs file A/B holds one after another; the first by default)"

// limitFlags collects the --fail-if limits.
type limitFlags []compare.Limit

func (l *limitFlags) String() string { return fmt.Sprint(len(*l)) }

func (l *limitFlags) Set(v string) error {
	lim, err := compare.ParseLimit(v)
	if err != nil {
		return err
	}
	*l = append(*l, lim)
	return nil
}

// runCompare implements `hecscope compare [--json] [--threshold PCT]
// [--align A] [--fail-if LIMIT]... A B`: the table of differences between
// two runs (B against A; see compare.Compare), every row with a stable key,
// as aligned text or one JSON object with --json. A change within the
// threshold (5 % by default) is "same"; when a run did not finish no row
// gets a verdict, and the runs are compared again over the time both
// cover (from the alignment points, with --align). Exit codes: 1 if a log
// cannot be read or is corrupt (the table is still printed for what
// decodes), 2 for usage errors, 3 if a --fail-if limit is crossed (each
// one checked is reported on stderr).
func runCompare(args []string) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print one JSON object")
	threshold := fs.String("threshold", "5%", "the change below which a difference is noise (\"same\"), in percent")
	align := fs.String("align", "start", "where to line the runs up: "+compare.AlignUsage)
	var limits limitFlags
	fs.Var(&limits, "fail-if", "exit 3 if a row's change crosses this limit, e.g. 'wall>+5%' (repeatable)")
	var segments [2]segmentFlag
	fs.Var(&segments[0], "segment-a", "which eventlog (from 1) of a file A holding several one after another")
	fs.Var(&segments[1], "segment-b", "which eventlog (from 1) of a file B holding several one after another")
	var segmentBoth segmentFlag
	fs.Var(&segmentBoth, "segment", "(an error: two runs take --segment-a and --segment-b)")
	usage := func(msg string) int {
		if msg != "" {
			fmt.Fprintf(os.Stderr, "hecscope compare: %s\n", msg)
		}
		fmt.Fprintln(os.Stderr, compareUsage)
		return 2
	}
	var files []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if err == flag.ErrHelp {
				fmt.Fprintln(os.Stdout, compareUsage)
				return 0
			}
			return usage(err.Error())
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(files) != 2 {
		return usage("two eventlogs A B needed")
	}
	if segmentBoth != 0 {
		return usage("two runs A B: --segment-a N and --segment-b N pick the eventlog of each")
	}
	th, err := parsePercent(*threshold)
	if err != nil {
		return usage("--threshold: " + err.Error())
	}
	code := 0
	var runs [2]*compare.Run
	var parts [2]logPart
	var opener runOpener
	defer opener.remove()
	for i, path := range files {
		part, err := findPart(path, segments[i], segmentFlagNames(2)[i], os.Stderr)
		if err != nil {
			fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
			return 1
		}
		parts[i] = part
		r, _, err := opener.open(part)
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
		if tf := r.Summary.TimeFaults; tf.Count > 0 {
			fmt.Fprintf(os.Stderr, "hecscope: %s: %s\n", path, tf)
		}
		runs[i] = r
	}
	al, err := compare.ParseAlign(*align, runs[0], runs[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope compare: --align: %v\n", err)
		if errors.Is(err, compare.ErrAlignSpec) {
			return 2
		}
		return 1
	}
	opt := compare.Options{Threshold: th}
	if th == 0 {
		opt.Threshold = -1 // every change counts
	}
	c := compare.Compare(runs[0], runs[1], opt)
	var covered *compare.Covered
	if c.Partial || al != (compare.Alignment{}) {
		covered, err = compare.CompareCovered(runs[0], runs[1], al.A, al.B, opt)
		if err != nil {
			fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		}
	}
	if *asJSON {
		err = writeCompareJSON(os.Stdout, runs, parts, c, covered)
	} else {
		err = writeCompareText(os.Stdout, runs, parts, c, covered)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: writing comparison: %v\n", err)
		return 1
	}
	crossed := false
	for _, l := range limits {
		x := l.Check(c)
		fmt.Fprintf(os.Stderr, "hecscope compare: --fail-if %s\n", x.Reason)
		crossed = crossed || x.Crossed
	}
	if crossed && code == 0 {
		return 3
	}
	return code
}

// parsePercent reads a percentage ("5%" or "5") as a fraction.
func parsePercent(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("want a percentage such as 5%%, not %q", s)
	}
	return v / 100, nil
}

// showValue formats a comparison value in its unit.
func showValue(v float64, u compare.Unit) string {
	switch u {
	case compare.UnitNS:
		return paint.ThreadScopeTime(uint64(math.Max(v, 0)))
	case compare.UnitBytes:
		return showBytesShort(uint64(math.Max(v, 0)))
	case compare.UnitBytesPerSecond:
		return showBytesShort(uint64(math.Max(v, 0))) + "/s"
	case compare.UnitFraction:
		return fmt.Sprintf("%.1f%%", 100*v)
	}
	return commas(uint64(math.Max(v, 0)))
}

// showDelta formats a signed difference in its unit (fractions in
// percentage points).
func showDelta(d float64, u compare.Unit) string {
	sign := "+"
	if d < 0 {
		sign = "−"
	}
	if d == 0 {
		return "0"
	}
	if u == compare.UnitFraction {
		return sign + compare.FormatPoints(d)
	}
	return sign + showValue(math.Abs(d), u)
}

// showRelative formats a relative change as a signed percentage.
func showRelative(r compare.Row) string {
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
func describeRun(r *compare.Run) string {
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

// writeCompareText prints the comparison as aligned text: the runs and how
// their logs end, the table by group (each row's key last, for --fail-if),
// the two distributions, and the comparison over the time both runs cover
// when there is one.
func writeCompareText(w io.Writer, runs [2]*compare.Run, parts [2]logPart, c *compare.Comparison, covered *compare.Covered) error {
	var b strings.Builder
	fmt.Fprintf(&b, "A: %s%s\n   %s\nB: %s%s\n   %s\n", c.A, describeRun(runs[0]), runStatus(runs[0], parts[0]),
		c.B, describeRun(runs[1]), runStatus(runs[1], parts[1]))
	fmt.Fprintf(&b, "A change within %s of A is \"same\".\n", showThreshold(c.Threshold))
	if c.Partial {
		b.WriteString("No verdicts on the whole runs: a run did not finish, so its figures cover only what it logged.\n")
	}
	if err := writeString(w, b.String()); err != nil {
		return err
	}
	if err := writeRowsText(w, c); err != nil {
		return err
	}
	for _, h := range []*compare.Histogram{&c.GCPauses, &c.ThreadRuns} {
		if err := writeHistogramText(w, h); err != nil {
			return err
		}
	}
	if covered != nil {
		head := fmt.Sprintf("\nOver the time both runs cover: %s of each, A from %s, B from %s\n", timeline.FormatDuration(covered.Length),
			timeline.FormatDuration(covered.FromA), timeline.FormatDuration(covered.FromB))
		if err := writeString(w, head); err != nil {
			return err
		}
		return writeRowsText(w, covered.Comparison)
	}
	return nil
}

// runStatus says how a run's log ends: "complete", or "truncated at byte N
// (partial)"; of one eventlog of a file holding several (p), which it is
// and, if others follow, "complete (then N more eventlogs)".
func runStatus(r *compare.Run, p logPart) string {
	st := segmentStatus(r.Summary.Status, p.index, p.count)
	if r.Partial() {
		st += " (partial run)"
	}
	if p.segmented() {
		return fmt.Sprintf("eventlog %d of %d in the file; status: %s", p.index+1, p.count, st)
	}
	return "status: " + st
}

// showThreshold writes a threshold as a percentage.
func showThreshold(th float64) string {
	return strconv.FormatFloat(100*th, 'f', -1, 64) + "%"
}

// writeRowsText prints the table of differences.
func writeRowsText(w io.Writer, c *compare.Comparison) error {
	t := &table{}
	t.add("", "A", "B", "B − A", "change", "verdict", "key")
	group := ""
	for _, r := range c.Rows {
		if r.Group != group {
			group = r.Group
			t.add(group+":", "", "", "", "", "", "")
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
		verdict := r.Verdict().String()
		if r.Verdict() == compare.VerdictSame && r.Better == compare.BetterNeither {
			verdict = ""
		}
		t.add("  "+r.Name, va, vb, d, showRelative(r), verdict, r.Key)
	}
	if err := writeString(w, "\n"); err != nil {
		return err
	}
	return t.write(w, true)
}

func writeString(w io.Writer, s string) error {
	_, err := io.WriteString(w, s)
	return err
}

// writeHistogramText prints a distribution: per bin, its range and the
// counts of A and B with bars scaled to the larger count.
func writeHistogramText(w io.Writer, h *compare.Histogram) error {
	if len(h.Edges) < 2 {
		return writeString(w, fmt.Sprintf("\n%s: none\n", h.Title))
	}
	mean := func(sum uint64, n int) string {
		if n == 0 {
			return "—"
		}
		return paint.ThreadScopeTime(sum / uint64(n))
	}
	head := fmt.Sprintf("\n%s (A: %d, mean %s, median %s, p90 %s; B: %d, mean %s, median %s, p90 %s):\n", h.Title,
		h.TotalA, mean(h.SumA, h.TotalA), paint.ThreadScopeTime(h.QuantA.P50), paint.ThreadScopeTime(h.QuantA.P90),
		h.TotalB, mean(h.SumB, h.TotalB), paint.ThreadScopeTime(h.QuantB.P50), paint.ThreadScopeTime(h.QuantB.P90))
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
	// Runs with different counts are compared as shares of their counts:
	// the bars are fractions, the counts printed beside them.
	same := h.SameCounts()
	value := func(k, i int) float64 {
		if same {
			return float64([][]int{h.A, h.B}[k][i])
		}
		return []func(int) float64{h.FractionA, h.FractionB}[k](i)
	}
	top := 1e-300
	for i := lo; i < hi; i++ {
		top = max(top, value(0, i), value(1, i))
	}
	bar := func(v float64, ch string) string {
		k := int(math.Ceil(v * 20 / top))
		return strings.Repeat(ch, k) + strings.Repeat(" ", 20-k)
	}
	cell := func(n int, total int) string {
		if same {
			return fmt.Sprint(n)
		}
		return fmt.Sprintf("%d (%.1f%%)", n, 100*float64(n)/float64(max(total, 1)))
	}
	if !same {
		if err := writeString(w, "  (the runs have different counts: bars are each run's share)\n"); err != nil {
			return err
		}
	}
	t := &table{}
	t.add("", "A", "", "B", "")
	for i := lo; i < hi; i++ {
		t.add(fmt.Sprintf("%s – %s", timeline.FormatDuration(h.Edges[i]), timeline.FormatDuration(h.Edges[i+1])),
			cell(h.A[i], h.TotalA), bar(value(0, i), "#"), cell(h.B[i], h.TotalB), bar(value(1, i), "="))
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
	// Offset and Reason say where and why a partial run's log ends.
	Offset *int64 `json:"offset,omitempty"`
	Reason string `json:"reason,omitempty"`
	// TimeFaults counts events with impossible timestamps.
	TimeFaults int64 `json:"time_faults,omitempty"`
	// Segment is which eventlog (from 1) of the Segments a file holding
	// several one after another the run is (both absent for a file of one).
	Segment  int `json:"segment,omitempty"`
	Segments int `json:"segments,omitempty"`
}

// jsonRow is one row of the JSON comparison; values a run lacks are null.
type jsonRow struct {
	Key      string   `json:"key"`
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
	// FractionA and FractionB are each bin's share of its run's count
	// (what a picture of runs with different counts draws).
	FractionA []float64 `json:"fraction_a"`
	FractionB []float64 `json:"fraction_b"`
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
func writeCompareJSON(w io.Writer, runs [2]*compare.Run, parts [2]logPart, c *compare.Comparison, covered *compare.Covered) error {
	type jsonCovered struct {
		FromANS  uint64    `json:"from_a_ns"`
		FromBNS  uint64    `json:"from_b_ns"`
		LengthNS uint64    `json:"length_ns"`
		Rows     []jsonRow `json:"rows"`
	}
	out := struct {
		A          jsonRun         `json:"a"`
		B          jsonRun         `json:"b"`
		Partial    bool            `json:"partial"`
		Threshold  float64         `json:"threshold"`
		Rows       []jsonRow       `json:"rows"`
		Histograms []jsonHistogram `json:"histograms"`
		Covered    *jsonCovered    `json:"covered,omitempty"`
	}{Rows: jsonRows(c), Partial: c.Partial, Threshold: c.Threshold}
	for i, r := range runs {
		s := &r.Summary
		jr := jsonRun{Name: r.Name, Program: s.Program, Args: s.Args, RTS: s.RTS, Status: s.Status.State.String(), TimeFaults: s.TimeFaults.Count}
		if jr.Args == nil {
			jr.Args = []string{}
		}
		if p := parts[i]; p.segmented() {
			jr.Segment, jr.Segments = p.index+1, p.count
		}
		if r.Partial() {
			off := s.Status.Offset
			jr.Offset, jr.Reason = &off, s.Status.Reason
		}
		if i == 0 {
			out.A = jr
		} else {
			out.B = jr
		}
	}
	if covered != nil {
		out.Covered = &jsonCovered{FromANS: covered.FromA, FromBNS: covered.FromB, LengthNS: covered.Length, Rows: jsonRows(covered.Comparison)}
	}
	for _, h := range []*compare.Histogram{&c.GCPauses, &c.ThreadRuns} {
		jh := jsonHistogram{Title: h.Title, EdgesNS: h.Edges, A: h.A, B: h.B, TotalA: h.TotalA, TotalB: h.TotalB, SumANS: h.SumA, SumBNS: h.SumB,
			QuantilesA: jsonQuantiles(h.QuantA), QuantilesB: jsonQuantiles(h.QuantB), FractionA: []float64{}, FractionB: []float64{}}
		if jh.EdgesNS == nil {
			jh.EdgesNS, jh.A, jh.B = []uint64{}, []int{}, []int{}
		}
		for i := range h.A {
			jh.FractionA = append(jh.FractionA, h.FractionA(i))
			jh.FractionB = append(jh.FractionB, h.FractionB(i))
		}
		out.Histograms = append(out.Histograms, jh)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// jsonRows returns the comparison's rows for JSON.
func jsonRows(c *compare.Comparison) []jsonRow {
	rows := []jsonRow{}
	ptr := func(v float64) *float64 { return &v }
	for _, r := range c.Rows {
		jr := jsonRow{Key: r.Key, Group: r.Group, Name: r.Name, Unit: r.Unit.String(), Better: r.Better.String(), Verdict: r.Verdict().String()}
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
		rows = append(rows, jr)
	}
	return rows
}
