package timeline

import (
	"image"
	"math"
	"testing"
)

func TestCompareAxes(t *testing.T) {
	axA, axB := CompareAxes(1600, 1, CompareSpan{AlignA: 30e6, AlignB: 50e6, EndA: 80e6, EndB: 110e6})
	if axA.PixelsPerNs() != axB.PixelsPerNs() {
		t.Errorf("scales differ: %v %v", axA.PixelsPerNs(), axB.PixelsPerNs())
	}
	if d := axA.X(30e6) - axB.X(50e6); math.Abs(d) > 1e-6 {
		t.Errorf("alignment points %v px apart", d)
	}
	if axA.From != 0 || axB.From != 0 || axB.X0 != 110 || axA.X0 <= axB.X0 {
		t.Errorf("axes start at %v (x %v) and %v (x %v)", axA.From, axA.X0, axB.From, axB.X0)
	}
	// Both end at the right edge of the plot: lead 50 ms + tail 60 ms.
	if ra, rb := axA.X0+axA.Width, axB.X0+axB.Width; math.Abs(ra-rb) > 1e-6 || math.Abs(rb-(1600-8)) > 1e-6 {
		t.Errorf("right ends %v %v", ra, rb)
	}
	// Aligned at the start: one axis.
	a0, b0 := CompareAxes(1000, 1, CompareSpan{EndA: 10, EndB: 20})
	if a0.X(7) != b0.X(7) {
		t.Errorf("start-aligned axes differ: %+v %+v", a0, b0)
	}
}

// rowsOf returns the first and last row whose pixel at x is c.
func rowsOf(img *image.RGBA, x int, c [4]uint8) (int, int) {
	first, last := -1, -1
	for y := 0; y < img.Bounds().Dy(); y++ {
		i := img.PixOffset(x, y)
		if [4]uint8(img.Pix[i:i+4]) == c {
			if first < 0 {
				first = y
			}
			last = y
		}
	}
	return first, last
}

func rgba(c interface{ RGBA() (r, g, b, a uint32) }) [4]uint8 {
	r, g, b, a := c.RGBA()
	return [4]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

// TestRenderCompareAlignedAtMarker draws N1 against N2 aligned at the
// marker "round 3": in both panels the marker line is at the same x.
func TestRenderCompareAlignedAtMarker(t *testing.T) {
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	b := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	ta, okA := FindMarker(a.Model, "round 3")
	tb, okB := FindMarker(b.Model, "round 3")
	if !okA || !okB || ta == tb {
		t.Fatalf("markers %v %v at %d %d", okA, okB, ta, tb)
	}
	if _, ok := FindMarker(a.Model, "no such marker"); ok {
		t.Error("found a missing marker")
	}
	opt := CompareOptions{Width: 1400, Height: 1000, AlignA: ta, AlignB: tb, AlignLabel: "round 3"}
	img, err := RenderCompare(a, b, Compare(a, b), opt)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 1400 || img.Bounds().Dy() != 1000 {
		t.Fatalf("size %v", img.Bounds())
	}
	a0, a1 := rowsOf(img, 1, rgba(ColourRunA))
	b0, b1 := rowsOf(img, 1, rgba(ColourRunB))
	if a0 < 0 || b0 < 0 || a1 >= b0 {
		t.Fatalf("panel tabs A %d–%d, B %d–%d", a0, a1, b0, b1)
	}
	axA, _ := CompareAxes(1400, 1, CompareSpan{AlignA: ta, AlignB: tb, EndA: a.Model.End, EndB: b.Model.End})
	x := int(math.Round(axA.X(ta)))
	// The marker line is drawn at int(X) of the panel's own axis; allow a
	// pixel of rounding.
	marker := rgba(ColourMarker)
	count := func(y0, y1 int) int {
		n := 0
		for dx := -1; dx <= 1; dx++ {
			for y := y0; y <= y1; y++ {
				i := img.PixOffset(x+dx, y)
				if [4]uint8(img.Pix[i:i+4]) == marker {
					n++
				}
			}
		}
		return n
	}
	if na, nb := count(a0, a1), count(b0, b1); na < 50 || nb < 50 {
		t.Errorf("marker column at x=%d: %d pixels in A's panel, %d in B's", x, na, nb)
	}
	// Zoomed in around the marker, the lines stay together.
	sp := opt.Span(a.Model.End, b.Model.End).Zoom(0.1, opt.Span(a.Model.End, b.Model.End).Lead())
	opt.From, opt.To = sp.From, sp.To
	img, err = RenderCompare(a, b, Compare(a, b), opt)
	if err != nil {
		t.Fatal(err)
	}
	zA, zB := CompareAxes(1400, 1, sp)
	if math.Abs(zA.X(ta)-zB.X(tb)) > 1e-6 {
		t.Fatalf("zoomed marker x %v / %v", zA.X(ta), zB.X(tb))
	}
	x = int(math.Round(zA.X(ta)))
	if na, nb := count(a0, a1), count(b0, b1); na < 50 || nb < 50 {
		t.Errorf("zoomed: marker column at x=%d: %d pixels in A's panel, %d in B's", x, na, nb)
	}
	// Unaligned (start), the markers are far apart in x.
	axS, axT := CompareAxes(1400, 1, CompareSpan{EndA: a.Model.End, EndB: b.Model.End})
	if math.Abs(axS.X(ta)-axT.X(tb)) < 20 {
		t.Errorf("markers close without alignment: %v %v", axS.X(ta), axT.X(tb))
	}
}

// TestRenderCompareBars checks that each run's time bar is as long as its
// wall time on one scale.
func TestRenderCompareBars(t *testing.T) {
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	b := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	img, err := RenderCompare(a, b, Compare(a, b), CompareOptions{Width: 1200, Height: 900})
	if err != nil {
		t.Fatal(err)
	}
	// Bars are runs of rows with many bar-coloured pixels (running, GC,
	// idle); a bar's length is its widest row.
	isBar := func(p [4]uint8) bool {
		return p == rgba(ColourRunning) || p == rgba(ColourGC) || p == rgba(Light.Idle)
	}
	var lengths []int
	inBar := false
	for y := 0; y < 64; y++ { // the bars are under the headline, above the panels
		n := 0
		for x := 0; x < 1200; x++ {
			j := img.PixOffset(x, y)
			if isBar([4]uint8(img.Pix[j : j+4])) {
				n++
			}
		}
		switch {
		case n > 50 && !inBar:
			lengths = append(lengths, n)
			inBar = true
		case n > 50:
			lengths[len(lengths)-1] = max(lengths[len(lengths)-1], n)
		default:
			inBar = false
		}
	}
	if len(lengths) != 2 {
		t.Fatalf("bars %v", lengths)
	}
	want := float64(a.Model.End) / float64(b.Model.End)
	if got := float64(lengths[0]) / float64(lengths[1]); math.Abs(got-want) > 0.02 {
		t.Errorf("bar lengths %v: ratio %.3f, want %.3f", lengths, got, want)
	}
}

func TestRenderCompareErrors(t *testing.T) {
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	c := Compare(a, a)
	if _, err := RenderCompare(a, a, c, CompareOptions{Width: 100, Height: 100}); err == nil {
		t.Error("tiny image accepted")
	}
	if _, err := RenderCompare(a, &Run{Name: "x"}, c, CompareOptions{Width: 800, Height: 600}); err == nil {
		t.Error("run without model accepted")
	}
	if _, err := RenderCompare(a, a, c, CompareOptions{Width: 800, Height: 600, AlignA: a.Model.End + 1}); err == nil {
		t.Error("alignment after the end accepted")
	}
	if _, err := RenderCompare(a, a, c, CompareOptions{Width: 800, Height: 600, View: "nope"}); err == nil {
		t.Error("unknown view accepted")
	}
	// A run against itself: every row the same.
	for _, r := range c.Rows {
		if v := r.Verdict(); v != VerdictSame {
			t.Errorf("%s: %v against itself", r.Name, v)
		}
	}
}

// TestCompareSpanZoomIsLinked zooms and pans the shared scale: both runs'
// axes keep one scale and their alignment points one x.
func TestCompareSpanZoomIsLinked(t *testing.T) {
	sp := CompareSpan{AlignA: 30e6, AlignB: 50e6, EndA: 80e6, EndB: 110e6}
	if sp.Lead() != 50e6 || sp.Length() != 110e6 {
		t.Fatalf("lead %d length %d", sp.Lead(), sp.Length())
	}
	z := sp.Zoom(0.5, 50e6)
	if from, to := z.View(); from != 25e6 || to != 80e6 {
		t.Fatalf("zoomed view [%d, %d], want [25ms, 80ms]", from, to)
	}
	axA, axB := CompareAxes(1600, 1, z)
	if math.Abs(axA.PixelsPerNs()-axB.PixelsPerNs()) > 1e-15 || math.Abs(axA.PixelsPerNs()-z.PixelsPerNs(1600, 1)) > 1e-15 {
		t.Errorf("scales %v %v %v", axA.PixelsPerNs(), axB.PixelsPerNs(), z.PixelsPerNs(1600, 1))
	}
	if math.Abs(axA.X(30e6)-axB.X(50e6)) > 1e-6 {
		t.Errorf("alignment points at %v and %v", axA.X(30e6), axB.X(50e6))
	}
	// Both runs show the same stretch of shared time: A from 5 ms (shared
	// 25 ms), B from 25 ms.
	if axA.From != 5e6 || axA.To != 60e6 || axB.From != 25e6 || axB.To != 80e6 || axA.X0 != 110 || axB.X0 != 110 {
		t.Errorf("axes A [%d, %d] at %v, B [%d, %d] at %v", axA.From, axA.To, axA.X0, axB.From, axB.To, axB.X0)
	}
	// The point under the pointer stays put.
	if got := z.TimeAt(axB.X(50e6), 1600, 1); got < 50e6-100 || got > 50e6+100 {
		t.Errorf("TimeAt under the anchor: %d", got)
	}
	// Panning moves both and stops at the ends.
	p := z.Pan(10e6)
	if from, to := p.View(); from != 35e6 || to != 90e6 {
		t.Errorf("panned view [%d, %d]", from, to)
	}
	if from, to := z.Pan(-1e12).View(); from != 0 || to != 55e6 {
		t.Errorf("pan past the start: [%d, %d]", from, to)
	}
	if from, to := z.Pan(1e12).View(); from != 55e6 || to != 110e6 {
		t.Errorf("pan past the end: [%d, %d]", from, to)
	}
	// Zooming has limits: a microsecond, and the whole runs.
	if from, to := sp.Zoom(1e-9, 50e6).View(); to-from != minCompareView {
		t.Errorf("deepest zoom [%d, %d]", from, to)
	}
	if out := z.Zoom(100, 0); out.From != 0 || out.To != 0 {
		t.Errorf("zoomed out: %+v", out)
	}
	// A run that starts right of the view (A, aligned 50 ms later in
	// shared time) gets an empty axis at the right edge.
	far := CompareSpan{AlignA: 0, AlignB: 50e6, EndA: 10e6, EndB: 100e6, From: 0, To: 40e6}
	fa, fb := CompareAxes(1000, 1, far)
	if fa.X0 != 1000-8 || fa.Width != 1 || fb.From != 0 || fb.To != 40e6 || fb.X0 != 110 {
		t.Errorf("axes outside %+v, inside %+v", fa, fb)
	}
}

// TestRenderCompareOmitTable checks that without the table the timelines
// get more room.
func TestRenderCompareOmitTable(t *testing.T) {
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	b := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	c := Compare(a, b)
	height := func(omit bool) int {
		img, err := RenderCompare(a, b, c, CompareOptions{Width: 1200, Height: 700, OmitTable: omit})
		if err != nil {
			t.Fatal(err)
		}
		y0, y1 := rowsOf(img, 1, rgba(ColourRunB))
		return y1 - y0
	}
	with, without := height(false), height(true)
	if without <= with+20 {
		t.Errorf("panel B is %d px high with the table, %d without", with, without)
	}
}

func TestPanelHeights(t *testing.T) {
	h := panelHeights(600, 1, 1, 2)
	if h[0]+h[1] != 600 || h[1] <= h[0] {
		t.Errorf("1 and 2 HECs: %v", h)
	}
	if h := panelHeights(600, 1, 4, 4); h[0] != 300 || h[1] != 300 {
		t.Errorf("equal HECs: %v", h)
	}
	if h := panelHeights(500, 1, 0, 1); h[0] != 250 {
		t.Errorf("no HECs counts as one: %v", h)
	}
}
