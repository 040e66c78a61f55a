package tracks

import (
	"image"
	"math"

	"github.com/hecscope/hecscope/paint"
)

// Highlight is a density over time that the view shows along its axis and,
// faintly, across its tracks: where something picked elsewhere happened
// (the samples of a cost centre picked in a profile, a finding's range).
// Weights are equal bins over [From, To), each from 0 (nothing) to 1 (the
// most). With Tracks, only those tracks are shaded, more strongly, and
// their headers marked: the tracks that show a finding.
type Highlight struct {
	From, To uint64
	Weights  []float64
	Tracks   []TrackID
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
// faint shade of the same over the tracks (or its tracks).
func (f *frame) drawHighlight() {
	h := f.v.highlight
	if h == nil {
		return
	}
	g := f.g
	strip := image.Rect(g.plot.Min.X, g.axis.Min.Y, g.plot.Max.X, g.axis.Min.Y+max(px(5, f.s), 3))
	var bands [][2]int // the y ranges shaded
	if len(h.Tracks) == 0 {
		bands = append(bands, [2]int{g.pinned.Min.Y, g.tracks.Max.Y})
	} else {
		bands = f.markHighlightedTracks(h.Tracks)
	}
	shade, strong := 12.0, 40.0
	edge := 0 // tracks of their own are edged above and below
	if len(h.Tracks) > 0 {
		shade, strong, edge = 20, 28, max(px(1, f.s), 1)
	}
	for x := g.plot.Min.X; x < g.plot.Max.X; x++ {
		wt := h.weightIn(f.ax.Time(float64(x)), f.ax.Time(float64(x+1)))
		if wt <= 0 {
			continue
		}
		f.c.Fill(image.Rect(x, strip.Min.Y, x+1, strip.Max.Y), paint.WithAlpha(highlightInk, uint8(60+195*wt)))
		for _, b := range bands {
			f.c.Fill(image.Rect(x, b[0], x+1, b[1]), paint.WithAlpha(highlightInk, uint8(shade+strong*wt)))
			if edge > 0 {
				ink := paint.WithAlpha(highlightInk, uint8(100+155*wt))
				f.c.Fill(image.Rect(x, b[0], x+1, b[0]+edge), ink)
				f.c.Fill(image.Rect(x, b[1]-edge, x+1, b[1]), ink)
			}
		}
	}
}

// markHighlightedTracks marks the headers of the tracks ids that are in
// view (a bar in the highlight's hue along the left edge, and a tint) and
// returns the y ranges of their rows, clipped to the areas they are drawn
// in.
func (f *frame) markHighlightedTracks(ids []TrackID) [][2]int {
	l := f.v.ensureLayout()
	g := f.g
	var out [][2]int
	bar := max(px(3, f.s), 2)
	for _, id := range ids {
		y0, y1, ok := f.rowSpan(l, id)
		if !ok {
			continue
		}
		area := g.tracks
		if f.v.Pinned(id) {
			area = g.pinned
		}
		y0, y1 = max(y0, area.Min.Y), min(y1, area.Max.Y)
		if y1 <= y0 {
			continue
		}
		f.c.Fill(image.Rect(0, y0, g.header.Max.X, y1), paint.WithAlpha(highlightInk, 0x38))
		f.c.Fill(image.Rect(0, y0, bar, y1), highlightInk)
		out = append(out, [2]int{y0, y1})
	}
	return out
}
