package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hecscope/hecscope/internal/testfile"
)

// TestRenderHeap runs `hecscope render --view heap` on an eventlog with a
// heap profile, a .hp file and an eventlog without a profile, and checks
// the PNG it writes; bad heap options must fail.
func TestRenderHeap(t *testing.T) {
	dir := t.TempDir()
	for i, args := range [][]string{
		{"../../testdata/generated/hc.eventlog", "--mode", "area"},
		{"../../testdata/generated/hT.eventlog", "--mode", "normalised", "--bands", "5", "--sort", "growth"},
		{"../../testdata/generated/hd.hp", "--mode", "lines", "--sort", "name"},
		{"../../testdata/corpus/ghc-events-history__mandelbrot-mmc-2011-06-14.eventlog"},
	} {
		out := filepath.Join(dir, "heap.png")
		argv := append([]string{"render", "--view", "heap", "-o", out, "--width", "800", "--height", "450"}, args...)
		if code := run(argv); code != 0 {
			t.Fatalf("%v: exit %d", argv, code)
		}
		img := testfile.ReadPNG(t, out)
		if b := img.Bounds(); b.Dx() != 800 || b.Dy() != 450 {
			t.Errorf("case %d: image %v", i, b)
		}
		os.Remove(out)
	}
	for _, bad := range [][]string{
		{"--mode", "pie"},
		{"--sort", "colour"},
		{"--bands", "-3"},
	} {
		argv := append([]string{"render", "../../testdata/generated/hc.eventlog", "--view", "heap", "-o", filepath.Join(dir, "x.png")}, bad...)
		if code := run(argv); code == 0 {
			t.Errorf("%v: exit 0", argv)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.png")); err == nil {
		t.Errorf("a PNG was written for bad options")
	}
}
