package heapview

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// CompareRun is one run's heap in a comparison chart.
type CompareRun struct {
	// Name labels the run in the legend.
	Name string
	// Heap is the run's heap counters; nil or empty for none.
	Heap *Heap
	// Axis maps the run's times to x (timeline.Viewport.Axes gives
	// both runs' axes on one scale).
	Axis timeline.Axis
	// Colour is the run's colour: its heap size is a translucent area of
	// it, its live data a line.
	Colour color.RGBA
	// TextColour is the colour of the lane's name (zero: Colour), lighter
	// than Colour on dark surroundings.
	TextColour color.RGBA
}

// DrawCompare draws the heaps of two runs over the whole of img, each in a
// lane of its own, A above B, both lanes on one byte scale: each run's heap
// size as a translucent area and its live data as a line, in the run's
// colour, each run on its own axis (so that they line up with timelines
// drawn on the same axes), with the value axis in the gutter left of each
// lane and a legend above them; dark draws for dark surroundings. (Overlaid
// in one plot, the two areas mixed into a third colour wherever both runs
// had a heap, and the live lines lay on each other.) scale is the device
// pixel ratio (0 means 1): text and spacing grow with it, as the picture's
// do. The only error is failing to load the built-in font.
func DrawCompare(img *image.RGBA, runs [2]CompareRun, dark bool, scale float64) error {
	if !(scale > 0) {
		scale = 1
	}
	px := func(v float64) int { return int(math.Round(v * scale)) }
	k := furnitureFor(dark)
	f := paint.FaceFor(paint.Regular, textSize, scale)
	tf := &typeface{face: f, ascent: f.Ascent(), descent: f.Descent()}
	b := img.Bounds()
	fillRect(img, b, k.background)
	lanes := CompareLanes(b, runs, scale)
	left, right := lanes[0].Min.X, lanes[0].Max.X
	top, bottom := lanes[0].Min.Y, lanes[1].Max.Y
	laneH := lanes[0].Dy()

	var peak float64
	for _, r := range runs {
		if r.Heap == nil {
			continue
		}
		peak = math.Max(peak, float64(r.Heap.Size.Max()))
		peak = math.Max(peak, float64(r.Heap.Live.Max()))
	}
	topV := math.Max(peak*1.04, 1)
	// Enough ticks for the lane's height, and at least its top's.
	ticks := ByteTicks(topV, max(1, laneH/px(30)))
	for i, r := range runs {
		p := lanes[i]
		yOf := func(v float64) float64 { return float64(p.Max.Y) - v/topV*float64(p.Dy()) }
		for _, t := range ticks {
			y := int(yOf(t.Value))
			fillRect(img, image.Rect(p.Min.X, y, p.Max.X, y+1), k.grid)
			if t.Value == 0 && i == 0 {
				continue // B's lane says where 0 is; A's "0" would crowd B's top label
			}
			w := tf.width(t.Label)
			tf.draw(img, b, p.Min.X-px(6)-w, y+tf.ascent/2-1, t.Label, k.text)
		}
		if r.Heap != nil {
			area := r.Colour
			drawStep(p, r.Axis, &r.Heap.Size, 0, yOf, func(x int, y, _ float64) {
				col := image.Rect(x, int(math.Round(y)), x+1, p.Max.Y).Intersect(p)
				for yy := col.Min.Y; yy < col.Max.Y; yy++ {
					blend(img, x, yy, area, 0x38)
				}
			})
			c := r.Colour
			drawStep(p, r.Axis, &r.Heap.Live, 0, yOf, func(x int, y, prev float64) {
				lineColumn(img, p, x, prev, y, 2, c)
			})
		}
		strokeRect(img, p.Inset(-1), k.frame)
		if r.Heap != nil && peak > 0 {
			// The lane's run, in its colour, at the lane's top left.
			fillRect(img, image.Rect(p.Min.X+1, p.Min.Y+1, p.Min.X+px(4), p.Max.Y-1), r.Colour)
			text := r.TextColour
			if text == (color.RGBA{}) {
				text = r.Colour
			}
			tf.draw(img, p, p.Min.X+px(8), p.Min.Y+tf.ascent+px(3), r.Name, text)
		}
	}

	// Legend: one entry per run.
	x := left
	ty := b.Min.Y + px(pad) + tf.ascent
	x = tf.draw(img, b, x, ty, "Heap, one scale for both:", k.text) + px(10)
	for _, r := range runs {
		label := fmt.Sprintf("%s size (area) %s, live (line) %s", r.Name, maxOf(r.Heap, true), maxOf(r.Heap, false))
		fillRect(img, image.Rect(x, ty-tf.ascent+px(2), x+px(12), ty), r.Colour)
		x += px(16)
		x = tf.draw(img, b, x, ty, label, k.text) + px(16)
	}
	if peak == 0 {
		msg := "no heap data in either run"
		p := image.Rect(left, top, right, bottom)
		tf.draw(img, p, p.Min.X+(p.Dx()-tf.width(msg))/2, p.Min.Y+p.Dy()/2, msg, k.dim)
	}
	return nil
}

// CompareLanes returns the lanes in which DrawCompare draws the heaps of
// runs (A's, then B's) over b at device pixel ratio scale.
func CompareLanes(b image.Rectangle, runs [2]CompareRun, scale float64) [2]image.Rectangle {
	if !(scale > 0) {
		scale = 1
	}
	px := func(v float64) int { return int(math.Round(v * scale)) }
	left, right := math.Inf(1), math.Inf(-1)
	for _, r := range runs {
		left = math.Min(left, r.Axis.X0)
		right = math.Max(right, r.Axis.X0+r.Axis.Width)
	}
	top := b.Min.Y + px(pad+titleHeight)
	bottom := max(b.Max.Y-px(pad), top+1)
	// The lanes share the plot's height, laneGap apart.
	laneGap := px(6)
	laneH := max((bottom-top-laneGap)/2, 1)
	return [2]image.Rectangle{
		image.Rect(int(left), top, int(math.Ceil(right)), top+laneH),
		image.Rect(int(left), bottom-laneH, int(math.Ceil(right)), bottom),
	}
}

// maxOf formats the largest heap size (size) or live value of h.
func maxOf(h *Heap, size bool) string {
	if h == nil {
		return "none"
	}
	s := &h.Live
	if size {
		s = &h.Size
	}
	if s.Len() == 0 {
		return "none"
	}
	return "max " + FormatBytes(s.Max())
}
