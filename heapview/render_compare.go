package heapview

import (
	"fmt"
	"image"
	"image/color"
	"math"

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
}

// DrawCompare draws the heaps of two runs overlaid on one byte scale over
// the whole of img: each run's heap size as a translucent area and its live
// data as a line, in the run's colour, each run on its own axis (so that
// they line up with timelines drawn on the same axes), with the value axis
// in the gutter left of the plot and a legend above it; dark draws for dark
// surroundings. The only error is failing to load the built-in font.
func DrawCompare(img *image.RGBA, runs [2]CompareRun, dark bool) error {
	k := furnitureFor(dark)
	tf, err := labelFace()
	if err != nil {
		return err
	}
	b := img.Bounds()
	fillRect(img, b, k.background)
	left, right := math.Inf(1), math.Inf(-1)
	for _, r := range runs {
		left = math.Min(left, r.Axis.X0)
		right = math.Max(right, r.Axis.X0+r.Axis.Width)
	}
	top := b.Min.Y + pad + titleHeight
	bottom := b.Max.Y - pad
	p := image.Rect(int(left), top, int(math.Ceil(right)), max(bottom, top+1))

	var peak float64
	for _, r := range runs {
		if r.Heap == nil {
			continue
		}
		peak = math.Max(peak, float64(r.Heap.Size.Max()))
		peak = math.Max(peak, float64(r.Heap.Live.Max()))
	}
	topV := math.Max(peak*1.04, 1)
	ticks := ByteTicks(topV, max(2, p.Dy()/40))
	yOf := func(v float64) float64 { return float64(p.Max.Y) - v/topV*float64(p.Dy()) }
	for _, t := range ticks {
		y := int(yOf(t.Value))
		fillRect(img, image.Rect(p.Min.X, y, p.Max.X, y+1), k.grid)
		w := tf.width(t.Label)
		tf.draw(img, b, p.Min.X-6-w, y+tf.ascent/2-1, t.Label, k.text)
	}

	for _, r := range runs {
		if r.Heap == nil {
			continue
		}
		area := r.Colour
		drawStep(p, r.Axis, &r.Heap.Size, 0, yOf, func(x int, y, _ float64) {
			col := image.Rect(x, int(math.Round(y)), x+1, p.Max.Y).Intersect(p)
			for yy := col.Min.Y; yy < col.Max.Y; yy++ {
				blend(img, x, yy, area, 0x38)
			}
		})
	}
	for _, r := range runs {
		if r.Heap == nil {
			continue
		}
		c := r.Colour
		drawStep(p, r.Axis, &r.Heap.Live, 0, yOf, func(x int, y, prev float64) {
			lineColumn(img, p, x, prev, y, 2, c)
		})
	}
	strokeRect(img, p.Inset(-1), k.frame)

	// Legend: one entry per run.
	x := p.Min.X
	ty := b.Min.Y + pad + tf.ascent
	x = tf.draw(img, b, x, ty, "Heap on one scale:", k.text) + 10
	for _, r := range runs {
		label := fmt.Sprintf("%s size (area) %s, live (line) %s", r.Name, maxOf(r.Heap, true), maxOf(r.Heap, false))
		fillRect(img, image.Rect(x, ty-tf.ascent+2, x+12, ty), r.Colour)
		x += 16
		x = tf.draw(img, b, x, ty, label, k.text) + 16
	}
	if peak == 0 {
		msg := "no heap data in either run"
		tf.draw(img, p, p.Min.X+(p.Dx()-tf.width(msg))/2, p.Min.Y+p.Dy()/2, msg, k.dim)
	}
	return nil
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
