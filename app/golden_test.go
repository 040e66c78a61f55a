package app

import (
	"image"
	"image/draw"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
)

// navPicture captures the window and crops it to the navigable timeline.
func navPicture(t *testing.T, w *Window, v *eventlogView) image.Image {
	t.Helper()
	shot := w.Fyne().Canvas().Capture()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(v.nav)
	size := v.nav.Size()
	scale := float32(shot.Bounds().Dx()) / w.Fyne().Canvas().Size().Width
	r := image.Rect(int(pos.X*scale), int(pos.Y*scale), int((pos.X+size.Width)*scale), int((pos.Y+size.Height)*scale))
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Bounds(), shot, r.Min, draw.Src)
	return out
}

// TestTimelineGolden compares what the timeline shows with reviewed
// pictures: the whole run of parwork-N2, after zooming in at the pointer,
// and after a Shift+drag selection. A failure writes the new picture to
// testdata/failed/; look at it, and if it is right, move it to testdata/.
func TestTimelineGolden(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	n := v.nav
	test.AssertImageMatches(t, "golden/parwork-N2-whole.png", navPicture(t, w, v))

	at := fyne.NewPos(plotX(n, 86_000_000), n.Size().Height/2) // thread 167's long run on HEC 0
	for i := 0; i < 4; i++ {
		scroll(n, at, 0, 10)
	}
	test.AssertImageMatches(t, "golden/parwork-N2-zoomed.png", navPicture(t, w, v))

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
	start := fyne.NewPos(plotX(n, 85_000_000), n.Size().Height/2)
	n.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: start}, Button: desktop.MouseButtonPrimary, Modifier: fyne.KeyModifierShift})
	drag(n, start, plotX(n, 88_000_000)-start.X)
	select {
	case <-summarised:
	case <-time.After(10 * time.Second):
		t.Fatal("no summary of the selection")
	}
	test.AssertImageMatches(t, "golden/parwork-N2-selected.png", navPicture(t, w, v))
}
