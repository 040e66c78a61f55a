package tracks

import (
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/paint"
)

// TestDumpPictures writes frames and exports of real logs for a person to
// look at, when HECSCOPE_DUMP names a directory: light and dark, scale 1
// and 2, of parwork-N2 and of the logs HECSCOPE_DUMP_LOGS lists
// (colon-separated). Without it the test is skipped.
func TestDumpPictures(t *testing.T) {
	dir := os.Getenv("HECSCOPE_DUMP")
	if dir == "" {
		t.Skip("HECSCOPE_DUMP not set")
	}
	logs := []string{"../testdata/ghc-9.0.2/parwork-N2.eventlog"}
	if more := os.Getenv("HECSCOPE_DUMP_LOGS"); more != "" {
		logs = append(logs, strings.Split(more, ":")...)
	}
	for _, path := range logs {
		lg, err := eventlog.Open(context.Background(), path, eventlog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(path), ".eventlog")
		for _, dark := range []bool{false, true} {
			for _, scale := range []float64{1, 2} {
				v := New(lg)
				v.SetHeap(lg.Heap, lg.Profile)
				v.SetSize(int(1600*scale), int(1000*scale), scale)
				v.SetDark(dark)
				theme := "light"
				if dark {
					theme = "dark"
				}
				out := filepath.Join(dir, name+"-"+theme+"-x"+strings.TrimSuffix(strings.TrimSuffix(
					strings.Replace(formatScale(scale), ".", "_", 1), "_0"), ".")+".png")
				writePNG(t, out, v)
				if scale == 1 {
					writeExports(t, strings.TrimSuffix(out, ".png")+"-export", v)
					// Scrolled to the bottom; then zoomed into the middle.
					v.ScrollBy(1e9)
					writePNG(t, strings.TrimSuffix(out, ".png")+"-bottom.png", v)
					from, to := v.Range()
					v.SetRange(from+(to-from)/2, from+(to-from)/2+(to-from)/50)
					v.ScrollBy(1e9)
					writePNG(t, strings.TrimSuffix(out, ".png")+"-zoom-bottom.png", v)
				}
			}
		}
		lg.Close()
	}
}

func formatScale(s float64) string {
	if s == 2 {
		return "2"
	}
	return "1"
}

func writePNG(t *testing.T, path string, v *View) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, v.Render()); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}

func writeExports(t *testing.T, base string, v *View) {
	t.Helper()
	for _, svg := range []bool{false, true} {
		path := base + ".png"
		if svg {
			path = base + ".svg"
		}
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		opt := ExportOptions{All: true, PageHeight: 6000}
		pages, err := v.ExportPages(opt)
		if err != nil {
			t.Fatal(err)
		}
		p := pages[0]
		if svg {
			s := paint.NewSVG(p.Width, p.Height)
			v.Export(s, opt, p)
			_, err = s.WriteTo(f)
		} else {
			img := image.NewRGBA(image.Rect(0, 0, p.Width, p.Height))
			v.Export(paint.NewRaster(img), opt, p)
			err = png.Encode(f, img)
		}
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		t.Logf("wrote %s", path)
	}
}
