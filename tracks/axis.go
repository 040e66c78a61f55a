package tracks

import (
	"image"
	"math"

	"github.com/hecscope/hecscope/paint"
)

// firstTick returns the first multiple of step at or after t (t itself
// for a step of 0).
func firstTick(t, step uint64) uint64 {
	if step == 0 {
		return t
	}
	r := t % step
	if r == 0 {
		return t
	}
	if t > math.MaxUint64-(step-r) {
		return math.MaxUint64
	}
	return t + step - r
}

// computeTicks chooses the major tick step — the smallest 1, 2 or 5 × 10ⁿ
// ns whose labels fit between ticks with room to spare — and the minor
// step.
func (f *frame) computeTicks() {
	ppn := f.ax.PixelsPerNs()
	gap := 18 * f.s
	spacing := 90 * f.s
	var step uint64
	for iter := 0; iter < 6; iter++ {
		step = paint.TimeStep(spacing / ppn)
		widest := 0
		k := 0
		for t := firstTick(f.from, step); t <= f.to && k < 64; t += step {
			widest = max(widest, f.face.Width(paint.Time(t, step)))
			k++
			if t > math.MaxUint64-step {
				break
			}
		}
		if float64(widest)+gap <= float64(step)*ppn {
			break
		}
		spacing = float64(widest) + gap
	}
	f.step = step
	f.minor = step / 5
	if lead := step; lead > 0 {
		for lead >= 10 {
			lead /= 10
		}
		if lead == 2 {
			f.minor = step / 4
		}
	}
	if f.minor == 0 {
		f.minor = step
	}
}

// drawAxis draws the sticky time axis: its header part with the visible
// span, then ticks and labels, the markers' flags along its bottom.
func (f *frame) drawAxis() {
	a := f.g.axis
	c := f.c
	c.PushClip(a)
	defer c.PopClip()
	c.Fill(a, f.th.Header)
	base := a.Max.Y - 1
	c.Fill(image.Rect(0, base, a.Max.X, a.Max.Y), f.th.Axis)
	c.Fill(image.Rect(f.g.header.Max.X-1, a.Min.Y, f.g.header.Max.X, a.Max.Y), f.th.Rule)
	span := "span " + paint.Duration(f.to-f.from)
	c.Text(f.small, f.small.Fit(span, f.g.header.Dx()-px(16, f.s)), px(8, f.s), f.small.Baseline(float64(a.Min.Y+a.Max.Y)/2), f.th.Dim)

	c.PushClip(image.Rect(f.g.plot.Min.X, a.Min.Y, f.g.plot.Max.X, a.Max.Y))
	defer c.PopClip()
	major, minor := px(7, f.s), px(3, f.s)
	for t := firstTick(f.from, f.minor); t <= f.to && f.minor > 0; t += f.minor {
		x := int(math.Floor(f.ax.X(t)))
		if t%f.step == 0 {
			c.Fill(image.Rect(x, base-major, x+1, base), f.th.Axis)
			label := paint.Time(t, f.step)
			w := f.face.Width(label)
			lx := min(max(x-w/2, f.g.plot.Min.X+px(2, f.s)), f.g.plot.Max.X-w-px(2, f.s))
			c.Text(f.face, label, lx, base-major-px(4, f.s), f.th.Text)
		} else {
			c.Fill(image.Rect(x, base-minor, x+1, base), f.th.Axis)
		}
		if t > math.MaxUint64-f.minor {
			break
		}
	}
}
