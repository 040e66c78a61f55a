package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// renderOptions are the flags of `hecscope render` after parsing.
type renderOptions struct {
	view          string
	from, to      uint64 // ns; to = 0: end of the run
	width, height int
	scale         float64
	mode          string // heap view: area, normalised or lines
	bands         int    // heap view: named bands before OTHER (0 = default)
	sort          string // heap view: band order, size, name or growth
	dark          bool   // colours for a dark background
	logRates      bool   // rate tracks (sparks) on a log scale
	spansByLabel  bool   // user spans in a track per label, not per thread (--spans by-label)
	// part is the eventlog of the file drawn: the whole file, or one
	// of several it holds one after another (--segment N).
	part logPart
}

// renderView draws one --view of the eventlog at path.
type renderView func(path string, o renderOptions) (*image.RGBA, error)

// renderViews maps each --view name to what draws it. Views of other models
// (heap charts) add themselves here.
var renderViews = map[string]renderView{}

func init() {
	for _, v := range tracks.Views() {
		renderViews[v] = renderTracksView
	}
}

// viewNames returns the --view names, sorted.
func viewNames() []string {
	var names []string
	for k := range renderViews {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// runRender implements `hecscope render FILE -o out.png [--view V] [--from T]
// [--to T] [--width W] [--height H] [--scale S]`: a headless PNG of a view.
// The timeline, activity, sparks and threads views are the app's track
// canvas (tracks.View) with that view's groups of tracks expanded; heap is
// the heap chart, flame the cost-centre flame graph.
func runRender(args []string) int {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "", "output PNG file")
	view := fs.String("view", "timeline", "view: "+strings.Join(viewNames(), ", "))
	from := fs.String("from", "0", "start of the time range (1.5s, 250ms, 800us or ns)")
	to := fs.String("to", "", "end of the time range (default: end of the run)")
	width := fs.Int("width", 1600, "image width in device pixels")
	height := fs.Int("height", 900, "image height in device pixels")
	scale := fs.Float64("scale", 1, "device pixel ratio (text size)")
	mode := fs.String("mode", "area", "heap view: area, normalised or lines")
	bands := fs.Int("bands", 0, "heap view: bands to name before OTHER (default 15)")
	sortBy := fs.String("sort", "size", "heap view: band order, size, name or growth")
	compare := fs.Bool("compare", false, "draw two eventlogs A B stacked for comparison")
	align := fs.String("align", "start", "with --compare: where to line the runs up: start, marker:TEXT, span:LABEL or offset:T")
	dark := fs.Bool("dark", false, "colours for a dark background")
	logRates := fs.Bool("log", false, "track views: the spark rate tracks on a log scale")
	spans := fs.String("spans", "by-thread", "track views: user START/STOP spans by-thread (nested) or by-label")
	var segment, segmentA, segmentB segmentFlag
	fs.Var(&segment, "segment", "which eventlog (from 1) of a FILE holding several one after another")
	fs.Var(&segmentA, "segment-a", "with --compare: which eventlog of A")
	fs.Var(&segmentB, "segment-b", "with --compare: which eventlog of B")
	usage := func(msg string) int {
		if msg != "" {
			fmt.Fprintf(os.Stderr, "hecscope render: %s\n", msg)
		}
		fmt.Fprintln(os.Stderr, "usage: hecscope render FILE -o out.png [--view "+strings.Join(viewNames(), "|")+
			"] [--from T] [--to T] [--width W] [--height H] [--scale S]"+
			" [--mode area|normalised|lines] [--bands N] [--sort size|name|growth] [--dark] [--log] [--spans by-thread|by-label] [--segment N]\n"+
			"       (--segment N: the Nth of the eventlogs a FILE holds one after another; the first by default)")
		return 2
	}
	var files []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return usage(err.Error())
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if *compare {
		if segment != 0 {
			return renderCompareUsage("two runs A B: --segment-a N and --segment-b N pick the eventlog of each")
		}
		return runRenderCompare(fs, compareRender{files: files, segments: [2]segmentFlag{segmentA, segmentB}, out: *out, align: *align,
			view: *view, width: *width, height: *height, scale: *scale, dark: *dark})
	}
	if len(files) != 1 {
		return usage("one eventlog FILE needed")
	}
	if segmentA != 0 || segmentB != 0 {
		return usage("one FILE: --segment N picks its eventlog (--segment-a and --segment-b are for --compare A B)")
	}
	if *out == "" {
		return usage("-o out.png needed")
	}
	draw, ok := renderViews[*view]
	if !ok {
		return usage(fmt.Sprintf("unknown view %q", *view))
	}
	if *spans != "by-thread" && *spans != "by-label" {
		return usage(fmt.Sprintf("--spans %q: by-thread or by-label", *spans))
	}
	o := renderOptions{view: *view, width: *width, height: *height, scale: *scale,
		mode: *mode, bands: *bands, sort: *sortBy, dark: *dark, logRates: *logRates, spansByLabel: *spans == "by-label"}
	var err error
	if o.from, err = timeline.ParseTime(*from); err != nil {
		return usage(err.Error())
	}
	if *to != "" {
		if o.to, err = timeline.ParseTime(*to); err != nil {
			return usage(err.Error())
		}
		if o.to <= o.from {
			return usage("--to must be after --from")
		}
	}
	if o.width < 64 || o.height < 64 || o.width > 16384 || o.height > 16384 {
		return usage("--width and --height must be in 64..16384")
	}
	if o.part, err = findPart(files[0], segment, "--segment", os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		return 1
	}
	img, err := draw(files[0], o)
	if errors.Is(err, errNoEvents) {
		// A log of a program that crashed before writing an event: a
		// picture that says so.
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		img, err = noEventsPicture(err.Error(), o), nil
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		return 1
	}
	if err := writePNG(*out, img); err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		return 1
	}
	return 0
}

// writePNG writes img to path.
func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing PNG: %w", err)
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("writing PNG %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing PNG %s: %w", path, err)
	}
	return nil
}

// loadedRun is what a view of the tracks is drawn from.
type loadedRun struct {
	model *timeline.Model
	// threads is how many threads are alive in the range when the model
	// holds only those the picture has room for (else 0).
	threads int
}

// loadTimeline loads the eventlog at path for drawing [o.from, o.to] of
// view o.view: the run's overview, or, for a range too narrow for it, that
// range decoded from the file (without the heap: no view of the tracks
// render draws shows it, and its heap tracks would cost render ~2× the
// memory on a big log). A truncated log gives the model of what is there
// (with a notice); a corrupt one is an error.
func loadTimeline(path string, o renderOptions) (run loadedRun, err error) {
	opt := eventlog.Options{NoSummary: true, NoEventList: true, NoHeap: true, Segment: o.part.index}
	groups, _ := tracks.ViewGroups(o.view)
	if !slices.Contains(groups, tracks.GroupThreads) {
		opt.NoThreads = true // only a view that shows threads needs them
	} else {
		// Only the rows the picture has room for (a thread's track is at
		// least 14 points high).
		rows, alive, err := threadRows(o.part, o.from, o.to, o.height/int(14*max(o.scale, 1))+1)
		if err != nil {
			return run, err
		}
		opt.KeepThread = func(id uint32) bool { return rows[id] }
		run.threads = alive
	}
	r, err := eventlog.Open(context.Background(), path, opt)
	if err != nil {
		return run, err
	}
	defer r.Close()
	if r.HeapProfileOnly() {
		return run, fmt.Errorf("%s: a .hp heap profile has no timeline (try --view heap)", path)
	}
	switch st := r.Status; st.State {
	case ingest.StateCorrupt:
		return run, fmt.Errorf("%s: %s", path, st)
	case ingest.StateTruncated:
		fmt.Fprintf(os.Stderr, "hecscope: %s: %s; rendering what is there\n", path, st)
	}
	if r.TimeFaults.Count > 0 {
		fmt.Fprintf(os.Stderr, "hecscope: %s: %s; drawn at a time inside their block\n", path, r.TimeFaults)
	}
	if r.CapFaults.Count > 0 {
		fmt.Fprintf(os.Stderr, "hecscope: %s: %s; such blocks' events are drawn on the capability they claim\n", path, r.CapFaults)
	}
	m := r.Overview()
	if r.Events == 0 {
		return run, fmt.Errorf("%s: %w (%s)", path, errNoEvents, r.Status)
	}
	to := o.to
	if to == 0 {
		to = m.End
	}
	if g := m.Grid; g.On() && to > o.from {
		// Buckets wider than half a pixel blur the picture: decode the
		// range itself, on buckets a quarter of a pixel wide.
		nsPerPx := float64(to-o.from) / float64(o.width)
		if float64(g.Width()) > nsPerPx/2 {
			fine := timeline.GridFor(to-o.from, 4*o.width)
			if w, err := r.Window(context.Background(), o.from, to, fine); err == nil {
				m = w
			} else {
				return run, fmt.Errorf("%s: %w", path, err)
			}
		}
	}
	run.model = m
	return run, nil
}

// errNoEvents is the error of a log that holds a header and no event.
var errNoEvents = errors.New("no events: the log holds its header only")

// noEventsPicture draws a picture of o's size that says msg: what render
// writes for a log without events.
func noEventsPicture(msg string, o renderOptions) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, o.width, o.height))
	c := paint.NewRaster(img)
	th := paint.ThemeFor(o.dark)
	c.Fill(img.Bounds(), th.Background)
	face := paint.FaceFor(paint.Regular, 14, o.scale)
	paint.TextCentered(c, face, face.Fit(msg, o.width-16), float64(o.width)/2, float64(o.height)/2, th.Text)
	return img
}

// threadRows returns the ids of the first n threads, in order of first
// appearance, alive in [from, to] (to 0: the end): the rows of the
// "threads" view. It skims the log p for thread events only.
func threadRows(p logPart, from, to uint64, n int) (rows map[uint32]bool, alive int, err error) {
	type life struct{ first, finished uint64 }
	var lives []life // by thread id; first 0: not seen (a thread's first event is after the RTS starts)
	sel := ingest.Selection{Kinds: []ingest.Kind{ingest.KindCreateThread, ingest.KindCreateSparkThread, ingest.KindRunThread,
		ingest.KindStopThread, ingest.KindThreadRunnable, ingest.KindThreadWakeup}}
	add := func(e *ingest.Event) {
		id := e.Thread()
		if id >= 1<<24 {
			return // not a thread id GHC makes
		}
		for int(id) >= len(lives) {
			lives = append(lives, make([]life, max(len(lives), 1024))...)
		}
		l := &lives[id]
		if l.first == 0 || e.Time < l.first {
			l.first = max(e.Time, 1)
		}
		if e.Kind == ingest.KindStopThread && e.StopStatus() == ingest.StopFinished {
			l.finished = e.Time
		}
	}
	if p.segmented() {
		_, err = readPart(p, func(r io.ReaderAt, size int64) (ingest.SkimResult, error) {
			return ingest.SkimAt(r, size, sel, add)
		})
	} else {
		_, err = ingest.SkimFile(p.path, sel, add)
	}
	if err != nil {
		return nil, 0, err
	}
	var ids []uint32
	for id, l := range lives {
		if l.first != 0 && (to == 0 || l.first < to) && (l.finished == 0 || l.finished > from) {
			ids = append(ids, uint32(id))
		}
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := lives[ids[i]], lives[ids[j]]
		return a.first < b.first || (a.first == b.first && ids[i] < ids[j])
	})
	rows = make(map[uint32]bool, n)
	for _, id := range ids[:min(n, len(ids))] {
		rows[id] = true
	}
	return rows, len(ids), nil
}

// renderTracksView draws a view as the app's track canvas draws the run
// (tracks.View): the tracks of the view's groups over [o.from, o.to], at
// o's size, scale and theme.
func renderTracksView(path string, o renderOptions) (*image.RGBA, error) {
	run, err := loadTimeline(path, o)
	if err != nil {
		return nil, err
	}
	v := tracks.New(timeline.Exact(run.model))
	v.SetGroupTotal(tracks.GroupThreads, run.threads)
	v.SetSize(o.width, o.height, max(o.scale, 0.1))
	v.SetDark(o.dark)
	v.SetLogScale(tracks.KindSparks, o.logRates)
	v.SetSpansByLabel(o.spansByLabel)
	if err := v.SetView(o.view); err != nil {
		return nil, err
	}
	to := o.to
	if to == 0 {
		to = run.model.End
	}
	// The view shows no time past the run's ends, as the app's canvas.
	if o.from >= run.model.End {
		return nil, fmt.Errorf("%s: --from %s is at or after the end of the run (%s)", path, paint.Duration(o.from), paint.Duration(run.model.End))
	}
	v.SetRange(o.from, to)
	return v.Render(), nil
}
