package timeline

import "testing"

// TestUserRowsDrawAndHitSpans checks, on the N2 log's phase spans, that
// every span longer than a few pixels is drawn in its label's row and colour
// and that a hit at its middle finds it.
func TestUserRowsDrawAndHitSpans(t *testing.T) {
	m, _ := build(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if m.NumUserSpans() == 0 || len(m.Labels) == 0 {
		t.Fatal("no user spans in the N2 log")
	}
	opt := Options{Width: 1400, Height: 400, Scale: 1}
	img, err := RenderUserRows(m, opt)
	if err != nil {
		t.Fatal(err)
	}
	l := layoutTimeline(opt.Width, opt.Height, opt.Scale, 0)
	ax := NewAxis(0, m.End, float64(l.gutter), float64(l.plotW))
	y0, rowH := userRowLayout(1)
	row := map[int32]int{}
	for i := range m.Labels {
		row[m.Labels[i].Label] = i
	}
	checked := 0
	for i := 0; i < m.NumUserSpans(); i++ {
		sp := m.UserSpan(i)
		x0, x1 := ax.X(sp.Start), ax.X(sp.End)
		if x1-x0 < 4 {
			continue
		}
		x := (x0 + x1) / 2
		r := row[sp.Label]
		y := y0 + r*rowH + rowH/2
		if got, want := colourAt(img, int(x), y), userRowColours[r%len(userRowColours)]; got != want && got != ColourMarker {
			t.Errorf("span %q [%d, %d]: pixel %v, want %v", m.String(sp.Label), sp.Start, sp.End, got, want)
		}
		h := HitUserRows(m, opt, x, float64(y))
		if h.Label != r || !h.Found || h.Span.Start > h.Time || h.Span.End < h.Time || h.Span.Label != sp.Label {
			t.Errorf("hit at span %q [%d, %d]: %+v", m.String(sp.Label), sp.Start, sp.End, h)
		}
		checked++
	}
	if checked == 0 {
		t.Error("no span wide enough to check")
	}
	if h := HitUserRows(m, opt, 700, 5); h.Label != -1 {
		t.Errorf("the ruler hit label %d", h.Label)
	}
}
