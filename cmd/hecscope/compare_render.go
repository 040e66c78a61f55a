package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"

	"github.com/hecscope/hecscope/compare"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
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
// [--height H] [--scale S]`: both runs' timelines stacked on one time axis
// with the table of differences, the two distributions and the two heaps
// on one scale. --from and --to select a stretch of the shared time scale:
// the runs' own time when they are aligned at the start; otherwise, the
// time of the run whose alignment point comes later. fs is the render
// command's parsed flags (for --from and --to, and to tell whether
// --height was given: without it the comparison is 3/4 as high as wide).
func runRenderCompare(fs *flag.FlagSet, c compareRender) int {
	if len(c.files) != 2 {
		return renderCompareUsage("--compare needs two eventlogs A B")
	}
	if c.out == "" {
		return renderCompareUsage("-o out.png needed")
	}
	heightSet := false
	fs.Visit(func(f *flag.Flag) { heightSet = heightSet || f.Name == "height" })
	if !heightSet {
		c.height = max(c.width*3/4, 300)
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

// eventReader is a stream of a log's events: a whole file's
// (ingest.Open) or one segment's (ingest.NewReader).
type eventReader interface {
	Next(*ingest.Event) bool
	Err() error
	Status() ingest.Status
	Header() *ingest.Header
}

// loadRunHeap decodes the eventlog p once into its summary, timeline model
// and heap counters. A corrupt log is an error; a truncated one is drawn
// as far as it goes.
func loadRunHeap(p logPart) (runHeap, error) {
	path := p.path
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		r, h, err := compare.Open(context.Background(), path, p.index)
		if err != nil {
			return runHeap{}, err
		}
		if st := r.Summary.Status; st.State == ingest.StateCorrupt {
			return runHeap{}, fmt.Errorf("%s: %s", path, st)
		}
		return runHeap{run: r, heap: h}, nil
	}
	var f eventReader
	if p.segmented() {
		in, err := os.Open(path)
		if err != nil {
			return runHeap{}, err
		}
		defer in.Close()
		f = ingest.NewReader(bufio.NewReaderSize(io.NewSectionReader(in, p.offset, p.length), 1<<20))
	} else {
		in, err := ingest.Open(path)
		if err != nil {
			return runHeap{}, err
		}
		defer in.Close()
		f = in
	}
	z, b, hc := timeline.NewSummarizer(), timeline.NewBuilder(), heapview.NewCollector()
	var ev ingest.Event
	for f.Next(&ev) {
		z.Add(&ev)
		b.Add(&ev)
		hc.Add(&ev)
	}
	if err := f.Err(); err != nil {
		return runHeap{}, fmt.Errorf("%s: %w", path, err)
	}
	st := p.fileStatus(f.Status())
	if st.State == ingest.StateCorrupt {
		return runHeap{}, fmt.Errorf("%s: %s", path, st)
	}
	if st.State != ingest.StateComplete {
		b.EndCapabilities(b.LastEvents()) // nothing is known past a capability's last event
	}
	h, _ := hc.Result()
	return runHeap{
		run: &compare.Run{Name: filepath.Base(path), Summary: z.Summary(f.Header(), st), Model: b.Snapshot(), Path: path,
			Offset: p.offset, Length: p.length},
		heap: h,
	}, nil
}

// drawComparison loads both runs and draws the comparison picture
// (compare.RenderWithHeaps).
func drawComparison(c compareRender) (*image.RGBA, error) {
	var runs [2]runHeap
	for i, path := range c.files {
		part, err := findPart(path, c.segments[i], segmentFlagNames(2)[i], os.Stderr)
		if err != nil {
			return nil, err
		}
		r, err := loadRunHeap(part)
		if err != nil {
			return nil, err
		}
		runs[i] = r
	}
	a, b := runs[0].run, runs[1].run
	al, err := compare.ParseAlign(c.align, a, b)
	if err != nil {
		return nil, err
	}
	opt := compare.PictureOptions{View: c.view, Width: c.width, Height: c.height, Scale: c.scale, Align: al, From: c.from, To: c.to, Dark: c.dark}
	return compare.RenderWithHeaps(a, b, runs[0].heap, runs[1].heap, compare.Compare(a, b, compare.Options{}), opt)
}
