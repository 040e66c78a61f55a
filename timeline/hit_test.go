package timeline

import (
	"testing"
)

// TestHitTimelineMatchesPicture checks, on a real two-HEC log zoomed in, that
// HitTimeline finds the HEC rows where Render draws them: wherever a column
// holds one whole span, the pixel near the bottom of the band has the
// span's colour, and the span contains the time under the point.
func TestHitTimelineMatchesPicture(t *testing.T) {
	m, _ := build(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if len(m.HECs) != 2 {
		t.Fatalf("HECs = %d, want 2", len(m.HECs))
	}
	mid := (m.Start + m.End) / 2
	for _, opt := range []Options{
		{Width: 1200, Height: 500, Scale: 1},
		{Width: 1200, Height: 700, Scale: 2, From: mid - 2_000_000, To: mid + 2_000_000},
	} {
		img, err := Render(m, opt)
		if err != nil {
			t.Fatal(err)
		}
		checked := map[State]int{}
		for c := range m.HECs {
			y0, y1, ok := HECRowBounds(m, opt, c)
			if !ok {
				t.Fatalf("%+v: no room for HEC %d", opt, c)
			}
			for x := 0; x < opt.Width; x++ {
				h := HitTimeline(m, opt, float64(x)+0.5, float64(y0+y1)/2)
				if h.Row == RowNone {
					continue
				}
				if h.Row != RowHEC || h.HEC != c {
					t.Fatalf("%+v: hit at x=%d on HEC %d row is %+v", opt, x, c, h)
				}
				if h.Time < h.SpanStart || (h.Time >= h.SpanEnd && h.SpanEnd != h.SpanStart) {
					t.Fatalf("%+v: time %d outside its span [%d, %d)", opt, h.Time, h.SpanStart, h.SpanEnd)
				}
				if h.Marks != 0 || h.ColTo <= h.ColFrom {
					continue
				}
				want := map[State]bool{StateRunning: true, StateGCWork: true}
				if !want[h.Span.State] {
					continue
				}
				got := colourAt(img, x, y1-1)
				exp := ColourRunning
				if h.Span.State == StateGCWork {
					exp = ColourGC
				}
				if got == ColourMarker {
					continue // a user marker's line crosses the rows
				}
				if got != exp {
					t.Fatalf("%+v: HEC %d x=%d state %v: pixel %v, want %v", opt, c, x, h.Span.State, got, exp)
				}
				checked[h.Span.State]++
			}
		}
		if checked[StateRunning] == 0 {
			t.Errorf("%+v: no whole running column checked", opt)
		}
	}
	// Outside the plot nothing is hit; the ruler and activity graph are.
	opt := Options{Width: 1000, Height: 400, Scale: 1}
	if h := HitTimeline(m, opt, 5, 200); h.Row != RowNone {
		t.Errorf("gutter hit %+v", h)
	}
	if h := HitTimeline(m, opt, 500, 5); h.Row != RowAxis {
		t.Errorf("ruler hit %+v", h)
	}
	if h := HitTimeline(m, opt, 500, 60); h.Row != RowActivity || h.Times.Total() == 0 {
		t.Errorf("activity hit %+v", h)
	}
}

// TestThreadByID finds every thread by its id and nothing for an unknown id.
func TestThreadByID(t *testing.T) {
	m, _ := build(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	for i := range m.Threads {
		if got := m.ThreadByID(m.Threads[i].ID); got != &m.Threads[i] {
			t.Fatalf("thread %d not found", m.Threads[i].ID)
		}
	}
	if m.ThreadByID(1<<31) != nil {
		t.Error("found a thread that does not exist")
	}
}
