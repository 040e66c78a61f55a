package timeline

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"
)

// CompareOptions says how RenderCompare draws two runs.
type CompareOptions struct {
	// View is the timeline view drawn for each run (one of Views(); ""
	// means "timeline").
	View string
	// Width and Height are the image size in device pixels.
	Width, Height int
	// Scale is the device pixel ratio (0 means 1).
	Scale float64
	// AlignA and AlignB are the times (ns) of run A and run B drawn at the
	// same x: both 0 aligns the runs at their start; the times of a marker
	// (FindMarker) align them there.
	AlignA, AlignB uint64
	// AlignLabel describes the alignment in the picture ("" for the start).
	AlignLabel string
	// From and To bound the part of the shared time scale shown (see
	// CompareSpan); both 0 show both runs whole.
	From, To uint64
	// OmitTable leaves the table of differences out (for a viewer that
	// shows it beside the picture): the distributions then sit side by
	// side in a lower strip, leaving the timelines more room.
	OmitTable bool
	// Dark draws for dark surroundings (the Dark palette).
	Dark bool
}

// Colours that tell the two runs and the verdicts apart.
var (
	ColourRunA   = color.RGBA{0x2a, 0x5c, 0xaa, 0xff} // run A: blue
	ColourRunB   = color.RGBA{0xd9, 0x7a, 0x00, 0xff} // run B: amber
	ColourBetter = color.RGBA{0x1a, 0x8a, 0x3a, 0xff} // B improves on A
	ColourWorse  = color.RGBA{0xc0, 0x28, 0x28, 0xff} // B is worse than A
	ColourSame   = color.RGBA{0x70, 0x70, 0x70, 0xff} // no change, or neither good nor bad
)

// VerdictColour returns the colour a comparison row's change is drawn in.
func VerdictColour(v Verdict) color.RGBA {
	switch v {
	case VerdictBetter:
		return ColourBetter
	case VerdictWorse:
		return ColourWorse
	}
	return ColourSame
}

// FindMarker returns the time of the earliest user marker of the run whose
// text contains text (the first exact match wins over an earlier partial
// one), and whether there is one.
func FindMarker(m *Model, text string) (uint64, bool) {
	var best, exact uint64
	found, foundExact := false, false
	try := func(in Instant) {
		if in.Kind != InstantUserMarker {
			return
		}
		s := m.String(int32(in.Arg))
		if s == text && (!foundExact || in.Time < exact) {
			exact, foundExact = in.Time, true
		}
		if strings.Contains(s, text) && (!found || in.Time < best) {
			best, found = in.Time, true
		}
	}
	for c := range m.HECs {
		h := &m.HECs[c]
		for i := 0; i < h.NumInstants(); i++ {
			try(h.Instant(i))
		}
	}
	for i := 0; i < m.NumGlobalInstants(); i++ {
		try(m.GlobalInstant(i))
	}
	if foundExact {
		return exact, true
	}
	return best, found
}

// RenderCompare draws two runs for comparison: a headline of the main
// differences and a bar per run whose length is its wall time, split into
// the HECs' running, GC and idle time; the two runs' timelines stacked on
// one time scale (aligned at AlignA/AlignB); the table of differences
// coloured better/worse; and the GC pause and thread run distributions of
// both runs over the same bins. c is Compare(a, b); both runs need models.
func RenderCompare(a, b *Run, c *Comparison, opt CompareOptions) (*image.RGBA, error) {
	if opt.Width < 400 || opt.Height < 300 || opt.Width > 1<<14 || opt.Height > 1<<14 {
		return nil, fmt.Errorf("rendering comparison: image size %dx%d out of range (400x300..16384)", opt.Width, opt.Height)
	}
	if a.Model == nil || b.Model == nil {
		return nil, fmt.Errorf("rendering comparison: a run has no timeline model")
	}
	if a.Model.End < opt.AlignA || b.Model.End < opt.AlignB {
		return nil, fmt.Errorf("rendering comparison: alignment time after the end of a run")
	}
	s := opt.Scale
	if !(s > 0) {
		s = 1
	}
	img := image.NewRGBA(image.Rect(0, 0, opt.Width, opt.Height))
	cr := newRenderer(img, nil, 0, 1, s, PaletteFor(opt.Dark))
	cr.fill(0, 0, cr.w, cr.h, cr.pal.Background)

	// Furniture heights: headline and bars, then the two timelines, then the
	// table and distributions.
	head := cr.drawCompareHead(a, b, c)
	bottomH := max(int(float64(opt.Height)*0.36), int(160*s))
	if opt.OmitTable {
		bottomH = max(int(float64(opt.Height)*0.2), int(110*s))
	}
	room := opt.Height - head - bottomH
	if room < int(160*s) {
		return nil, fmt.Errorf("rendering comparison: image height %d too small", opt.Height)
	}
	heights := panelHeights(room, s, len(a.Model.HECs), len(b.Model.HECs))

	axA, axB := CompareAxes(opt.Width, s, opt.Span(a.Model.End, b.Model.End))
	for i, run := range []*Run{a, b} {
		ax := axA
		if i == 1 {
			ax = axB
		}
		panelH := heights[i]
		panel, err := renderPanel(run.Model, opt.View, opt.Width, panelH, s, ax, PaletteFor(opt.Dark))
		if err != nil {
			return nil, fmt.Errorf("rendering comparison: run %s: %w", run.Name, err)
		}
		y := head + heights[0]*i
		draw.Draw(img, panel.Bounds().Add(image.Pt(0, y)), panel, image.Point{}, draw.Src)
		// A coloured tab on the left edge says which run the panel shows.
		col, tag := ColourRunA, "A"
		if i == 1 {
			col, tag = ColourRunB, "B"
		}
		cr.fill(0, y+int(2*s), int(4*s), y+panelH-int(2*s), col)
		// The name goes left of the panel's key, where the view draws nothing.
		cr.text(tag+": "+cr.fit(run.Name, float64(cr.gutter)-24*s), 8*s, float64(y+panelH)-11*s, 0, 0.5, col)
		cr.fill(0, y+panelH-1, cr.w, y+panelH, cr.pal.RowRule)
	}
	if opt.AlignLabel != "" {
		cr.text(opt.AlignLabel, float64(cr.w)-8*s, float64(head)-6*s, 1, 0, ColourMarker)
	}

	y0 := head + heights[0] + heights[1] + int(6*s)
	if opt.OmitTable {
		// The distributions side by side.
		mid := cr.w / 2
		cr.drawHistogram(&c.GCPauses, int(8*s), y0, mid-int(12*s), opt.Height-int(4*s))
		cr.drawHistogram(&c.ThreadRuns, mid+int(12*s), y0, cr.w-int(8*s), opt.Height-int(4*s))
		return img, nil
	}
	// Table on the left, distributions on the right.
	tableW := cr.w * 31 / 50
	cr.drawDiffTable(c, int(8*s), y0, tableW-int(8*s), opt.Height-int(4*s))
	hx := tableW + int(12*s)
	hh := (opt.Height - y0 - int(8*s)) / 2
	cr.drawHistogram(&c.GCPauses, hx, y0, cr.w-int(8*s), y0+hh-int(4*s))
	cr.drawHistogram(&c.ThreadRuns, hx, y0+hh+int(4*s), cr.w-int(8*s), opt.Height-int(4*s))
	return img, nil
}

// CompareSpan is the time scale two runs share in a comparison: shared
// time s shows run A's time s − Lead() + AlignA and run B's time s − Lead()
// + AlignB, so that the alignment points coincide at s = Lead(); it runs
// from 0 to Length(), covering both runs whole. [From, To] is the part
// shown (To = 0: up to Length()); zooming or panning it moves both runs
// alike.
type CompareSpan struct {
	// AlignA and AlignB are the runs' aligned times (ns); EndA and EndB
	// their ends.
	AlignA, AlignB, EndA, EndB uint64
	// From and To bound the visible shared time (ns).
	From, To uint64
}

// minCompareView is the shortest visible span zooming reaches (ns).
const minCompareView = 1000

// Lead returns the longer of the runs' times before their alignment points.
func (sp CompareSpan) Lead() uint64 {
	return max(min(sp.AlignA, sp.EndA), min(sp.AlignB, sp.EndB))
}

// Length returns the shared time covering both runs whole (at least 1).
func (sp CompareSpan) Length() uint64 {
	a, b := min(sp.AlignA, sp.EndA), min(sp.AlignB, sp.EndB)
	return max(sp.Lead()+max(sp.EndA-a, sp.EndB-b), 1)
}

// View returns the visible shared time, clamped to [0, Length()] and at
// least a nanosecond long.
func (sp CompareSpan) View() (from, to uint64) {
	n := sp.Length()
	from, to = min(sp.From, n-1), sp.To
	if to == 0 || to > n {
		to = n
	}
	if to <= from {
		to = from + 1
	}
	return from, to
}

// Zoom returns the span zoomed by factor (< 1 zooms in) around shared time
// at, which stays where it is on screen; the view stays inside the runs and
// no shorter than a microsecond.
func (sp CompareSpan) Zoom(factor float64, at uint64) CompareSpan {
	from, to := sp.View()
	n := float64(sp.Length())
	if !(factor > 0) {
		return sp
	}
	at = min(max(at, from), to)
	width := math.Min(math.Max(float64(to-from)*factor, math.Min(minCompareView, n)), n)
	left := float64(at) - float64(at-from)/float64(to-from)*width
	left = math.Min(math.Max(left, 0), n-width)
	sp.From, sp.To = uint64(left), uint64(left+width)
	if sp.From == 0 && sp.To >= uint64(n) {
		sp.To = 0
	}
	return sp
}

// Pan returns the span moved by delta ns of shared time (negative: to the
// left), kept inside the runs.
func (sp CompareSpan) Pan(delta float64) CompareSpan {
	from, to := sp.View()
	width := float64(to - from)
	n := float64(sp.Length())
	left := math.Min(math.Max(float64(from)+delta, 0), n-width)
	sp.From, sp.To = uint64(left), uint64(left+width)
	if sp.From == 0 && sp.To >= uint64(n) {
		sp.To = 0
	}
	return sp
}

// comparePlot returns the plot's left pixel and width in an image width
// pixels wide at scale s (as the timeline views lay it out).
func comparePlot(width int, s float64) (gutter, plotW int) {
	if !(s > 0) {
		s = 1
	}
	gutter = min(int(110*s), width/4)
	return gutter, max(width-gutter-int(8*s), 1)
}

// TimeAt returns the shared time at pixel x of a comparison picture width
// pixels wide at scale s, clamped to the visible span.
func (sp CompareSpan) TimeAt(x float64, width int, s float64) uint64 {
	gutter, plotW := comparePlot(width, s)
	from, to := sp.View()
	f := math.Min(math.Max((x-float64(gutter))/float64(plotW), 0), 1)
	return from + uint64(f*float64(to-from))
}

// PixelsPerNs returns how many pixels a ns of shared time takes in a
// picture width pixels wide at scale s.
func (sp CompareSpan) PixelsPerNs(width int, s float64) float64 {
	_, plotW := comparePlot(width, s)
	from, to := sp.View()
	return float64(plotW) / float64(to-from)
}

// Span returns the shared time scale of the options for runs ending at
// endA and endB.
func (opt CompareOptions) Span(endA, endB uint64) CompareSpan {
	return CompareSpan{AlignA: opt.AlignA, AlignB: opt.AlignB, EndA: endA, EndB: endB, From: opt.From, To: opt.To}
}

// CompareAxes returns the axes on which RenderCompare (and a heap chart
// drawn under it) puts runs A and B in an image width pixels wide at scale
// s: one ns is as wide in both, and time AlignA of A and time AlignB of B
// fall on the same x. Each axis covers the part of its run inside the
// visible span; a run that starts later in shared time than the view (the
// one with the shorter lead-in) starts further right. A run wholly outside
// the view gets an empty axis at the plot's right edge.
func CompareAxes(width int, s float64, sp CompareSpan) (Axis, Axis) {
	gutter, plotW := comparePlot(width, s)
	from, to := sp.View()
	lead := sp.Lead()
	ppn := float64(plotW) / float64(to-from)
	axis := func(align, end uint64) Axis {
		align = min(align, end)
		// Run time t is at shared time t + lead − align.
		off := lead - align
		if to <= off {
			return NewAxis(0, 1, float64(gutter+plotW), 1)
		}
		rFrom := uint64(0)
		x0 := float64(gutter) + float64(off-min(off, from))*ppn
		if from > off {
			rFrom = from - off
		}
		rTo := to - off
		return NewAxis(rFrom, rTo, x0, float64(rTo-rFrom)*ppn)
	}
	return axis(sp.AlignA, sp.EndA), axis(sp.AlignB, sp.EndB)
}

// panelHeights shares room pixels between the two runs' panels in
// proportion to the height at which the timeline view draws each run's
// activity graph and all its HEC rows at full height (60 px at scale 1):
// a run with more HECs gets a taller panel.
func panelHeights(room int, s float64, hecsA, hecsB int) [2]int {
	need := func(hecs int) float64 {
		n := float64(max(hecs, 1))
		// Axis and key (46), a gap (4), rows of 60 with a spare 6, and the
		// activity graph of a quarter of the rest, at most 90.
		rows := 60*n + 6
		return s * (46 + rows + math.Min(90, rows/3))
	}
	na, nb := need(hecsA), need(hecsB)
	a := int(float64(room) * na / (na + nb))
	return [2]int{a, room - a}
}

// renderPanel draws one run's timeline view on axis ax (from CompareAxes):
// the view's gutter and plot are moved to where the axis puts them.
func renderPanel(m *Model, view string, w, h int, s float64, ax Axis, pal Palette) (*image.RGBA, error) {
	if view == "" {
		view = "timeline"
	}
	drawView, ok := viewFuncs[view]
	if !ok {
		return nil, fmt.Errorf("unknown view %q (views: %s)", view, strings.Join(Views(), ", "))
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := newRenderer(img, m, 0, 1, s, pal)
	r.gutter = int(math.Round(ax.X0))
	r.plotW = max(int(math.Round(ax.Width)), 1)
	r.ax = NewAxis(ax.From, ax.To, float64(r.gutter), float64(r.plotW))
	r.fill(0, 0, r.w, r.h, r.pal.Background)
	drawView(r)
	return img, nil
}

// drawCompareHead draws the headline (the verdict on wall time,
// productivity and GC time) and the two runs' time bars; it returns the
// height it used.
func (r *renderer) drawCompareHead(a, b *Run, c *Comparison) int {
	s := r.s
	y := 16 * s
	var parts []string
	wall := findRow(c, "Wall time")
	if wall != nil && wall.HasA && wall.HasB {
		if rel, ok := wall.Relative(); ok {
			word := "slower"
			if rel < 0 {
				word = "faster"
			}
			parts = append(parts, fmt.Sprintf("B is %.1f%% %s than A (%s vs %s)", 100*math.Abs(rel), word,
				FormatDuration(uint64(wall.B)), FormatDuration(uint64(wall.A))))
		}
	}
	headColour := ColourSame
	if wall != nil {
		headColour = VerdictColour(wall.Verdict())
	}
	for _, name := range []string{"Productivity", "GC time"} {
		if row := findRow(c, name); row != nil && row.HasA && row.HasB {
			parts = append(parts, fmt.Sprintf("%s %s → %s", name,
				showCompareValue(row.A, row.Unit), showCompareValue(row.B, row.Unit)))
		}
	}
	if len(parts) > 0 {
		r.text(parts[0], 8*s, y, 0, 0.5, headColour)
		if len(parts) > 1 {
			r.text(strings.Join(parts[1:], ",  "), 8*s+r.textWidth(parts[0])+24*s, y, 0, 0.5, r.pal.Text)
		}
	}
	y += 14 * s

	// Bars: length ∝ wall time; split by the HECs' share of running, GC
	// and idle time.
	longest := max(a.Model.End, b.Model.End, 1)
	barX := float64(r.gutter)
	// Room is left after the longer bar for its label.
	barW := math.Max((float64(r.w)-barX-8*s)*0.6, 1)
	for i, run := range []*Run{a, b} {
		col, tag := ColourRunA, "A"
		if i == 1 {
			col, tag = ColourRunB, "B"
		}
		r.text(tag+": "+r.fit(run.Name, barX-24*s), 8*s, y+6*s, 0, 0.5, col)
		m := run.Model
		var d Durations
		for _, hd := range m.RangeTimes(0, m.End) {
			d.add(&hd)
		}
		total := float64(d.Total())
		w := barW * float64(m.End) / float64(longest)
		x := barX
		if total > 0 {
			for _, part := range []struct {
				v float64
				c color.RGBA
			}{{float64(d[StateRunning]), ColourRunning}, {float64(d.GC()), ColourGC}, {total - float64(d[StateRunning]) - float64(d.GC()), r.pal.Idle}} {
				pw := w * part.v / total
				r.fill(int(math.Round(x)), int(y), int(math.Round(x+pw)), int(y+12*s), part.c)
				x += pw
			}
		}
		label := fmt.Sprintf("%s  ·  %d HEC  ·  running %.0f%%  GC %.0f%%  idle %.0f%% of HEC time", FormatDuration(m.End), len(m.HECs),
			pct(float64(d[StateRunning]), total), pct(float64(d.GC()), total), pct(total-float64(d[StateRunning])-float64(d.GC()), total))
		lx := barX + w + 6*s
		if lx+r.textWidth(label) > float64(r.w) {
			lx = barX + 4*s
			r.text(label, lx, y+6*s, 0, 0.5, r.pal.LabelOnBar)
		} else {
			r.text(label, lx, y+6*s, 0, 0.5, r.pal.Text)
		}
		y += 16 * s
	}
	return int(y + 4*s)
}

func pct(v, total float64) float64 {
	if total <= 0 {
		return 0
	}
	return 100 * v / total
}

// findRow returns the comparison's row of that name, or nil.
func findRow(c *Comparison, name string) *DiffRow {
	for i := range c.Rows {
		if c.Rows[i].Name == name {
			return &c.Rows[i]
		}
	}
	return nil
}

// showCompareValue formats a comparison value in its unit.
func showCompareValue(v float64, u Unit) string {
	v = math.Max(v, 0)
	switch u {
	case UnitNS:
		return FormatDuration(uint64(v))
	case UnitBytes:
		return formatBytes(v)
	case UnitBytesPerSecond:
		return formatBytes(v) + "/s"
	case UnitFraction:
		return fmt.Sprintf("%.1f%%", 100*v)
	}
	return fmt.Sprintf("%.0f", v)
}

// formatBytes writes a byte count with three significant digits in binary
// units.
func formatBytes(v float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	u := 0
	for u+1 < len(units) && v >= 1024 {
		v /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%.0f B", v)
	}
	prec := 2
	if v >= 100 {
		prec = 0
	} else if v >= 10 {
		prec = 1
	}
	return fmt.Sprintf("%.*f %s", prec, v, units[u])
}

// showChange formats a row's change: relative when A is not 0, in
// percentage points for fractions, absolute otherwise.
func showChange(row *DiffRow) string {
	if !row.HasA || !row.HasB {
		return "—"
	}
	d := row.Delta()
	if d == 0 {
		return "="
	}
	sign := "+"
	if d < 0 {
		sign = "−"
	}
	if row.Unit == UnitFraction {
		return sign + FormatPoints(d)
	}
	if rel, ok := row.Relative(); ok {
		return fmt.Sprintf("%s%.1f%%", sign, 100*math.Abs(rel))
	}
	return sign + showCompareValue(math.Abs(d), row.Unit)
}

// drawDiffTable draws the table of differences in [x0, x1) × [y0, y1), in
// as many columns of rows as it needs and fit; rows that do not fit are
// counted at the end.
func (r *renderer) drawDiffTable(c *Comparison, x0, y0, x1, y1 int) {
	s := r.s
	lineH := 14 * s
	rowsPer := max(int(float64(y1-y0)/lineH)-1, 1)
	nameW, valW, chW := 124*s, 62*s, 60*s
	colW := nameW + 2*valW + chW + 12*s
	ncols := max(int(float64(x1-x0)/colW), 1)
	// Headings of groups take a line each.
	type line struct {
		group string
		row   *DiffRow
	}
	var lines []line
	group := ""
	for i := range c.Rows {
		row := &c.Rows[i]
		if row.Group != group {
			group = row.Group
			// A heading never ends a column.
			if len(lines)%rowsPer == rowsPer-1 {
				lines = append(lines, line{})
			}
			lines = append(lines, line{group: group})
		}
		lines = append(lines, line{row: row})
	}
	capacity := rowsPer * ncols
	shown := lines
	if len(lines) > capacity {
		shown = lines[:capacity-1]
	}
	for k, ln := range shown {
		col, i := k/rowsPer, k%rowsPer
		x := float64(x0) + float64(col)*colW
		y := float64(y0) + float64(i+1)*lineH + lineH/2
		if i == 0 {
			hy := float64(y0) + lineH/2
			r.text("A", x+nameW+valW, hy, 1, 0.5, ColourRunA)
			r.text("B", x+nameW+2*valW, hy, 1, 0.5, ColourRunB)
			r.text("change", x+nameW+2*valW+chW, hy, 1, 0.5, r.pal.Text)
		}
		if ln.row == nil {
			r.text(ln.group, x, y, 0, 0.5, r.pal.Axis) // "" for a gap
			continue
		}
		row := ln.row
		r.text(r.fit(row.Name, nameW-8*s), x+6*s, y, 0, 0.5, r.pal.Text)
		va, vb := "—", "—"
		if row.HasA {
			va = showCompareValue(row.A, row.Unit)
		}
		if row.HasB {
			vb = showCompareValue(row.B, row.Unit)
		}
		r.text(va, x+nameW+valW, y, 1, 0.5, r.pal.Text)
		r.text(vb, x+nameW+2*valW, y, 1, 0.5, r.pal.Text)
		r.text(showChange(row), x+nameW+2*valW+chW, y, 1, 0.5, VerdictColour(row.Verdict()))
	}
	if len(shown) < len(lines) {
		k := len(shown)
		x := float64(x0) + float64(k/rowsPer)*colW
		y := float64(y0) + float64(k%rowsPer+1)*lineH + lineH/2
		r.text(fmt.Sprintf("… %d more lines not shown", len(lines)-len(shown)), x, y, 0, 0.5, r.pal.Axis)
	}
}

// drawHistogram draws a distribution of both runs in [x0, x1) × [y0, y1):
// per logarithmic bin, A's bar and B's bar side by side, heights on one
// count scale, with the bin edges of whole decades labelled.
func (r *renderer) drawHistogram(h *Histogram, x0, y0, x1, y1 int) {
	s := r.s
	mean := func(sum uint64, n int) string {
		if n == 0 {
			return "—"
		}
		return FormatDuration(sum / uint64(n))
	}
	title := fmt.Sprintf("%s — A: %d, mean %s, median %s, p90 %s;  B: %d, mean %s, median %s, p90 %s", h.Title,
		h.TotalA, mean(h.SumA, h.TotalA), FormatDuration(h.QuantA.P50), FormatDuration(h.QuantA.P90),
		h.TotalB, mean(h.SumB, h.TotalB), FormatDuration(h.QuantB.P50), FormatDuration(h.QuantB.P90))
	r.text(r.fit(title, float64(x1-x0)), float64(x0), float64(y0)+7*s, 0, 0.5, r.pal.Text)
	top := y0 + int(18*s)
	base := y1 - int(16*s)
	if base-top < int(10*s) || len(h.Edges) < 2 {
		if len(h.Edges) < 2 {
			r.text("none in either run", float64(x0), float64(top)+8*s, 0, 0.5, r.pal.Axis)
		}
		return
	}
	bins := len(h.A)
	peak := 1
	for i := 0; i < bins; i++ {
		peak = max(peak, h.A[i], h.B[i])
	}
	bw := float64(x1-x0) / float64(bins)
	for i := 0; i < bins; i++ {
		bx := float64(x0) + float64(i)*bw
		half := math.Max((bw-2*s)/2, 1)
		for k, n := range []int{h.A[i], h.B[i]} {
			if n == 0 {
				continue
			}
			col := ColourRunA
			if k == 1 {
				col = ColourRunB
			}
			ht := math.Max(float64(base-top)*float64(n)/float64(peak), 1)
			xa := bx + s + float64(k)*half
			r.fill(int(math.Round(xa)), int(math.Round(float64(base)-ht)), int(math.Round(xa+half)), base, col)
		}
	}
	r.fill(x0, base, x1, base+1, r.pal.Axis)
	// Label the decade edges (every binsPerDecade-th edge), as room allows.
	lastX := math.Inf(-1)
	for i, e := range h.Edges {
		if i%binsPerDecade != 0 {
			continue
		}
		x := float64(x0) + float64(i)*bw
		label := FormatDuration(e)
		w := r.textWidth(label)
		if x-w/2 < lastX+6*s {
			continue
		}
		r.fill(int(x), base, int(x)+1, base+int(4*s), r.pal.Axis)
		lx := math.Min(math.Max(x, float64(x0)+w/2), float64(x1)-w/2)
		r.text(label, lx, float64(base)+10*s, 0.5, 0.5, r.pal.Text)
		lastX = lx + w/2
	}
	r.text(fmt.Sprintf("%d", peak), float64(x1), float64(top)+4*s, 1, 0.5, r.pal.Axis)
}
