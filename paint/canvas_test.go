package paint

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"io"
	"strings"
	"testing"
)

var (
	red   = color.RGBA{0xff, 0, 0, 0xff}
	white = color.RGBA{0xff, 0xff, 0xff, 0xff}
)

func newWhite(w, h int) *Raster {
	r := NewRaster(image.NewRGBA(image.Rect(0, 0, w, h)))
	r.Fill(r.Bounds(), white)
	return r
}

func TestRasterFillAndClip(t *testing.T) {
	r := newWhite(40, 30)
	r.PushClip(image.Rect(10, 10, 20, 20))
	r.Fill(image.Rect(0, 0, 40, 30), red)
	r.PopClip()
	img := r.Image()
	for _, p := range []image.Point{{10, 10}, {19, 19}, {15, 12}} {
		if img.RGBAAt(p.X, p.Y) != red {
			t.Errorf("%v not filled", p)
		}
	}
	for _, p := range []image.Point{{9, 10}, {20, 15}, {15, 20}, {0, 0}} {
		if img.RGBAAt(p.X, p.Y) != white {
			t.Errorf("%v filled outside the clip", p)
		}
	}
	// Translucent fill blends; nested clips intersect; a pop restores.
	r.PushClip(image.Rect(0, 0, 5, 30))
	r.PushClip(image.Rect(3, 0, 40, 30))
	r.Fill(image.Rect(0, 0, 40, 1), color.RGBA{0, 0, 0, 0x80})
	r.PopClip()
	r.PopClip()
	if got := img.RGBAAt(3, 0); got.R < 0x70 || got.R > 0x90 {
		t.Errorf("half-black over white = %v", got)
	}
	if img.RGBAAt(2, 0) != white || img.RGBAAt(5, 0) != white {
		t.Error("nested clip leaked")
	}
	r.Fill(image.Rect(30, 0, 31, 1), red)
	if img.RGBAAt(30, 0) != red {
		t.Error("clip not restored")
	}
}

func TestRasterColumnAndLines(t *testing.T) {
	r := newWhite(20, 20)
	r.Column(5, 2.5, 10, red)
	img := r.Image()
	if img.RGBAAt(5, 1) != white || img.RGBAAt(5, 3) != red || img.RGBAAt(5, 9) != red || img.RGBAAt(5, 10) != white {
		t.Errorf("column: %v %v %v %v", img.RGBAAt(5, 1), img.RGBAAt(5, 3), img.RGBAAt(5, 9), img.RGBAAt(5, 10))
	}
	if g := img.RGBAAt(5, 2).G; g < 0x70 || g > 0x90 {
		t.Errorf("half-covered pixel %v", img.RGBAAt(5, 2))
	}
	r.Line(0, 15.5, 20, 15.5, 1, red) // not on a pixel boundary: anti-aliased
	r.Line(12, 0, 12, 20, 2, red)     // whole pixels: a fill of columns 11 and 12
	if img.RGBAAt(11, 5) != red || img.RGBAAt(12, 5) != red || img.RGBAAt(13, 5) != white {
		t.Error("vertical line")
	}
	if c := img.RGBAAt(3, 15); c.G > 0x90 {
		t.Errorf("horizontal line missing: %v", c)
	}
	r.Polyline([]Point{{1, 1}, {8, 8}, {1, 14}}, 2, red)
	if c := img.RGBAAt(8, 8); c.G > 0x40 {
		t.Errorf("polyline joint not covered: %v", c)
	}
	r.Polygon([]Point{{14, 1}, {19, 1}, {19, 6}}, red)
	if img.RGBAAt(18, 2) != red || img.RGBAAt(14, 5) != white {
		t.Errorf("polygon: %v %v", img.RGBAAt(18, 2), img.RGBAAt(14, 5))
	}
}

func TestTextFit(t *testing.T) {
	f := FaceFor(Regular, 11, 1)
	f2 := FaceFor(Regular, 11, 2)
	if f.Height() <= 0 || f2.Height() < 2*f.Height()-2 || f2.Width("thread 42") < 2*f.Width("thread 42")-4 {
		t.Fatalf("scale 2 face is not twice as big: %d %d, %d %d", f.Height(), f2.Height(), f.Width("thread 42"), f2.Width("thread 42"))
	}
	s := "2 IOManager on capability 1, a long label"
	w := f.Width(s)
	for _, room := range []int{w, w - 1, w / 2, 12, 3} {
		got := f.Fit(s, room)
		if f.Width(got) > room {
			t.Errorf("Fit(%d) = %q is %d wide", room, got, f.Width(got))
		}
		if room < w && got != "" && !strings.HasSuffix(got, Ellipsis) {
			t.Errorf("Fit(%d) = %q lacks the ellipsis", room, got)
		}
	}
	if f.Fit(s, w) != s || f.Fit(s, 0) != "" {
		t.Error("Fit of the whole width or of nothing")
	}
	r := newWhite(100, 20)
	r.Text(f, "Hg", 2, 14, red)
	n := 0
	for y := 0; y < 20; y++ {
		for x := 0; x < 100; x++ {
			if r.Image().RGBAAt(x, y) != white {
				n++
				if x > 2+f.Width("Hg")+1 {
					t.Fatalf("ink at %d past the text's width", x)
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("text drew %d pixels", n)
	}
}

// drawSample draws one of everything, as a view would.
func drawSample(c Canvas) {
	f := FaceFor(Bold, 11, 1)
	c.Fill(c.Bounds(), white)
	c.PushClip(image.Rect(10, 10, 90, 50))
	c.Fill(image.Rect(0, 0, 50, 30), red)
	c.Fill(image.Rect(50, 0, 60, 30), red)
	c.Column(70, 12.5, 40.25, color.RGBA{0, 0x80, 0, 0x80})
	c.Line(10, 10, 90, 50, 1.5, color.RGBA{0, 0, 0xff, 0xff})
	c.Polyline([]Point{{10, 45}, {30, 20}, {50, 45}}, 2, color.RGBA{0, 0, 0, 0xff})
	c.Polygon([]Point{{60, 45}, {80, 20}, {88, 45}}, color.RGBA{0x80, 0, 0x80, 0xff})
	c.Text(f, "a <b> & \"c\" \x01", 12, 30, color.RGBA{0, 0, 0, 0xff})
	c.PushClip(image.Rect(0, 0, 30, 30))
	c.Text(f, "inner", 12, 22, color.RGBA{0, 0, 0, 0xff})
	// Unbalanced on purpose: WriteTo closes the group.
}

func TestSVGWellFormed(t *testing.T) {
	s := NewSVG(100, 60)
	drawSample(s)
	var b bytes.Buffer
	if _, err := s.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(&b)
	elems := map[string]int{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%s", err, s.Bytes())
		}
		if se, ok := tok.(xml.StartElement); ok {
			elems[se.Name.Local]++
		}
	}
	for _, want := range []string{"svg", "path", "line", "polyline", "polygon", "text", "clipPath", "g"} {
		if elems[want] == 0 {
			t.Errorf("no <%s> in %v", want, elems)
		}
	}
	// The two red rectangles, adjacent and of one colour, share a path.
	if n := strings.Count(string(s.Bytes()), "#ff0000"); n != 1 {
		t.Errorf("red written %d times, want 1 (one path)", n)
	}
	r := newWhite(100, 60)
	drawSample(r) // the raster backend takes the same calls
}

// TestColumnLine: a series drawn column by column covers, in each column,
// the line's extent there widened by the width, and nothing far from it.
func TestColumnLine(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 40, 40))
	red := color.RGBA{0xff, 0, 0, 0xff}
	// Flat at y=10 from x=0 to 20, then straight down to y=30 at x=22.
	ColumnLine(NewRaster(img), []Point{{0, 10}, {20, 10}, {22, 30}}, 2, red)
	for x := 0; x < 20; x++ {
		if img.RGBAAt(x, 10) != red || img.RGBAAt(x, 20).A != 0 {
			t.Fatalf("column %d: %v at the line, %v away from it", x, img.RGBAAt(x, 10), img.RGBAAt(x, 20))
		}
	}
	for y := 11; y < 29; y++ {
		if img.RGBAAt(20, y).A == 0 && img.RGBAAt(21, y).A == 0 {
			t.Fatalf("the steep part leaves a gap at y=%d", y)
		}
	}
	if img.RGBAAt(30, 10).A != 0 {
		t.Error("drawn past the last point")
	}
}
