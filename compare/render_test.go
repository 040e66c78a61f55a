package compare

import (
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/timeline"
)

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
	ta, okA := timeline.FindMarker(a.Model, "round 3")
	tb, okB := timeline.FindMarker(b.Model, "round 3")
	if !okA || !okB || ta == tb {
		t.Fatalf("markers %v %v at %d %d", okA, okB, ta, tb)
	}
	if _, ok := timeline.FindMarker(a.Model, "no such marker"); ok {
		t.Error("found a missing marker")
	}
	opt := PictureOptions{Width: 1400, Height: 1000, Align: Alignment{A: ta, B: tb, Label: "round 3"}}
	img, err := Render(a, b, Compare(a, b, Options{}), opt)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 1400 || img.Bounds().Dy() != 1000 {
		t.Fatalf("size %v", img.Bounds())
	}
	a0, a1 := rowsOf(img, 1, rgba(ColourA))
	b0, b1 := rowsOf(img, 1, rgba(ColourB))
	if a0 < 0 || b0 < 0 || a1 >= b0 {
		t.Fatalf("panel tabs A %d–%d, B %d–%d", a0, a1, b0, b1)
	}
	axA, _ := timeline.Viewport{AlignA: ta, AlignB: tb, EndA: a.Model.End, EndB: b.Model.End}.Axes(1400, 1)
	x := int(math.Round(axA.X(ta)))
	// The marker line is drawn at int(X) of the panel's own axis; allow a
	// pixel of rounding.
	marker := rgba(timeline.ColourMarker)
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
	sp := opt.Viewport(a.Model.End, b.Model.End).Zoom(0.1, opt.Viewport(a.Model.End, b.Model.End).Lead())
	opt.From, opt.To = sp.From, sp.To
	img, err = Render(a, b, Compare(a, b, Options{}), opt)
	if err != nil {
		t.Fatal(err)
	}
	zA, zB := sp.Axes(1400, 1)
	if math.Abs(zA.X(ta)-zB.X(tb)) > 1e-6 {
		t.Fatalf("zoomed marker x %v / %v", zA.X(ta), zB.X(tb))
	}
	x = int(math.Round(zA.X(ta)))
	if na, nb := count(a0, a1), count(b0, b1); na < 50 || nb < 50 {
		t.Errorf("zoomed: marker column at x=%d: %d pixels in A's panel, %d in B's", x, na, nb)
	}
	// Unaligned (start), the markers are far apart in x.
	axS, axT := timeline.Viewport{EndA: a.Model.End, EndB: b.Model.End}.Axes(1400, 1)
	if math.Abs(axS.X(ta)-axT.X(tb)) < 20 {
		t.Errorf("markers close without alignment: %v %v", axS.X(ta), axT.X(tb))
	}
}

// TestRenderCompareBars checks that each run's time bar is as long as its
// wall time on one scale.
func TestRenderCompareBars(t *testing.T) {
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	b := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	img, err := Render(a, b, Compare(a, b, Options{}), PictureOptions{Width: 1200, Height: 900})
	if err != nil {
		t.Fatal(err)
	}
	// Bars are runs of rows with many bar-coloured pixels (running, GC,
	// idle); a bar's length is its widest row.
	isBar := func(p [4]uint8) bool {
		return p == rgba(timeline.ColourRunning) || p == rgba(timeline.ColourGC) || p == rgba(timeline.Light.Idle)
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
	c := Compare(a, a, Options{})
	if _, err := Render(a, a, c, PictureOptions{Width: 100, Height: 100}); err == nil {
		t.Error("tiny image accepted")
	}
	if _, err := Render(a, &Run{Name: "x"}, c, PictureOptions{Width: 800, Height: 600}); err == nil {
		t.Error("run without model accepted")
	}
	if _, err := Render(a, a, c, PictureOptions{Width: 800, Height: 600, Align: Alignment{A: a.Model.End + 1}}); err == nil {
		t.Error("alignment after the end accepted")
	}
	if _, err := Render(a, a, c, PictureOptions{Width: 800, Height: 600, View: "nope"}); err == nil {
		t.Error("unknown view accepted")
	}
	// A run against itself: every row the same.
	for _, r := range c.Rows {
		if v := r.Verdict(); v != VerdictSame {
			t.Errorf("%s: %v against itself", r.Name, v)
		}
	}
}

// TestRenderCompareOmitTable checks that without the table the timelines
// get more room.
func TestRenderCompareOmitTable(t *testing.T) {
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	b := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	c := Compare(a, b, Options{})
	height := func(omit bool) int {
		img, err := Render(a, b, c, PictureOptions{Width: 1200, Height: 700, OmitTable: omit})
		if err != nil {
			t.Fatal(err)
		}
		y0, y1 := rowsOf(img, 1, rgba(ColourB))
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

// TestHistogramFiguresOfBothRuns draws N1's and N2's GC stops at the width
// the compare window gives them at 1280 pixels: B's figures are drawn, in
// B's colour, and whole. Drawn after the title on one line they were cut
// off at "p90 23.4 µ…" of A's.
func TestHistogramFiguresOfBothRuns(t *testing.T) {
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	b := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	h := &Compare(a, b, Options{}).GCPauses
	if h.SameCounts() {
		t.Fatalf("the runs have as many GC stops (%d): the test wants shares", h.TotalA)
	}
	img := image.NewRGBA(image.Rect(0, 0, 620, 110))
	p := newPen(img, 1, false)
	p.fill(0, 0, 620, 110, p.pal.Background)
	p.drawHistogram(h, 0, 0, 620, 110)
	// Amber text (red well above blue) in the rows above the bars.
	amber := 0
	for y := 0; y < 30; y++ {
		for x := 0; x < 620; x++ {
			if c := img.RGBAAt(x, y); int(c.R) > int(c.B)+80 {
				amber++
			}
		}
	}
	if amber < 20 {
		t.Errorf("%d amber pixels in the caption: B's figures are not drawn in B's colour", amber)
	}
	figB := histogramFigures("B", h.TotalB, h.SumB, h.QuantB)
	if need := p.textWidth(histogramFigures("A", h.TotalA, h.SumA, h.QuantA)) + p.textWidth(figB) + 14; need > 620 {
		t.Errorf("the runs' figures need %.0f px of 620", need)
	}
	scale := histogramScale(h, h.peak())
	if need := p.textWidth("GC stops") + p.textWidth(scale) + 14; need > 620 {
		t.Errorf("the title and the scale need %.0f px of 620", need)
	}
	if !strings.Contains(scale, "share of its run") || !strings.HasSuffix(scale, "%") {
		t.Errorf("scale %q", scale)
	}
}

// TestRunTextReadsOnDark: text in a run's or a verdict's colour reads on
// the dark background at least as well as WCAG's 4.5:1 asks of body text;
// A's blue was 2.7:1 there, "worse" red 3.0:1. On light surroundings the
// colours are used as they are.
func TestRunTextReadsOnDark(t *testing.T) {
	lum := func(c color.RGBA) float64 {
		ch := func(v uint8) float64 {
			x := float64(v) / 255
			if x <= 0.03928 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
	}
	contrast := func(a, b color.RGBA) float64 {
		la, lb := lum(a), lum(b)
		return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
	}
	bg := timeline.PaletteFor(true).Background
	for _, c := range []color.RGBA{ColourA, ColourB, ColourWorse, ColourBetter, ColourSame} {
		if got := contrast(TextColour(c, true), bg); got < 4.5 {
			t.Errorf("text in %v on the dark background: contrast %.1f:1", c, got)
		}
		if TextColour(c, false) != c {
			t.Errorf("on light surroundings %v is drawn as %v", c, TextColour(c, false))
		}
	}
}
