package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"io"
	"os"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"

	"github.com/hecscope/hecscope/app"
	"github.com/hecscope/hecscope/timeline"
)

const snapshotUsage = "usage: hecscope-gui --snapshot OUT.png [--size WxH] [--scale S] [--tracks all|default] [--from T --to T] [--select T,T] [--tab NAME] [--theme light|dark] [--segment N] [--layout OUT.json] FILE"

// snapshot implements `hecscope-gui --snapshot OUT.png ... FILE`: it draws
// the window showing FILE with Fyne's software renderer (no display needed)
// and writes it as PNG. It returns the exit code: 2 for a usage error, 1 if
// the file cannot be shown or the picture written.
func snapshot(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("snapshot", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("snapshot", "", "the PNG file to write")
	size := fs.String("size", "", "the window's size in units, WxH (default: the size a first window opens at)")
	scale := fs.Float64("scale", 1, "device pixels per unit (2 for HiDPI)")
	tracks := fs.String("tracks", "default", "all: show every row group")
	from := fs.String("from", "", "start of the time range shown (1.5s, 250ms, 800us or ns)")
	to := fs.String("to", "", "end of the time range shown")
	themeName := fs.String("theme", "light", "light or dark")
	segment := fs.String("segment", "1", "which eventlog of a file holding several one after another, from 1")
	sel := fs.String("select", "", "a time range selected, T,T (as Shift+drag selects)")
	tab := fs.String("tab", "", "the tab shown below the timeline (Summary, GC, Selection, …)")
	layoutOut := fs.String("layout", "", "a JSON file to write where the window's parts are, as laid out")
	usage := func(msg string) int {
		fmt.Fprintf(stderr, "hecscope-gui: %s\n%s\n", msg, snapshotUsage)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		return usage(err.Error())
	}
	if *out == "" || fs.NArg() != 1 {
		return usage("--snapshot needs an output file and one FILE, after the options")
	}
	var opt app.SnapshotOptions
	if *size != "" {
		w, h, ok := strings.Cut(*size, "x")
		width, errW := strconv.ParseFloat(w, 32)
		height, errH := strconv.ParseFloat(h, 32)
		if !ok || errW != nil || errH != nil || width < 1 || height < 1 || width > 20000 || height > 20000 {
			return usage(fmt.Sprintf("--size %q is not WxH (e.g. 1600x1000)", *size))
		}
		opt.Size = fyne.NewSize(float32(width), float32(height))
	}
	if *scale < 0.5 || *scale > 8 {
		return usage(fmt.Sprintf("--scale %g is not between 0.5 and 8", *scale))
	}
	opt.Scale = float32(*scale)
	switch *tracks {
	case "all":
		opt.AllTracks = true
	case "default":
	default:
		return usage(fmt.Sprintf("--tracks %q is not all or default", *tracks))
	}
	switch *themeName {
	case "light":
	case "dark":
		opt.Dark = true
	default:
		return usage(fmt.Sprintf("--theme %q is not light or dark", *themeName))
	}
	n, err := parseSegment(*segment)
	if err != nil {
		return usage(err.Error())
	}
	opt.Segment = n - 1
	if (*from == "") != (*to == "") {
		return usage("--from and --to go together")
	}
	if *from != "" {
		var err error
		if opt.From, err = timeline.ParseTime(*from); err != nil {
			return usage("--from: " + err.Error())
		}
		if opt.To, err = timeline.ParseTime(*to); err != nil {
			return usage("--to: " + err.Error())
		}
		if opt.To <= opt.From {
			return usage("--to must be after --from")
		}
	}

	if *sel != "" {
		a, b, ok := strings.Cut(*sel, ",")
		var errA, errB error
		opt.SelectFrom, errA = timeline.ParseTime(a)
		opt.SelectTo, errB = timeline.ParseTime(b)
		if !ok || errA != nil || errB != nil || opt.SelectTo <= opt.SelectFrom {
			return usage(fmt.Sprintf("--select %q is not T,T with the second after the first (e.g. 292ms,1.486s)", *sel))
		}
	}
	opt.Tab = *tab

	img, lay, err := app.Snapshot(fs.Arg(0), opt)
	if err != nil {
		fmt.Fprintf(stderr, "hecscope-gui: %v\n", err)
		return 1
	}
	if err := writeFile(*out, func(w io.Writer) error { return png.Encode(w, img) }); err != nil {
		fmt.Fprintf(stderr, "hecscope-gui: writing the snapshot: %v\n", err)
		return 1
	}
	if *layoutOut != "" {
		err := writeFile(*layoutOut, func(w io.Writer) error {
			e := json.NewEncoder(w)
			e.SetIndent("", "  ")
			return e.Encode(lay)
		})
		if err != nil {
			fmt.Fprintf(stderr, "hecscope-gui: writing the layout: %v\n", err)
			return 1
		}
	}
	return 0
}

// writeFile creates the file at path and writes it with write.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
