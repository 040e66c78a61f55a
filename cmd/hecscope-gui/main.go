// Command hecscope-gui is hecscope's desktop app. `hecscope [FILE...]` and
// `hecscope --attach URL` start it; it can also be started on its own, as the
// desktop entry does:
//
//	hecscope-gui [FILE...]       a window on each eventlog or .hp file (the start page if none)
//	hecscope-gui --attach URL    a window watching a running program
//	hecscope-gui --segment N FILE
//	                             a window on the Nth eventlog (from 1) of a FILE holding
//	                             several one after another
//	hecscope-gui --quit-after-load FILE
//	                             open FILE in a window, load all of it, draw it, print
//	                             "loaded N events in S s (first picture at F s)" to stderr,
//	                             both times since the process started, and exit (to measure
//	                             load time and peak memory from outside, e.g. /usr/bin/time -v)
//	hecscope-gui --bench-zoom FILE [-v] [--cpuprofile OUT] [--frames DIR]
//	                             open FILE in a window, load it, then draw 51 views at
//	                             1920×1080 through the window's canvas, from the whole run
//	                             to 1 ms windows spread over it, each until complete (its
//	                             detail decoded from the file), and print "frames N: p50 X
//	                             ms, p99 Y ms, worst Z ms" (-v: each view's time too;
//	                             --cpuprofile: a CPU profile of the views, not the load, to OUT;
//	                             --frames: each view's complete frame to DIR/view-NN.png)
//	hecscope-gui --snapshot OUT.png [--size WxH] [--scale S] [--tracks all] [--from T --to T] [--select T,T] [--tab NAME] [--theme light|dark] [--segment N] [--layout OUT.json] FILE
//	                             draw the window showing FILE with Fyne's software renderer
//	                             (no display needed) and write it to OUT.png; --layout writes
//	                             where the window's parts are (canvas, tabs, legend, tracks)
//
// It is a program of its own so that hecscope's commands never load the
// libraries of a desktop app (OpenGL, X11): loading and initialising
// them takes ~20 ms, two thirds of what summarising a 121 MB eventlog takes.
package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"github.com/hecscope/hecscope/app"
	_ "github.com/hecscope/hecscope/cmd/hecscope-gui/internal/plainlocale" // before Fyne initialises
)

const usage = `usage: hecscope [FILE...]      open the desktop app (on each eventlog or .hp file)
       hecscope --attach URL  watch a running program (tcp://, unix://, fifo://, follow://)
       hecscope-gui --segment N FILE
                              open the Nth eventlog (from 1) of a FILE holding several
       hecscope-gui --quit-after-load FILE
                              load FILE in a window, print "loaded N events in S s
                              (first picture at F s)" and exit
       hecscope-gui --bench-zoom FILE [-v] [--cpuprofile OUT] [--frames DIR]
                              load FILE in a window, draw 51 views from the whole run
                              down to 1 ms, print "frames N: p50 X ms, p99 Y ms, worst Z ms"
                              (-v: each view too; --cpuprofile: profile the views to OUT;
                              --frames: write each view's frame to DIR)
       hecscope-gui --snapshot OUT.png [--size WxH] [--scale S] [--tracks all] [--from T --to T] [--select T,T] [--tab NAME] [--theme light|dark] [--segment N] [--layout OUT.json] FILE
                              draw the window showing FILE, without a display, to OUT.png
                              (and where its parts are, as JSON, to OUT.json)`

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		go limitMemory()
	}
	os.Exit(run(os.Args[1:]))
}

// run starts the app as args ask and returns the exit code once the last
// window has closed (2 for a usage error).
func run(args []string) int {
	start := time.Now()
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprintln(os.Stderr, usage)
		return 0
	}
	if isOption(args0(args), "--snapshot") {
		return snapshot(args, os.Stderr)
	}
	if err := checkDisplay(); err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		return 1
	}
	if url, ok := strings.CutPrefix(args0(args), "--attach="); ok || args0(args) == "--attach" {
		if !ok && len(args) > 1 {
			url, args = args[1], args[1:]
		}
		if url == "" || len(args) != 1 {
			fmt.Fprintln(os.Stderr, "usage: hecscope --attach URL")
			return 2
		}
		a := newApp()
		a.Attach(url)
		a.Run()
		return 0
	}
	if isOption(args0(args), "--quit-after-load") {
		file, ok := optionValue(args, "--quit-after-load")
		if !ok {
			fmt.Fprintln(os.Stderr, "usage: hecscope-gui --quit-after-load FILE")
			return 2
		}
		return quitAfterLoad(file, processStart(start))
	}
	if isOption(args0(args), "--bench-zoom") {
		opts, ok := benchZoomArgs(args)
		if !ok {
			fmt.Fprintln(os.Stderr, "usage: hecscope-gui --bench-zoom FILE [-v] [--cpuprofile OUT] [--frames DIR]")
			return 2
		}
		return benchZoom(opts, os.Stderr)
	}
	if isOption(args0(args), "--segment") {
		n, file, err := segmentArgs(args)
		if err != nil {
			fmt.Fprintf(os.Stderr, "hecscope: %v\n%s\n", err, segmentUsage)
			return 2
		}
		a := newApp()
		a.OpenSegment(file, n-1)
		a.Run()
		return 0
	}
	for _, p := range args {
		if strings.HasPrefix(p, "-") {
			fmt.Fprintf(os.Stderr, "hecscope: unknown option %q\n%s\n", p, usage)
			return 2
		}
	}
	a := newApp()
	if len(args) == 0 {
		a.ShowStart()
	}
	for _, p := range args {
		a.Open(p)
	}
	a.Run()
	return 0
}

// quitAfterLoad is the measurement mode: it opens file in the real window,
// waits until all of it is loaded and drawn, prints how many events that was,
// the time since start and when the first picture of the log was drawn to
// stderr, and returns 0 (1 if the load failed).
func quitAfterLoad(file string, start time.Time) int {
	a := newApp()
	code := 1
	a.LoadAndQuit(file, func(r app.LoadResult) {
		if r.Err != nil {
			fmt.Fprintf(os.Stderr, "hecscope: %v\n", r.Err)
			return
		}
		line := fmt.Sprintf("loaded %d events in %.3f s", r.Events, time.Since(start).Seconds())
		if !r.FirstPicture.IsZero() {
			line += fmt.Sprintf(" (first picture at %.3f s)", r.FirstPicture.Sub(start).Seconds())
		}
		fmt.Fprintln(os.Stderr, line)
		code = 0
	})
	a.Run()
	return code
}

// isOption reports whether arg is the option name, alone or as name=value.
func isOption(arg, name string) bool {
	return arg == name || strings.HasPrefix(arg, name+"=")
}

// optionValue returns the value of the option name that args consist of:
// "name=value" or "name value", with nothing after it.
func optionValue(args []string, name string) (string, bool) {
	if v, ok := strings.CutPrefix(args0(args), name+"="); ok && len(args) == 1 {
		return v, v != ""
	}
	if args0(args) == name && len(args) == 2 && args[1] != "" {
		return args[1], true
	}
	return "", false
}

func args0(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// newApp makes the desktop app. Fyne is given no app ID, so that it keeps
// no preferences file (it rewrites that file in place whenever an app
// exits, and another instance reading it meanwhile starts without its
// settings); the app's settings live in a file of their own that several
// instances can share (app.SettingsFile), taking over what older versions
// kept in Fyne's preferences.
func newApp() *app.App {
	fyneapp.SetMetadata(fyne.AppMetadata{Name: app.Name, Version: app.Version, Build: 1, Icon: app.Icon})
	fa := fyneapp.NewWithID("")
	var settings app.Settings
	if path, err := app.DefaultSettingsPath(); err == nil {
		settings = app.OpenSettingsFile(path, app.ReadLegacyPreferences(app.LegacyDir()))
	} else {
		fmt.Fprintf(os.Stderr, "hecscope: %v; settings will not be kept\n", err)
		settings = app.NewMemorySettings()
	}
	return app.NewWithSettings(fa, settings)
}
