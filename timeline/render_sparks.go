package timeline

import (
	"fmt"
	"math"
)

// sparkCurves are the spark kinds drawn as rate curves, in drawing order.
var sparkCurves = []SparkKind{SparkCreated, SparkConverted, SparkFizzled, SparkGCd, SparkOverflowed, SparkDud}

// sparkCumulative returns a HEC's cumulative count of kind k at time t,
// interpolated linearly between its SparkCounters samples.
func sparkCumulative(h *HEC, k SparkKind, t uint64) float64 {
	n := h.NumSparkSamples()
	if n == 0 {
		return 0
	}
	i := h.samples.search(0, func(s *SparkSample) bool { return s.Time > t })
	if i == 0 {
		return 0
	}
	a := h.samples.ptr(i - 1)
	va := sampleCount(a, k)
	if i == n {
		return va
	}
	b := h.samples.ptr(i)
	vb := sampleCount(b, k)
	if b.Time == a.Time {
		return vb
	}
	return va + (vb-va)*float64(t-a.Time)/float64(b.Time-a.Time)
}

// sampleCount returns the counter of kind k in a sample (stolen sparks are
// not counted by the RTS: 0).
func sampleCount(s *SparkSample, k SparkKind) float64 {
	switch k {
	case SparkCreated:
		return float64(s.Created)
	case SparkDud:
		return float64(s.Dud)
	case SparkOverflowed:
		return float64(s.Overflowed)
	case SparkConverted:
		return float64(s.Converted)
	case SparkFizzled:
		return float64(s.Fizzled)
	case SparkGCd:
		return float64(s.GCd)
	}
	return 0
}

// SparkRates returns, for n equal bins over the axis's range, the HEC's
// rate of sparks of kind k in sparks per ms: counted from individual spark
// events when the HEC has any (converted then includes stolen, which the
// thief converts), or else from its SparkCounters samples.
func (h *HEC) SparkRates(ax Axis, n int, k SparkKind) []float64 {
	out := make([]float64, max(n, 0))
	if n <= 0 {
		return out
	}
	events := h.HasSparkEvents()
	step := (float64(ax.To) - float64(ax.From)) / float64(n)
	for i := range out {
		a := uint64(float64(ax.From) + step*float64(i))
		b := uint64(float64(ax.From) + step*float64(i+1))
		if b <= a {
			continue
		}
		var c float64
		if events {
			c = float64(h.Sparks(k, a, b))
			if k == SparkConverted {
				c += float64(h.Sparks(SparkStolen, a, b)) // a stolen spark is converted by the thief
			}
		} else {
			c = sparkCumulative(h, k, b) - sparkCumulative(h, k, a)
		}
		out[i] = c / (float64(b-a) / 1e6)
	}
	return out
}

// drawSparks draws per HEC the rates of spark creation, conversion, fizzling,
// GC and overflow, and the spark pool size.
func (r *renderer) drawSparks() {
	r.drawAxis()
	n := max(len(r.m.HECs), 1)
	rowH := max((r.bottom-r.top)/n, int(30*r.s))
	y := r.top
	bin := max(int(4*r.s), 1)
	nb := max(r.plotW/bin, 1)
	for c := range r.m.HECs {
		if y+rowH > r.bottom {
			break
		}
		h := &r.m.HECs[c]
		poolH := 0
		if h.NumSparkSamples() > 0 {
			poolH = rowH / 3
		}
		r.drawRates(h, y+int(4*r.s), y+rowH-poolH-int(4*r.s), nb)
		if poolH > 0 {
			r.drawPool(h, y+rowH-poolH, y+rowH-int(3*r.s))
		}
		r.fill(r.gutter, y+rowH-1, r.gutter+r.plotW, y+rowH, r.pal.RowRule)
		r.rowLabel(fmt.Sprintf("HEC %d sparks", h.Cap), y, y+rowH)
		y += rowH
	}
	for _, k := range sparkCurves {
		r.key = append(r.key, keyItem{SparkColour(k), k.String()})
	}
	r.key = append(r.key, keyItem{ColourSparkPool, "pool size"})
	r.drawKey()
}

// drawRates draws the spark rate curves of a HEC in [y0, y1).
func (r *renderer) drawRates(h *HEC, y0, y1, nb int) {
	curves := make([][]float64, len(sparkCurves))
	peak := 0.0
	for i, k := range sparkCurves {
		curves[i] = h.SparkRates(r.ax, nb, k)
		for _, v := range curves[i] {
			peak = math.Max(peak, v)
		}
	}
	if peak == 0 {
		r.text("no sparks", float64(r.gutter)+6*r.s, float64(y0+y1)/2, 0, 0.35, r.pal.Axis)
		return
	}
	hgt := float64(y1 - y0)
	bw := float64(r.plotW) / float64(nb)
	width := math.Max(1, math.Round(1.3*r.s))
	for i, k := range sparkCurves {
		if allZero(curves[i]) {
			continue
		}
		c := SparkColour(k)
		var px, py float64
		for j, v := range curves[i] {
			x := float64(r.gutter) + (float64(j)+0.5)*bw
			yy := float64(y1) - v/peak*hgt
			if j > 0 {
				r.line(px, py, x, yy, width, c)
			}
			px, py = x, yy
		}
	}
	r.text(rateLabel(peak), float64(r.gutter)-4*r.s, float64(y0)+6*r.s, 1, 0.5, r.pal.Text)
}

// drawPool draws a HEC's spark pool size from its samples in [y0, y1).
func (r *renderer) drawPool(h *HEC, y0, y1 int) {
	vals := make([]float64, r.plotW)
	peak := 0.0
	for i := range vals {
		t := r.ax.ColumnTime(i)
		j := h.samples.search(0, func(s *SparkSample) bool { return s.Time > t })
		if j > 0 {
			vals[i] = float64(h.samples.ptr(j - 1).Pool)
			peak = math.Max(peak, vals[i])
		}
	}
	if peak == 0 {
		return
	}
	hgt := float64(y1 - y0)
	for i, v := range vals {
		top := y1 - int(math.Round(v/peak*hgt))
		r.fill(r.colX(i), top, r.colX(i)+1, y1, ColourSparkPool)
	}
	r.text(fmt.Sprintf("pool %.0f", peak), float64(r.gutter)-4*r.s, float64(y0)+6*r.s, 1, 0.5, r.pal.Text)
}

func allZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// rateLabel writes a rate in sparks per ms with three significant digits.
func rateLabel(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f/ms", v)
	case v >= 10:
		return fmt.Sprintf("%.1f/ms", v)
	}
	return fmt.Sprintf("%.2f/ms", v)
}
