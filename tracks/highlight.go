package tracks

import (
	"image"
	"math"

	"github.com/hecscope/hecscope/paint"
)

// Highlight is a density over time that the view shows along its axis and,
// faintly, across its tracks: where something picked elsewhere happened
// (the samples of a cost centre picked in a profile). Weights are equal
// bins over [From, To), each from 0 (nothing) to 1 (the most).
type Highlight struct {
	From, To uint64
	Weights  []float64
}

// highlightInk is the hue of a highlight: an orange that none of the
// tracks' states use.
var highlightInk = paint.OKLCH(0.70, 0.16, 55*math.Pi/180)

// SetHighlight shows h along the axis and across the tracks; nil removes
// it. The view keeps h: do not change it afterwards.
func (v *View) SetHighlight(h *Highlight) {
	if h != nil && (h.To <= h.From || len(h.Weights) == 0) {
		h = nil
	}
	v.highlight = h
}

// Highlight returns the highlight shown, nil if none.
func (v *View) Highlight() *Highlight { return v.highlight }

// weightIn returns the largest weight of h's bins that overlap [from, to).
func (h *Highlight) weightIn(from, to uint64) float64 {
	if to <= h.From || from >= h.To {
		return 0
	}
	n := len(h.Weights)
	w := float64(h.To-h.From) / float64(n)
	i := 0
	if from > h.From {
		i = int(float64(from-h.From) / w)
	}
	j := n - 1
	if to < h.To {
		j = min(int(float64(to-h.From)/w), n-1)
	}
	most := 0.0
	for k := max(i, 0); k <= j; k++ {
		most = max(most, h.Weights[k])
	}
	return math.Min(most, 1)
}

// drawHighlight draws the view's highlight: a strip along the top of the
// axis whose opacity follows the weight under each pixel column, and a
// faint shade of the same over the tracks.
func (f *frame) drawHighlight() {
	h := f.v.highlight
	if h == nil {
		return
	}
	g := f.g
	strip := image.Rect(g.plot.Min.X, g.axis.Min.Y, g.plot.Max.X, g.axis.Min.Y+max(px(5, f.s), 3))
	area := image.Rect(g.plot.Min.X, g.pinned.Min.Y, g.plot.Max.X, g.tracks.Max.Y)
	for x := g.plot.Min.X; x < g.plot.Max.X; x++ {
		wt := h.weightIn(f.ax.Time(float64(x)), f.ax.Time(float64(x+1)))
		if wt <= 0 {
			continue
		}
		f.c.Fill(image.Rect(x, strip.Min.Y, x+1, strip.Max.Y), paint.WithAlpha(highlightInk, uint8(60+195*wt)))
		f.c.Fill(image.Rect(x, area.Min.Y, x+1, area.Max.Y), paint.WithAlpha(highlightInk, uint8(12+40*wt)))
	}
}
