package app

import (
	"github.com/hecscope/hecscope/ccprofile"
	"github.com/hecscope/hecscope/tracks"
)

// setSampleMarks shows on the canvas where a cost centre's samples fall
// (s from ccprofile.SpreadOf; nil clears it): a strip along the axis and
// a faint shade over the tracks, darker where more of them were taken.
func (c *trackCanvas) setSampleMarks(s *ccprofile.Spread) {
	var h *tracks.Highlight
	if s != nil && s.Max > 0 {
		h = &tracks.Highlight{From: s.From, To: s.To, Weights: make([]float64, len(s.Counts))}
		for i, n := range s.Counts {
			h.Weights[i] = float64(n) / float64(s.Max)
		}
	}
	c.with(func(v *tracks.View) { v.SetHighlight(h) })
	c.redraw()
}
