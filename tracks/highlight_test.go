package tracks

import (
	"image/color"
	"testing"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

func TestHighlightShadesWhereItsWeightIs(t *testing.T) {
	v := New(timeline.Exact(tiny()))
	v.SetSize(1000+px(headerWidth, 1)+px(scrollbarW, 1), 700, 1)
	plain := v.Render()
	// Weight only in [200, 300) of the run's [0, 1000).
	w := make([]float64, 10)
	w[2] = 1
	v.SetHighlight(&Highlight{From: 0, To: 1000, Weights: w})
	lit := v.Render()
	ax := v.Axis()
	y := v.geometry().axis.Min.Y + 1
	for _, tm := range []uint64{50, 250, 650} {
		x := int(ax.X(tm)) + 1
		changed := plain.RGBAAt(x, y) != lit.RGBAAt(x, y)
		if changed != (tm == 250) {
			t.Errorf("at %d ns: axis strip changed %v", tm, changed)
		}
	}
	if v.SetHighlight(&Highlight{From: 5, To: 5, Weights: w}); v.Highlight() != nil {
		t.Error("an empty highlight was kept")
	}
}

// TestMarkedTrack: the marked track's row is outlined in the selection's
// hue, its header tinted; no other row is.
func TestMarkedTrack(t *testing.T) {
	v := tinyView(t)
	id := TrackID{Kind: KindHEC, ID: 0}
	other := TrackID{Kind: KindGC}
	v.SetMarked(id)
	if v.Marked() != id {
		t.Fatalf("marked %v", v.Marked())
	}
	img := v.Render()
	ink := paint.WithAlpha(v.Theme().Selection, 0xff)
	r, ok := v.TrackRect(id)
	o, ok2 := v.TrackRect(other)
	if !ok || !ok2 {
		t.Fatal("tracks not in view")
	}
	at := func(x, y int) color.RGBA { return img.RGBAAt(x, y) }
	// The bar at the left edge and the outline at the right end of the plot.
	if at(r.Min.X+1, r.Min.Y+r.Dy()/2) != ink || at(r.Max.X-1, r.Min.Y+r.Dy()/2) != ink {
		t.Errorf("the marked row's edges are %v and %v, want %v", at(r.Min.X+1, r.Min.Y+r.Dy()/2), at(r.Max.X-1, r.Min.Y+r.Dy()/2), ink)
	}
	if at(o.Min.X+1, o.Min.Y+o.Dy()/2) == ink || at(o.Max.X-1, o.Min.Y+o.Dy()/2) == ink {
		t.Error("an unmarked row is drawn marked")
	}
	v.SetMarked(TrackID{})
	img = v.Render()
	if at(r.Min.X+1, r.Min.Y+r.Dy()/2) == ink {
		t.Error("the mark stays after it is taken away")
	}
}
