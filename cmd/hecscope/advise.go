package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hecscope/hecscope/advise"
	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

const adviseUsage = "usage: hecscope advise [--json] [--from T] [--to T] [--segment N] FILE"

// runAdvise implements `hecscope advise [--json] [--from T --to T] FILE`:
// what made the run (or the range) slow, as findings with their evidence
// and a suggestion each (package advise). Exit codes as summary: 1 for an
// unreadable or corrupt log (analysed up to the damage), 2 for usage
// errors; a finding is not an error.
func runAdvise(args []string) int {
	var asJSON bool
	part, from, to, code, ok := rangeCommand("advise", adviseUsage, args, func(fs *flag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "print JSON")
	})
	if !ok {
		return code
	}
	fs, st, err := adviseLog(part, from, to)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		return 1
	}
	if asJSON {
		err = writeAdviseJSON(os.Stdout, fs)
	} else {
		err = writeAdviseText(os.Stdout, part.path, fs)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %s: writing findings: %v\n", part.path, err)
		return 1
	}
	return statusCode(part.path, st)
}

// adviseLog loads the eventlog p and analyses [from, to] of it (to = 0:
// through the end), returning the findings and how the log ends.
func adviseLog(p logPart, from, to uint64) ([]advise.Finding, ingest.Status, error) {
	l, err := eventlog.Open(context.Background(), p.path, eventlog.Options{Segment: p.index, NoEventList: true})
	if err != nil {
		return nil, ingest.Status{}, err
	}
	defer l.Close()
	if l.HeapProfileOnly() {
		return nil, l.Status, fmt.Errorf("%s: a .hp heap profile has no timeline to advise on (advise reads eventlogs)", p.path)
	}
	in := advise.Input{Model: l.Overview(), Heap: l.Heap, From: from, To: to}
	if l.SummaryErr == nil {
		in.Summary = &l.Summary
	}
	if from > 0 || to > 0 {
		end := to
		if end == 0 {
			end = l.Overview().End
		}
		if end <= from {
			return nil, l.Status, fmt.Errorf("%s: the range %s–%s lies after the run's end (%s)", p.path,
				paint.Duration(from), paint.Duration(end), paint.Duration(l.Overview().End))
		}
		s, err := summarizePartRange(p, from, end)
		if err != nil {
			return nil, l.Status, err
		}
		// A restarted eventlog names its program from the first (the
		// loaded summary has inherited it; the range's has not).
		s.Program, s.Args, s.Env, s.RTS = l.Summary.Program, l.Summary.Args, l.Summary.Env, l.Summary.RTS
		in.Summary = &s
	}
	return advise.Analyze(in), l.Status, nil
}

// summarizePartRange summarises the events of the eventlog p in [from, to].
func summarizePartRange(p logPart, from, to uint64) (timeline.Summary, error) {
	read := func(src io.Reader) (timeline.Summary, error) {
		return timeline.SummarizeRange(bufio.NewReaderSize(src, 1<<20), from, to)
	}
	var s timeline.Summary
	var err error
	if p.segmented() {
		s, err = readPart(p, func(r io.ReaderAt, size int64) (timeline.Summary, error) {
			return read(io.NewSectionReader(r, 0, size))
		})
	} else {
		var f *os.File
		if f, err = os.Open(p.path); err == nil {
			s, err = read(f)
			f.Close()
		}
	}
	if err != nil {
		return s, fmt.Errorf("%s: summarising %s–%s: %w", p.path, paint.Duration(from), paint.Duration(to), err)
	}
	return s, nil
}

// jsonFinding is one finding of `advise --json`.
type jsonFinding struct {
	Kind       advise.Kind     `json:"kind"`
	Severity   advise.Severity `json:"severity"`
	From       uint64          `json:"from_ns"`
	To         uint64          `json:"to_ns"`
	Title      string          `json:"title"`
	Evidence   []string        `json:"evidence"`
	Suggestion string          `json:"suggestion"`
	// The tracks that show it (advise.Tracks), those it has.
	Caps    []int32  `json:"caps,omitempty"`
	Threads []uint32 `json:"threads,omitempty"`
	GC      bool     `json:"gc,omitempty"`
	Heap    bool     `json:"heap,omitempty"`
	Sparks  bool     `json:"sparks,omitempty"`
}

// writeAdviseJSON writes {"findings":[...]}.
func writeAdviseJSON(w io.Writer, fs []advise.Finding) error {
	out := struct {
		Findings []jsonFinding `json:"findings"`
	}{Findings: []jsonFinding{}}
	for _, f := range fs {
		out.Findings = append(out.Findings, jsonFinding{Kind: f.Kind, Severity: f.Severity, From: f.From, To: f.To,
			Title: f.Title, Evidence: f.Evidence, Suggestion: f.Suggestion,
			Caps: f.Tracks.Caps, Threads: f.Tracks.Threads, GC: f.Tracks.GC, Heap: f.Tracks.Heap, Sparks: f.Tracks.Sparks})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// writeAdviseText writes the findings, most severe first, each as its
// severity, kind and range, its title, its evidence and its suggestion.
func writeAdviseText(w io.Writer, file string, fs []advise.Finding) error {
	var b strings.Builder
	if len(fs) == 0 {
		fmt.Fprintf(&b, "%s: no findings: nothing in this log points at a cause of slowness that advise knows.\n", file)
	} else {
		var n [3]int
		for _, f := range fs {
			n[min(int(f.Severity), 2)]++
		}
		fmt.Fprintf(&b, "%s: %s (%d problem, %d warning, %d info)\n", file,
			paint.CountOf(int64(len(fs)), "finding", "findings"), n[advise.Problem], n[advise.Warning], n[advise.Info])
	}
	for _, f := range fs {
		fmt.Fprintf(&b, "\n%s  %s  %s–%s\n  %s\n", strings.ToUpper(f.Severity.String()), f.Kind,
			paint.Duration(f.From), paint.Duration(f.To), f.Title)
		for _, e := range f.Evidence {
			b.WriteString(wrap("  - ", "    ", e))
		}
		b.WriteString(wrap("  Try: ", "       ", f.Suggestion))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// wrapWidth is the width text findings are wrapped to.
const wrapWidth = 100

// wrap writes s after first, wrapped at word boundaries to wrapWidth
// columns, its further lines after indent.
func wrap(first, indent, s string) string {
	var b strings.Builder
	line := first
	n := len([]rune(line))
	fresh := true
	for _, word := range strings.Fields(s) {
		wl := len([]rune(word))
		if !fresh && n+1+wl > wrapWidth {
			b.WriteString(line + "\n")
			line, n, fresh = indent, len([]rune(indent)), true
		}
		if !fresh {
			line += " "
			n++
		}
		line += word
		n += wl
		fresh = false
	}
	b.WriteString(line + "\n")
	return b.String()
}
