package paint

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
)

// SVG is a Canvas that writes an SVG document. Runs of rectangles and
// columns of one colour are written as one path, so that a picture of
// thousands of pixel columns stays a reasonable size. Text is written as
// text in the font stack's family, placed and cut to fit with the raster
// faces' metrics. An SVG is not safe for concurrent use.
type SVG struct {
	w, h  int
	body  bytes.Buffer
	clips []image.Rectangle // the clip stack (intersected)
	nclip int               // clip paths defined
	fill  color.RGBA        // colour of the pending path
	path  strings.Builder   // the pending path's data
}

// NewSVG returns an SVG canvas w×h pixels.
func NewSVG(w, h int) *SVG {
	s := &SVG{w: max(w, 1), h: max(h, 1)}
	s.clips = []image.Rectangle{image.Rect(0, 0, s.w, s.h)}
	return s
}

// Bounds returns the picture's extent.
func (s *SVG) Bounds() image.Rectangle { return image.Rect(0, 0, s.w, s.h) }

func (s *SVG) clip() image.Rectangle { return s.clips[len(s.clips)-1] }

// num writes a coordinate with at most two decimals.
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}

// paint returns the SVG attribute value of c's colour and, for a
// translucent colour, the opacity attribute named attr.
func paintOf(c color.RGBA, attr string) string {
	s := fmt.Sprintf("\"#%02x%02x%02x\"", c.R, c.G, c.B)
	if c.A != 0xff {
		s += fmt.Sprintf(" %s=\"%s\"", attr, num(float64(c.A)/255))
	}
	return s
}

// flush writes the pending path.
func (s *SVG) flush() {
	if s.path.Len() == 0 {
		return
	}
	fmt.Fprintf(&s.body, "<path shape-rendering=\"crispEdges\" fill=%s d=\"%s\"/>\n", paintOf(s.fill, "fill-opacity"), s.path.String())
	s.path.Reset()
}

// addRect adds a rectangle to the pending path of colour c.
func (s *SVG) addRect(x0, y0, x1, y1 float64, c color.RGBA) {
	if s.path.Len() > 0 && (s.fill != c || s.path.Len() > 1<<16) {
		s.flush()
	}
	s.fill = c
	fmt.Fprintf(&s.path, "M%s %sH%sV%sH%sz", num(x0), num(y0), num(x1), num(y1), num(x0))
}

// Fill adds a rectangle.
func (s *SVG) Fill(r image.Rectangle, c color.RGBA) {
	r = r.Intersect(s.clip())
	if r.Empty() || c.A == 0 {
		return
	}
	s.addRect(float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y), c)
}

// Column adds a one-pixel-wide rectangle with fractional ends.
func (s *SVG) Column(x int, top, bottom float64, c color.RGBA) {
	cl := s.clip()
	if x < cl.Min.X || x >= cl.Max.X || c.A == 0 {
		return
	}
	top, bottom = math.Max(top, float64(cl.Min.Y)), math.Min(bottom, float64(cl.Max.Y))
	if !(bottom > top) {
		return
	}
	s.addRect(float64(x), top, float64(x+1), bottom, c)
}

// Line writes a line.
func (s *SVG) Line(x0, y0, x1, y1, width float64, c color.RGBA) {
	if width <= 0 || c.A == 0 {
		return
	}
	s.flush()
	fmt.Fprintf(&s.body, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=%s stroke-width=\"%s\"/>\n",
		num(x0), num(y0), num(x1), num(y1), paintOf(c, "stroke-opacity"), num(width))
}

// points writes pts as an SVG points list.
func points(pts []Point) string {
	var b strings.Builder
	for i, p := range pts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(num(p.X))
		b.WriteByte(',')
		b.WriteString(num(p.Y))
	}
	return b.String()
}

// Polyline writes a polyline.
func (s *SVG) Polyline(pts []Point, width float64, c color.RGBA) {
	if len(pts) < 2 || width <= 0 || c.A == 0 {
		return
	}
	s.flush()
	fmt.Fprintf(&s.body, "<polyline fill=\"none\" stroke-linejoin=\"round\" stroke=%s stroke-width=\"%s\" points=\"%s\"/>\n",
		paintOf(c, "stroke-opacity"), num(width), points(pts))
}

// Polygon writes a filled polygon.
func (s *SVG) Polygon(pts []Point, c color.RGBA) {
	if len(pts) < 3 || c.A == 0 {
		return
	}
	s.flush()
	fmt.Fprintf(&s.body, "<polygon fill=%s points=\"%s\"/>\n", paintOf(c, "fill-opacity"), points(pts))
}

// xmlEscaper escapes text for XML character data and attributes.
var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\"", "&quot;", "'", "&apos;")

// cleanText drops the characters XML 1.0 does not allow.
func cleanText(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r <= 0xd7ff) || (r >= 0xe000 && r <= 0xfffd) || (r >= 0x10000 && r <= 0x10ffff) {
			return r
		}
		return -1
	}, s)
}

// Text writes a text element; text entirely outside the clip is left out.
func (s *SVG) Text(f *Face, str string, x, y int, c color.RGBA) {
	if f == nil || str == "" || c.A == 0 {
		return
	}
	ext := image.Rect(x, y-f.Ascent(), x+f.Width(str), y+f.Descent())
	if !ext.Overlaps(s.clip()) {
		return
	}
	s.flush()
	weight := ""
	if f.Weight() == Bold {
		weight = " font-weight=\"bold\""
	}
	fmt.Fprintf(&s.body, "<text x=\"%d\" y=\"%d\" font-size=\"%s\"%s fill=%s>%s</text>\n",
		x, y, num(f.Size()), weight, paintOf(c, "fill-opacity"), xmlEscaper.Replace(cleanText(str)))
}

// PushClip starts a group clipped to r intersected with the current clip.
func (s *SVG) PushClip(r image.Rectangle) {
	s.flush()
	r = r.Intersect(s.clip())
	s.clips = append(s.clips, r)
	s.nclip++
	fmt.Fprintf(&s.body, "<defs><clipPath id=\"c%d\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/></clipPath></defs>\n<g clip-path=\"url(#c%d)\">\n",
		s.nclip, r.Min.X, r.Min.Y, r.Dx(), r.Dy(), s.nclip)
}

// PopClip ends the innermost clipped group.
func (s *SVG) PopClip() {
	if len(s.clips) <= 1 {
		return
	}
	s.flush()
	s.clips = s.clips[:len(s.clips)-1]
	s.body.WriteString("</g>\n")
}

// WriteTo writes the SVG document: what was drawn so far, every clipped
// group closed. Drawing may go on afterwards.
func (s *SVG) WriteTo(w io.Writer) (int64, error) {
	s.flush()
	var b bytes.Buffer
	fmt.Fprintf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"%s\">\n",
		s.w, s.h, s.w, s.h, fontFamily)
	b.Write(s.body.Bytes())
	for range s.clips[1:] {
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>\n")
	return b.WriteTo(w)
}

// Bytes returns the SVG document (see WriteTo).
func (s *SVG) Bytes() []byte {
	var b bytes.Buffer
	s.WriteTo(&b)
	return b.Bytes()
}
