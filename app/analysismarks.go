package app

import (
	"github.com/hecscope/hecscope/advise"
	"github.com/hecscope/hecscope/ccprofile"
	"github.com/hecscope/hecscope/tracks"
)

// sampleMarks is the canvas highlight of where a cost centre's samples
// fall (s from ccprofile.SpreadOf): darker where more of them were taken;
// nil for none.
func sampleMarks(s *ccprofile.Spread) *tracks.Highlight {
	if s == nil || s.Max == 0 {
		return nil
	}
	h := &tracks.Highlight{From: s.From, To: s.To, Weights: make([]float64, len(s.Counts))}
	for i, n := range s.Counts {
		h.Weights[i] = float64(n) / float64(s.Max)
	}
	return h
}

// rangeMark is the canvas highlight of one span instance [from, to).
func rangeMark(from, to uint64) *tracks.Highlight {
	if to <= from {
		return nil
	}
	return &tracks.Highlight{From: from, To: to, Weights: []float64{1}}
}

// findingMark is the canvas highlight of a finding: its range, and the
// tracks of the run that show it; nil for none. The first of those tracks
// (as tracks.View.FindingTracks orders them) is brought into view.
func (c *trackCanvas) findingMark(f *advise.Finding) *tracks.Highlight {
	if f == nil {
		return nil
	}
	h := &tracks.Highlight{From: f.From, To: max(f.To, f.From+1), Weights: []float64{1}}
	c.with(func(v *tracks.View) {
		h.Tracks = v.FindingTracks(f)
		if len(h.Tracks) > 0 {
			v.Reveal(h.Tracks[0])
		}
	})
	return h
}

// setFindings flags fs on the canvas's axis (nil: none).
func (c *trackCanvas) setFindings(fs []advise.Finding) {
	c.with(func(v *tracks.View) { v.SetFindings(fs) })
	c.redraw()
}

// setHighlight shows h on the canvas (a strip along the axis and a faint
// shade over the tracks), replacing any other; nil clears it.
func (c *trackCanvas) setHighlight(h *tracks.Highlight) {
	c.with(func(v *tracks.View) { v.SetHighlight(h) })
	c.redraw()
}

// clearHighlight removes h from the canvas if it is the one shown (so that
// one tab does not clear what another showed since).
func (c *trackCanvas) clearHighlight(h *tracks.Highlight) {
	if h == nil {
		return
	}
	cleared := false
	c.with(func(v *tracks.View) {
		if v.Highlight() == h {
			v.SetHighlight(nil)
			cleared = true
		}
	})
	if cleared {
		c.redraw()
	}
}

// marker keeps the highlight one analysis tab put on the canvas, so that
// it replaces or clears only its own.
type marker struct {
	c    *trackCanvas
	last *tracks.Highlight
}

// show replaces the tab's highlight with h (nil: clears it).
func (m *marker) show(h *tracks.Highlight) {
	if m == nil || m.c == nil {
		return
	}
	m.c.clearHighlight(m.last)
	m.last = h
	if h != nil {
		m.c.setHighlight(h)
	}
}
