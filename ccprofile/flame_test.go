package ccprofile

import (
	"context"
	"image"
	"math"
	"testing"

	"github.com/hecscope/hecscope/paint"

	"github.com/hecscope/hecscope/ingest"
)

func TestDrawFlame(t *testing.T) {
	p, err := Collect(ingest.FilePass(context.Background(), profwork), Options{})
	if err != nil {
		t.Fatal(err)
	}
	const w = 1000
	img := image.NewRGBA(image.Rect(0, 0, w, 200))
	lay := DrawFlame(paint.NewRaster(img), p, FlameOptions{})
	heavy := find(p, "CAF/main/heavy")
	var box *FlameBox
	for i := range lay.Boxes {
		if lay.Boxes[i].Node == heavy {
			box = &lay.Boxes[i]
		}
	}
	if box == nil {
		t.Fatal("heavy not drawn")
	}
	// Its width is its share of the samples, at depth 3 (under all, CAF,
	// main), leftmost as the largest.
	if want := w * float64(heavy.Total) / float64(p.Samples); math.Abs(float64(box.Rect.Dx())-want) > 1.5 {
		t.Errorf("heavy %v wide, want %.1f", box.Rect, want)
	}
	if box.Rect.Min.Y != 3*lay.RowHeight || box.Rect.Min.X != 0 {
		t.Errorf("heavy at %v", box.Rect)
	}
	if got := lay.At(box.Rect.Min.X+5, box.Rect.Min.Y+5); got != heavy {
		t.Errorf("At gives %v", got)
	}
	if lay.At(w-1, 199) != nil {
		t.Error("a node below the deepest stack")
	}
	// Something was drawn in heavy's box: not the background.
	if c := img.RGBAAt(box.Rect.Min.X+box.Rect.Dx()/2, box.Rect.Max.Y-2); c == paint.Light.Background {
		t.Error("heavy's box is background")
	}
	// Focused on outer, outer spans the width under its callers.
	outer := find(p, "CAF/main/outer")
	lay = DrawFlame(paint.NewRaster(img), p, FlameOptions{Focus: outer})
	for _, b := range lay.Boxes {
		if b.Node == outer && (b.Rect.Min.X != 0 || b.Rect.Max.X != w || b.Rect.Min.Y != 3*lay.RowHeight) {
			t.Errorf("focused outer at %v", b.Rect)
		}
		if b.Node == heavy {
			t.Error("heavy drawn when focused on outer")
		}
	}
	// No samples: a message, no boxes.
	if lay := DrawFlame(paint.NewRaster(img), &Profile{Root: &Node{}}, FlameOptions{}); len(lay.Boxes) != 0 {
		t.Errorf("%d boxes without samples", len(lay.Boxes))
	}
}
