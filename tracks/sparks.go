package tracks

import (
	"image"
	"math"
	"sort"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// sparkCurves are the spark kinds drawn as rate curves, in drawing order
// (converted includes stolen sparks, which the thief converts).
var sparkCurves = [...]timeline.SparkKind{timeline.SparkCreated, timeline.SparkConverted, timeline.SparkFizzled,
	timeline.SparkGCd, timeline.SparkOverflowed, timeline.SparkDud}

// sparkCumulative returns a HEC's cumulative count of kind k at time t from
// its SparkCounters samples, interpolated linearly between them.
func sparkCumulative(h *timeline.HEC, k timeline.SparkKind, t uint64) float64 {
	n := h.NumSparkSamples()
	i := sort.Search(n, func(i int) bool { return h.SparkSample(i).Time > t })
	if i == 0 {
		return 0
	}
	a := h.SparkSample(i - 1)
	va := sampleCount(&a, k)
	if i == n {
		return va
	}
	b := h.SparkSample(i)
	vb := sampleCount(&b, k)
	if b.Time == a.Time {
		return vb
	}
	return va + (vb-va)*float64(t-a.Time)/float64(b.Time-a.Time)
}

// sampleCount returns the counter of kind k in a sample (the RTS does not
// count stolen sparks: 0).
func sampleCount(s *timeline.SparkSample, k timeline.SparkKind) float64 {
	switch k {
	case timeline.SparkCreated:
		return float64(s.Created)
	case timeline.SparkDud:
		return float64(s.Dud)
	case timeline.SparkOverflowed:
		return float64(s.Overflowed)
	case timeline.SparkConverted:
		return float64(s.Converted)
	case timeline.SparkFizzled:
		return float64(s.Fizzled)
	case timeline.SparkGCd:
		return float64(s.GCd)
	}
	return 0
}

// poolAt returns a HEC's spark pool size at t, interpolated between its
// samples, and false before the first or after the last.
func poolAt(h *timeline.HEC, t uint64) (float64, bool) {
	n := h.NumSparkSamples()
	i := sort.Search(n, func(i int) bool { return h.SparkSample(i).Time > t })
	if i == 0 || i == n && t > h.SparkSample(n-1).Time {
		return 0, false
	}
	a := h.SparkSample(i - 1)
	if i == n {
		return float64(a.Pool), true
	}
	b := h.SparkSample(i)
	if b.Time == a.Time {
		return float64(b.Pool), true
	}
	return float64(a.Pool) + (float64(b.Pool)-float64(a.Pool))*float64(t-a.Time)/float64(b.Time-a.Time), true
}

// poolValues returns a HEC's spark pool size at the middle of each of n
// plot columns of ax, interpolated between its samples (-1 outside them),
// walking the samples once.
func poolValues(h *timeline.HEC, ax timeline.Axis, n int) []float64 {
	vals := make([]float64, n)
	ns := h.NumSparkSamples()
	i := 0 // the first sample after the column's middle
	for c := range vals {
		t0, t1 := ax.ColumnTime(c), ax.ColumnTime(c+1)
		t := t0 + (t1-t0)/2
		if c == 0 {
			i = sort.Search(ns, func(i int) bool { return h.SparkSample(i).Time > t })
		}
		for i < ns && h.SparkSample(i).Time <= t {
			i++
		}
		vals[c] = -1
		if i == 0 || i == ns && t > h.SparkSample(ns-1).Time {
			continue
		}
		a := h.SparkSample(i - 1)
		if i == ns {
			vals[c] = float64(a.Pool)
			continue
		}
		b := h.SparkSample(i)
		if b.Time == a.Time {
			vals[c] = float64(b.Pool)
			continue
		}
		vals[c] = float64(a.Pool) + (float64(b.Pool)-float64(a.Pool))*float64(t-a.Time)/float64(b.Time-a.Time)
	}
	return vals
}

// sparkRates returns, per bin of bin plot columns, a HEC's rate of sparks
// of each curve kind in sparks per ms (see sparkRatesOn): from its spark
// events if the capability has any in the run (the overview says; a window
// of detail may hold none), else from its counters' samples.
func (f *frame) sparkRates(h *timeline.HEC, bin int) [len(sparkCurves)][]float64 {
	events := h.HasSparkEvents()
	if f.ov != nil && f.ov != f.m {
		if o := f.ov.HEC(h.Cap); o != nil && o.HasSparkEvents() {
			events = true
		}
	}
	return sparkRatesOn(h, events, f.ax, f.n, bin)
}

// sparkRatesOn returns, per bin of bin of the n columns of ax, a HEC's
// rate of sparks of each curve kind in sparks per ms: from its spark
// events if events, else from its counters' samples.
func sparkRatesOn(h *timeline.HEC, events bool, ax timeline.Axis, n, bin int) [len(sparkCurves)][]float64 {
	var out [len(sparkCurves)][]float64
	nb := (n + bin - 1) / bin
	// The bins are the columns of an axis bin times coarser: counting per
	// bin walks the events' index a bin, not a pixel, at a time.
	bax := timeline.Axis{From: ax.From, To: ax.To, X0: ax.X0, Width: ax.Width / float64(bin)}
	var cols, stolen []int32
	if events {
		stolen = h.SparkColumns(bax, nb, timeline.SparkStolen, nil)
	}
	for ki, k := range sparkCurves {
		rates := make([]float64, nb)
		if events {
			cols = h.SparkColumns(bax, nb, k, cols)
		}
		for b := range rates {
			t0, t1 := bax.ColumnTime(b), bax.ColumnTime(b+1)
			if t1 <= t0 {
				continue
			}
			var c float64
			if events {
				c = float64(cols[b])
				if k == timeline.SparkConverted {
					c += float64(stolen[b])
				}
			} else {
				c = sparkCumulative(h, k, t1) - sparkCumulative(h, k, t0)
			}
			rates[b] = math.Max(c, 0) / (float64(t1-t0) / 1e6)
		}
		out[ki] = rates
	}
	return out
}

// sparkBin is the width of a bin of the spark curves in columns.
func (f *frame) sparkBin() int { return max(px(4, f.s), 1) }

// drawSparks draws HEC c's spark rates as curves over the upper part of
// its track and its spark pool as an area under them.
func (f *frame) drawSparks(c, y0, y1 int) {
	if f.m == nil || c >= len(f.m.HECs) {
		return
	}
	h := &f.m.HECs[c]
	top, bottom := f.inset(y0, y1)
	poolH := 0
	if h.NumSparkSamples() > 0 {
		poolH = (bottom - top) / 3
	}
	rb := bottom - poolH
	bin := f.sparkBin()
	rates := f.sparkRates(h, bin)
	peak := 0.0
	for _, r := range rates {
		for _, v := range r {
			peak = math.Max(peak, v)
		}
	}
	x0 := float64(f.g.plot.Min.X)
	width := math.Max(1, 1.3*f.s)
	if peak > 0 {
		log := f.v.LogScale(KindSparks)
		sc := newRateScale(log, peak, top+px(2, f.s), rb)
		perMs := func(v float64) string { return paint.Rate(v, "ms") }
		f.drawLogGrid(sc, false, perMs)
		for ki, r := range rates {
			pts := make([]paint.Point, 0, len(r))
			any := false
			for b, v := range r {
				any = any || v > 0
				pts = append(pts, paint.Point{X: x0 + (float64(b)+0.5)*float64(bin), Y: sc.y(v)})
			}
			if !any {
				continue
			}
			if f.export {
				// Exports stay vector paths (an SVG of columns would be
				// large).
				f.c.Polyline(pts, width, f.th.Ink(sparkInk(sparkCurves[ki])))
			} else {
				paint.ColumnLine(f.c, pts, width, f.th.Ink(sparkInk(sparkCurves[ki])))
			}
		}
		runPeak, runBin := f.sparkRunPeak(c, bin)
		note := f.scaleNote(peak, runPeak, perMs, runBin, log)
		paint.TextOnPlate(f.c, f.small, note, f.g.plot.Min.X+px(4, f.s), top+f.small.Ascent(), f.th.Dim, f.labelPlate())
	} else {
		f.c.Text(f.small, "no sparks", f.g.plot.Min.X+px(4, f.s), f.small.Baseline(float64(top+rb)/2), f.th.Dim)
	}
	if poolH > 0 {
		vals := poolValues(h, f.ax, f.n)
		pmax := 0.0
		for _, v := range vals {
			pmax = math.Max(pmax, v)
		}
		// The scale is a whole number of sparks: the interpolated sizes lie
		// between two samples' counts, so the next whole number up is no
		// more than the largest of those.
		pmax = math.Ceil(pmax - 1e-9)
		col := f.th.Ink(paint.InkSparkPool)
		f.c.Fill(image.Rect(f.g.plot.Min.X, rb, f.g.plot.Max.X, rb+1), f.th.Grid)
		if pmax > 0 {
			for i, v := range vals {
				if v > 0 {
					f.c.Column(f.g.plot.Min.X+i, float64(bottom)-v/pmax*float64(poolH-px(2, f.s)), float64(bottom), col)
				}
			}
			label := "pool up to " + paint.CountShort(pmax)
			// Well clear of the scroll bar's gutter, plate included.
			paint.TextOnPlate(f.c, f.small, label, f.g.plot.Max.X-px(8, f.s)-f.small.Width(label), f.small.Baseline(float64(rb)+float64(f.small.Height())/2+2), f.th.Dim, f.labelPlate())
		}
	}
}

// hitSparks describes HEC c's sparks at pixel column col.
func (f *frame) hitSparks(h *Hit, c, col, y0, y1 int) {
	if c >= len(f.m.HECs) {
		return
	}
	hec := &f.m.HECs[c]
	bin := f.sparkBin()
	b := col / bin
	rates := f.sparkRates(hec, bin)
	t0, t1 := f.ax.ColumnTime(b*bin), f.ax.ColumnTime(min((b+1)*bin, f.n))
	h.Element, h.From, h.To = ElemSparks, t0, t1
	h.Tip = []string{"HEC " + itoa(uint32(hec.Cap)) + " sparks at " + f.when(h.Time)}
	for ki, k := range sparkCurves {
		if b < len(rates[ki]) {
			h.Tip = append(h.Tip, sparkInk(k).Name()+": "+paint.Rate(rates[ki][b], "ms"))
		}
	}
	if v, ok := poolAt(hec, h.Time); ok {
		h.Tip = append(h.Tip, "spark pool size: "+paint.Count(int64(math.Round(v))))
	}
	h.Anchor = f.spanRect(t0, t1, col, y0, y1)
}
