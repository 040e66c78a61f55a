package main

import (
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/hecscope/hecscope/app"
)

// Zoom benchmark (`hecscope-gui --bench-zoom FILE`): the views it draws and
// what it prints.
const (
	// zoomWidth and zoomHeight are the frames' size in device pixels.
	zoomWidth, zoomHeight = 1920, 1080
	// zoomPlaces is how many places spread over the run are zoomed into,
	// and zoomSteps how many views each place takes from a quarter of the
	// run down to zoomNarrowest.
	zoomPlaces, zoomSteps = 10, 5
	zoomNarrowest         = uint64(time.Millisecond)
)

// zoomScript returns the benchmark's views of a run from start to end: the
// whole run, then at each of zoomPlaces places spread evenly over it,
// zoomSteps views narrowing geometrically from a quarter of the run to 1 ms
// (as wide as the run, for a run shorter than that).
func zoomScript(start, end uint64) []app.ZoomView {
	end = max(end, start+1)
	span := end - start
	views := []app.ZoomView{{From: start, To: start + span}}
	widest := max(span/4, 1)
	narrowest := min(zoomNarrowest, span)
	for p := range zoomPlaces {
		centre := start + uint64((float64(p)+0.5)/zoomPlaces*float64(span))
		for s := range zoomSteps {
			f := float64(s) / float64(zoomSteps-1)
			w := uint64(float64(widest) * math.Pow(float64(narrowest)/float64(widest), f))
			w = max(w, narrowest)
			from := min(centre-min(w/2, centre-start), end-w)
			views = append(views, app.ZoomView{From: from, To: from + w})
		}
	}
	return views
}

// zoomReport writes the line the benchmark prints: the number of frames
// and their 50th and 99th percentiles and worst time, in ms.
func zoomReport(out io.Writer, frames []time.Duration) {
	if len(frames) == 0 {
		fmt.Fprintln(out, "frames 0")
		return
	}
	s := slices.Clone(frames)
	slices.Sort(s)
	pct := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return ms(s[min(max(i, 0), len(s)-1)])
	}
	fmt.Fprintf(out, "frames %d: p50 %.1f ms, p99 %.1f ms, worst %.1f ms\n", len(s), pct(0.5), pct(0.99), ms(s[len(s)-1]))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// zoomOptions are the zoom benchmark's arguments.
type zoomOptions struct {
	file       string
	verbose    bool   // -v: print each view's time
	cpuProfile string // --cpuprofile OUT: write a CPU profile of the views to OUT
	frames     string // --frames DIR: write each view's complete frame to DIR/view-NN.png
}

// benchZoomArgs reads `--bench-zoom FILE [-v] [--cpuprofile OUT] [--frames
// DIR]`, the options in any order after FILE.
func benchZoomArgs(args []string) (zoomOptions, bool) {
	var o zoomOptions
	opt := map[string]*string{"--cpuprofile": &o.cpuProfile, "--frames": &o.frames}
	var rest []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-v":
			o.verbose = true
		case (a == "--cpuprofile" || a == "--frames") && i+1 < len(args):
			*opt[a] = args[i+1]
			i++
		case strings.HasPrefix(a, "--cpuprofile=") || strings.HasPrefix(a, "--frames="):
			name, v, _ := strings.Cut(a, "=")
			if *opt[name] = v; v == "" {
				return o, false
			}
		default:
			rest = append(rest, a)
		}
	}
	file, ok := optionValue(rest, "--bench-zoom")
	o.file = file
	return o, ok
}

// benchZoom is the zoom benchmark: it loads the file in a window, draws the
// script's views through the window's canvas, prints the report line to
// out (and each view's time with -v) and returns the exit code. A CPU
// profile covers the views only: it starts when the script is asked for,
// once the file is loaded and drawn.
func benchZoom(o zoomOptions, out io.Writer) int {
	a := newApp()
	code := 1
	var prof *os.File
	script := zoomScript
	if o.cpuProfile != "" {
		script = func(start, end uint64) []app.ZoomView {
			f, err := os.Create(o.cpuProfile)
			if err == nil {
				err = pprof.StartCPUProfile(f)
			}
			if err != nil {
				fmt.Fprintf(out, "hecscope: profiling the views: %v\n", err)
			} else {
				prof = f
			}
			return zoomScript(start, end)
		}
	}
	var keep func(int, *image.RGBA)
	if o.frames != "" {
		keep = func(view int, frame *image.RGBA) {
			path := filepath.Join(o.frames, fmt.Sprintf("view-%02d.png", view))
			if err := writeFile(path, func(w io.Writer) error { return png.Encode(w, frame) }); err != nil {
				fmt.Fprintf(out, "hecscope: writing frame %s: %v\n", path, err)
			}
		}
	}
	a.BenchZoom(o.file, zoomWidth, zoomHeight, script, keep, func(r app.ZoomResult) {
		if prof != nil {
			pprof.StopCPUProfile()
			if err := prof.Close(); err != nil {
				fmt.Fprintf(out, "hecscope: writing the profile: %v\n", err)
			}
		}
		if r.Err != nil {
			fmt.Fprintf(out, "hecscope: %v\n", r.Err)
			return
		}
		if o.verbose {
			for i, d := range r.Frames {
				v := r.Views[i]
				fmt.Fprintf(out, "view %d [%d, %d) ns: %.1f ms (%.1f drawing), %d frames before its detail\n", i, v.From, v.To, ms(d), ms(r.Drawing[i]), r.Waits[i])
			}
		}
		zoomReport(out, r.Frames)
		code = 0
	})
	a.Run()
	return code
}
