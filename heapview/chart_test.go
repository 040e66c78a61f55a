package heapview

import (
	"image"
	"image/color"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
)

// twoBands is a profile of three censuses one second apart with band "big"
// at 300 bytes and band "small" at 100 bytes, then 0 and 200 at the last.
func twoBands(t *testing.T) *Profile {
	t.Helper()
	hp := &ingest.HeapProfile{Samples: []ingest.HeapSample{
		{Time: 0, Entries: []ingest.HeapEntry{{Label: "small", Bytes: 100}, {Label: "big", Bytes: 300}}, Complete: true},
		{Time: 1, Entries: []ingest.HeapEntry{{Label: "small", Bytes: 100}, {Label: "big", Bytes: 300}}, Complete: true},
		{Time: 2, Entries: []ingest.HeapEntry{{Label: "small", Bytes: 200}}, Complete: true},
	}}
	p, err := FromHeapProfile(hp)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func pixel(img *image.RGBA, x int, y float64) color.RGBA {
	return img.RGBAAt(x, int(y))
}

// TestChartArea checks where a stacked chart puts its bands and lines.
func TestChartArea(t *testing.T) {
	bd := NewBands(twoBands(t), BandOptions{})
	if bd.Name(0) != "big" || bd.Name(1) != "small" {
		t.Fatalf("bands %q %q", bd.Name(0), bd.Name(1))
	}
	heap := &Heap{GCs: []GC{{Start: 4e8, End: 6e8, Gen: 1, HasStats: true}, {Start: 15e8, End: 16e8}}}
	heap.Size.add(0, 1000)
	c := &Chart{Bands: bd, Heap: heap, Mode: ModeArea, Title: "test"}
	img, err := c.Render(900, 500)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := c.Layout(img.Bounds())
	if l.Top < 1000 || l.Axis.From != 0 || l.Axis.To != 2e9 {
		t.Fatalf("layout: top %g, axis %d–%d", l.Top, l.Axis.From, l.Axis.To)
	}
	colors := BandColors(bd)
	x := int(l.Axis.X(5e8)) // between the first two censuses: big 300, small 100
	checks := []struct {
		v    float64
		want color.RGBA
	}{
		{10, colors[0]}, {290, colors[0]}, {310, colors[1]}, {390, colors[1]}, {1000, lightFurniture.size},
	}
	for _, ch := range checks {
		if got := pixel(img, x, c.yOf(l, ch.v)); got != ch.want {
			t.Errorf("value %g at x %d: %v, want %v", ch.v, x, got, ch.want)
		}
	}
	if got := pixel(img, x, c.yOf(l, 600)); got == colors[0] || got == colors[1] {
		t.Errorf("above the stack: band colour %v", got)
	}
	// Past the last census big is 0: only small, 200 bytes, at t = 2 s.
	x = int(l.Axis.X(2e9)) - 1
	if got := pixel(img, x, c.yOf(l, 150)); got != colors[1] {
		t.Errorf("last census: %v, want small's %v", got, colors[1])
	}
	// GC marks: major (red) at 0.5 s, minor (orange) at 1.55 s.
	y := (l.GCStrip.Min.Y + l.GCStrip.Max.Y) / 2
	if got := img.RGBAAt(int(l.Axis.X(5e8)), y); got != majorGC {
		t.Errorf("major GC mark %v", got)
	}
	if got := img.RGBAAt(int(l.Axis.X(155e7)), y); got != minorGC {
		t.Errorf("minor GC mark %v", got)
	}
	if got := img.RGBAAt(int(l.Axis.X(1e9)), y); got == minorGC || got == majorGC {
		t.Errorf("GC mark where there is no GC")
	}
}

// TestChartNormalisedAndLines checks the other two modes on the same data.
func TestChartNormalisedAndLines(t *testing.T) {
	bd := NewBands(twoBands(t), BandOptions{})
	colors := BandColors(bd)
	c := &Chart{Bands: bd, Mode: ModeNormalised}
	img, err := c.Render(900, 500)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := c.Layout(img.Bounds())
	if l.Top != 100 {
		t.Fatalf("normalised top %g", l.Top)
	}
	x := int(l.Axis.X(5e8)) // big is 75 %
	for _, ch := range []struct {
		pct  float64
		want color.RGBA
	}{{5, colors[0]}, {70, colors[0]}, {80, colors[1]}, {99, colors[1]}} {
		if got := pixel(img, x, c.yOf(l, ch.pct)); got != ch.want {
			t.Errorf("normalised %g%%: %v, want %v", ch.pct, got, ch.want)
		}
	}

	c.Mode = ModeLines
	img, err = c.Render(900, 500)
	if err != nil {
		t.Fatal(err)
	}
	l, _ = c.Layout(img.Bounds())
	x = int(l.Axis.X(5e8))
	if got := pixel(img, x, c.yOf(l, 300)); got != colors[0] {
		t.Errorf("line of big: %v, want %v", got, colors[0])
	}
	if got := pixel(img, x, c.yOf(l, 100)); got != colors[1] {
		t.Errorf("line of small: %v, want %v", got, colors[1])
	}
	if got := pixel(img, x, c.yOf(l, 200)); got == colors[0] || got == colors[1] {
		t.Errorf("between the lines: band colour %v", got)
	}
}

// TestChartDegenerate renders charts with nothing to show and images too
// small for a layout; none may panic or fail.
func TestChartDegenerate(t *testing.T) {
	empty, err := FromHeapProfile(&ingest.HeapProfile{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*Chart{
		{},
		{Heap: &Heap{}},
		{Bands: NewBands(empty, BandOptions{})},
		{Bands: NewBands(twoBands(t), BandOptions{Max: 1}), Mode: ModeNormalised, From: 5e9, To: 6e9},
	} {
		for _, size := range [][2]int{{1, 1}, {40, 30}, {300, 200}, {1920, 1080}} {
			if _, err := c.Render(size[0], size[1]); err != nil {
				t.Errorf("%d×%d: %v", size[0], size[1], err)
			}
		}
	}
	if _, err := (&Chart{}).Render(0, 10); err == nil {
		t.Errorf("0×10 image accepted")
	}
}

// TestColors checks that colours depend on the name only, that OTHER is
// grey and that bands of one chart get distinct colours.
func TestColors(t *testing.T) {
	if ColorFor("THUNK") != ColorFor("THUNK") || ColorFor(OtherName) != otherColor {
		t.Fatal("ColorFor is not a function of the name")
	}
	p := readProfile(t, "../testdata/generated/hd.eventlog")
	bd := NewBands(p, BandOptions{})
	colors := BandColors(bd)
	seen := map[color.RGBA]string{}
	for b, c := range colors {
		if prev, dup := seen[c]; dup {
			t.Errorf("%q and %q share %v", prev, bd.Name(b), c)
		}
		seen[c] = bd.Name(b)
	}
	// The biggest band keeps its name's colour in any company.
	if colors[0] != ColorFor(bd.Name(0)) {
		t.Errorf("biggest band %q: %v, want %v", bd.Name(0), colors[0], ColorFor(bd.Name(0)))
	}
	bd5 := NewBands(p, BandOptions{Max: 5, Order: ByName})
	c5 := BandColors(bd5)
	for b := 0; b < bd5.Len(); b++ {
		if bd5.Name(b) == bd.Name(0) && c5[b] != colors[0] {
			t.Errorf("%q changes colour between charts", bd.Name(0))
		}
	}
	if c5[bd5.Other()] != otherColor {
		t.Errorf("OTHER is %v", c5[bd5.Other()])
	}
}

// TestUnits pins down byte formatting and value ticks.
func TestUnits(t *testing.T) {
	for v, want := range map[uint64]string{
		0: "0 B", 1023: "1023 B", 1024: "1.00 KiB", 1536: "1.50 KiB",
		23_400_000: "22.3 MiB", 117 << 30: "117 GiB", 1<<64 - 1: "16.0 EiB",
	} {
		if got := FormatBytes(v); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", v, got, want)
		}
	}
	ticks := ByteTicks(100<<20, 5)
	var labels []string
	for _, tk := range ticks {
		labels = append(labels, tk.Label)
	}
	if got := fmtList(labels); got != "0 20 MiB 40 MiB 60 MiB 80 MiB 100 MiB" {
		t.Errorf("ByteTicks(100 MiB) = %s", got)
	}
	labels = labels[:0]
	for _, tk := range ByteTicks(1.5*(1<<30), 3) {
		labels = append(labels, tk.Label)
	}
	if got := fmtList(labels); got != "0 0.5 GiB 1.0 GiB 1.5 GiB" {
		t.Errorf("ByteTicks(1.5 GiB) = %s", got)
	}
	if got := ByteTicks(3, 10); len(got) != 4 || got[3].Label != "3 B" {
		t.Errorf("ByteTicks(3) = %v", got)
	}
	// A short chart (2 ticks wanted) of a 39 MiB heap: a step rounded up to
	// 50 MiB would leave only 0.
	labels = labels[:0]
	for _, tk := range ByteTicks(39*1.04*(1<<20), 2) {
		labels = append(labels, tk.Label)
	}
	if got := fmtList(labels); got != "0 20 MiB 40 MiB" {
		t.Errorf("ByteTicks(40.6 MiB, 2) = %s", got)
	}
	if FormatRate(2<<30) != "2.00 GiB/s" {
		t.Errorf("FormatRate = %q", FormatRate(2<<30))
	}
	for _, s := range []string{"area", "Normalized", "normalised", "lines"} {
		if _, err := ParseMode(s); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseMode("pie"); err == nil {
		t.Error("ParseMode(pie) accepted")
	}
}

func fmtList(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}

// TestValuesAtInterpolates checks the hover read-out between censuses.
func TestValuesAtInterpolates(t *testing.T) {
	bd := NewBands(twoBands(t), BandOptions{})
	v, ok := bd.ValuesAt(15e8, nil) // halfway from (300,100) to (0,200)
	if !ok || v[0] != 150 || v[1] != 150 {
		t.Errorf("ValuesAt(1.5 s) = %v %v", v, ok)
	}
	if _, ok := bd.ValuesAt(3e9, v); ok {
		t.Errorf("ValuesAt past the end reports a value")
	}
	if bd.Nearest(14e8) != 1 || bd.Nearest(16e8) != 2 || bd.Nearest(0) != 0 {
		t.Errorf("Nearest: %d %d %d", bd.Nearest(14e8), bd.Nearest(16e8), bd.Nearest(0))
	}
}

// TestChartConcurrent draws charts from several goroutines at once, as a
// viewer redrawing two panes may: they share the glyph cache. Run with
// -race.
func TestChartConcurrent(t *testing.T) {
	bd := NewBands(readProfile(t, "../testdata/generated/hy.eventlog"), BandOptions{})
	ref, err := (&Chart{Bands: bd, Title: "concurrent ÄßΩ"}).Render(640, 360)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *image.RGBA)
	for g := 0; g < 4; g++ {
		go func() {
			img, err := (&Chart{Bands: bd, Title: "concurrent ÄßΩ"}).Render(640, 360)
			if err != nil {
				img = nil
			}
			done <- img
		}()
	}
	for g := 0; g < 4; g++ {
		img := <-done
		if img == nil || string(img.Pix) != string(ref.Pix) {
			t.Errorf("goroutine %d drew a different image", g)
		}
	}
}

// TestBandAt checks the hover read-out against the drawn chart: the band
// it names at a pixel is the band whose colour is there.
func TestBandAt(t *testing.T) {
	bd := NewBands(readProfile(t, "../testdata/generated/hy.eventlog"), BandOptions{Max: 6})
	colors := BandColors(bd)
	for _, m := range []Mode{ModeArea, ModeNormalised, ModeLines} {
		c := &Chart{Bands: bd, Mode: m}
		img, err := c.Render(800, 500)
		if err != nil {
			t.Fatal(err)
		}
		l, _ := c.Layout(img.Bounds())
		hits := 0
		for x := l.Plot.Min.X; x < l.Plot.Max.X; x += 7 {
			for y := l.Plot.Min.Y; y < l.Plot.Max.Y; y += 5 {
				tm, b, ok := c.BandAt(l, x, y)
				if tm != l.Axis.Time(float64(x)+0.5) {
					t.Fatalf("time at x %d: %d", x, tm)
				}
				if !ok || b < 0 || m == ModeLines {
					continue
				}
				if got := img.RGBAAt(x, y); got == colors[b] {
					hits++
				} else if y > l.Plot.Min.Y+1 && img.RGBAAt(x, y-1) == colors[b] && img.RGBAAt(x, y+1) == colors[b] {
					t.Errorf("%v (%d,%d): BandAt says %q, pixel %v", m, x, y, bd.Name(b), got)
				}
			}
		}
		if m != ModeLines && hits < 100 {
			t.Errorf("%v: only %d pixels matched", m, hits)
		}
	}
	c := &Chart{Bands: bd}
	l, _ := c.Layout(image.Rect(0, 0, 800, 500))
	if _, b, ok := c.BandAt(l, l.Plot.Min.X-5, l.Plot.Min.Y+5); ok || b != -1 {
		t.Errorf("outside the plot: band %d ok %v", b, ok)
	}
}

// TestNoLegendGivesThePlotTheWidth checks that a chart without its legend
// plots to the right edge (less the padding), and one with it does not.
func TestNoLegendGivesThePlotTheWidth(t *testing.T) {
	bounds := image.Rect(0, 0, 1200, 300)
	with, err := (&Chart{}).Layout(bounds)
	if err != nil {
		t.Fatal(err)
	}
	without, err := (&Chart{NoLegend: true}).Layout(bounds)
	if err != nil {
		t.Fatal(err)
	}
	if with.Legend.Empty() || !without.Legend.Empty() {
		t.Fatalf("legend %v with, %v without", with.Legend, without.Legend)
	}
	if without.Plot.Max.X != bounds.Max.X-pad || with.Plot.Max.X >= without.Plot.Max.X {
		t.Errorf("plot ends at %d with the legend, %d without; want %d without", with.Plot.Max.X, without.Plot.Max.X, bounds.Max.X-pad)
	}
}

// TestNeighbouringBandsStandApart checks that bands stacked one on the
// other get colours at least minNeighbourSpace apart, in the profiles of
// every closure-type and cost-centre sample, in both orders.
func TestNeighbouringBandsStandApart(t *testing.T) {
	for _, path := range []string{"../testdata/ghc-9.0.2/heap-hT.eventlog", "../testdata/ghc-9.0.2/heap-hc.eventlog",
		"../testdata/generated/hd.eventlog", "../testdata/generated/hy.eventlog"} {
		p := readProfile(t, path)
		for _, order := range []Order{BySize, ByName} {
			bd := NewBands(p, BandOptions{Order: order})
			colors := BandColors(bd)
			for b := 1; b < bd.Len(); b++ {
				if d := paint.Distance(colors[b-1], colors[b]); d < minNeighbourSpace {
					t.Errorf("%s: %q and %q, stacked together, are %.3f apart", path, bd.Name(b-1), bd.Name(b), d)
				}
			}
		}
	}
}
