package tracks

import (
	"image"
	"math"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
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

// computeTicks chooses the frame's major and minor tick steps.
func (f *frame) computeTicks() {
	f.step, f.minor = tickSteps(f.ax, f.from, f.to, f.s, f.face)
}

// tickSteps chooses the major tick step of axis ax over [from, to] at
// scale s, labels written in face — the smallest 1, 2 or 5 × 10ⁿ ns whose
// labels fit between ticks with room to spare — and the minor step.
func tickSteps(ax timeline.Axis, from, to uint64, s float64, face *paint.Face) (step, minor uint64) {
	ppn := ax.PixelsPerNs()
	gap := 18 * s
	spacing := 90 * s
	for iter := 0; iter < 6; iter++ {
		step = paint.TimeStep(spacing / ppn)
		widest := 0
		k := 0
		for t := firstTick(from, step); t <= to && k < 64; t += step {
			widest = max(widest, face.Width(paint.Time(t, step)))
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
	minor = step / 5
	if lead := step; lead > 0 {
		for lead >= 10 {
			lead /= 10
		}
		if lead == 2 {
			minor = step / 4
		}
	}
	if minor == 0 {
		minor = step
	}
	return step, minor
}

// tickLabel is a major tick's label on the axis: its text, its left end
// and baseline, and the box its text covers.
type tickLabel struct {
	text string
	x, y int
	box  image.Rectangle
}

// tickLabels returns the labels of the major ticks (every step) of axis
// ax over [from, to], written in face, as the axis of geometry g shows
// them: centred on their tick, kept inside the plot.
func tickLabels(g geometry, ax timeline.Axis, from, to, step uint64, face *paint.Face) []tickLabel {
	if step == 0 {
		return nil
	}
	base := g.axis.Max.Y - 1
	y := base - px(7, g.s) - px(4, g.s)
	var out []tickLabel
	for t := firstTick(from, step); t <= to; t += step {
		x := int(math.Floor(ax.X(t)))
		text := paint.Time(t, step)
		w := face.Width(text)
		lx := min(max(x-w/2, g.plot.Min.X+px(2, g.s)), g.plot.Max.X-w-px(2, g.s))
		out = append(out, tickLabel{text, lx, y, image.Rect(lx, y-face.Ascent(), lx+w, y+face.Descent())})
		if t > math.MaxUint64-step {
			break
		}
	}
	return out
}

// TickLabelRects returns the boxes of the time axis's tick labels as the
// view draws them now: a host writing over the axis (the cursor's time,
// the selection's length) covers those its text would overlap.
func (v *View) TickLabelRects() []image.Rectangle {
	from, to := v.Range()
	g := v.geometry()
	ax := g.ax(from, to)
	face := paint.FaceFor(paint.Regular, textPt, g.s)
	step, _ := tickSteps(ax, from, to, g.s, face)
	var out []image.Rectangle
	for _, l := range tickLabels(g, ax, from, to, step, face) {
		out = append(out, l.box)
	}
	return out
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
	if f.v.caption != "" {
		c.Text(f.bold, f.bold.Fit(f.v.caption, f.g.header.Dx()-px(16, f.s)), px(8, f.s), f.bold.Baseline(float64(a.Min.Y+a.Max.Y)/2), f.v.captionCol)
	} else {
		span := "span " + paint.Duration(f.to-f.from)
		c.Text(f.small, f.small.Fit(span, f.g.header.Dx()-px(16, f.s)), px(8, f.s), f.small.Baseline(float64(a.Min.Y+a.Max.Y)/2), f.th.Dim)
	}

	c.PushClip(image.Rect(f.g.plot.Min.X, a.Min.Y, f.g.plot.Max.X, a.Max.Y))
	defer c.PopClip()
	major, minor := px(7, f.s), px(3, f.s)
	for t := firstTick(f.from, f.minor); t <= f.to && f.minor > 0; t += f.minor {
		x := int(math.Floor(f.ax.X(t)))
		if t%f.step == 0 {
			c.Fill(image.Rect(x, base-major, x+1, base), f.th.Axis)
		} else {
			c.Fill(image.Rect(x, base-minor, x+1, base), f.th.Axis)
		}
		if t > math.MaxUint64-f.minor {
			break
		}
	}
	for _, l := range tickLabels(f.g, f.ax, f.from, f.to, f.step, f.face) {
		c.Text(f.face, l.text, l.x, l.y, f.th.Text)
	}
}
