package tracks

import (
	"image"
	"image/color"
	"math"
	"sort"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/paint"
)

// heapLine is one heap counter drawn as a line.
type heapLine struct {
	ink    paint.Ink
	series *heapview.Series
}

// heapLines returns the heap counters that have points, in drawing order.
func (v *View) heapLines() []heapLine {
	h := v.heap
	if h == nil {
		return nil
	}
	var out []heapLine
	for _, l := range []heapLine{{paint.InkHeapSize, &h.Size}, {paint.InkHeapBlocks, &h.Blocks}, {paint.InkHeapLive, &h.Live}} {
		if l.series.Len() > 0 {
			out = append(out, l)
		}
	}
	return out
}

// stepValues returns per plot column the value of a counter there: the
// largest measured in the column, or else the last one before it, held
// until end; -1 where there is none. Peaks narrower than a pixel are
// kept.
func (f *frame) stepValues(s *heapview.Series, end uint64, dst []float64) []float64 {
	dst = append(dst[:0], make([]float64, f.n)...)
	n := s.Len()
	last := end
	if n > 0 {
		last = max(last, s.Time[n-1])
	}
	i := sort.Search(n, func(i int) bool { return s.Time[i] > f.ax.ColumnTime(0) })
	for c := range dst {
		t0, t1 := f.ax.ColumnTime(c), f.ax.ColumnTime(c+1)
		for i < n && s.Time[i] <= t0 {
			i++
		}
		v := -1.0
		if i > 0 && t0 <= last {
			v = float64(s.Value[i-1])
		}
		for j := i; j < n && s.Time[j] < t1; j++ {
			v = math.Max(v, float64(s.Value[j]))
		}
		dst[c] = v
	}
	return dst
}

// valueScale draws the horizontal grid of a byte (or rate) scale whose top
// is top over [y0, y1) and returns the value-to-y mapping and a function
// that writes the scale's labels at the plot's left, on plates: call it
// after drawing the values, so that no line crosses a label.
func (f *frame) valueScale(top float64, y0, y1 int, unit string) (yOf func(v float64) float64, labels func()) {
	return f.tickedScale(top, y0, y1, paint.ByteTicks(top, max(2, (y1-y0)/px(36, f.s))), unit)
}

// tickedScale is valueScale with the ticks given.
func (f *frame) tickedScale(top float64, y0, y1 int, ticks []paint.ValueTick, unit string) (yOf func(v float64) float64, labels func()) {
	h := float64(y1 - y0)
	yOf = func(v float64) float64 { return float64(y1) - v/top*h }
	for _, tk := range ticks {
		if tk.Value == 0 {
			continue
		}
		y := int(yOf(tk.Value))
		f.c.Fill(image.Rect(f.g.plot.Min.X, y, f.g.plot.Max.X, y+1), f.th.Grid)
	}
	labels = func() {
		for _, tk := range ticks {
			if tk.Value == 0 {
				continue
			}
			y := int(yOf(tk.Value))
			paint.TextOnPlate(f.c, f.small, tk.Label+unit, f.g.plot.Min.X+px(3, f.s), y-px(2, f.s), f.th.Dim, f.labelPlate())
		}
	}
	return yOf, labels
}

// drawLine draws per-column values as a line of width w: each column
// spans from the previous column's y to its own.
func (f *frame) drawLine(vals []float64, yOf func(float64) float64, w float64, col color.RGBA) {
	have := false
	var prev float64
	for i, v := range vals {
		if v < 0 {
			have = false
			continue
		}
		y := yOf(v)
		if !have {
			prev = y
		}
		f.c.Column(f.g.plot.Min.X+i, math.Min(y, prev)-w/2, math.Max(y, prev)+w/2, col)
		prev, have = y, true
	}
}

// drawHeap draws the heap size, blocks size and live data as step lines on
// one byte scale.
func (f *frame) drawHeap(y0, y1 int) {
	top, bottom := f.inset(y0, y1)
	top += px(4, f.s)
	end := f.v.runEnd()
	var vals [][]float64
	peak := 0.0
	lines := f.v.heapLines()
	for _, l := range lines {
		v := f.stepValues(l.series, end, nil)
		for _, x := range v {
			peak = math.Max(peak, x)
		}
		vals = append(vals, v)
	}
	if peak <= 0 {
		return
	}
	scaleTop := peak * 1.05
	if f.v.heapTop > 0 {
		scaleTop = float64(f.v.heapTop)
	}
	yOf, labels := f.valueScale(scaleTop, top, bottom, "")
	for k, l := range lines {
		f.drawLine(vals[k], yOf, math.Max(1.5, 1.5*f.s), f.th.Ink(l.ink))
	}
	labels()
}

// allocRates returns the heap's allocation rates (cached).
func (v *View) allocRates() []heapview.Rate {
	if v.heap == nil {
		return nil
	}
	if v.rates == nil {
		v.rates = v.heap.AllocRate()
		v.ratesPeak = 0
		for _, r := range v.rates {
			v.ratesPeak = math.Max(v.ratesPeak, r.BytesPerSec)
		}
	}
	return v.rates
}

// rateValues returns per plot column the highest allocation rate of the
// intervals overlapping it, -1 where none does.
func (f *frame) rateValues() []float64 {
	rs := f.v.allocRates()
	vals := make([]float64, f.n)
	i := sort.Search(len(rs), func(i int) bool { return rs[i].To > f.ax.ColumnTime(0) })
	for c := range vals {
		t0, t1 := f.ax.ColumnTime(c), f.ax.ColumnTime(c+1)
		for i < len(rs) && rs[i].To <= t0 {
			i++
		}
		v := -1.0
		for j := i; j < len(rs) && rs[j].From < t1; j++ {
			v = math.Max(v, rs[j].BytesPerSec)
		}
		vals[c] = v
	}
	return vals
}

// drawAlloc draws the allocation rate as a step line, scaled to the peak
// in view (linear, with byte ticks, or on the log scale), and notes the
// run's peak when the view is not the whole run.
func (f *frame) drawAlloc(y0, y1 int) {
	top, bottom := f.inset(y0, y1)
	top += px(4, f.s)
	vals := f.rateValues()
	peak := 0.0
	for _, v := range vals {
		peak = math.Max(peak, v)
	}
	if peak <= 0 {
		return
	}
	log := f.v.LogScale(KindAlloc)
	ink := f.th.Ink(paint.InkHeapAllocated)
	w := math.Max(1.5, 1.5*f.s)
	if log {
		sc := newRateScale(true, peak, top, bottom)
		f.drawLogGrid(sc, true, paint.ByteRate)
		f.drawLine(vals, sc.y, w, ink)
	} else {
		yOf, labels := f.valueScale(peak*1.05, top, bottom, "/s")
		f.drawLine(vals, yOf, w, ink)
		labels()
	}
	if note := f.scaleNote(peak, f.v.ratesPeak, paint.ByteRate, "", log); log || note != "peak "+paint.ByteRate(peak) {
		// The linear scale's ticks give the peak in view: the note is for
		// the run's peak, or the log scale.
		// At the left on the log scale (its labels are at the right), at
		// the right on the linear one (its ticks' labels are at the left).
		x := f.g.plot.Max.X - px(8, f.s) - f.small.Width(note)
		if log {
			x = f.g.plot.Min.X + px(4, f.s)
		}
		paint.TextOnPlate(f.c, f.small, note, x, top+f.small.Ascent(), f.th.Dim, f.labelPlate())
	}
}

// bandValues returns per plot column the bands' values at the column's
// middle (nil where outside the profile's samples), and the largest total.
func (f *frame) bandValues() ([][]uint64, float64) {
	bd := f.v.bands
	out := make([][]uint64, f.n)
	peak := 0.0
	for c := range out {
		vals, ok := bd.ValuesAt(f.ax.ColumnTime(c)+f.colDur(c)/2, nil)
		if !ok {
			continue
		}
		var tot uint64
		for _, v := range vals {
			tot += v
		}
		peak = math.Max(peak, float64(tot))
		out[c] = vals
	}
	return out, peak
}

// shareTicks are the ticks of a normalised band chart's scale.
var shareTicks = []paint.ValueTick{{Value: 0.25, Label: "25%"}, {Value: 0.5, Label: "50%"}, {Value: 0.75, Label: "75%"}, {Value: 1, Label: "100%"}}

// bandTop returns the value at the top of the bands' scale for the
// columns' values vals whose stacked peak is peak: above the peak when
// stacked, above the largest band when drawn as lines, above 1 (all of
// the profiled heap) when normalised.
func (v *View) bandTop(vals [][]uint64, peak float64) float64 {
	switch v.bandMode {
	case heapview.ModeNormalised:
		return 1.05
	case heapview.ModeLines:
		most := 0.0
		for _, vs := range vals {
			for _, x := range vs {
				most = math.Max(most, float64(x))
			}
		}
		return most * 1.05
	}
	return peak * 1.05
}

// bandExtent returns where band b is drawn among the values vs of one
// column, on the scale bandTop gives: from lo to hi, stacked on the bands
// before it (normalised, as shares of their total), or, as lines, at its
// own value (lo = hi).
func (v *View) bandExtent(vs []uint64, b int) (lo, hi float64) {
	if v.bandMode == heapview.ModeLines {
		return float64(vs[b]), float64(vs[b])
	}
	var below, total uint64
	for i, x := range vs {
		if i < b {
			below += x
		}
		total += x
	}
	lo, hi = float64(below), float64(below+vs[b])
	if v.bandMode == heapview.ModeNormalised {
		lo, hi = lo/float64(max(total, 1)), hi/float64(max(total, 1))
	}
	return lo, hi
}

// drawBands draws the heap profile's bands in the view's band mode:
// stacked (band 0 at the bottom), stacked as shares of 100 %, or each as
// its own line.
func (f *frame) drawBands(y0, y1 int) {
	if f.v.bands == nil {
		return
	}
	top, bottom := f.inset(y0, y1)
	top += px(4, f.s)
	vals, peak := f.bandValues()
	if peak <= 0 {
		return
	}
	var yOf func(float64) float64
	var labels func()
	if scaleTop := f.v.bandTop(vals, peak); f.v.bandMode == heapview.ModeNormalised {
		yOf, labels = f.tickedScale(scaleTop, top, bottom, shareTicks, "")
	} else {
		yOf, labels = f.valueScale(scaleTop, top, bottom, "")
	}
	defer labels()
	if f.v.bandMode == heapview.ModeLines {
		line := make([]float64, len(vals))
		for b := 0; b < f.v.bands.Len(); b++ {
			for c, vs := range vals {
				line[c] = -1
				if vs != nil {
					line[c] = float64(vs[b])
				}
			}
			f.drawLine(line, yOf, math.Max(1.5, 1.5*f.s), f.v.bandCols[b])
		}
		return
	}
	for c, vs := range vals {
		for b, v := range vs {
			if v == 0 {
				continue
			}
			lo, hi := f.v.bandExtent(vs, b)
			f.c.Column(f.g.plot.Min.X+c, yOf(hi), yOf(lo), f.v.bandCols[b])
		}
	}
}

// gcColumns returns per plot column the ns of its time the HECs were
// stopped for minor and for major GCs (heapview.GC.Stopped, clipped to
// the column; 1 for a column shorter than a ns inside a GC), and the
// longest pause in view.
func (f *frame) gcColumns() (minor, major []float64, peak uint64) {
	gcs := f.v.heap.GCs
	minor, major = make([]float64, f.n), make([]float64, f.n)
	i := sort.Search(len(gcs), func(i int) bool { return gcs[i].End >= f.from })
	for ; i < len(gcs) && gcs[i].Start <= f.to; i++ {
		g := &gcs[i]
		into := minor
		if g.Major() {
			into = major
		}
		x0 := int(math.Floor(f.ax.X(g.Start))) - f.g.plot.Min.X
		x1 := max(int(math.Ceil(f.ax.X(g.End)))-f.g.plot.Min.X, x0+1)
		for x := max(x0, 0); x < min(x1, f.n); x++ {
			t0, t1 := f.colRange(x)
			if lo, hi := max(g.Start, t0), min(g.End, t1); hi > lo {
				into[x] += float64(hi - lo)
			} else if t1 == t0 && g.Start <= t0 && t0 < g.End {
				into[x]++ // a column shorter than a ns, inside the GC
			}
		}
		peak = max(peak, g.Pause())
	}
	return minor, major, peak
}

// drawGCs draws in each column the share of its time spent in GC, as a
// bar that tall (full height for a column inside one collection), major
// GCs' share at the bottom in their colour, minor GCs' above it in
// theirs; a column with any GC time shows at least a pixel. So at
// overview zoom ten collections a millisecond are a low bar, not a solid
// pause; the longest pause in view is written above.
func (f *frame) drawGCs(y0, y1 int) {
	if f.v.heap == nil {
		return
	}
	top, bottom := f.inset(y0, y1)
	f.hatchGCs(top, bottom)
	minor, major, peak := f.gcColumns()
	if peak == 0 {
		return
	}
	h := float64(bottom - top)
	one := math.Max(1, f.s) // the least bar: a device pixel or a point
	minorInk, majorInk := f.th.Ink(paint.InkMinorGC), f.th.Ink(paint.InkMajorGC)
	for x := range f.n {
		if minor[x] == 0 && major[x] == 0 {
			continue
		}
		dur := float64(max(f.colDur(x), 1))
		hMaj := h * math.Min(major[x]/dur, 1)
		hMin := h * math.Min(minor[x]/dur, 1)
		if hMaj+hMin < one {
			// Too little to see: a pixel in the colour of the larger.
			if major[x] >= minor[x] {
				hMaj, hMin = one, 0
			} else {
				hMaj, hMin = 0, one
			}
		}
		hMin = math.Min(hMin, h-hMaj)
		col := f.g.plot.Min.X + x
		if hMaj > 0 {
			f.c.Column(col, float64(bottom)-hMaj, float64(bottom), majorInk)
		}
		if hMin > 0 {
			f.c.Column(col, float64(bottom)-hMaj-hMin, float64(bottom)-hMaj, minorInk)
		}
	}
	paint.TextOnPlate(f.c, f.small, gcShareWords+" · "+maxPauseWords+" "+paint.Duration(peak), f.g.plot.Min.X+px(4, f.s), top+f.small.Ascent(), f.th.Dim, f.labelPlate())
}

// hatchGCs hatches the GC track from the earliest capability's frontier
// to the run's end: a collection stops every capability, so past where one
// of them is known the collections are not all known. The pauses known
// there are drawn over it.
func (f *frame) hatchGCs(top, bottom int) {
	if f.m == nil || !f.m.Partial() {
		return
	}
	e := earliestFrontier(f.m)
	x0 := int(math.Round(math.Max(f.ax.X(e), float64(f.g.plot.Min.X))))
	x1 := int(math.Round(math.Min(f.ax.X(f.m.End), float64(f.g.plot.Max.X))))
	if x1 > x0 {
		f.hatch(x0, x1, top, bottom)
	}
}

// hitUnknownGCs describes the GC track where it is hatched (hatchGCs):
// past the earliest capability's frontier.
func (f *frame) hitUnknownGCs(h *Hit, col, y0, y1 int) {
	if f.m == nil || !f.m.Partial() {
		return
	}
	e := earliestFrontier(f.m)
	if h.Time < e || h.Time >= f.m.End {
		return
	}
	for i := range f.m.HECs {
		if hec := &f.m.HECs[i]; hec.Frontier() == e {
			h.Element, h.From, h.To = ElemUnknown, e, f.m.End
			h.Tip = f.unknownTip("GCs", hec.Cap, e)
			h.Tip = append(h.Tip, "a GC stops every HEC: those after "+f.when(e)+" may not all be known")
			h.Anchor = f.spanRect(e, f.m.End, col, y0, y1)
			return
		}
	}
}

// labelPlate is the colour of the box under a label written over a plot:
// the background, mostly opaque.
func (f *frame) labelPlate() color.RGBA { return paint.WithAlpha(f.th.Background, 0xc8) }

// hitHeap describes the heap's values at the pointer's time.
func (f *frame) hitHeap(h *Hit, col, y0, y1 int) {
	h.Element, h.From, h.To = ElemHeap, h.Time, h.Time
	h.Tip = []string{"Heap at " + f.when(h.Time)}
	for _, l := range f.v.heapLines() {
		if v, ok := l.series.At(h.Time); ok {
			h.Tip = append(h.Tip, l.ink.Name()+": "+paint.Bytes(v))
		}
	}
	if len(h.Tip) == 1 {
		h.Tip = append(h.Tip, "not measured yet")
	}
	h.Anchor = f.spanRect(h.Time, h.Time, col, y0, y1)
}

// hitAlloc describes the allocation rate at the pointer's time.
func (f *frame) hitAlloc(h *Hit, col, y0, y1 int) {
	rs := f.v.allocRates()
	i := sort.Search(len(rs), func(i int) bool { return rs[i].To > h.Time })
	if i == len(rs) || rs[i].From > h.Time {
		return
	}
	r := rs[i]
	h.Element, h.From, h.To = ElemHeap, r.From, r.To
	h.Tip = []string{"Allocation from " + f.when(r.From) + " for " + paint.Duration(r.To-r.From),
		paint.ByteRate(r.BytesPerSec)}
	h.Anchor = f.spanRect(r.From, r.To, col, y0, y1)
}

// hitBands describes the band under (col, y) and the total at its time.
func (f *frame) hitBands(h *Hit, col, y, y0, y1 int) {
	bd := f.v.bands
	if bd == nil {
		return
	}
	vals, ok := bd.ValuesAt(h.Time, nil)
	if !ok {
		return
	}
	cols, peak := f.bandValues()
	top, bottom := f.inset(y0, y1)
	top += px(4, f.s)
	scaleTop := f.v.bandTop(cols, peak)
	yOf := func(v float64) float64 { return float64(bottom) - v/scaleTop*float64(bottom-top) }
	var total uint64
	for _, v := range vals {
		total += v
	}
	band := -1
	fy := float64(y) + 0.5
	near := float64(px(4, f.s)) // a line is hit within this
	for b, v := range vals {
		lo, hi := f.v.bandExtent(vals, b)
		switch {
		case v == 0:
		case f.v.bandMode == heapview.ModeLines:
			if d := math.Abs(yOf(lo) - fy); d <= near {
				band, near = b, d
			}
		case fy <= yOf(lo) && fy >= yOf(hi):
			band = b
		}
	}
	h.Element, h.From, h.To = ElemBand, h.Time, h.Time
	h.Tip = []string{"Heap profile at " + f.when(h.Time), "total " + paint.Bytes(total)}
	if band >= 0 {
		h.Name = bd.Name(band)
		h.Tip = append(h.Tip, bd.Name(band)+": "+paint.Bytes(vals[band])+" ("+paint.Percent(float64(vals[band])/float64(max(total, 1)))+")")
	}
	h.Anchor = f.spanRect(h.Time, h.Time, col, y0, y1)
}

// hitGC describes the GC under the pointer's pixel column.
func (f *frame) hitGC(h *Hit, col, y0, y1 int) {
	gcs := f.v.heap.GCs
	t0, t1 := f.colRange(col)
	i := sort.Search(len(gcs), func(i int) bool { return gcs[i].End >= t0 })
	if i == len(gcs) || gcs[i].Start > t1 {
		f.hitUnknownGCs(h, col, y0, y1)
		return
	}
	// The longest GC in the column, and the time in GC.
	best, n := i, 0
	var inGC uint64
	for j := i; j < len(gcs) && gcs[j].Start <= t1; j++ {
		if gcs[j].Pause() > gcs[best].Pause() {
			best = j
		}
		if lo, hi := max(gcs[j].Start, t0), min(gcs[j].End, t1); hi > lo {
			inGC += hi - lo
		}
		n++
	}
	g := &gcs[best]
	h.Element, h.From, h.To = ElemGC, g.Start, g.End
	h.Tip = []string{"GC " + paint.Count(int64(best+1)) + " of " + paint.Count(int64(len(gcs))), gcText(g), "from " + f.when(g.Start)}
	if g.HasStats {
		h.Tip = append(h.Tip, "copied "+paint.Bytes(g.Copied))
		if g.ParThreads > 1 {
			h.Tip[len(h.Tip)-1] += " by " + itoa(g.ParThreads) + " GC threads"
		}
	}
	if n > 1 || inGC < t1-t0 {
		h.Tip = append(h.Tip, "this pixel's "+paint.Duration(t1-t0)+": "+paint.Percent(float64(inGC)/float64(max(t1-t0, 1)))+
			" in GC, "+paint.Count(int64(n))+" GC"+map[bool]string{true: "", false: "s"}[n == 1])
	}
	h.Anchor = f.spanRect(g.Start, g.End, col, y0, y1)
}
