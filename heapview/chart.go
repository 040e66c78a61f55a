package heapview

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"
	"strings"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// Mode is how a Chart draws the bands.
type Mode uint8

const (
	// ModeArea stacks the bands: the top of the stack is the total.
	ModeArea Mode = iota
	// ModeNormalised stacks the bands scaled to 100 % at every instant,
	// showing each band's share of the profiled heap.
	ModeNormalised
	// ModeLines draws every band as its own line from zero.
	ModeLines
)

// String returns the mode's name as ParseMode reads it.
func (m Mode) String() string {
	switch m {
	case ModeArea:
		return "area"
	case ModeNormalised:
		return "normalised"
	case ModeLines:
		return "lines"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ParseMode reads a mode name: area, normalised (or normalized) or lines.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "area":
		return ModeArea, nil
	case "normalised", "normalized":
		return ModeNormalised, nil
	case "lines":
		return ModeLines, nil
	}
	return 0, fmt.Errorf("unknown heap chart mode %q (want area, normalised or lines)", s)
}

// Chart draws a heap profile's bands, the RTS's heap size, live-data and
// blocks lines over them, and the GC pauses as marks under the time axis.
// Either Bands or Heap may be nil.
type Chart struct {
	// Bands are the heap-profile bands; nil if there is no heap profile.
	Bands *Bands
	// Heap holds the heap counters and GCs; nil or empty if there are
	// none (as for a .hp file).
	Heap *Heap
	// Mode is how the bands are drawn. In ModeNormalised the heap lines
	// are left out: they have no share to show.
	Mode Mode
	// Title is written above the chart; empty for none.
	Title string
	// From and To bound the visible time in ns; To = 0 means the end of
	// the data (the last census, counter or GC), so the zero Chart shows
	// the whole run from time 0.
	From, To uint64
	// NoLegend leaves the legend out, giving the plot the whole width: for
	// a chart that must line up with other rows on one time axis, whose
	// viewer shows the bands' names and values elsewhere.
	NoLegend bool
	// Dark draws for dark surroundings (paint.Dark's background).
	Dark bool
}

// Layout says where a Chart puts things in an image, so that a viewer can
// map the pointer to a time (Axis.Time) and read the bands' values there
// (Bands.ValuesAt).
type Layout struct {
	// Plot is the area of the bands and lines.
	Plot image.Rectangle
	// GCStrip is the strip under the plot where GC pauses are marked.
	GCStrip image.Rectangle
	// Legend is the area of the legend; empty when the image is too
	// narrow for one.
	Legend image.Rectangle
	// Axis maps time to x over Plot.
	Axis timeline.Axis
	// Top is the value at the top of Plot: bytes, or 100 (percent) in
	// ModeNormalised.
	Top float64
	// Ticks are the value-axis ticks.
	Ticks []ValueTick
}

// Sizes of the chart's furniture, in pixels.
const (
	pad         = 8
	titleHeight = 20
	labelHeight = 16
	gcStrip     = 8
	legendRow   = 16
)

// Colours of the chart's lines.
var (
	liveColor  = color.RGBA{0x1f, 0x4e, 0xb4, 0xff}
	blockColor = color.RGBA{0x8a, 0x5a, 0x00, 0xff}
	minorGC    = color.RGBA{0xf0, 0xa0, 0x40, 0xff}
	majorGC    = color.RGBA{0xc0, 0x20, 0x20, 0xff}
)

// furniture is the colours of a chart's background, text, grid and frame,
// and of its heap-size line, for light or dark surroundings.
type furniture struct {
	background, text, dim, grid, frame, size color.RGBA
}

var (
	lightFurniture = furniture{
		background: paint.Light.Background,
		text:       color.RGBA{0x22, 0x22, 0x22, 0xff},
		dim:        color.RGBA{0x70, 0x70, 0x70, 0xff},
		grid:       paint.Light.Grid,
		frame:      color.RGBA{0xa0, 0xa0, 0xa0, 0xff},
		size:       paint.Light.Line,
	}
	darkFurniture = furniture{
		background: paint.Dark.Background,
		text:       paint.Dark.Text,
		dim:        color.RGBA{0x9c, 0x9c, 0xa0, 0xff},
		grid:       paint.Dark.Grid,
		frame:      color.RGBA{0x68, 0x68, 0x6c, 0xff},
		size:       paint.Dark.Line,
	}
)

// furnitureFor returns the chart colours for dark or light surroundings.
func furnitureFor(dark bool) furniture {
	if dark {
		return darkFurniture
	}
	return lightFurniture
}

// heapLine is one heap counter drawn as a line.
type heapLine struct {
	name   string
	series *Series
	color  color.RGBA
}

func (c *Chart) heapLines() []heapLine {
	if c.Heap == nil || c.Mode == ModeNormalised {
		return nil
	}
	var out []heapLine
	for _, l := range []heapLine{
		{"heap size", &c.Heap.Size, furnitureFor(c.Dark).size},
		{"blocks size", &c.Heap.Blocks, blockColor},
		{"live data", &c.Heap.Live, liveColor},
	} {
		if l.series.Len() > 0 {
			out = append(out, l)
		}
	}
	return out
}

// span returns the time range the chart shows (an empty range is widened
// by the axis).
func (c *Chart) span() (uint64, uint64) {
	if c.To == 0 {
		return c.From, c.end()
	}
	return c.From, c.To
}

// end returns the time of the last thing the chart has data for.
func (c *Chart) end() uint64 {
	var end uint64
	if c.Bands != nil {
		if _, to, ok := c.Bands.Span(); ok {
			end = max(end, to)
		}
	}
	if h := c.Heap; h != nil {
		for _, s := range []*Series{&h.Size, &h.Live, &h.Blocks, &h.Allocated} {
			if n := s.Len(); n > 0 {
				end = max(end, s.Time[n-1])
			}
		}
		if n := len(h.GCs); n > 0 {
			end = max(end, h.GCs[n-1].End)
		}
	}
	return end
}

// Layout places the chart in bounds.
func (c *Chart) Layout(bounds image.Rectangle) (Layout, error) {
	tf, err := labelFace()
	if err != nil {
		return Layout{}, err
	}
	var l Layout
	top := bounds.Min.Y + pad
	if c.Title != "" {
		top += titleHeight
	}
	bottom := bounds.Max.Y - pad - labelHeight - gcStrip
	right := bounds.Max.X - pad
	if bounds.Dx() >= 480 && !c.NoLegend {
		lw := min(340, max(170, bounds.Dx()/4))
		l.Legend = image.Rect(right-lw, top, right, bottom+gcStrip+labelHeight)
		right -= lw + pad
	}
	plotH := max(1, bottom-top)
	l.Top, l.Ticks = c.valueScale(plotH)
	labelW := 0
	for _, t := range l.Ticks {
		labelW = max(labelW, tf.width(t.Label))
	}
	left := bounds.Min.X + pad + labelW + 6
	if right <= left {
		right = left + 1
	}
	l.Plot = image.Rect(left, top, right, top+plotH)
	l.GCStrip = image.Rect(left, l.Plot.Max.Y+1, right, l.Plot.Max.Y+1+gcStrip-2)
	from, to := c.span()
	l.Axis = timeline.NewAxis(from, to, float64(left), float64(right-left))
	return l, nil
}

// valueScale returns the value at the top of a plot h pixels high and its
// ticks.
func (c *Chart) valueScale(h int) (float64, []ValueTick) {
	n := max(2, h/60)
	if c.Mode == ModeNormalised && c.Bands != nil {
		return 100, PercentTicks(n)
	}
	from, to := c.span()
	var m float64
	if bd := c.Bands; bd != nil {
		a, b := bd.indexRange(from, to)
		for s := a; s < b; s++ {
			if c.Mode == ModeLines {
				for k := 0; k < bd.Len(); k++ {
					m = math.Max(m, float64(bd.Value(k, s)))
				}
			} else {
				m = math.Max(m, float64(bd.Total(s)))
			}
		}
	}
	for _, hl := range c.heapLines() {
		a, b := hl.series.indexRange(from, to)
		for i := a; i < b; i++ {
			m = math.Max(m, float64(hl.series.Value[i]))
		}
	}
	if m == 0 {
		// Nothing to scale (no data, or all zero): a bare axis.
		return 1024, []ValueTick{{Value: 0, Label: "0"}}
	}
	ticks := ByteTicks(m*1.04, n)
	return m * 1.04, ticks
}

// indexRange returns the samples that bear on [from, to]: those inside it
// and one on either side, which the lines to the edges come from.
func (bd *Bands) indexRange(from, to uint64) (int, int) {
	return timeRange(bd.times, from, to)
}

func (s *Series) indexRange(from, to uint64) (int, int) {
	return timeRange(s.Time, from, to)
}

func timeRange(t []uint64, from, to uint64) (int, int) {
	a := sort.Search(len(t), func(i int) bool { return t[i] >= from })
	b := sort.Search(len(t), func(i int) bool { return t[i] > to })
	return max(0, a-1), min(len(t), b+1)
}

// Render draws the chart into a new w×h image.
func (c *Chart) Render(w, h int) (*image.RGBA, error) {
	if w < 1 || h < 1 {
		return nil, fmt.Errorf("heap chart: image size %d×%d", w, h)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if err := c.Draw(img); err != nil {
		return nil, err
	}
	return img, nil
}

// Draw draws the chart over the whole of img. The only error is failing
// to load the built-in font.
func (c *Chart) Draw(img *image.RGBA) error {
	k := furnitureFor(c.Dark)
	tf, err := labelFace()
	if err != nil {
		return err
	}
	l, err := c.Layout(img.Bounds())
	if err != nil {
		return err
	}
	fillRect(img, img.Bounds(), k.background)
	p := l.Plot

	// Grid.
	ticks := l.Axis.Ticks(90)
	for _, t := range l.Ticks {
		y := c.yOf(l, t.Value)
		fillRect(img, image.Rect(p.Min.X, int(y), p.Max.X, int(y)+1), k.grid)
	}
	for _, t := range ticks {
		if t.Major {
			x := int(t.X)
			fillRect(img, image.Rect(x, p.Min.Y, x+1, p.Max.Y), k.grid)
		}
	}

	var colors []color.RGBA
	if c.Bands != nil && c.Bands.Samples() > 0 && c.Bands.Len() > 0 {
		colors = BandColors(c.Bands)
		if c.Mode == ModeLines {
			c.drawBandLines(img, l, colors)
		} else {
			c.drawStack(img, l, colors)
		}
	}
	for _, hl := range c.heapLines() {
		c.drawSeries(img, l, hl.series, hl.color)
	}
	c.drawGCs(img, l)

	// Frame and axes.
	strokeRect(img, p.Inset(-1), k.frame)
	for _, t := range l.Ticks {
		y := int(c.yOf(l, t.Value))
		w := tf.width(t.Label)
		tf.draw(img, img.Bounds(), p.Min.X-6-w, y+tf.ascent/2-1, t.Label, k.text)
		fillRect(img, image.Rect(p.Min.X-4, y, p.Min.X-1, y+1), k.frame)
	}
	labelY := l.GCStrip.Max.Y + 2 + tf.ascent
	for _, t := range ticks {
		x := int(t.X)
		h := 3
		if t.Major {
			h = 5
		}
		fillRect(img, image.Rect(x, l.GCStrip.Max.Y, x+1, l.GCStrip.Max.Y+h), k.frame)
		if t.Major {
			w := tf.width(t.Label)
			tx := min(max(x-w/2, p.Min.X-w/2), p.Max.X-w/2)
			tf.draw(img, img.Bounds(), tx, labelY, t.Label, k.text)
		}
	}
	if c.Title != "" {
		tf.draw(img, image.Rect(img.Bounds().Min.X, 0, p.Max.X, img.Bounds().Max.Y), p.Min.X, img.Bounds().Min.Y+pad+tf.ascent, c.Title, k.text)
	}
	if colors == nil && len(c.heapLines()) == 0 {
		msg := "no heap data"
		if c.Mode == ModeNormalised && c.Heap != nil && !c.Heap.Empty() {
			msg = "no heap profile to normalise"
		}
		tf.draw(img, p, p.Min.X+(p.Dx()-tf.width(msg))/2, p.Min.Y+p.Dy()/2, msg, k.dim)
	}
	if !l.Legend.Empty() {
		c.drawLegend(img, l, tf, colors)
	}
	return nil
}

// yOf returns the y of value v on the plot.
func (c *Chart) yOf(l Layout, v float64) float64 {
	p := l.Plot
	return float64(p.Max.Y) - v/l.Top*float64(p.Dy())
}

// bandCursor interpolates all bands at increasing times.
type bandCursor struct {
	bd   *Bands
	i    int // first sample at or after the last time asked
	vals []float64
}

// at fills cur.vals with the bands' values at t, interpolated linearly, and
// reports false outside the sampled span. Times must not decrease between
// calls.
func (cur *bandCursor) at(t uint64) bool {
	bd := cur.bd
	ns := len(bd.times)
	if ns == 0 || t < bd.times[0] || t > bd.times[ns-1] {
		return false
	}
	for cur.i < ns && bd.times[cur.i] < t {
		cur.i++
	}
	i := cur.i
	if bd.times[i] == t {
		for i+1 < ns && bd.times[i+1] == t {
			i++
		}
		for b := range cur.vals {
			cur.vals[b] = float64(bd.values[b*ns+i])
		}
		return true
	}
	t0, t1 := bd.times[i-1], bd.times[i]
	f := float64(t-t0) / float64(t1-t0)
	for b := range cur.vals {
		v0, v1 := float64(bd.values[b*ns+i-1]), float64(bd.values[b*ns+i])
		cur.vals[b] = v0 + (v1-v0)*f
	}
	return true
}

// drawStack draws the bands stacked, band 0 at the bottom, one pixel
// column at a time with anti-aliased band edges.
func (c *Chart) drawStack(img *image.RGBA, l Layout, colors []color.RGBA) {
	p := l.Plot
	bd := c.Bands
	cur := bandCursor{bd: bd, vals: make([]float64, bd.Len())}
	scale := float64(p.Dy()) / l.Top
	for x := p.Min.X; x < p.Max.X; x++ {
		if !cur.at(l.Axis.Time(float64(x) + 0.5)) {
			continue
		}
		s := scale
		if c.Mode == ModeNormalised {
			var total float64
			for _, v := range cur.vals {
				total += v
			}
			if total == 0 {
				continue
			}
			s = float64(p.Dy()) / total
		}
		y := float64(p.Max.Y)
		for b, v := range cur.vals {
			if v <= 0 {
				continue
			}
			top := y - v*s
			fillColumn(img, p, x, top, y, colors[b])
			y = top
		}
	}
}

// drawBandLines draws every band as a line from zero, OTHER and the
// smallest bands first so the big ones stay on top.
func (c *Chart) drawBandLines(img *image.RGBA, l Layout, colors []color.RGBA) {
	p := l.Plot
	bd := c.Bands
	cur := bandCursor{bd: bd, vals: make([]float64, bd.Len())}
	prev := make([]float64, bd.Len())
	have := false
	for x := p.Min.X; x < p.Max.X; x++ {
		if !cur.at(l.Axis.Time(float64(x) + 0.5)) {
			have = false
			continue
		}
		for b := bd.Len() - 1; b >= 0; b-- {
			y := c.yOf(l, cur.vals[b])
			py := y
			if have {
				py = prev[b]
			}
			lineColumn(img, p, x, py, y, 2, colors[b])
			prev[b] = y
		}
		have = true
	}
}

// drawSeries draws a heap counter as a step line: each value holds until
// the next measurement, the last one until the end of the data. Where many
// measurements fall in one pixel column the column shows their maximum, so
// that peaks are never lost.
func (c *Chart) drawSeries(img *image.RGBA, l Layout, s *Series, col color.RGBA) {
	drawStep(l.Plot, l.Axis, s, c.end(), func(v float64) float64 { return c.yOf(l, v) },
		func(x int, y, prev float64) { lineColumn(img, l.Plot, x, prev, y, 2, col) })
}

// drawStep walks the plot's columns of series s on axis ax, calling col for
// each column where the series has a value (the largest in the column, or
// the last one before it, held until end or the last measurement), with its
// y and the previous column's y (its own y where a stretch begins).
func drawStep(p image.Rectangle, ax timeline.Axis, s *Series, end uint64, yOf func(float64) float64, col func(x int, y, prev float64)) {
	n := s.Len()
	if n == 0 {
		return
	}
	last := max(s.Time[n-1], end)
	i := 0
	var prev float64
	have := false
	x0 := max(p.Min.X, int(math.Floor(ax.X0)))
	x1 := min(p.Max.X, int(math.Ceil(ax.X0+ax.Width)))
	for x := x0; x < x1; x++ {
		t0, t1 := ax.Time(float64(x)), ax.Time(float64(x+1))
		for i < n && s.Time[i] <= t0 {
			i++
		}
		v, ok := 0.0, false
		if i > 0 && t0 <= last {
			v, ok = float64(s.Value[i-1]), true
		}
		for j := i; j < n && s.Time[j] < t1; j++ {
			v, ok = math.Max(v, float64(s.Value[j])), true
		}
		if !ok {
			have = false
			continue
		}
		y := yOf(v)
		if !have {
			prev = y
		}
		col(x, y, prev)
		prev, have = y, true
	}
}

// drawGCs marks each GC pause in the strip under the plot: orange for minor
// GCs, red for major ones, at least one pixel wide.
func (c *Chart) drawGCs(img *image.RGBA, l Layout) {
	if c.Heap == nil {
		return
	}
	s := l.GCStrip
	for i := range c.Heap.GCs {
		g := &c.Heap.GCs[i]
		if g.End < l.Axis.From || g.Start > l.Axis.To {
			continue
		}
		x0 := int(math.Floor(l.Axis.X(g.Start)))
		x1 := max(x0+1, int(math.Ceil(l.Axis.X(g.End))))
		col := minorGC
		if g.Major() {
			col = majorGC
		}
		fillRect(img, image.Rect(max(x0, s.Min.X), s.Min.Y, min(x1, s.Max.X), s.Max.Y), col)
	}
}

// drawLegend lists the bands with their colours and peak values, then the
// heap lines and GC marks.
func (c *Chart) drawLegend(img *image.RGBA, l Layout, tf *typeface, colors []color.RGBA) {
	k := furnitureFor(c.Dark)
	r := l.Legend
	x := r.Min.X + 4
	y := r.Min.Y + tf.ascent
	row := func(swatch func(x, y int), name, value string, col color.RGBA) bool {
		if y+tf.descent > r.Max.Y-legendRow {
			return false
		}
		swatch(x, y-tf.ascent+1)
		vw := 0
		if value != "" {
			vw = tf.width(value)
			tf.draw(img, r, r.Max.X-vw, y, value, k.dim)
			vw += 8
		}
		tx := x + 18
		tf.draw(img, r, tx, y, tf.fit(name, r.Max.X-vw-tx), col)
		y += legendRow
		return true
	}
	box := func(col color.RGBA) func(x, y int) {
		return func(x, y int) {
			fillRect(img, image.Rect(x, y, x+12, y+11), col)
			strokeRect(img, image.Rect(x, y, x+12, y+11), k.frame)
		}
	}
	if bd := c.Bands; bd != nil && len(colors) > 0 {
		head := fmt.Sprintf("%d bands", bd.Len())
		if bd.Dropped() > 0 {
			head = fmt.Sprintf("%d bands, %d more in OTHER", bd.Len()-1, bd.Dropped())
		}
		tf.draw(img, r, x, y, tf.fit(head+" · peak", r.Dx()-8), k.dim)
		y += legendRow
		for b := 0; b < bd.Len(); b++ {
			var peak uint64
			for _, v := range bd.Row(b) {
				peak = max(peak, v)
			}
			if !row(box(colors[b]), bd.Name(b), FormatBytes(peak), k.text) {
				tf.draw(img, r, x, y, "…", k.dim)
				y += legendRow
				break
			}
		}
		y += legendRow / 2
	}
	for _, hl := range c.heapLines() {
		col := hl.color
		row(func(x, y int) { fillRect(img, image.Rect(x, y+4, x+12, y+6), col) }, hl.name, FormatBytes(hl.series.Max()), k.text)
	}
	if c.Heap != nil && c.Heap.Allocated.Len() > 0 {
		a := &c.Heap.Allocated
		total, end := a.Value[a.Len()-1], a.Time[a.Len()-1]
		rate := ""
		if end > 0 {
			rate = FormatRate(float64(total) / (float64(end) / 1e9))
		}
		row(func(int, int) {}, "allocated "+FormatBytes(total), rate, k.dim)
	}
	if c.Heap != nil && len(c.Heap.GCs) > 0 {
		row(box(minorGC), "minor GC", "", k.text)
		row(box(majorGC), fmt.Sprintf("major GC (%d GCs, %s paused)", len(c.Heap.GCs),
			timeline.FormatDuration(c.Heap.PauseTotal())), "", k.text)
	}
	clock := "time: elapsed since start"
	if c.Bands != nil && c.Bands.Source == FromHP {
		clock = "time: mutator CPU (.hp)"
	}
	tf.draw(img, r, x, r.Max.Y-tf.descent-1, tf.fit(clock, r.Dx()-8), k.dim)
}

// fillRect paints r (clipped to img) with c.
func fillRect(img *image.RGBA, r image.Rectangle, c color.RGBA) { paint.FillRect(img, r, c) }

// strokeRect draws the one-pixel outline of r.
func strokeRect(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	fillRect(img, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+1), c)
	fillRect(img, image.Rect(r.Min.X, r.Max.Y-1, r.Max.X, r.Max.Y), c)
	fillRect(img, image.Rect(r.Min.X, r.Min.Y, r.Min.X+1, r.Max.Y), c)
	fillRect(img, image.Rect(r.Max.X-1, r.Min.Y, r.Max.X, r.Max.Y), c)
}

// fillColumn paints column x from y = top down to y = bottom (top <
// bottom, fractional), clipped to clip; the partly covered pixels at both
// ends are blended by their coverage.
func fillColumn(img *image.RGBA, clip image.Rectangle, x int, top, bottom float64, c color.RGBA) {
	paint.FillColumn(img, clip, x, top, bottom, c)
}

// lineColumn draws the part of a line of the given width that crosses
// column x, going from y0 at the column's left edge to y1 at its right.
func lineColumn(img *image.RGBA, clip image.Rectangle, x int, y0, y1, width float64, c color.RGBA) {
	lo, hi := math.Min(y0, y1), math.Max(y0, y1)
	fillColumn(img, clip, x, lo-width/2, hi+width/2, c)
}

// BandAt is the hover read-out: for the pointer at (x, y) in an image laid
// out as l, it returns the time under the pointer and the band drawn there
// (the band whose stacked span holds y, or in ModeLines the line within
// 4 pixels of y), or -1 if there is none. ok is false when x is outside
// the sampled span; the values of every band at t are Bands.ValuesAt(t).
func (c *Chart) BandAt(l Layout, x, y int) (t uint64, band int, ok bool) {
	t = l.Axis.Time(float64(x) + 0.5)
	if c.Bands == nil || !image.Pt(x, y).In(l.Plot) {
		return t, -1, false
	}
	cur := bandCursor{bd: c.Bands, vals: make([]float64, c.Bands.Len())}
	if !cur.at(t) {
		return t, -1, false
	}
	fy := float64(y) + 0.5
	switch c.Mode {
	case ModeLines:
		best, bestD := -1, 4.0
		for b, v := range cur.vals {
			if d := math.Abs(c.yOf(l, v) - fy); d <= bestD {
				best, bestD = b, d
			}
		}
		return t, best, true
	default:
		var total float64
		for _, v := range cur.vals {
			total += v
		}
		scale := 1.0 // of value to plot units
		if c.Mode == ModeNormalised {
			if total == 0 {
				return t, -1, true
			}
			scale = 100 / total
		}
		var sum float64
		for b, v := range cur.vals {
			lo := c.yOf(l, sum*scale)
			sum += v
			if hi := c.yOf(l, sum*scale); v > 0 && fy <= lo && fy >= hi {
				return t, b, true
			}
		}
		return t, -1, true
	}
}
