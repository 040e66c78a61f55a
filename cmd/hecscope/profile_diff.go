package main

import (
	"encoding/json"
	"fmt"
	"image"
	"io"
	"os"
	"text/tabwriter"

	"github.com/hecscope/hecscope/ccprofile"
	"github.com/hecscope/hecscope/paint"
)

// profileDiffOutput says what `profile --diff` writes.
type profileDiffOutput struct {
	json          bool
	top           int
	png           string
	width, height int
}

// runProfileDiff implements `hecscope profile --diff A B`: each cost
// centre's self and inherited shares in A and B with their changes, the
// largest change first, and with --png the differential flame graph of B
// (frames red where their stack's share grew, blue where it shrank).
func runProfileDiff(partA, partB logPart, opt ccprofile.Options, out profileDiffOutput) int {
	if out.png != "" && (out.width < 64 || out.height < 64 || out.width > 16384 || out.height > 16384) {
		fmt.Fprintf(os.Stderr, "hecscope profile: --width and --height must be between 64 and 16384\n%s\n", profileUsage)
		return 2
	}
	a, err := profileOf(partA, opt)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		return 1
	}
	b, err := profileOf(partB, opt)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		return 1
	}
	d := ccprofile.Compare(a, b)
	if out.json {
		err = writeProfileDiffJSON(os.Stdout, d)
	} else {
		err = writeProfileDiffText(os.Stdout, d, out.top)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: writing the profile comparison: %v\n", err)
		return 1
	}
	if out.png != "" {
		img := image.NewRGBA(image.Rect(0, 0, out.width, out.height))
		th := paint.Light
		ccprofile.DrawFlame(paint.NewRaster(img), b, ccprofile.FlameOptions{Theme: th, Color: d.Colors(th), Title: d.Title})
		if err := writePNG(out.png, img); err != nil {
			fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
			return 1
		}
	}
	return max(statusCode(partA.path, a.Status), statusCode(partB.path, b.Status))
}

// jsonCostCentreDiff is one row of `profile --diff --json`.
type jsonCostCentreDiff struct {
	Label      string  `json:"label"`
	Module     string  `json:"module"`
	Src        string  `json:"src"`
	SelfA      float64 `json:"self_a"`
	SelfB      float64 `json:"self_b"`
	InheritedA float64 `json:"inherited_a"`
	InheritedB float64 `json:"inherited_b"`
}

// writeProfileDiffJSON writes {"share_of","samples_a","samples_b",
// "cost_centres":[...]} with shares as fractions of each run's samples of
// the kind "share_of" names (see writeProfileJSON).
func writeProfileDiffJSON(w io.Writer, d *ccprofile.Diff) error {
	out := struct {
		ShareOf     string               `json:"share_of"`
		SamplesA    uint64               `json:"samples_a"`
		SamplesB    uint64               `json:"samples_b"`
		CostCentres []jsonCostCentreDiff `json:"cost_centres"`
	}{ShareOf: d.B.Of.String(), SamplesA: d.A.Samples, SamplesB: d.B.Samples, CostCentres: []jsonCostCentreDiff{}}
	for _, r := range d.Rows {
		out.CostCentres = append(out.CostCentres, jsonCostCentreDiff{Label: r.Label, Module: r.Module, Src: r.Src,
			SelfA: r.SelfA, SelfB: r.SelfB, InheritedA: r.InheritedA, InheritedB: r.InheritedB})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// writeProfileDiffText writes the top rows (all for top ≤ 0) as a table.
func writeProfileDiffText(w io.Writer, d *ccprofile.Diff, top int) error {
	if d.A.Samples == 0 || d.B.Samples == 0 {
		_, err := fmt.Fprintf(w, "no cost-centre samples in %s (build with -prof, run with +RTS -l -p)\n",
			map[bool]string{true: "A", false: "B"}[d.A.Samples == 0])
		return err
	}
	kind := "mutator samples, as GHC's .prof counts them (GC's and the RTS's apart: A %s, B %s of all samples)"
	kind = fmt.Sprintf(kind, paint.Percent(apartShare(d.A)), paint.Percent(apartShare(d.B)))
	if d.B.Of == ccprofile.AllSamples {
		kind = "samples, GC's and the RTS's included"
	}
	fmt.Fprintf(w, "A: %d samples, B: %d samples; shares in %% of each run's %s, change in percentage points\n", d.A.Samples, d.B.Samples, kind)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	io.WriteString(tw, "COST CENTRE\tMODULE\t%self A\t%self B\tchange\t%inh A\t%inh B\tchange\n")
	for i, r := range d.Rows {
		if top > 0 && i == top {
			break
		}
		fmt.Fprintf(tw, "%s\t%s\t%5.1f\t%5.1f\t%+5.1f\t%5.1f\t%5.1f\t%+5.1f\n", r.Label, r.Module,
			100*r.SelfA, 100*r.SelfB, 100*r.SelfChange(), 100*r.InheritedA, 100*r.InheritedB, 100*r.InheritedChange())
	}
	return tw.Flush()
}

// apartShare is the share of p's samples that its shares leave out.
func apartShare(p *ccprofile.Profile) float64 {
	if p.All == 0 {
		return 0
	}
	return float64(p.All-p.Samples) / float64(p.All)
}
