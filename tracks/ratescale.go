package tracks

import (
	"image"
	"math"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// logDecades is how many powers of ten a rate track's log scale spans,
// down from the first power of ten at or above the peak in view.
const logDecades = 4

// rateKind reports whether tracks of kind k draw rates (sparks per ms,
// bytes allocated per second), which scale to the peak in view and offer
// a log scale.
func rateKind(k Kind) bool { return k == KindSparks || k == KindAlloc }

// SetLogScale puts every track of kind k (a rate kind: KindSparks,
// KindAlloc) on a log scale, or back on the linear one.
func (v *View) SetLogScale(k Kind, on bool) {
	if !rateKind(k) {
		return
	}
	if v.logScale == nil {
		v.logScale = map[Kind]bool{}
	}
	v.logScale[k] = on
}

// LogScale reports whether the tracks of kind k are on a log scale.
func (v *View) LogScale(k Kind) bool { return v.logScale[k] }

// rateScale maps a rate track's values to y: linearly from 0 at the
// bottom to hi at the top, or on the log scale from lo (logDecades powers
// of ten below hi, a power of ten) at the bottom to hi at the top.
type rateScale struct {
	log          bool
	lo, hi       float64
	top, bottom  float64
	logLo, logHi float64 // log10 of lo and hi
}

// newRateScale returns the scale of a rate track whose peak in view is
// peak (> 0), plotted between top and bottom.
func newRateScale(log bool, peak float64, top, bottom int) rateScale {
	s := rateScale{log: log, hi: peak, top: float64(top), bottom: float64(bottom)}
	if log {
		s.logHi = math.Ceil(math.Log10(peak) - 1e-9)
		s.logLo = s.logHi - logDecades
		s.hi, s.lo = math.Pow(10, s.logHi), math.Pow(10, s.logLo)
	}
	return s
}

// y returns the height of value v: the bottom for 0, and on the log scale
// for anything at or below its floor.
func (s rateScale) y(v float64) float64 {
	h := s.bottom - s.top
	if !s.log {
		return s.bottom - v/s.hi*h
	}
	if v <= s.lo {
		return s.bottom
	}
	return s.bottom - (math.Log10(v)-s.logLo)/(s.logHi-s.logLo)*h
}

// logTicks returns the log scale's grid values (none on the linear
// scale): its powers of ten above the floor, or, with bytes, the powers of
// 1024 and 32 times them within it.
func (s rateScale) logTicks(bytes bool) []float64 {
	if !s.log {
		return nil
	}
	var out []float64
	if bytes {
		for p := 1.0; p <= s.hi; p *= 1024 {
			for _, v := range []float64{p, 32 * p} {
				if v > s.lo && v <= s.hi {
					out = append(out, v)
				}
			}
		}
		return out
	}
	for e := s.logLo + 1; e <= s.logHi; e++ {
		out = append(out, math.Pow(10, e))
	}
	return out
}

// drawLogGrid draws the log scale's grid lines, labelled by label at the
// plot's right end, as many as fit one under the other (nothing on the
// linear scale).
func (f *frame) drawLogGrid(s rateScale, bytes bool, label func(float64) string) {
	lastY := math.Inf(1)
	ticks := s.logTicks(bytes)
	for i := len(ticks) - 1; i >= 0; i-- { // from the top down
		y := int(s.y(ticks[i]))
		f.c.Fill(image.Rect(f.g.plot.Min.X, y, f.g.plot.Max.X, y+1), paint.WithAlpha(f.th.Grid, 0xa0))
		if math.IsInf(lastY, 1) || float64(y)-lastY >= float64(f.small.Height()) {
			text := label(ticks[i])
			paint.TextOnPlate(f.c, f.small, text, f.g.plot.Max.X-px(8, f.s)-f.small.Width(text), y+f.small.Ascent()/2, f.th.Dim, f.labelPlate())
			lastY = float64(y)
		}
	}
}

// scaleNote is the note of a rate track's scale: its peak in view and,
// when the view is not the whole run, the run's peak (in bins of runBin
// when it is not "": rates in coarser bins peak lower); "log scale" on it.
func (f *frame) scaleNote(peak, runPeak float64, format func(float64) string, runBin string, log bool) string {
	note := "peak " + format(peak)
	if f.from > 0 || f.to < f.v.runEnd() {
		note += " in view · run's " + format(runPeak)
		if runBin != "" {
			note += " in " + runBin + " bins"
		}
	}
	if log {
		note += " · log scale"
	}
	return note
}

// runPeakCache holds each HEC's highest spark rate over the whole run at
// overview bins, for a run end, plot width and bin.
type runPeakCache struct {
	end    uint64
	n, bin int
	peaks  map[int]float64
}

// sparkRunPeak returns HEC c's highest spark rate (any curve) over the
// whole run, in the bins of the run drawn across the plot (the overview's:
// a closer view's finer bins may peak higher), and how long those bins
// are; cached until the run, the plot's width or the bin changes.
func (f *frame) sparkRunPeak(c, bin int) (float64, string) {
	ov := f.v.overview()
	end := max(f.v.runEnd(), minSpan)
	binText := paint.Duration(uint64(float64(end) * float64(bin) / float64(max(f.n, 1))))
	if ov == nil || c >= len(ov.HECs) {
		return 0, binText
	}
	// The HECs' rows are drawn in parallel: the cache is theirs to share.
	f.v.runPeaksMu.Lock()
	defer f.v.runPeaksMu.Unlock()
	pc := &f.v.runPeaks
	if pc.end != end || pc.n != f.n || pc.bin != bin || pc.peaks == nil {
		*pc = runPeakCache{end: end, n: f.n, bin: bin, peaks: map[int]float64{}}
	}
	if p, ok := pc.peaks[c]; ok {
		return p, binText
	}
	ax := timeline.Axis{From: 0, To: end, X0: f.ax.X0, Width: f.ax.Width}
	peak := 0.0
	for _, r := range sparkRatesOn(&ov.HECs[c], ov.HECs[c].HasSparkEvents(), ax, f.n, bin) {
		for _, v := range r {
			peak = math.Max(peak, v)
		}
	}
	pc.peaks[c] = peak
	return peak, binText
}
