package tracks

import (
	"testing"

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
