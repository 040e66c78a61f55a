package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"os"
	"strings"

	"github.com/hecscope/hecscope/compare"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// compareRender is what `hecscope render --compare A B` draws, after the
// flags are parsed.
type compareRender struct {
	files []string
	// segments are --segment-a and --segment-b: which eventlog of each
	// file, when it holds several one after another.
	segments      [2]segmentFlag
	out           string
	align         string // see compare.ParseAlign
	view          string
	width, height int
	scale         float64
	// from and to select a stretch of the shared time scale (to = 0: the
	// end); see timeline.Viewport.
	from, to uint64
	dark     bool // colours for a dark background
}

// runRenderCompare implements `hecscope render --compare A B -o out.png
// [--align start|marker:TEXT|span:LABEL|offset:T] [--from T] [--to T] [--view V] [--width W]
// [--height H] [--scale S]`: both runs' tracks of view V (compare.DefaultView
// unless given) stacked on one time axis with the table of differences, the
// two distributions and the two heaps on one scale. --from and --to select a stretch of the shared time scale:
// the runs' own time when they are aligned at the start; otherwise, the
// time of the run whose alignment point comes later. fs is the render
// command's parsed flags (for --from and --to, and to tell whether
// --height and --view were given: without --height the comparison is 3/4
// as high as wide).
func runRenderCompare(fs *flag.FlagSet, c compareRender) int {
	if len(c.files) != 2 {
		return renderCompareUsage("--compare needs two eventlogs A B")
	}
	if c.out == "" {
		return renderCompareUsage("-o out.png needed")
	}
	heightSet, viewSet := false, false
	fs.Visit(func(f *flag.Flag) {
		heightSet = heightSet || f.Name == "height"
		viewSet = viewSet || f.Name == "view"
	})
	if !heightSet {
		c.height = max(c.width*3/4, 300)
	}
	if !viewSet {
		c.view = compare.DefaultView
	}
	if _, ok := tracks.ViewGroups(c.view); !ok {
		return renderCompareUsage(fmt.Sprintf("--view %q: with --compare one of %s", c.view, strings.Join(tracks.Views(), ", ")))
	}
	var err error
	if f := fs.Lookup("from"); f != nil {
		if c.from, err = timeline.ParseTime(f.Value.String()); err != nil {
			return renderCompareUsage(err.Error())
		}
	}
	if f := fs.Lookup("to"); f != nil && f.Value.String() != "" {
		if c.to, err = timeline.ParseTime(f.Value.String()); err != nil {
			return renderCompareUsage(err.Error())
		}
		if c.to <= c.from {
			return renderCompareUsage("--to must be after --from")
		}
	}
	img, err := drawComparison(c)
	if errors.Is(err, compare.ErrAlignSpec) {
		return renderCompareUsage("--align: " + err.Error())
	}
	if err != nil {
		return fail(err)
	}
	if err := writePNG(c.out, img); err != nil {
		return fail(err)
	}
	return 0
}

// renderCompareUsage reports a usage error of render --compare; exit code 2.
func renderCompareUsage(msg string) int {
	fmt.Fprintf(os.Stderr, "hecscope render: %s\nusage: hecscope render --compare A B -o out.png [--align start|marker:TEXT|span:LABEL|offset:T] [--from T] [--to T] [--view V] [--width W] [--height H] [--scale S]\n", msg)
	return 2
}

// fail reports an error; exit code 1.
func fail(err error) int {
	fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
	return 1
}

// runHeap is a run with its heap counters, decoded in the same pass.
type runHeap struct {
	run  *compare.Run
	heap *heapview.Heap
}

// drawComparison loads both runs and draws the comparison picture
// (compare.RenderWithHeaps).
func drawComparison(c compareRender) (*image.RGBA, error) {
	var runs [2]runHeap
	var opener runOpener
	defer opener.remove()
	for i, path := range c.files {
		part, err := findPart(path, c.segments[i], segmentFlagNames(2)[i], os.Stderr)
		if err != nil {
			return nil, err
		}
		r, h, err := opener.openChecked(part)
		if err != nil {
			return nil, err
		}
		runs[i] = runHeap{run: r, heap: h}
	}
	a, b := runs[0].run, runs[1].run
	al, err := compare.ParseAlign(c.align, a, b)
	if err != nil {
		return nil, err
	}
	opt := compare.PictureOptions{View: c.view, Width: c.width, Height: c.height, Scale: c.scale, Align: al, From: c.from, To: c.to, Dark: c.dark}
	return compare.RenderWithHeaps(a, b, runs[0].heap, runs[1].heap, compare.Compare(a, b, compare.Options{}), opt)
}
