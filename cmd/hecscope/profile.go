package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/hecscope/hecscope/ccprofile"
	"github.com/hecscope/hecscope/paint"
)

const profileUsage = "usage: hecscope profile [--json] [--with-gc] [--top N] [--from T] [--to T] [--segment N] FILE\n" +
	"       hecscope profile --diff [--png OUT.png] [--width W] [--height H] [--json] [--with-gc] [--top N] [--from T] [--to T] [--segment-a N] [--segment-b N] A B"

// runProfile implements `hecscope profile [--json] [--from T --to T] FILE`:
// the cost-centre table of a profiled run's time profile samples (self and
// inherited shares of the mutator's samples, as GHC's .prof file gives
// them, with GC's and the rest of the RTS's samples counted apart; with
// --with-gc, shares of all samples), for the run or the samples taken in
// [from, to); with --diff, how run B's shares differ from
// run A's and the differential flame graph (cmd/hecscope/profile_diff.go).
// Exit codes as summary.
func runProfile(args []string) int {
	var asJSON, diff, withGC bool
	var top, width, height int
	var pngOut string
	files, from, to, code, ok := rangeCommandFiles("profile", profileUsage, args, func() int {
		if diff {
			return 2
		}
		return 1
	}, func(fs *flag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "print JSON")
		fs.IntVar(&top, "top", 30, "text: cost centres to list (0: all)")
		fs.BoolVar(&diff, "diff", false, "compare the profiles of two runs A and B")
		fs.BoolVar(&withGC, "with-gc", false, "shares of all samples, GC's and the RTS's included (default: of the mutator's samples, as GHC's .prof)")
		fs.StringVar(&pngOut, "png", "", "with --diff: write B's differential flame graph to this PNG")
		fs.IntVar(&width, "width", 1600, "with --png: width in pixels")
		fs.IntVar(&height, "height", 500, "with --png: height in pixels")
	})
	if !ok {
		return code
	}
	opt := ccprofile.Options{From: from, To: to}
	if withGC {
		opt.Of = ccprofile.AllSamples
	}
	if diff {
		return runProfileDiff(files[0], files[1], opt, profileDiffOutput{
			json: asJSON, top: top, png: pngOut, width: width, height: height})
	}
	if pngOut != "" {
		fmt.Fprintf(os.Stderr, "hecscope profile: --png needs --diff (a single run's flame graph: hecscope render --view flame)\n%s\n", profileUsage)
		return 2
	}
	file := files[0].path
	p, err := profileOf(files[0], opt)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		return 1
	}
	if asJSON {
		err = writeProfileJSON(os.Stdout, p)
	} else {
		err = writeProfileText(os.Stdout, p, top)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %s: writing profile: %v\n", file, err)
		return 1
	}
	return statusCode(file, p.Status)
}

// jsonCostCentre is one row of `profile --json`.
type jsonCostCentre struct {
	Label     string  `json:"label"`
	Module    string  `json:"module"`
	Src       string  `json:"src"`
	Self      float64 `json:"self"`
	Inherited float64 `json:"inherited"`
}

// jsonApart counts the samples of the RTS's own stacks (ccprofile.Apart).
type jsonApart struct {
	GC       uint64 `json:"gc"`
	Idle     uint64 `json:"idle"`
	System   uint64 `json:"system"`
	Overhead uint64 `json:"overhead"`
}

// writeProfileJSON writes {"share_of":…,"samples":N,"cost_centres":[...]}
// with shares as fractions of the samples "share_of" names
// ("mutator_samples", as GHC's .prof, or "all_samples"), "samples" their
// number, "all_samples" every sample and "apart" those of the RTS's own
// stacks (plus "interval_ns", the tick interval).
func writeProfileJSON(w io.Writer, p *ccprofile.Profile) error {
	out := struct {
		ShareOf     string           `json:"share_of"`
		Samples     uint64           `json:"samples"`
		All         uint64           `json:"all_samples"`
		Apart       jsonApart        `json:"apart"`
		Interval    uint64           `json:"interval_ns"`
		CostCentres []jsonCostCentre `json:"cost_centres"`
	}{ShareOf: p.Of.String(), Samples: p.Samples, All: p.All, Interval: p.Interval, CostCentres: []jsonCostCentre{},
		Apart: jsonApart{GC: p.Apart.GC, Idle: p.Apart.Idle, System: p.Apart.System, Overhead: p.Apart.Overhead}}
	for _, r := range p.Rows {
		out.CostCentres = append(out.CostCentres, jsonCostCentre{Label: r.CC.Label, Module: r.CC.Module,
			Src: r.CC.Src, Self: p.SelfShare(r), Inherited: p.InheritedShare(r)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// writeProfileText writes the top rows (all for top ≤ 0) as a table.
func writeProfileText(w io.Writer, p *ccprofile.Profile, top int) error {
	if p.All == 0 {
		_, err := fmt.Fprintln(w, "no cost-centre samples (build with -prof, run with +RTS -l -p)")
		return err
	}
	fmt.Fprintf(w, "%d samples", p.All)
	if p.Interval > 0 {
		fmt.Fprintf(w, " @ %s", paint.Duration(p.Interval))
	}
	fmt.Fprintf(w, "\n%s\n", p.Basis())
	if a := p.ApartText(); a != "" {
		fmt.Fprintln(w, a)
	}
	if p.Samples == 0 {
		_, err := fmt.Fprintln(w, "no samples of the program's own cost centres (--with-gc: shares of all samples)")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	io.WriteString(tw, "COST CENTRE\tMODULE\tSRC\t%self\t%inherited\n")
	for i, r := range p.Rows {
		if top > 0 && i == top {
			break
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%5.1f\t%5.1f\n", r.CC.Label, r.CC.Module, r.CC.Src,
			100*p.SelfShare(r), 100*p.InheritedShare(r))
	}
	return tw.Flush()
}

// profileOf profiles the eventlog p (ccprofile.Collect); the profile's
// status counts bytes from the start of the file.
func profileOf(p logPart, opt ccprofile.Options) (*ccprofile.Profile, error) {
	r, err := ccprofile.Collect(p.pass(context.Background()), opt)
	if err != nil {
		return nil, err
	}
	r.Status = p.fileStatus(r.Status)
	return r, nil
}
