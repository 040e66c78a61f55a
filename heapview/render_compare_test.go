package heapview

import (
	"image"
	"image/color"
	"os"
	"testing"

	"github.com/hecscope/hecscope/timeline"
)

// pixBytes is c as the four bytes of an RGBA image's pixel.
func pixBytes(c color.RGBA) [4]uint8 { return [4]uint8{c.R, c.G, c.B, c.A} }

// countColour counts the pixels of img exactly of colour c.
func countColour(img *image.RGBA, c [4]uint8) int {
	n := 0
	for i := 0; i+4 <= len(img.Pix); i += 4 {
		if [4]uint8(img.Pix[i:i+4]) == c {
			n++
		}
	}
	return n
}

// The runs' colours in the compare tests.
var (
	runBlue   = color.RGBA{0x20, 0x40, 0xc0, 0xff}
	runOrange = color.RGBA{0xe0, 0x80, 0x00, 0xff}
)

// parworkRuns returns parwork-N1 (A, blue) and -N2 (B, orange) as compare
// runs with their heaps, on axes 1000 pixels wide that end at each run's
// last heap sample, skipping the test if the logs are absent.
func parworkRuns(t *testing.T) [2]CompareRun {
	t.Helper()
	var heaps [2]*Heap
	for i, name := range []string{"parwork-N1", "parwork-N2"} {
		f, err := os.Open("../testdata/ghc-9.0.2/" + name + ".eventlog")
		if err != nil {
			t.Skip(err)
		}
		d, err := collect(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		heaps[i] = d.Heap
	}
	endA, endB := heaps[0].Size.Time[heaps[0].Size.Len()-1], heaps[1].Size.Time[heaps[1].Size.Len()-1]
	axA, axB := timeline.Viewport{EndA: endA, EndB: endB}.Axes(110, 882)
	return [2]CompareRun{
		{Name: "A", Heap: heaps[0], Axis: axA, Colour: runBlue},
		{Name: "B", Heap: heaps[1], Axis: axB, Colour: runOrange},
	}
}

func TestDrawCompareHeaps(t *testing.T) {
	runs := parworkRuns(t)
	heaps, axA, axB := [2]*Heap{runs[0].Heap, runs[1].Heap}, runs[0].Axis, runs[1].Axis
	blue, orange := pixBytes(runBlue), pixBytes(runOrange)
	img := image.NewRGBA(image.Rect(0, 0, 1000, 300))
	if err := DrawCompare(img, runs, false, 1); err != nil {
		t.Fatal(err)
	}
	// Both live lines are drawn in their run's colour, B's further right
	// (B ran longer).
	lastX := func(c [4]uint8) int {
		last := -1
		for y := 40; y < 300; y++ {
			for x := 0; x < 1000; x++ {
				i := img.PixOffset(x, y)
				if [4]uint8(img.Pix[i:i+4]) == c {
					last = max(last, x)
				}
			}
		}
		return last
	}
	xa, xb := lastX(blue), lastX(orange)
	if xa < 0 || xb < 0 || xb <= xa {
		t.Errorf("live lines end at x %d (A) and %d (B)", xa, xb)
	}
	if want := int(axA.X(heaps[0].Live.Time[heaps[0].Live.Len()-1])); xa < want-3 || xa > 1000 {
		t.Errorf("A's line ends at %d, its last live sample is at %d", xa, want)
	}

	// Without heaps: a message, no error, no run colour in the plot.
	empty := image.NewRGBA(image.Rect(0, 0, 600, 200))
	if err := DrawCompare(empty, [2]CompareRun{{Name: "A", Axis: axA, Colour: runBlue}, {Name: "B", Axis: axB, Colour: runOrange}}, false, 1); err != nil {
		t.Fatal(err)
	}
	if n := countColour(empty, blue); n > 12*12 {
		t.Errorf("%d run-coloured pixels without heaps", n)
	}
}

// TestDrawCompareHeapsInLanes: each run's heap is drawn in a lane of its
// own, A's above B's, so neither area is drawn over the other. Overlaid,
// the two areas mixed into a brown over the time both runs had a heap (the
// whole of N1's run against N2's) and the live lines lay on one another.
func TestDrawCompareHeapsInLanes(t *testing.T) {
	runs := parworkRuns(t)
	axA, endA := runs[0].Axis, runs[0].Heap.Size.Time[runs[0].Heap.Size.Len()-1]
	img := image.NewRGBA(image.Rect(0, 0, 1000, 200))
	if err := DrawCompare(img, runs, false, 1); err != nil {
		t.Fatal(err)
	}
	// The rows in which each run's area and line are drawn, in the middle
	// of the time both ran.
	x := int(axA.X(endA / 2))
	rows := func(c color.RGBA) (first, last int) {
		first, last = -1, -1
		for y := 30; y < 200; y++ {
			px := img.RGBAAt(x, y)
			// Its line, or its translucent area over the background (the
			// grid and frame are greys).
			tinted := (c.B > c.R && int(px.B) > int(px.R)+24) || (c.R > c.B && int(px.R) > int(px.B)+24)
			if tinted {
				if first < 0 {
					first = y
				}
				last = y
			}
		}
		return first, last
	}
	a0, a1 := rows(runBlue)
	b0, b1 := rows(runOrange)
	if a0 < 0 || b0 < 0 || a1 >= b0 {
		t.Errorf("at x=%d A's heap is drawn in rows %d–%d, B's in %d–%d: not one lane above the other", x, a0, a1, b0, b1)
	}
}

// TestDrawCompareHeapsScalesItsText: on a screen of device pixel ratio 2
// the heaps' legend is drawn twice as tall, as the rest of the compare
// picture is; it was drawn 12 px tall at every ratio, half the size of the
// picture's other text on such a screen.
func TestDrawCompareHeapsScalesItsText(t *testing.T) {
	inkRows := func(scale float64) int {
		w, h := int(1000*scale), int(200*scale)
		axA, axB := timeline.Viewport{EndA: 1e6, EndB: 2e6}.Axes(110*scale, float64(w)-118*scale)
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		runs := [2]CompareRun{{Name: "A", Axis: axA, Colour: runBlue}, {Name: "B", Axis: axB, Colour: runOrange}}
		if err := DrawCompare(img, runs, false, scale); err != nil {
			t.Fatal(err)
		}
		lanes := CompareLanes(img.Bounds(), runs, scale)
		bg := img.RGBAAt(0, 0)
		n := 0
		for y := 0; y < lanes[0].Min.Y; y++ {
			for x := 0; x < w; x++ {
				if img.RGBAAt(x, y) != bg {
					n++
					break
				}
			}
		}
		return n
	}
	one, two := inkRows(1), inkRows(2)
	if one == 0 || float64(two) < 1.6*float64(one) {
		t.Errorf("the legend's text spans %d rows at scale 1 and %d at scale 2", one, two)
	}
}
