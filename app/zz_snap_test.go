package app

import (
	"image"
	"image/png"
	"os"
	"testing"
	"time"

	"fyne.io/fyne/v2"
)

func TestZZCompareSnapshot(t *testing.T) {
	out := os.Getenv("ZZ_SNAP")
	if out == "" {
		t.Skip()
	}
	a, _ := newTestApp(t)
	c := openCompareAndWait(t, a, "/work/wt/rooms/testdata/ghc-9.0.2/parwork-N2.eventlog", "/work/wt/rooms/testdata/ghc-9.0.2/rts-N2-A1m.eventlog")
	fyne.DoAndWait(func() { c.Win.Resize(fyne.NewSize(1280, 800)) })
	time.Sleep(500 * time.Millisecond)
	var img image.Image
	fyne.DoAndWait(func() { img = c.Win.Canvas().Capture() })
	f, _ := os.Create(out)
	png.Encode(f, img)
	f.Close()
}
