package main

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/hecscope/hecscope/timeline"
)

// TestRenderDark renders every view, and a comparison, with and without
// --dark: the picture's top-left corner is the light or the dark palette's
// background.
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
			img := readPNG(t, out)
			want := timeline.PaletteFor(dark).Background
			if got := color.RGBAModel.Convert(img.At(1, 1)).(color.RGBA); got != want {
				t.Errorf("%v: corner %v, want %v", argv, got, want)
			}
		}
	}
}

// readPNG decodes the PNG file at path.
func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}
