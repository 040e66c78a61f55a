package paint

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sync"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Weight is a typeface of the font stack.
type Weight uint8

// The typefaces: Go Regular for everything, Go Bold for group titles.
const (
	Regular Weight = iota
	Bold
	numWeights
)

// Ellipsis ends text cut to fit.
const Ellipsis = "…"

// fontFamily is what an SVG names the font stack's typefaces by.
const fontFamily = "Go, 'Go Regular', 'DejaVu Sans', sans-serif"

var (
	fontOnce  sync.Once
	fonts     [numWeights]*opentype.Font
	fontErr   error
	facesMu   sync.Mutex
	faceCache = map[faceKey]*Face{}
)

type faceKey struct {
	w  Weight
	px int32 // size in 1/64 px
}

// loadFonts parses the built-in typefaces once.
func loadFonts() error {
	fontOnce.Do(func() {
		for w, ttf := range [numWeights][]byte{goregular.TTF, gobold.TTF} {
			f, err := opentype.Parse(ttf)
			if err != nil {
				fontErr = fmt.Errorf("paint: parsing the built-in typeface %d: %w", w, err)
				return
			}
			fonts[w] = f
		}
	})
	return fontErr
}

// Face is one typeface at one size in device pixels: it measures and draws
// text, caching every glyph it rasterises (a frame draws the same few
// dozen characters again and again). A Face is safe for concurrent use.
type Face struct {
	weight  Weight
	px      float64
	face    font.Face // nil if the typeface failed to load
	mu      sync.Mutex
	glyphs  map[rune]*glyph
	ascent  int
	descent int
}

// glyph is one rasterised character: its coverage mask, where the mask goes
// relative to the pen position, and how far the pen then moves.
type glyph struct {
	mask    *image.Alpha
	off     image.Point
	advance int
}

// FaceFor returns the face of weight w at pt points on a surface with
// scale device pixels per point (a HiDPI factor; 0 means 1): text is
// rasterised at device pixels, pt×scale pixels high. Faces are shared.
// If the built-in typefaces cannot be loaded (they are compiled in, so
// this does not happen) the face measures text approximately and draws
// nothing.
func FaceFor(w Weight, pt, scale float64) *Face {
	if !(scale > 0) || math.IsInf(scale, 0) {
		scale = 1
	}
	if w >= numWeights {
		w = Regular
	}
	px := math.Min(math.Max(pt*scale, 2), 512)
	key := faceKey{w, int32(math.Round(px * 64))}
	facesMu.Lock()
	defer facesMu.Unlock()
	if f, ok := faceCache[key]; ok {
		return f
	}
	f := &Face{weight: w, px: px, glyphs: map[rune]*glyph{}}
	if loadFonts() == nil {
		if ff, err := opentype.NewFace(fonts[w], &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingFull}); err == nil {
			f.face = ff
			m := ff.Metrics()
			f.ascent, f.descent = m.Ascent.Ceil(), m.Descent.Ceil()
		}
	}
	if f.face == nil {
		f.ascent, f.descent = int(math.Ceil(px*0.76)), int(math.Ceil(px*0.24))
	}
	faceCache[key] = f
	return f
}

// Size returns the face's size in device pixels.
func (f *Face) Size() float64 { return f.px }

// Weight returns the face's typeface.
func (f *Face) Weight() Weight { return f.weight }

// Ascent returns how far glyphs reach above the baseline, in pixels.
func (f *Face) Ascent() int { return f.ascent }

// Descent returns how far glyphs reach below the baseline, in pixels.
func (f *Face) Descent() int { return f.descent }

// Height returns the height of a line of text: ascent plus descent.
func (f *Face) Height() int { return f.ascent + f.descent }

// Baseline returns the baseline that centres a line of text vertically on
// y (the middle of the digits and capitals).
func (f *Face) Baseline(y float64) int {
	return int(math.Round(y + float64(f.ascent)*0.36))
}

// glyphLocked returns the cached glyph for r, rasterising it on first use.
// Callers hold f.mu.
func (f *Face) glyphLocked(r rune) *glyph {
	if g, ok := f.glyphs[r]; ok {
		return g
	}
	g := &glyph{}
	if f.face != nil {
		dr, mask, mp, adv, ok := f.face.Glyph(fixed.Point26_6{}, r)
		if !ok {
			dr, mask, mp, adv, ok = f.face.Glyph(fixed.Point26_6{}, '?')
		}
		if ok {
			g.advance = adv.Round()
			if !dr.Empty() {
				a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
				for y := 0; y < dr.Dy(); y++ {
					for x := 0; x < dr.Dx(); x++ {
						_, _, _, al := mask.At(mp.X+x, mp.Y+y).RGBA()
						a.Pix[y*a.Stride+x] = uint8(al >> 8)
					}
				}
				g.mask, g.off = a, dr.Min
			}
		}
	} else {
		g.advance = int(math.Round(f.px * 0.55))
	}
	f.glyphs[r] = g
	return g
}

// Width returns the width of s in pixels: the sum of its glyphs' advances.
func (f *Face) Width(s string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	w := 0
	for _, r := range s {
		w += f.glyphLocked(r).advance
	}
	return w
}

// Fit returns s if it is at most w pixels wide, else its longest prefix
// followed by an ellipsis that is, or "" if not even the ellipsis fits.
func (f *Face) Fit(s string, w int) string {
	if f.Width(s) <= w {
		return s
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	room := w - f.glyphLocked('…').advance
	if room < 0 {
		return ""
	}
	used, cut := 0, 0
	for i, r := range s {
		a := f.glyphLocked(r).advance
		if used+a > room {
			break
		}
		used += a
		cut = i + utf8.RuneLen(r)
	}
	return s[:cut] + Ellipsis
}

// Draw blends s into img with its baseline's left end at (x, y), clipped
// to clip, and returns the pen's x after the last glyph: Raster's Text for
// code that draws into an image without a Canvas.
func (f *Face) Draw(img *image.RGBA, clip image.Rectangle, x, y int, s string, c color.RGBA) int {
	clip = clip.Intersect(img.Bounds())
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range s {
		g := f.glyphLocked(r)
		if g.mask != nil {
			ox, oy := x+g.off.X, y+g.off.Y
			mr := image.Rect(ox, oy, ox+g.mask.Rect.Dx(), oy+g.mask.Rect.Dy()).Intersect(clip)
			for py := mr.Min.Y; py < mr.Max.Y; py++ {
				row := g.mask.Pix[(py-oy)*g.mask.Stride:]
				for px := mr.Min.X; px < mr.Max.X; px++ {
					if a := row[px-ox]; a != 0 {
						blendPixel(img, px, py, c, uint32(a)*uint32(c.A)/255)
					}
				}
			}
		}
		x += g.advance
		if x > clip.Max.X {
			break
		}
	}
	return x
}

// blendPixel mixes colour c with coverage a (0–255) into the pixel at
// (x, y), which must be inside img; the result is opaque where img was.
func blendPixel(img *image.RGBA, x, y int, c color.RGBA, a uint32) {
	if a == 0 {
		return
	}
	o := img.PixOffset(x, y)
	p := img.Pix[o : o+4 : o+4]
	if a >= 255 {
		p[0], p[1], p[2], p[3] = c.R, c.G, c.B, 0xff
		return
	}
	na := 255 - a
	p[0] = uint8((uint32(p[0])*na + uint32(c.R)*a + 127) / 255)
	p[1] = uint8((uint32(p[1])*na + uint32(c.G)*a + 127) / 255)
	p[2] = uint8((uint32(p[2])*na + uint32(c.B)*a + 127) / 255)
	p[3] = uint8((uint32(p[3])*na + 255*a + 127) / 255)
}
