package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// TestZoomScript: the views start with the whole run, stay inside it, and
// narrow at places spread over it down to 1 ms windows.
func TestZoomScript(t *testing.T) {
	for _, run := range [][2]uint64{{0, 17e9}, {5e6, 123e9}, {1000, 300e6}, {0, 500e3}} {
		start, end := run[0], run[1]
		views := zoomScript(start, end)
		if len(views) < 50 {
			t.Fatalf("run %v: %d views, want at least 50", run, len(views))
		}
		if views[0].From != start || views[0].To != end {
			t.Errorf("run %v: the first view is [%d, %d), want the whole run", run, views[0].From, views[0].To)
		}
		narrow, centres := 0, map[uint64]bool{}
		for _, v := range views {
			if v.From < start || v.To > end || v.To <= v.From {
				t.Errorf("run %v: view [%d, %d) is not inside it", run, v.From, v.To)
			}
			if w := v.To - v.From; w == min(zoomNarrowest, end-start) {
				narrow++
				centres[(v.From+v.To)/2/max((end-start)/zoomPlaces, 1)] = true
			}
		}
		if end-start >= 100*zoomNarrowest && (narrow != zoomPlaces || len(centres) != zoomPlaces) {
			t.Errorf("run %v: %d views as narrow as 1 ms in %d tenths of the run, want %d in %d", run, narrow, len(centres), zoomPlaces, zoomPlaces)
		}
	}
}

// TestZoomReport: percentiles by nearest rank, in ms.
func TestZoomReport(t *testing.T) {
	var frames []time.Duration
	for i := 100; i >= 1; i-- {
		frames = append(frames, time.Duration(i)*time.Millisecond)
	}
	var out bytes.Buffer
	zoomReport(&out, frames)
	if got, want := out.String(), "frames 100: p50 50.0 ms, p99 99.0 ms, worst 100.0 ms\n"; got != want {
		t.Errorf("report %q, want %q", got, want)
	}
}

// TestBenchZoomPrintsFrames runs `hecscope-gui --bench-zoom` on a small
// log in a virtual X server: it loads the log in the window, draws its
// views and prints how long they took (the figures are not checked).
func TestBenchZoomPrintsFrames(t *testing.T) {
	xvfb := needXvfb(t)
	display := startXvfb(t, xvfb, "1920x1080x24")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sample, err := filepath.Abs("../../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, self, "--bench-zoom", sample)
	cmd.Env = append(os.Environ(), "HECSCOPE_TEST_MAIN=1", "DISPLAY="+display)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("hecscope-gui --bench-zoom: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(?m)^frames (\d+): p50 \d+\.\d ms, p99 \d+\.\d ms, worst \d+\.\d ms$`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no frames line in the output:\n%s", out)
	}
	if n, _ := strconv.Atoi(string(m[1])); n < 50 {
		t.Errorf("%d frames, want at least 50:\n%s", n, out)
	}
}

// TestBenchZoomArgs: -v, --cpuprofile OUT and --frames DIR may come in any
// order after the file; --cpuprofile and --frames need their value.
func TestBenchZoomArgs(t *testing.T) {
	for _, c := range []struct {
		args []string
		want zoomOptions
		ok   bool
	}{
		{[]string{"--bench-zoom", "a.eventlog"}, zoomOptions{file: "a.eventlog"}, true},
		{[]string{"--bench-zoom", "a.eventlog", "-v"}, zoomOptions{file: "a.eventlog", verbose: true}, true},
		{[]string{"--bench-zoom", "a.eventlog", "--cpuprofile", "p.prof", "-v"}, zoomOptions{file: "a.eventlog", verbose: true, cpuProfile: "p.prof"}, true},
		{[]string{"--bench-zoom=a.eventlog", "--cpuprofile=p.prof"}, zoomOptions{file: "a.eventlog", cpuProfile: "p.prof"}, true},
		{[]string{"--bench-zoom", "a.eventlog", "--frames", "out", "-v"}, zoomOptions{file: "a.eventlog", verbose: true, frames: "out"}, true},
		{[]string{"--bench-zoom", "a.eventlog", "--frames="}, zoomOptions{}, false},
		{[]string{"--bench-zoom", "a.eventlog", "--cpuprofile"}, zoomOptions{}, false},
		{[]string{"--bench-zoom", "a.eventlog", "--cpuprofile="}, zoomOptions{}, false},
		{[]string{"--bench-zoom"}, zoomOptions{}, false},
		{[]string{"--bench-zoom", "a.eventlog", "b.eventlog"}, zoomOptions{}, false},
	} {
		got, ok := benchZoomArgs(c.args)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("benchZoomArgs(%q) = %+v, %v; want %+v, %v", c.args, got, ok, c.want, c.ok)
		}
	}
}
