package heapview

import (
	"fmt"
	"image"
	"image/color"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// textSize is the size in pixels of every label heapview draws.
const textSize = 12

// glyph is one rasterised character: its coverage mask, where the mask goes
// relative to the pen position, and how far the pen then moves.
type glyph struct {
	mask    *image.Alpha
	off     image.Point
	advance int // pixels
}

// typeface draws Go Regular text, caching every glyph it has rasterised:
// the same few dozen characters are drawn on every frame.
type typeface struct {
	mu      sync.Mutex
	face    font.Face
	glyphs  map[rune]*glyph
	ascent  int
	descent int
}

var (
	faceOnce sync.Once
	theFace  *typeface
	faceErr  error
)

// labelFace returns the shared typeface, loading it on first use.
func labelFace() (*typeface, error) {
	faceOnce.Do(func() {
		f, err := opentype.Parse(goregular.TTF)
		if err != nil {
			faceErr = fmt.Errorf("heapview: parsing Go Regular: %w", err)
			return
		}
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: textSize, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			faceErr = fmt.Errorf("heapview: opening Go Regular: %w", err)
			return
		}
		m := face.Metrics()
		theFace = &typeface{
			face:    face,
			glyphs:  map[rune]*glyph{},
			ascent:  m.Ascent.Ceil(),
			descent: m.Descent.Ceil(),
		}
	})
	return theFace, faceErr
}

// glyph returns the cached glyph for r, rasterising it on first use.
// Callers hold tf.mu.
func (tf *typeface) glyph(r rune) *glyph {
	if g, ok := tf.glyphs[r]; ok {
		return g
	}
	g := &glyph{}
	dr, mask, mp, adv, ok := tf.face.Glyph(fixed.Point26_6{}, r)
	if !ok {
		dr, mask, mp, adv, ok = tf.face.Glyph(fixed.Point26_6{}, '?')
	}
	g.advance = adv.Round()
	if ok && !dr.Empty() {
		a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		for y := 0; y < dr.Dy(); y++ {
			for x := 0; x < dr.Dx(); x++ {
				_, _, _, al := mask.At(mp.X+x, mp.Y+y).RGBA()
				a.Pix[y*a.Stride+x] = uint8(al >> 8)
			}
		}
		g.mask, g.off = a, dr.Min
	}
	tf.glyphs[r] = g
	return g
}

// width returns the width of s in pixels.
func (tf *typeface) width(s string) int {
	tf.mu.Lock()
	defer tf.mu.Unlock()
	w := 0
	for _, r := range s {
		w += tf.glyph(r).advance
	}
	return w
}

// draw writes s onto img with its baseline at y and its left edge at x, in
// colour c, clipped to clip. It returns the x after the text.
func (tf *typeface) draw(img *image.RGBA, clip image.Rectangle, x, y int, s string, c color.RGBA) int {
	tf.mu.Lock()
	defer tf.mu.Unlock()
	clip = clip.Intersect(img.Bounds())
	for _, r := range s {
		g := tf.glyph(r)
		if g.mask != nil {
			ox, oy := x+g.off.X, y+g.off.Y
			mb := g.mask.Bounds()
			for my := 0; my < mb.Dy(); my++ {
				py := oy + my
				if py < clip.Min.Y || py >= clip.Max.Y {
					continue
				}
				row := g.mask.Pix[my*g.mask.Stride:]
				for mx := 0; mx < mb.Dx(); mx++ {
					px := ox + mx
					if px < clip.Min.X || px >= clip.Max.X || row[mx] == 0 {
						continue
					}
					blend(img, px, py, c, row[mx])
				}
			}
		}
		x += g.advance
	}
	return x
}

// fit returns s, cut and ended with "…" if needed, so that it is at most
// w pixels wide.
func (tf *typeface) fit(s string, w int) string {
	if tf.width(s) <= w {
		return s
	}
	rs := []rune(s)
	for n := len(rs) - 1; n > 0; n-- {
		t := string(rs[:n]) + "…"
		if tf.width(t) <= w {
			return t
		}
	}
	return ""
}

// blend paints colour c over pixel (x, y) of img with coverage a (0–255).
// The pixel must be inside img.
func blend(img *image.RGBA, x, y int, c color.RGBA, a uint8) {
	i := img.PixOffset(x, y)
	p := img.Pix[i : i+4 : i+4]
	if a == 0xff {
		p[0], p[1], p[2], p[3] = c.R, c.G, c.B, 0xff
		return
	}
	k, inv := uint32(a), 255-uint32(a)
	p[0] = uint8((uint32(c.R)*k + uint32(p[0])*inv + 127) / 255)
	p[1] = uint8((uint32(c.G)*k + uint32(p[1])*inv + 127) / 255)
	p[2] = uint8((uint32(c.B)*k + uint32(p[2])*inv + 127) / 255)
	p[3] = uint8((0xff*k + uint32(p[3])*inv + 127) / 255)
}
