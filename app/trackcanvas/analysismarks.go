package trackcanvas

import (
	"github.com/hecscope/hecscope/advise"
	"github.com/hecscope/hecscope/ccprofile"
	"github.com/hecscope/hecscope/tracks"
)

// SampleMarks is the canvas highlight of where a cost centre's samples
// fall (s from ccprofile.SpreadOf): darker where more of them were taken;
// nil for none.
func SampleMarks(s *ccprofile.Spread) *tracks.Highlight {
	if s == nil || s.Max == 0 {
		return nil
	}
	h := &tracks.Highlight{From: s.From, To: s.To, Weights: make([]float64, len(s.Counts))}
	for i, n := range s.Counts {
		h.Weights[i] = float64(n) / float64(s.Max)
	}
	return h
}

// RangeMark is the canvas highlight of one span instance [from, to).
func RangeMark(from, to uint64) *tracks.Highlight {
	if to <= from {
		return nil
	}
	return &tracks.Highlight{From: from, To: to, Weights: []float64{1}}
}

// FindingMark is the canvas highlight of a finding: its range, and the
// tracks of the run that show it; nil for none. The first of those tracks
// (as tracks.View.FindingTracks orders them) is brought into view.
func (c *Canvas) FindingMark(f *advise.Finding) *tracks.Highlight {
	if f == nil {
		return nil
	}
	h := &tracks.Highlight{From: f.From, To: max(f.To, f.From+1), Weights: []float64{1}}
	c.With(func(v *tracks.View) {
		h.Tracks = v.FindingTracks(f)
		if len(h.Tracks) > 0 {
			v.Reveal(h.Tracks[0])
		}
	})
	return h
}

// SetFindings flags fs on the canvas's axis (nil: none).
func (c *Canvas) SetFindings(fs []advise.Finding) {
	c.With(func(v *tracks.View) { v.SetFindings(fs) })
	c.Redraw()
}

// setHighlight shows h on the canvas (a strip along the axis and a faint
// shade over the tracks), replacing any other; nil clears it.
func (c *Canvas) setHighlight(h *tracks.Highlight) {
	c.With(func(v *tracks.View) { v.SetHighlight(h) })
	c.Redraw()
}

// clearHighlight removes h from the canvas if it is the one shown (so that
// one tab does not clear what another showed since).
func (c *Canvas) clearHighlight(h *tracks.Highlight) {
	if h == nil {
		return
	}
	cleared := false
	c.With(func(v *tracks.View) {
		if v.Highlight() == h {
			v.SetHighlight(nil)
			cleared = true
		}
	})
	if cleared {
		c.Redraw()
	}
}

// Marker keeps the highlight one analysis tab put on the canvas, so that
// it replaces or clears only its own.
type Marker struct {
	C    *Canvas
	last *tracks.Highlight
}

// Show replaces the tab's highlight with h (nil: clears it).
func (m *Marker) Show(h *tracks.Highlight) {
	if m == nil || m.C == nil {
		return
	}
	m.C.clearHighlight(m.last)
	m.last = h
	if h != nil {
		m.C.setHighlight(h)
	}
}
