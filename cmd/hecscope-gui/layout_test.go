package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/app"
)

// TestSnapshotLayout draws samples with --snapshot … --layout at 1280×800
// and 1920×1080, and at 1280×800 pixels at scale 2, reads the layout written and checks that the tabs get at
// least 30 % of the window's height, that the legend takes one or two
// lines and that the tracks listed lie in the canvas, in order; and, with
// every track shown (--tracks all, which gives the timeline most of the
// height), that the legend still takes at most two lines.
func TestSnapshotLayout(t *testing.T) {
	dir := t.TempDir()
	for _, sample := range []string{"parwork-N2", "heap-hc"} {
		for _, run := range []struct{ size, scale, tracks string }{
			{"1280x800", "1", "default"}, {"1920x1080", "1", "default"}, {"640x400", "2", "default"},
			{"1280x800", "1", "all"}, {"1920x1080", "1", "all"},
		} {
			size := run.size
			what := sample + " at " + size + " scale " + run.scale + ", tracks " + run.tracks
			out, lay := filepath.Join(dir, "shot.png"), filepath.Join(dir, "layout.json")
			var stderr strings.Builder
			path := "../../testdata/ghc-9.0.2/" + sample + ".eventlog"
			if code := snapshot([]string{"--snapshot", out, "--size", size, "--scale", run.scale, "--tracks", run.tracks, "--layout", lay, path}, &stderr); code != 0 {
				t.Fatalf("%s: --snapshot exited %d: %s", what, code, stderr.String())
			}
			data, err := os.ReadFile(lay)
			if err != nil {
				t.Fatal(err)
			}
			var l app.Layout
			if err := json.Unmarshal(data, &l); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if got := fmt.Sprintf("%gx%g", l.Window.W, l.Window.H); got != size {
				t.Errorf("%s: the window is %v", what, l.Window)
			}
			if l.Tabs.H < 0.3*l.Window.H && run.tracks == "default" {
				t.Errorf("%s: the tabs are %.0f high, %.0f %% of the window's %.0f", what, l.Tabs.H, 100*l.Tabs.H/l.Window.H, l.Window.H)
			}
			if l.Tabs.Y < l.Canvas.Y+l.Canvas.H {
				t.Errorf("%s: the tabs (%v) overlap the canvas (%v)", what, l.Tabs, l.Canvas)
			}
			if l.Legend.Lines < 1 || l.Legend.Lines > 2 || len(l.Legend.Entries) < 3 {
				t.Errorf("%s: the legend takes %d lines: %q", what, l.Legend.Lines, l.Legend.Entries)
			}
			if len(l.Tracks) < 2 {
				t.Fatalf("%s: %d tracks in view", what, len(l.Tracks))
			}
			for i, tr := range l.Tracks {
				if tr.Y < l.Canvas.Y || tr.Y+tr.H > l.Canvas.Y+l.Canvas.H+0.5 || tr.H <= 0 || tr.Name == "" || tr.Group == "" {
					t.Errorf("%s: track %+v is not in the canvas %v", what, tr, l.Canvas)
				}
				if i > 0 && tr.Y < l.Tracks[i-1].Y+l.Tracks[i-1].H-0.5 {
					t.Errorf("%s: track %q overlaps %q", what, tr.Name, l.Tracks[i-1].Name)
				}
			}
		}
	}
}
