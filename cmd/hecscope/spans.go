package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"text/tabwriter"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/spans"
	"github.com/hecscope/hecscope/timeline"
)

const spansUsage = "usage: hecscope spans [--json] [--from T] [--to T] [--segment N] FILE\n" +
	"       hecscope spans --compare [--threshold 5%] [--alpha 0.01] [--json] [--from T] [--to T] [--segment-a N] [--segment-b N] A B"

// runSpans implements `hecscope spans [--json] [--from T --to T] FILE`: the
// statistics of every user span label (START x / STOP x) and thread label,
// for the run or the spans that start in [from, to); with --compare, those
// of runs A and B side by side (cmd/hecscope/spans_compare.go). Exit codes
// as summary: 1 for an unreadable or corrupt log (measured up to the
// damage), 2 for usage errors.
func runSpans(args []string) int {
	var asJSON, compare bool
	var threshold string
	var alpha float64
	files, from, to, code, ok := rangeCommandFiles("spans", spansUsage, args, func() int {
		if compare {
			return 2
		}
		return 1
	}, func(fs *flag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "print JSON")
		fs.BoolVar(&compare, "compare", false, "compare the spans of two runs A and B")
		fs.StringVar(&threshold, "threshold", "5%", "with --compare: the least change of a median that counts")
		fs.Float64Var(&alpha, "alpha", 0.01, "with --compare: the significance level of the Mann-Whitney test")
	})
	if !ok {
		return code
	}
	if compare {
		return runSpansCompare(files[0], files[1], from, to, threshold, alpha, asJSON)
	}
	file := files[0].path
	r, err := spansOf(files[0], spans.Options{From: from, To: to, Instances: -1})
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		return 1
	}
	if asJSON {
		err = writeSpansJSON(os.Stdout, r)
	} else {
		err = writeSpansText(os.Stdout, r)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %s: writing spans: %v\n", file, err)
		return 1
	}
	return statusCode(file, r.Status)
}

// rangeCommand reads the arguments of a command that takes one FILE,
// --from/--to and --segment N (spans, profile, export), with the extra
// flags extra declares, and finds the eventlog of FILE it reads (see
// findPart). If ok is false the command is over with exit code code.
func rangeCommand(name, usage string, args []string, extra func(*flag.FlagSet)) (file logPart, from, to uint64, code int, ok bool) {
	files, from, to, code, ok := rangeCommandFiles(name, usage, args, func() int { return 1 }, extra)
	if !ok {
		return logPart{}, 0, 0, code, false
	}
	return files[0], from, to, 0, true
}

// rangeCommandFiles is rangeCommand for a command that takes want() files
// (want is asked once the flags are read): two runs A and B take
// --segment-a N and --segment-b N instead of --segment N.
func rangeCommandFiles(name, usage string, args []string, want func() int, extra func(*flag.FlagSet)) (files []logPart, from, to uint64, code int, ok bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fromS := fs.String("from", "0", "start of the time range (1.5s, 250ms, 800us or ns)")
	toS := fs.String("to", "", "end of the time range (default: end of the run)")
	var segment, segmentA, segmentB segmentFlag
	fs.Var(&segment, "segment", "which eventlog (from 1) of a FILE holding several one after another")
	fs.Var(&segmentA, "segment-a", "with two runs: which eventlog of A")
	fs.Var(&segmentB, "segment-b", "with two runs: which eventlog of B")
	if extra != nil {
		extra(fs)
	}
	fail := func(msg string) ([]logPart, uint64, uint64, int, bool) {
		fmt.Fprintf(os.Stderr, "hecscope %s: %s\n%s\n", name, msg, usage)
		return nil, 0, 0, 2, false
	}
	var names []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if err == flag.ErrHelp {
				fmt.Fprintln(os.Stdout, usage)
				return nil, 0, 0, 0, false
			}
			return fail(err.Error())
		}
		if fs.NArg() == 0 {
			break
		}
		names = append(names, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	n := want()
	if len(names) != n || slices.Contains(names, "") {
		if n == 1 {
			return fail("one eventlog FILE needed")
		}
		return fail(fmt.Sprintf("%d eventlog files needed", n))
	}
	segments := []segmentFlag{segment}
	if n == 2 {
		if segment != 0 {
			return fail("two runs A B: --segment-a N and --segment-b N pick the eventlog of each")
		}
		segments = []segmentFlag{segmentA, segmentB}
	} else if segmentA != 0 || segmentB != 0 {
		return fail("one FILE: --segment N picks its eventlog (--segment-a and --segment-b are for two runs A B)")
	}
	var err error
	if from, err = timeline.ParseTime(*fromS); err != nil {
		return fail(err.Error())
	}
	if *toS != "" {
		if to, err = timeline.ParseTime(*toS); err != nil {
			return fail(err.Error())
		}
		if to <= from {
			return fail("--to must be after --from")
		}
	}
	flags := segmentFlagNames(n)
	for i, name := range names {
		p, err := findPart(name, segments[i], flags[i], os.Stderr)
		if err != nil {
			fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
			return nil, 0, 0, 1, false
		}
		files = append(files, p)
	}
	return files, from, to, 0, true
}

// spansOf measures the spans of the eventlog p (spans.Collect); the report's
// status counts bytes from the start of the file.
func spansOf(p logPart, opt spans.Options) (*spans.Report, error) {
	r, err := spans.Collect(p.pass(context.Background()), opt)
	if err != nil {
		return nil, err
	}
	r.Status = p.fileStatus(r.Status)
	return r, nil
}

// statusCode reports a truncated or corrupt log on stderr and returns the
// exit code: 1 for a corrupt one, 0 otherwise.
func statusCode(file string, st ingest.Status) int {
	switch st.State {
	case ingest.StateCorrupt:
		fmt.Fprintf(os.Stderr, "hecscope: %s: %s\n", file, st)
		return 1
	case ingest.StateTruncated:
		fmt.Fprintf(os.Stderr, "hecscope: %s: %s\n", file, st)
	}
	return 0
}

// jsonSpan is one label of `spans --json`.
type jsonSpan struct {
	Label     string `json:"label"`
	Kind      string `json:"kind"`
	Count     int    `json:"count"`
	Total     uint64 `json:"total_ns"`
	Mean      uint64 `json:"mean_ns"`
	P50       uint64 `json:"p50_ns"`
	P90       uint64 `json:"p90_ns"`
	P99       uint64 `json:"p99_ns"`
	Max       uint64 `json:"max_ns"`
	Open      int    `json:"open,omitempty"`
	Unmatched int    `json:"unmatched,omitempty"`
}

// writeSpansJSON writes {"spans":[...]} (plus "exact": whether the
// percentiles are exact).
func writeSpansJSON(w io.Writer, r *spans.Report) error {
	out := struct {
		Spans []jsonSpan `json:"spans"`
		Exact bool       `json:"exact"`
	}{Spans: []jsonSpan{}, Exact: r.Exact}
	for _, l := range r.Labels {
		out.Spans = append(out.Spans, jsonSpan{Label: l.Name, Kind: l.Kind.String(), Count: l.Count,
			Total: l.Total, Mean: l.Mean(), P50: l.Quantile(.5), P90: l.Quantile(.9), P99: l.Quantile(.99),
			Max: l.Max, Open: l.Open, Unmatched: l.Unmatched})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// writeSpansText writes the labels as an aligned table.
func writeSpansText(w io.Writer, r *spans.Report) error {
	if len(r.Labels) == 0 {
		_, err := fmt.Fprintln(w, "no user spans (START x / STOP x messages) or thread labels")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "count\ttotal\tmean\tp50\tp90\tp99\tmax\topen\tkind\t  label")
	for _, l := range r.Labels {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t  %s\n", l.Count,
			dur(l.Count, l.Total), dur(l.Count, l.Mean()), dur(l.Count, l.Quantile(.5)), dur(l.Count, l.Quantile(.9)),
			dur(l.Count, l.Quantile(.99)), dur(l.Count, l.Max), l.Open, l.Kind, l.Name)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if !r.Exact {
		_, err := fmt.Fprintln(w, "(percentiles within 0.5%: too many spans to keep every duration)")
		return err
	}
	return nil
}

// dur formats a duration of a label with n spans ("-" without any).
func dur(n int, ns uint64) string {
	if n == 0 {
		return "-"
	}
	return paint.Duration(ns)
}
