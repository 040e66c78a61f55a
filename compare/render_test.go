package compare

import (
	"image"
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
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

// markerLine returns the colour of a marker's line across the tracks (a
// translucent line in the marker's ink) over background bg.
func markerLine(bg color.RGBA) [4]uint8 {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.SetRGBA(0, 0, bg)
	paint.FillRect(img, img.Bounds(), paint.WithAlpha(paint.InkMarker.Color(), 0x90))
	return rgba(img.RGBAAt(0, 0))
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
	var l PictureLayout
	opt := PictureOptions{Width: 1400, Height: 1000, Align: Alignment{A: ta, B: tb, Label: "round 3"}, Layout: &l}
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
	if a0 < l.Panels[0].Min.Y || a1 >= l.Panels[0].Max.Y || b0 < l.Panels[1].Min.Y || b1 >= l.Panels[1].Max.Y {
		t.Errorf("tabs A %d–%d, B %d–%d outside the panels %v %v", a0, a1, b0, b1, l.Panels[0], l.Panels[1])
	}
	// The marker's line is drawn at int(X) of each panel's axis (the
	// axes' left ends are whole pixels: allow one), over the tracks'
	// empty background, and its flag in the marker's ink.
	line, ink := markerLine(paint.Light.Background), rgba(paint.InkMarker.Color())
	count := func(x, y0, y1 int) int {
		n := 0
		for dx := -1; dx <= 1; dx++ {
			for y := y0; y <= y1; y++ {
				i := img.PixOffset(x+dx, y)
				if p := [4]uint8(img.Pix[i : i+4]); p == line || p == ink {
					n++
				}
			}
		}
		return n
	}
	check := func(what string, l *PictureLayout) {
		xa, xb := l.Axes[0].X(ta), l.Axes[1].X(tb)
		if math.Abs(xa-xb) > 1 {
			t.Errorf("%s: the marker at x %v in A, %v in B", what, xa, xb)
		}
		// (Over the tracks' data the line is blended with it.)
		if na, nb := count(int(xa), a0, a1), count(int(xb), b0, b1); na < 30 || nb < 30 {
			t.Errorf("%s: marker column at x=%v: %d pixels in A's panel, %d in B's", what, xa, na, nb)
		}
	}
	check("aligned", &l)
	// Zoomed in around the marker, the lines stay together.
	sp := opt.Viewport(a.Model.End, b.Model.End).Zoom(0.1, opt.Viewport(a.Model.End, b.Model.End).Lead())
	opt.From, opt.To = sp.From, sp.To
	if img, err = Render(a, b, Compare(a, b, Options{}), opt); err != nil {
		t.Fatal(err)
	}
	if math.Abs(l.Axes[0].PixelsPerNs()/l.Axes[1].PixelsPerNs()-1) > 1e-3 {
		t.Errorf("zoomed: scales %v, %v", l.Axes[0].PixelsPerNs(), l.Axes[1].PixelsPerNs())
	}
	check("zoomed", &l)
	// Unaligned (start), the markers are far apart in x.
	axS, axT := timeline.Viewport{EndA: a.Model.End, EndB: b.Model.End}.Axes(Plot(1400, 1))
	if math.Abs(axS.X(ta)-axT.X(tb)) < 20 {
		t.Errorf("markers close without alignment: %v %v", axS.X(ta), axT.X(tb))
	}
}

// TestComparePanelsAreTrackViews: each run's panel is what its track view
// draws — the window's tracks, axis, legend and theme — on one time scale
// that both panels' plots end at the right of, and the heaps share; the
// layout's Hit reads a panel as the window's canvas reads its tracks.
// The panels were drawn by a renderer of their own, whose axis read
// "1000ms" where the window's reads "1 s" and whose key said "GC waiting".
func TestComparePanelsAreTrackViews(t *testing.T) {
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	b := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	for _, dark := range []bool{false, true} {
		var l PictureLayout
		img, err := RenderWithHeaps(a, b, nil, nil, Compare(a, b, Options{}), PictureOptions{Width: 1200, Height: 900, Dark: dark, Layout: &l})
		if err != nil {
			t.Fatal(err)
		}
		x0, w := Plot(1200, 1)
		for i, v := range l.Views {
			if v == nil {
				t.Fatalf("no view of run %d", i)
			}
			if v.Theme().Dark != dark {
				t.Errorf("run %d's panel drawn dark %v", i, v.Theme().Dark)
			}
			// The panel's pixels are the view's, but for the run's tab at
			// the left edge and the rule at the bottom.
			want := v.Render()
			p := l.Panels[i]
			if want.Bounds().Size() != p.Size() {
				t.Fatalf("run %d: view %v, panel %v", i, want.Bounds(), p)
			}
			diff := 0
			for y := 0; y < p.Dy()-1; y++ {
				for x := 10; x < p.Dx(); x++ {
					if img.RGBAAt(x, p.Min.Y+y) != want.RGBAAt(x, y) {
						diff++
					}
				}
			}
			if diff > 0 {
				t.Errorf("run %d: %d pixels of the panel are not its view's", i, diff)
			}
			ax := l.Axes[i]
			if ax != v.Axis() || math.Abs(ax.X0+ax.Width-(x0+w)) > 0.5 || ax.X0 < x0-0.5 {
				t.Errorf("run %d: axis %+v, the picture's plot from %v over %v", i, ax, x0, w)
			}
		}
		if r := l.Axes[0].PixelsPerNs() / l.Axes[1].PixelsPerNs(); math.Abs(r-1) > 1e-3 {
			t.Errorf("the panels' scales differ by %v", r)
		}
		// B's panel is the taller: it has two HECs.
		if l.Panels[1].Dy() <= l.Panels[0].Dy() {
			t.Errorf("panels %v and %v", l.Panels[0], l.Panels[1])
		}
		// Reading B's HEC 1: the view's tooltip of that track.
		id := tracks.TrackID{Kind: tracks.KindHEC, ID: 1}
		r, ok := l.TrackRect(1, id)
		if !ok || !r.In(l.Panels[1]) {
			t.Fatalf("B's HEC 1 at %v %v, B's panel %v", r, ok, l.Panels[1])
		}
		run, h := l.Hit(l.Axes[1].X0+0.4*l.Axes[1].Width, float64(r.Min.Y+r.Max.Y)/2)
		if run != 1 || h.Track != id || h.Area != tracks.AreaPlot || len(h.Tip) == 0 || h.Tip[0] != "HEC 1" {
			t.Errorf("hit over B's HEC 1: run %d, %+v", run, h)
		}
		if run, _ := l.Hit(5, float64(l.Panels[1].Max.Y+10)); run != -1 {
			t.Errorf("hit under the panels: run %d", run)
		}
		// The legend names the states as the window's does.
		var names []string
		lr := l.Views[0].LegendRect()
		for x := lr.Min.X; x < lr.Max.X; x += 4 {
			if _, h := l.Hit(float64(x), float64(l.Panels[0].Min.Y+(lr.Min.Y+lr.Max.Y)/2)); h.Area == tracks.AreaLegend && h.Name != "" &&
				!slices.Contains(names, h.Name) {
				names = append(names, h.Name)
			}
		}
		for _, want := range []string{"running", "GC sync", "GC work", "marker"} {
			if !slices.Contains(names, want) {
				t.Errorf("A's legend names %q, not %q", names, want)
			}
		}
		if slices.Contains(names, "GC waiting") {
			t.Errorf("A's legend names %q", names)
		}
	}
}

// TestPanelsPinTheMarkersWhenThereIsRoom: the markers' track, with their
// texts, tops each panel of a large picture; a small one leaves it out
// for the tracks, which then all fit (B's HEC rows were cut off under it
// in `render --compare --width 800`, whose timelines get 480 px of 600).
func TestPanelsPinTheMarkersWhenThereIsRoom(t *testing.T) {
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	b := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	c := Compare(a, b, Options{})
	markers := tracks.TrackID{Kind: tracks.KindMarkers}
	for _, size := range []struct {
		w, h   int
		pinned bool
	}{{1600, 1200, true}, {800, 480, false}} {
		var l PictureLayout
		if _, err := RenderWithHeaps(a, b, nil, nil, c, PictureOptions{Width: size.w, Height: size.h, Layout: &l}); err != nil {
			t.Fatal(err)
		}
		for i, v := range l.Views {
			if v.Pinned(markers) != size.pinned {
				t.Errorf("%dx%d: run %d's markers' track pinned %v", size.w, size.h, i, v.Pinned(markers))
			}
			if _, content, area := v.Scroll(); content > area {
				t.Errorf("%dx%d: run %d's tracks %d px high in %d", size.w, size.h, i, content, area)
			}
		}
	}
}

// TestRenderCutRunHatchesPastTheFrontier: the compare picture of a cut
// run (HEC 1's events stop at 200 ns of 1000) draws HEC 1's track and the
// activity's share of it as not known past its frontier — the hatch, no
// state — with the frontier's mark, as the window's tracks do.
func TestRenderCutRunHatchesPastTheFrontier(t *testing.T) {
	bl := timeline.NewOverviewBuilder(timeline.Grid{})
	add := func(at uint64, cap int32, k ingest.Kind, args ...uint64) {
		ev := ingest.Event{Time: at, Cap: cap, Kind: k}
		copy(ev.Args[:], args)
		bl.Add(&ev)
	}
	add(0, 0, ingest.KindRunThread, 1)
	add(100, 1, ingest.KindRunThread, 2)
	add(200, 1, ingest.KindStopThread, 2, 3)
	add(1000, 0, ingest.KindStopThread, 1, 3)
	bl.EndCapabilities(bl.Frontiers())
	bl.Finish()
	m := bl.Snapshot()
	if fr := m.HECs[1].Frontier(); fr != 200 || !m.Cut {
		t.Fatalf("HEC 1's frontier %d, cut %v", fr, m.Cut)
	}
	run := &Run{Name: "cut", Model: m}
	var l PictureLayout
	img, err := Render(run, run, Compare(run, run, Options{}), PictureOptions{Width: 1000, Height: 900, Layout: &l})
	if err != nil {
		t.Fatal(err)
	}
	th := paint.Light
	ax := l.Axes[1]
	x0 := int(ax.X(200))
	for _, id := range []tracks.TrackID{{Kind: tracks.KindHEC, ID: 1}, {Kind: tracks.KindActivity}} {
		r, ok := l.TrackRect(1, id)
		if !ok {
			t.Fatalf("no track %v in B's panel", id)
		}
		if id.Kind == tracks.KindHEC {
			if c := img.RGBAAt(x0, (r.Min.Y+r.Max.Y)/2); c != th.Frontier {
				t.Errorf("no frontier mark at x %d on HEC 1's track: %v", x0, c)
			}
		}
		// HEC 1's track whole; the activity's top half (HEC 1's share).
		y0, y1 := r.Min.Y+2, r.Max.Y-2
		if id.Kind == tracks.KindActivity {
			y1 = (r.Min.Y+r.Max.Y)/2 - 2
		}
		hatch := 0
		for x := x0 + 3; x < int(ax.X0+ax.Width)-1; x++ {
			for y := y0; y < y1; y++ {
				switch c := img.RGBAAt(x, y); c {
				case paint.InkRunning.Color(), paint.InkActivity.Color(), paint.InkGCWork.Color(), paint.InkGCSync.Color():
					t.Fatalf("track %v: HEC 1 (or its share of the activity) drawn %v at x %d, y %d, past its frontier", id, c, x, y)
				case th.Unknown, th.UnknownHatch:
					hatch++
				}
			}
		}
		if want := (int(ax.X0+ax.Width) - x0) * (y1 - y0) / 3; hatch < want {
			t.Errorf("track %v: %d pixels hatched past HEC 1's frontier, want %d", id, hatch, want)
		}
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
		return p == rgba(paint.InkRunning.Color()) || p == rgba(paint.InkGCWork.Color()) || p == rgba(paint.Light.Idle)
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

// TestPanelHeights: each panel gets its axis and legend and a share of
// the rest in proportion to its tracks; N2, with two HECs, gets the taller.
func TestPanelHeights(t *testing.T) {
	if h := shareHeights(600, [2]int{50, 50}, [2]int{100, 200}); h != [2]int{216, 384} {
		t.Errorf("tracks of 100 and 200: %v", h)
	}
	if h := shareHeights(600, [2]int{60, 40}, [2]int{100, 100}); h != [2]int{310, 290} {
		t.Errorf("equal tracks: %v", h)
	}
	if h := shareHeights(500, [2]int{50, 50}, [2]int{}); h != [2]int{250, 250} {
		t.Errorf("no tracks: %v", h)
	}
	if h := shareHeights(80, [2]int{50, 50}, [2]int{10, 10}); h[0]+h[1] != 80 {
		t.Errorf("too little room: %v", h)
	}
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	b := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	views, err := panelViews(a, b, PictureOptions{Width: 1200, Height: 900}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if h := panelHeights(500, views, 1200, 1); h[0]+h[1] != 500 || h[1] <= h[0] {
		t.Errorf("N1 and N2: %v", h)
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
	p.fill(0, 0, 620, 110, p.th.Background)
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
	bg := paint.Dark.Background
	for _, c := range []color.RGBA{ColourA, ColourB, ColourWorse, ColourBetter, ColourSame} {
		if got := contrast(TextColour(c, true), bg); got < 4.5 {
			t.Errorf("text in %v on the dark background: contrast %.1f:1", c, got)
		}
		if TextColour(c, false) != c {
			t.Errorf("on light surroundings %v is drawn as %v", c, TextColour(c, false))
		}
	}
}
