package app

import (
	"image"
	"image/draw"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/hecscope/hecscope/tracks"
)

// canvasPicture captures the window and crops it to the track canvas.
func canvasPicture(t *testing.T, w *Window, v *eventlogView) image.Image {
	t.Helper()
	shot := w.Fyne().Canvas().Capture()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(v.canvas)
	size := v.canvas.Size()
	scale := float32(shot.Bounds().Dx()) / w.Fyne().Canvas().Size().Width
	r := image.Rect(int(pos.X*scale), int(pos.Y*scale), int((pos.X+size.Width)*scale), int((pos.Y+size.Height)*scale))
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Bounds(), shot, r.Min, draw.Src)
	return out
}

// TestTimelineGolden compares what the canvas shows with reviewed
// pictures: the whole run of parwork-N2, after zooming in at the pointer
// (with the cursor and the tooltip there), and after a Shift+drag
// selection. A failure writes the new picture to testdata/failed/; look at
// it, and if it is right, move it to testdata/golden/.
func TestTimelineGolden(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	fyne.CurrentApp().Settings().SetTheme(variantTheme{theme.DefaultTheme(), theme.VariantLight})
	c := v.canvas
	test.AssertImageMatches(t, "golden/parwork-N2-whole.png", canvasPicture(t, w, v))

	hec0 := tracks.TrackID{Kind: tracks.KindHEC, ID: 0}
	at := trackAt(t, c, hec0, 86_000_000) // thread 167's long run on HEC 0
	// Four times + with the pointer there (as Ctrl+wheel by 40 units does,
	// each halves the span at the pointer).
	hover(c, at)
	typeRunes(w.Fyne().Canvas(), "++++")
	test.AssertImageMatches(t, "golden/parwork-N2-zoomed.png", canvasPicture(t, w, v))

	// The selection's summary is made in the background and put in the
	// window with fyne.Do, which Fyne's test driver runs on that goroutine:
	// wait for it before capturing the window.
	summarised := make(chan struct{}, 1)
	v.onSelSummary = func() {
		select {
		case summarised <- struct{}{}:
		default:
		}
	}
	c.MouseOut()
	start := trackAt(t, c, hec0, 85_000_000)
	stop := trackAt(t, c, hec0, 88_000_000)
	canvasDrag(c, start, stop.X-start.X, 0, fyne.KeyModifierShift)
	select {
	case <-summarised:
	case <-time.After(10 * time.Second):
		t.Fatal("no summary of the selection")
	}
	test.AssertImageMatches(t, "golden/parwork-N2-selected.png", canvasPicture(t, w, v))
}
