package timeline

import (
	"bytes"
	"sort"
	"testing"
)

// TestRenderThreadRowsInFirstOrderIsTheThreadsView checks that thread rows
// in order of first appearance draw exactly the "threads" view.
func TestRenderThreadRowsInFirstOrderIsTheThreadsView(t *testing.T) {
	m, _ := build(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	mid := (m.Start + m.End) / 2
	for _, opt := range []Options{{Width: 900, Height: 500, Scale: 1}, {Width: 1000, Height: 700, Scale: 2, From: mid - 3_000_000, To: mid + 3_000_000}} {
		want, err := Render(m, Options{View: "threads", From: opt.From, To: opt.To, Width: opt.Width, Height: opt.Height, Scale: opt.Scale})
		if err != nil {
			t.Fatal(err)
		}
		got, err := RenderThreadRows(m, opt, ThreadRows(m, opt.From, opt.To, ThreadsByFirst))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Pix, want.Pix) {
			t.Errorf("%+v: thread rows differ from the threads view", opt)
		}
	}
	if _, err := RenderThreadRows(m, Options{Width: 300, Height: 300}, []int{len(m.Threads)}); err == nil {
		t.Error("a row past the threads drew")
	}
}

func TestThreadRowsOrders(t *testing.T) {
	m, _ := build(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	first := ThreadRows(m, 0, 0, ThreadsByFirst)
	if len(first) == 0 {
		t.Fatal("no threads")
	}
	byID := ThreadRows(m, 0, 0, ThreadsByID)
	if !sort.SliceIsSorted(byID, func(a, b int) bool { return m.Threads[byID[a]].ID < m.Threads[byID[b]].ID }) || len(byID) != len(first) {
		t.Error("not sorted by id")
	}
	busy := ThreadRows(m, 0, 0, ThreadsByBusy)
	run := func(i int) uint64 { d := m.Threads[i].Track.Durations(0, m.End); return d[StateRunning] }
	for k := 1; k < len(busy); k++ {
		if run(busy[k]) > run(busy[k-1]) {
			t.Fatalf("busy order: row %d runs %d after %d", k, run(busy[k]), run(busy[k-1]))
		}
	}
	lab := ThreadRows(m, 0, 0, ThreadsByLabel)
	seenUnlabelled := false
	for k, i := range lab {
		th := &m.Threads[i]
		if th.Label < 0 {
			seenUnlabelled = true
		} else if seenUnlabelled {
			t.Fatalf("labelled thread %d after an unlabelled one", th.ID)
		} else if k > 0 && m.Threads[lab[k-1]].Label >= 0 && m.String(m.Threads[lab[k-1]].Label) > m.String(th.Label) {
			t.Fatalf("labels out of order at row %d", k)
		}
	}
}

// TestHitThreadRowsMatchesPicture checks that, on rows sorted by busy time,
// a hit in a column holding one whole span lands on a pixel of that
// span's colour, in the row of the thread it names.
func TestHitThreadRowsMatchesPicture(t *testing.T) {
	m, _ := build(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	mid := (m.Start + m.End) / 2
	opt := Options{Width: 1200, Height: 600, Scale: 1, From: mid - 1_000_000, To: mid + 1_000_000}
	rows := ThreadRows(m, opt.From, opt.To, ThreadsByBusy)
	img, err := RenderThreadRows(m, opt, rows)
	if err != nil {
		t.Fatal(err)
	}
	y0, rowH := threadRowLayout(1)
	checked := 0
	for r := 0; r < min(len(rows), 10); r++ {
		y := y0 + r*rowH + rowH/2
		for x := 0; x < opt.Width; x += 3 {
			h := HitThreadRows(m, opt, rows, float64(x)+0.5, float64(y))
			if h.Thread < 0 {
				continue
			}
			if h.Thread != rows[r] {
				t.Fatalf("row %d hit thread %d, want %d", r, h.Thread, rows[r])
			}
			if h.Marks != 0 || (h.Mark.State != StateRunning && h.Mark.State != StateRunnable) {
				continue
			}
			got := colourAt(img, x, y)
			if got == ColourMarker {
				continue
			}
			if want := StateColour(h.Mark.State); got != want {
				t.Fatalf("row %d x=%d %v: pixel %v, want %v", r, x, h.Mark.State, got, want)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Error("no whole span checked")
	}
	if h := HitThreadRows(m, opt, rows, 600, 5); h.Thread != -1 {
		t.Errorf("the ruler hit thread %d", h.Thread)
	}
}
