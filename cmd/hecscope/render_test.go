package main

import (
	"context"
	"image/color"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"

	"github.com/hecscope/hecscope/internal/testfile"
)

// TestRenderDark renders every view, and a comparison, with and without
// --dark: the picture's top-left corner is the light or the dark palette's
// background (for the views drawn as the app's track canvas, its headers'
// column; the heap view is drawn so too).
func TestRenderDark(t *testing.T) {
	dir := t.TempDir()
	const log = "../../testdata/ghc-9.0.2/heap-hT.eventlog"
	cases := [][]string{{"render", "--compare", "../../testdata/ghc-9.0.2/parwork-N1.eventlog", "../../testdata/ghc-9.0.2/parwork-N2.eventlog"}}
	for _, v := range viewNames() {
		cases = append(cases, []string{"render", log, "--view", v})
	}
	for _, c := range cases {
		for _, dark := range []bool{false, true} {
			out := filepath.Join(dir, "out.png")
			argv := append(append([]string(nil), c...), "-o", out, "--width", "800", "--height", "600")
			if dark {
				argv = append(argv, "--dark")
			}
			if code := run(argv); code != 0 {
				t.Fatalf("%v: exit %d", argv, code)
			}
			img := testfile.ReadPNG(t, out)
			want := paint.ThemeFor(dark).Background
			if len(c) > 3 && (slices.Contains(tracks.Views(), c[3]) || c[3] == "heap") {
				want = paint.ThemeFor(dark).Header
			}
			if got := color.RGBAModel.Convert(img.At(1, 1)).(color.RGBA); got != want {
				t.Errorf("%v: corner %v, want %v", argv, got, want)
			}
		}
	}
}

// TestRenderIsTheTrackCanvas: `render` draws what the app's track canvas
// (tracks.View) draws of the same run, range, size, scale and theme, with
// the view's groups expanded: every track's plot is the same, pixel for
// pixel — for the threads view too, though render loads only the threads
// that fit. (The headers may differ: render loads no threads for the
// other views, so it knows no thread's name.)
func TestRenderIsTheTrackCanvas(t *testing.T) {
	const log = "../../testdata/ghc-9.0.2/parwork-N2.eventlog"
	r, err := eventlog.Open(context.Background(), log, eventlog.Options{NoSummary: true, NoEventList: true, NoHeap: true})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	m := r.Overview()
	if m.Grid.On() {
		t.Fatal("the small log's overview is summarised")
	}
	dir := t.TempDir()
	for _, c := range []struct {
		view     string
		from, to string
		f, tt    uint64
		scale    float64
		dark     bool
		byLabel  bool // --spans by-label
	}{
		{"timeline", "20ms", "30ms", 20_000_000, 30_000_000, 1, false, false},
		{"timeline", "0", "", 0, 0, 1, false, true},
		{"threads", "0", "", 0, 0, 2, true, false},
		{"sparks", "10ms", "40ms", 10_000_000, 40_000_000, 1, true, false},
	} {
		out := filepath.Join(dir, c.view+".png")
		argv := []string{"render", log, "--view", c.view, "--from", c.from, "-o", out, "--width", "900", "--height", "700", "--scale", strconv.FormatFloat(c.scale, 'g', -1, 64)}
		if c.to != "" {
			argv = append(argv, "--to", c.to)
		}
		if c.dark {
			argv = append(argv, "--dark")
		}
		if c.byLabel {
			argv = append(argv, "--spans", "by-label")
		}
		if code := run(argv); code != 0 {
			t.Fatalf("%v: exit %d", argv, code)
		}
		got := testfile.ReadPNG(t, out)
		v := tracks.New(timeline.Exact(m))
		v.SetSize(900, 700, c.scale)
		v.SetDark(c.dark)
		v.SetSpansByLabel(c.byLabel)
		if err := v.SetView(c.view); err != nil {
			t.Fatal(err)
		}
		to := c.tt
		if to == 0 {
			to = m.End
		}
		v.SetRange(c.f, to)
		want := v.Render()
		tracksSeen, diff := 0, 0
		for _, id := range v.Tracks() {
			tr, ok := v.TrackRect(id)
			if !ok {
				continue
			}
			tracksSeen++
			rect := tr.Intersect(v.PlotRect())
			for y := rect.Min.Y; y < rect.Max.Y; y++ {
				for x := rect.Min.X; x < rect.Max.X; x++ {
					if color.RGBAModel.Convert(got.At(x, y)).(color.RGBA) != want.RGBAAt(x, y) {
						diff++
					}
				}
			}
		}
		if c.byLabel {
			if _, ok := v.TrackRect(tracks.TrackID{Kind: tracks.KindUserLabel, ID: uint32(m.Labels[0].Label)}); !ok {
				t.Errorf("%v: no track of label %q", argv, m.String(m.Labels[0].Label))
			}
		}
		if tracksSeen < 2 || diff > 0 {
			t.Errorf("%v: %d pixels of %d tracks' plots differ from the track canvas's picture", argv, diff, tracksSeen)
		}
	}
}

// TestRenderPastTheEnd: a range that starts after the run is an error that
// says so, whether or not --to is given.
func TestRenderPastTheEnd(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.png")
	for _, extra := range [][]string{nil, {"--to", "300ms"}} {
		args := append([]string{"render", "../../testdata/ghc-9.0.2/parwork-N2.eventlog", "--from", "200ms", "-o", out}, extra...)
		if code, _, errOut := hecscope(t, args...); code != 1 || !strings.Contains(errOut, "after the end of the run") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}
