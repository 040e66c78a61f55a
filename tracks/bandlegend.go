package tracks

import (
	"image"
	"math"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/paint"
)

// The heap profile's bands are named beside their track, in its header
// under the track's name: a swatch and a name per band, the band at the
// bottom of the stack (the largest, in the size order) first, as many as
// the track is tall enough for, each with its peak size, or, while the
// host says where the pointer is (SetCursor), the bands the census nearest
// the pointer holds, each with its size there; the header's second line
// says which.

// SetCursor tells the view the time under the pointer, on false when the
// pointer is not over the plot: the heap profile's legend gives the bands'
// sizes at the census nearest it. It reports whether that changes the
// picture (the census the legend reads changed), so that the host draws
// the view again only then.
func (v *View) SetCursor(t uint64, on bool) bool {
	sample := -1
	if bd := v.bands; on && bd != nil {
		if from, to, ok := bd.Span(); ok && t >= from && t <= to {
			sample = bd.Nearest(t)
		}
	}
	if sample == v.cursorSample {
		return false
	}
	v.cursorSample = sample
	return v.bands != nil
}

// bandNote is the header's second line of the heap profile's track: what
// sizes its legend gives, the bands' peaks or those of the census nearest
// the pointer.
func (f *frame) bandNote(uint32) string {
	bd := f.v.bands
	if bd == nil {
		return ""
	}
	if s := f.v.cursorSample; s >= 0 && s < bd.Samples() {
		return "census at " + f.when(bd.Time(s))
	}
	return "peak sizes"
}

// bandSize returns the size the legend gives for band b: at census sample,
// or its peak for sample -1.
func (v *View) bandSize(b, sample int) uint64 {
	if sample >= 0 {
		return v.bands.Value(b, sample)
	}
	var peak uint64
	for _, x := range v.bands.Row(b) {
		peak = max(peak, x)
	}
	return peak
}

// drawBandLegend lists the bands in r, the header's room under the track's
// name: the band at the bottom of the stack first, each a swatch (a line's when
// the bands are drawn as lines), its name cut to fit, and its size at the
// census the cursor is nearest or its peak; the bands there is no room for are counted
// on the last line.
func (f *frame) drawBandLegend(_ uint32, r image.Rectangle) {
	bd := f.v.bands
	if bd == nil || len(f.v.bandCols) < bd.Len() {
		return
	}
	face := f.small
	lineH := face.Height() + px(2, f.s)
	lines := r.Dy() / max(lineH, 1)
	sample := f.v.cursorSample
	if sample >= bd.Samples() {
		sample = -1
	}
	// The bands listed: all of them, or at a census those it holds.
	var bands []int
	for b := range bd.Len() {
		if sample < 0 || bd.Value(b, sample) > 0 {
			bands = append(bands, b)
		}
	}
	n := len(bands)
	if lines <= 0 || n == 0 {
		return
	}
	shown := n
	if n > lines {
		shown = lines - 1
	}
	sw := px(8, f.s)
	y := r.Min.Y
	for i := range shown {
		b := bands[i] // the bottom of the stack first: in the size order, the largest
		mid := float64(y) + float64(lineH)/2
		box := image.Rect(r.Min.X, int(mid)-sw/2, r.Min.X+sw, int(mid)-sw/2+sw)
		if f.v.bandMode == heapview.ModeLines {
			t := max(1, px(1, f.s))
			f.c.Fill(image.Rect(box.Min.X, int(mid)-t, box.Max.X, int(mid)+t), f.v.bandCols[b])
		} else {
			f.c.Fill(box, f.v.bandCols[b])
		}
		x := box.Max.X + px(4, f.s)
		right := r.Max.X
		val := paint.Bytes(f.v.bandSize(b, sample))
		w := face.Width(val)
		f.c.Text(face, val, right-w, face.Baseline(mid), f.th.Text)
		right -= w + px(6, f.s)
		f.c.Text(face, face.Fit(bd.Name(b), right-x), x, face.Baseline(mid), f.th.Text)
		y += lineH
	}
	if shown < n {
		more := "+" + itoa(uint32(n-shown)) + " more"
		f.c.Text(face, more, r.Min.X, face.Baseline(float64(y)+float64(lineH)/2), f.th.Dim)
	}
}

// bandLegendTop returns the device y below which a header of height y1-y0,
// its name's line at mid, has room for the band legend.
func bandLegendTop(mid float64, nameH, noteH int, s float64) int {
	return int(math.Ceil(mid+float64(nameH)/2)) + noteH + px(4, s)
}
