package timeline

import (
	"math"
	"strings"
)

// Viewport is the visible part of a time scale that one or two runs share
// (the main window's one run is both A and B): shared time s shows run A's
// time s − Lead() + AlignA and run B's time s − Lead() + AlignB, so that the
// alignment points coincide at s = Lead(); the scale runs from 0 to
// Length(), covering both runs whole. [From, To] is the part shown (To = 0:
// up to Length()); zooming or panning it moves both runs alike.
type Viewport struct {
	// AlignA and AlignB are the runs' aligned times (ns); EndA and EndB
	// their ends.
	AlignA, AlignB, EndA, EndB uint64
	// From and To bound the visible shared time (ns).
	From, To uint64
}

// minViewport is the shortest visible span zooming reaches (ns).
const minViewport = 1000

// Lead returns the longer of the runs' times before their alignment points.
func (sp Viewport) Lead() uint64 {
	return max(min(sp.AlignA, sp.EndA), min(sp.AlignB, sp.EndB))
}

// Length returns the shared time covering both runs whole (at least 1).
func (sp Viewport) Length() uint64 {
	a, b := min(sp.AlignA, sp.EndA), min(sp.AlignB, sp.EndB)
	return max(sp.Lead()+max(sp.EndA-a, sp.EndB-b), 1)
}

// View returns the visible shared time, clamped to [0, Length()] and at
// least a nanosecond long.
func (sp Viewport) View() (from, to uint64) {
	n := sp.Length()
	from, to = min(sp.From, n-1), sp.To
	if to == 0 || to > n {
		to = n
	}
	if to <= from {
		to = from + 1
	}
	return from, to
}

// Zoom returns the span zoomed by factor (< 1 zooms in) around shared time
// at, which stays where it is on screen; the view stays inside the runs and
// no shorter than a microsecond.
func (sp Viewport) Zoom(factor float64, at uint64) Viewport {
	from, to := sp.View()
	n := float64(sp.Length())
	if !(factor > 0) {
		return sp
	}
	at = min(max(at, from), to)
	width := math.Min(math.Max(float64(to-from)*factor, math.Min(minViewport, n)), n)
	left := float64(at) - float64(at-from)/float64(to-from)*width
	left = math.Min(math.Max(left, 0), n-width)
	sp.From, sp.To = uint64(left), uint64(left+width)
	if sp.From == 0 && sp.To >= uint64(n) {
		sp.To = 0
	}
	return sp
}

// Pan returns the span moved by delta ns of shared time (negative: to the
// left), kept inside the runs.
func (sp Viewport) Pan(delta float64) Viewport {
	from, to := sp.View()
	width := float64(to - from)
	n := float64(sp.Length())
	left := math.Min(math.Max(float64(from)+delta, 0), n-width)
	sp.From, sp.To = uint64(left), uint64(left+width)
	if sp.From == 0 && sp.To >= uint64(n) {
		sp.To = 0
	}
	return sp
}

// TimeAt returns the shared time at pixel x of a picture whose plot spans
// width pixels from x0, clamped to the visible span.
func (sp Viewport) TimeAt(x, x0, width float64) uint64 {
	from, to := sp.View()
	f := math.Min(math.Max((x-x0)/math.Max(width, 1), 0), 1)
	return from + uint64(f*float64(to-from))
}

// PixelsPerNs returns how many pixels a ns of shared time takes on a plot
// width pixels wide.
func (sp Viewport) PixelsPerNs(width float64) float64 {
	from, to := sp.View()
	return math.Max(width, 1) / float64(to-from)
}

// Axes returns the axes on which a picture whose plot spans width pixels
// from x0 (a comparison's, and a heap chart drawn under it) puts runs A
// and B: one ns is as wide in both, and time AlignA of A and time AlignB
// of B fall on the same x. Each axis covers the part of its run inside the
// visible span, to the plot's right edge; a run that starts later in
// shared time than the view (the one with the shorter lead-in) starts
// further right. A run wholly outside the view gets an empty axis at the
// plot's right edge.
func (sp Viewport) Axes(x0, width float64) (Axis, Axis) {
	width = math.Max(width, 1)
	from, to := sp.View()
	lead := sp.Lead()
	ppn := width / float64(to-from)
	axis := func(align, end uint64) Axis {
		align = min(align, end)
		// Run time t is at shared time t + lead − align.
		off := lead - align
		if to <= off {
			return NewAxis(0, 1, x0+width, 1)
		}
		rFrom := uint64(0)
		left := x0 + float64(off-min(off, from))*ppn
		if from > off {
			rFrom = from - off
		}
		rTo := to - off
		return NewAxis(rFrom, rTo, left, float64(rTo-rFrom)*ppn)
	}
	return axis(sp.AlignA, sp.EndA), axis(sp.AlignB, sp.EndB)
}

// FindMarker returns the time of the earliest user marker of the run whose
// text contains text (the first exact match wins over an earlier partial
// one), and whether there is one.
func FindMarker(m *Model, text string) (uint64, bool) {
	var best, exact uint64
	found, foundExact := false, false
	try := func(in Instant) {
		if in.Kind != InstantUserMarker {
			return
		}
		s := m.String(int32(in.Arg))
		if s == text && (!foundExact || in.Time < exact) {
			exact, foundExact = in.Time, true
		}
		if strings.Contains(s, text) && (!found || in.Time < best) {
			best, found = in.Time, true
		}
	}
	for c := range m.HECs {
		h := &m.HECs[c]
		for i := 0; i < h.NumInstants(); i++ {
			try(h.Instant(i))
		}
	}
	for i := 0; i < m.NumGlobalInstants(); i++ {
		try(m.GlobalInstant(i))
	}
	if foundExact {
		return exact, true
	}
	return best, found
}

// FindSpanStart returns the start of the earliest user span labelled label
// (START label … STOP label), and whether the run has one.
func FindSpanStart(m *Model, label string) (uint64, bool) {
	var best uint64
	found := false
	for i := 0; i < m.NumUserSpans(); i++ {
		sp := m.UserSpan(i)
		if m.String(sp.Label) == label && (!found || sp.Start < best) {
			best, found = sp.Start, true
		}
	}
	return best, found
}
