package compare

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// PictureOptions says how Render draws two runs.
type PictureOptions struct {
	// View is the view of the tracks drawn for each run (one of
	// tracks.Views(); "" means DefaultView).
	View string
	// Width and Height are the image size in device pixels.
	Width, Height int
	// Scale is the device pixel ratio (0 means 1).
	Scale float64
	// Align is where the runs are lined up (the zero Alignment: at their
	// start).
	Align Alignment
	// From and To bound the part of the shared time scale shown (see
	// timeline.Viewport); both 0 show both runs whole.
	From, To uint64
	// OmitTable leaves the table of differences out (for a viewer that
	// shows it beside the picture): the distributions then sit side by
	// side in a lower strip, leaving the timelines more room.
	OmitTable bool
	// Dark draws for dark surroundings.
	Dark bool
	// Layout, if not nil, is filled with where the picture's parts were
	// drawn.
	Layout *PictureLayout
}

// PictureLayout says where Render and RenderWithHeaps drew what, in the
// picture's pixels, for reading the picture at the pointer.
type PictureLayout struct {
	// Size is the picture's size.
	Size image.Point
	// Panels are the runs' panels (A's, then B's), each drawn by the
	// track view in Views (the frame's pixel (0, 0) at the panel's top
	// left), and Axes the time axes of their plots: one time scale.
	Panels [2]image.Rectangle
	Views  [2]*tracks.View
	Axes   [2]timeline.Axis
	// Distributions are the distributions drawn and where their bars are.
	Distributions []DistributionArea
	// Heaps are the lanes of the runs' heaps (empty without heaps), each
	// drawn by the track view in HeapViews as the panels are.
	Heaps     [2]image.Rectangle
	HeapViews [2]*tracks.View
}

// Hit returns which run's panel or heap lane is at pixel (x, y) of the
// picture (-1 for none) and what its track view says is there
// (tracks.View.Hit).
func (l *PictureLayout) Hit(x, y float64) (int, tracks.Hit) {
	pt := image.Pt(int(math.Floor(x)), int(math.Floor(y)))
	for i := range 2 {
		for _, part := range []struct {
			r image.Rectangle
			v *tracks.View
		}{{l.Panels[i], l.Views[i]}, {l.Heaps[i], l.HeapViews[i]}} {
			if pt.In(part.r) && part.v != nil {
				return i, part.v.Hit(x-float64(part.r.Min.X), y-float64(part.r.Min.Y))
			}
		}
	}
	return -1, tracks.Hit{}
}

// TrackRect returns where run i's panel drew track id, in the picture's
// pixels, and false if it did not draw it.
func (l *PictureLayout) TrackRect(i int, id tracks.TrackID) (image.Rectangle, bool) {
	if i < 0 || i > 1 || l.Views[i] == nil {
		return image.Rectangle{}, false
	}
	r, ok := l.Views[i].TrackRect(id)
	return r.Add(l.Panels[i].Min), ok
}

// DistributionArea is where the bars of a distribution are drawn: Plot
// spans its bins, evenly, from left to right.
type DistributionArea struct {
	Plot      image.Rectangle
	Histogram *Histogram
}

// DefaultView is the view of the tracks a comparison draws for each run
// unless told another: the activity graphs and each HEC's states.
const DefaultView = "hecs"

// Viewport returns the shared time scale of the options for runs ending at
// endA and endB.
func (opt PictureOptions) Viewport(endA, endB uint64) timeline.Viewport {
	return timeline.Viewport{AlignA: opt.Align.A, AlignB: opt.Align.B, EndA: endA, EndB: endB, From: opt.From, To: opt.To}
}

// Plot returns where the shared time scale runs in a picture width pixels
// wide at scale s: from x0 over w pixels, the plot of the runs' track
// views (tracks.PlotSpan), which the heaps under them share.
func Plot(width int, s float64) (x0, w float64) {
	a, b := tracks.PlotSpan(width, s)
	return float64(a), float64(b - a)
}

// Colours that tell the two runs and the verdicts apart.
var (
	ColourA      = color.RGBA{0x2a, 0x5c, 0xaa, 0xff} // run A: blue
	ColourB      = color.RGBA{0xd9, 0x7a, 0x00, 0xff} // run B: amber
	ColourBetter = color.RGBA{0x1a, 0x8a, 0x3a, 0xff} // B improves on A
	ColourWorse  = color.RGBA{0xc0, 0x28, 0x28, 0xff} // B is worse than A
	ColourSame   = color.RGBA{0x70, 0x70, 0x70, 0xff} // no change beyond noise, or neither good nor bad
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

// partialWhy says which runs did not finish: "run A is truncated at byte
// N".
func partialWhy(c *Comparison) string {
	var why []string
	for _, r := range []struct {
		tag string
		st  ingest.Status
	}{{"A", c.StatusA}, {"B", c.StatusB}} {
		if r.st.State != ingest.StateComplete {
			why = append(why, "run "+r.tag+" is "+r.st.String())
		}
	}
	return strings.Join(why, ", ")
}

// pen draws the comparison's furniture: rectangles and text in one face.
type pen struct {
	c      paint.Canvas
	face   *paint.Face
	s      float64
	w, h   int
	gutter int
	th     paint.Theme
	dark   bool
}

func newPen(img *image.RGBA, s float64, dark bool) *pen {
	b := img.Bounds()
	return &pen{c: paint.NewRaster(img), face: paint.FaceFor(paint.Regular, 11, s), s: s, w: b.Dx(), h: b.Dy(),
		gutter: min(int(110*s), b.Dx()/4), th: paint.ThemeFor(dark), dark: dark}
}

// textIn returns the colour of text drawn in colour c (a run's, a
// verdict's): c itself, or on dark surroundings c mixed with white, so that
// it reads as well as the picture's other text (A's blue on the dark
// background was 2.7:1, "worse" red 3.0:1).
func (r *pen) textIn(c color.RGBA) color.RGBA {
	return TextColour(c, r.dark)
}

// TextColour returns the colour in which text in colour c (a run's, a
// verdict's) is drawn: c, or on dark surroundings c mixed 45% with white.
func TextColour(c color.RGBA, dark bool) color.RGBA {
	if !dark {
		return c
	}
	mix := func(v uint8) uint8 { return uint8(float64(v) + 0.45*float64(255-int(v)) + 0.5) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), c.A}
}

// fill paints [x0, x1) × [y0, y1).
func (r *pen) fill(x0, y0, x1, y1 int, c color.RGBA) { r.c.Fill(image.Rect(x0, y0, x1, y1), c) }

// text draws s with its anchor (ax, ay: 0 left/top … 1 right/bottom of
// the capitals) at (x, y).
func (r *pen) text(s string, x, y, ax, ay float64, c color.RGBA) {
	w := float64(r.face.Width(s))
	r.c.Text(r.face, s, int(math.Round(x-ax*w)), int(math.Round(y+ay*float64(r.face.Ascent()))), c)
}

// textWidth returns how wide s is drawn.
func (r *pen) textWidth(s string) float64 { return float64(r.face.Width(s)) }

// fit cuts s to w pixels.
func (r *pen) fit(s string, w float64) string { return r.face.Fit(s, int(math.Max(w, 0))) }

// RenderWithHeaps draws the whole comparison picture of two runs: Render
// (headline, stacked timelines, table, distributions) over the two heaps,
// which take a fifth of the height when either run has heap counters: a
// lane per run, A's above B's, each the heap track of a tracks.View of the
// run's heap (heap size, live data and blocks as the window draws them)
// under its time axis, on the axis its panel drew and one byte scale for
// both; B's lane has the legend. opt.Height is the height of the whole
// picture. heapA and heapB may be nil.
func RenderWithHeaps(a, b *Run, heapA, heapB *heapview.Heap, c *Comparison, opt PictureOptions) (*image.RGBA, error) {
	hasHeap := (heapA != nil && !heapA.Empty()) || (heapB != nil && !heapB.Empty())
	if !hasHeap {
		return Render(a, b, c, opt)
	}
	height := opt.Height
	heapH := height / 5
	opt.Height = height - heapH
	layout := opt.Layout
	if layout == nil {
		layout = new(PictureLayout)
	}
	opt.Layout = layout
	top, err := Render(a, b, c, opt)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, opt.Width, height))
	copy(img.Pix, top.Pix)
	s := opt.Scale
	if !(s > 0) {
		s = 1
	}
	heaps := [2]*heapview.Heap{heapA, heapB}
	var peak uint64
	for _, h := range heaps {
		if h != nil {
			peak = max(peak, h.Size.Max(), h.Live.Max(), h.Blocks.Max())
		}
	}
	var views [2]*tracks.View
	for i, h := range heaps {
		v := tracks.New(nil)
		v.SetHeap(h, nil)
		v.SetDark(opt.Dark)
		v.SetTitles(false)
		v.SetCollapsed(tracks.GroupGC, true)
		v.Hide(tracks.TrackID{Kind: tracks.KindAlloc})
		v.SetLegend(i == 1)
		v.SetHeapScale(uint64(float64(peak) * 1.05))
		v.SetCaption(runTags[i]+": heap", TextColour(runColours[i], opt.Dark))
		views[i] = v
	}
	// A's lane is the legend's height shorter, so that both tracks are as
	// tall and their byte scales alike.
	views[1].SetSize(opt.Width, heapH/2, s)
	legendH := views[1].LegendRect().Dy()
	laneA := (heapH - legendH) / 2
	lanes := [2]image.Rectangle{
		image.Rect(0, opt.Height, opt.Width, opt.Height+laneA),
		image.Rect(0, opt.Height+laneA, opt.Width, height),
	}
	for i, v := range views {
		lane := lanes[i]
		v.SetSize(lane.Dx(), lane.Dy(), s)
		v.SetAxis(layout.Axes[i])
		v.FitTracks()
		v.Draw(paint.NewRaster(alias(img, lane)))
		// The run's tab on the left edge, as on its panel.
		paint.NewRaster(img).Fill(image.Rect(0, lane.Min.Y+int(2*s), int(4*s), lane.Max.Y-int(2*s)), runColours[i])
	}
	layout.Size = img.Bounds().Size()
	layout.Heaps, layout.HeapViews = lanes, views
	return img, nil
}

// Render draws two runs for comparison: a headline of the main
// differences and a bar per run whose length is its wall time, split into
// the HECs' running, GC and idle time; the two runs' panels stacked on
// one time scale (aligned at AlignA/AlignB), each the tracks of opt.View
// drawn by a tracks.View of the run, as the main window draws them (with
// their axis, names, legend and theme; opt.Layout gets the views, to read
// the panels at the pointer); the table of differences
// coloured better/worse; and the GC pause and thread run distributions of
// both runs over the same bins. c is Compare(a, b); both runs need models.
func Render(a, b *Run, c *Comparison, opt PictureOptions) (*image.RGBA, error) {
	if opt.Width < 400 || opt.Height < 300 || opt.Width > 1<<14 || opt.Height > 1<<14 {
		return nil, fmt.Errorf("rendering comparison: image size %dx%d out of range (400x300..16384)", opt.Width, opt.Height)
	}
	if a.Model == nil || b.Model == nil {
		return nil, fmt.Errorf("rendering comparison: a run has no timeline model")
	}
	if a.Model.End < opt.Align.A || b.Model.End < opt.Align.B {
		return nil, fmt.Errorf("rendering comparison: alignment time after the end of a run")
	}
	s := opt.Scale
	if !(s > 0) {
		s = 1
	}
	img := image.NewRGBA(image.Rect(0, 0, opt.Width, opt.Height))
	layout := opt.Layout
	if layout == nil {
		layout = new(PictureLayout)
	}
	*layout = PictureLayout{Size: img.Bounds().Size()}
	cr := newPen(img, s, opt.Dark)
	cr.fill(0, 0, cr.w, cr.h, cr.th.Background)

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
	views, err := panelViews(a, b, opt, s)
	if err != nil {
		return nil, err
	}
	x0, pw := Plot(opt.Width, s)
	axes := [2]timeline.Axis{}
	axes[0], axes[1] = opt.Viewport(a.Model.End, b.Model.End).Axes(x0, pw)
	heights := panelHeights(room, views, opt.Width, s)
	y := head
	for i, v := range views {
		panelH := heights[i]
		v.SetSize(opt.Width, panelH, s)
		v.SetAxis(axes[i])
		fitPanel(v)
		panel := image.Rect(0, y, opt.Width, y+panelH)
		v.Draw(paint.NewRaster(alias(img, panel)))
		layout.Panels[i], layout.Views[i], layout.Axes[i] = panel, v, v.Axis()
		// A coloured tab on the left edge says which run the panel shows
		// (its caption names it).
		cr.fill(0, y+int(2*s), int(4*s), y+panelH-int(2*s), runColours[i])
		cr.fill(0, y+panelH-1, cr.w, y+panelH, cr.th.Rule)
		y += panelH
	}
	if opt.Align.Label != "" {
		cr.text(opt.Align.Label, float64(cr.w)-8*s, float64(head)-6*s, 1, 0, paint.InkMarker.Color())
	}

	y0 := head + heights[0] + heights[1] + int(6*s)
	if opt.OmitTable {
		// The distributions side by side.
		mid := cr.w / 2
		layout.distribution(&c.GCPauses, cr.drawHistogram(&c.GCPauses, int(8*s), y0, mid-int(12*s), opt.Height-int(4*s)))
		layout.distribution(&c.ThreadRuns, cr.drawHistogram(&c.ThreadRuns, mid+int(12*s), y0, cr.w-int(8*s), opt.Height-int(4*s)))
		return img, nil
	}
	// Table on the left, distributions on the right.
	tableW := cr.w * 31 / 50
	cr.drawDiffTable(c, int(8*s), y0, tableW-int(8*s), opt.Height-int(4*s))
	hx := tableW + int(12*s)
	hh := (opt.Height - y0 - int(8*s)) / 2
	layout.distribution(&c.GCPauses, cr.drawHistogram(&c.GCPauses, hx, y0, cr.w-int(8*s), y0+hh-int(4*s)))
	layout.distribution(&c.ThreadRuns, cr.drawHistogram(&c.ThreadRuns, hx, y0+hh+int(4*s), cr.w-int(8*s), opt.Height-int(4*s)))
	return img, nil
}

// distribution notes the bars of h drawn in plot (none if plot is empty).
func (l *PictureLayout) distribution(h *Histogram, plot image.Rectangle) {
	if !plot.Empty() {
		l.Distributions = append(l.Distributions, DistributionArea{Plot: plot, Histogram: h})
	}
}

// alias returns an image of r's size whose pixel (0, 0) is img's pixel
// r.Min: drawing in it draws in img.
func alias(img *image.RGBA, r image.Rectangle) *image.RGBA {
	r = r.Intersect(img.Bounds())
	if r.Empty() {
		return image.NewRGBA(image.Rectangle{})
	}
	return &image.RGBA{Pix: img.Pix[img.PixOffset(r.Min.X, r.Min.Y):], Stride: img.Stride, Rect: image.Rectangle{Max: r.Size()}}
}

// runColours are the runs' colours, A's then B's.
var runColours = [2]color.RGBA{ColourA, ColourB}

// panelViews returns the track views that draw the runs' panels: each
// run's tracks of opt's view, without group titles, under its markers'
// track, named in its colour.
func panelViews(a, b *Run, opt PictureOptions, s float64) ([2]*tracks.View, error) {
	name := opt.View
	if name == "" {
		name = DefaultView
	}
	var views [2]*tracks.View
	for i, run := range []*Run{a, b} {
		v := tracks.New(timeline.Exact(run.Model))
		v.SetSize(opt.Width, opt.Height, s)
		v.SetDark(opt.Dark)
		v.SetTitles(false)
		if err := v.SetView(name); err != nil {
			return views, fmt.Errorf("rendering comparison: %w", err)
		}
		v.SetCaption(runTags[i]+": "+run.Name, TextColour(runColours[i], opt.Dark))
		// The markers' texts over the tracks (a run without markers has
		// no such track, and nothing is pinned).
		v.Pin(tracks.TrackID{Kind: tracks.KindMarkers})
		views[i] = v
	}
	return views, nil
}

// fitPanel sizes the tracks of panel v to fill it. When they would get
// less than half their default heights, the markers' track is unpinned
// first, leaving them its room (the axis's flags still show the markers).
func fitPanel(v *tracks.View) {
	markers := tracks.TrackID{Kind: tracks.KindMarkers}
	if _, content, area := v.Scroll(); v.Pinned(markers) && 2*area < content {
		v.Pin(markers)
	}
	v.FitTracks()
}

// runTags are how the picture calls the runs.
var runTags = [2]string{"A", "B"}

// panelHeights shares room pixels between the runs' panels, whose views
// are views in a picture width pixels wide at scale s: each gets its axis
// and legend, and a share of the rest in proportion to the height its
// tracks take at their default heights (a run with more HECs gets a
// taller panel).
func panelHeights(room int, views [2]*tracks.View, width int, s float64) [2]int {
	var fixed, content [2]int
	for i, v := range views {
		v.SetSize(width, room/2, s)
		fixed[i] = room/2 - v.TracksRect().Dy()
		_, content[i], _ = v.Scroll()
	}
	return shareHeights(room, fixed, content)
}

// shareHeights gives each of two panels its fixed height and a share of
// the rest of room in proportion to its content (equal shares without
// content).
func shareHeights(room int, fixed, content [2]int) [2]int {
	free := max(room-fixed[0]-fixed[1], 0)
	total := content[0] + content[1]
	a := fixed[0] + free/2
	if total > 0 {
		a = fixed[0] + int(float64(free)*float64(content[0])/float64(total))
	}
	return [2]int{a, room - a}
}

// drawCompareHead draws the headline (the verdict on wall time,
// productivity and GC time) and the two runs' time bars; it returns the
// height it used.
func (r *pen) drawCompareHead(a, b *Run, c *Comparison) int {
	s := r.s
	y := 16 * s
	var parts []string
	wall := c.Row("wall")
	switch {
	case c.Partial:
		parts = append(parts, "No verdict: "+partialWhy(c)+"; the figures cover only what it logged")
	case wall != nil && wall.HasA && wall.HasB && wall.Verdict() == VerdictSame:
		parts = append(parts, fmt.Sprintf("B takes as long as A, within %.0f%% (%s vs %s)", 100*c.Threshold,
			timeline.FormatDuration(uint64(wall.B)), timeline.FormatDuration(uint64(wall.A))))
	case wall != nil && wall.HasA && wall.HasB:
		if rel, ok := wall.Relative(); ok {
			word := "slower"
			if rel < 0 {
				word = "faster"
			}
			parts = append(parts, fmt.Sprintf("B is %.1f%% %s than A (%s vs %s)", 100*math.Abs(rel), word,
				timeline.FormatDuration(uint64(wall.B)), timeline.FormatDuration(uint64(wall.A))))
		}
	}
	headColour := ColourSame
	if wall != nil {
		headColour = VerdictColour(wall.Verdict())
	}
	for _, key := range []string{"productivity", "gc"} {
		if row := c.Row(key); row != nil && row.HasA && row.HasB {
			parts = append(parts, fmt.Sprintf("%s %s → %s", row.Name,
				showCompareValue(row.A, row.Unit), showCompareValue(row.B, row.Unit)))
		}
	}
	if len(parts) > 0 {
		r.text(parts[0], 8*s, y, 0, 0.5, r.textIn(headColour))
		if len(parts) > 1 {
			r.text(strings.Join(parts[1:], ",  "), 8*s+r.textWidth(parts[0])+24*s, y, 0, 0.5, r.th.Text)
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
		col, tag := ColourA, "A"
		if i == 1 {
			col, tag = ColourB, "B"
		}
		r.text(tag+": "+r.fit(run.Name, barX-24*s), 8*s, y+6*s, 0, 0.5, r.textIn(col))
		m := run.Model
		var d timeline.Durations
		for _, hd := range m.RangeTimes(0, m.End) {
			for st, v := range hd {
				d[st] += v
			}
		}
		total := float64(d.Total())
		w := barW * float64(m.End) / float64(longest)
		x := barX
		if total > 0 {
			for _, part := range []struct {
				v float64
				c color.RGBA
			}{{float64(d[timeline.StateRunning]), paint.InkRunning.Color()}, {float64(d.GC()), paint.InkGCWork.Color()}, {total - float64(d[timeline.StateRunning]) - float64(d.GC()), r.th.Idle}} {
				pw := w * part.v / total
				r.fill(int(math.Round(x)), int(y), int(math.Round(x+pw)), int(y+12*s), part.c)
				x += pw
			}
		}
		label := fmt.Sprintf("%s  ·  %d HEC  ·  running %.0f%%  GC %.0f%%  idle %.0f%% of HEC time", timeline.FormatDuration(m.End), len(m.HECs),
			pct(float64(d[timeline.StateRunning]), total), pct(float64(d.GC()), total), pct(total-float64(d[timeline.StateRunning])-float64(d.GC()), total))
		lx := barX + w + 6*s
		if lx+r.textWidth(label) > float64(r.w) {
			lx = barX + 4*s
			r.text(label, lx, y+6*s, 0, 0.5, r.th.LabelOnBar)
		} else {
			r.text(label, lx, y+6*s, 0, 0.5, r.th.Text)
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

// showCompareValue formats a comparison value in its unit.
func showCompareValue(v float64, u Unit) string {
	v = math.Max(v, 0)
	switch u {
	case UnitNS:
		return timeline.FormatDuration(uint64(v))
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
func showChange(row *Row) string {
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
func (r *pen) drawDiffTable(c *Comparison, x0, y0, x1, y1 int) {
	s := r.s
	lineH := 14 * s
	rowsPer := max(int(float64(y1-y0)/lineH)-1, 1)
	nameW, valW, chW := 124*s, 62*s, 60*s
	colW := nameW + 2*valW + chW + 12*s
	ncols := max(int(float64(x1-x0)/colW), 1)
	// Headings of groups take a line each.
	type line struct {
		group string
		row   *Row
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
			r.text("A", x+nameW+valW, hy, 1, 0.5, r.textIn(ColourA))
			r.text("B", x+nameW+2*valW, hy, 1, 0.5, r.textIn(ColourB))
			r.text("change", x+nameW+2*valW+chW, hy, 1, 0.5, r.th.Text)
		}
		if ln.row == nil {
			r.text(ln.group, x, y, 0, 0.5, r.th.Axis) // "" for a gap
			continue
		}
		row := ln.row
		r.text(r.fit(row.Name, nameW-8*s), x+6*s, y, 0, 0.5, r.th.Text)
		va, vb := "—", "—"
		if row.HasA {
			va = showCompareValue(row.A, row.Unit)
		}
		if row.HasB {
			vb = showCompareValue(row.B, row.Unit)
		}
		r.text(va, x+nameW+valW, y, 1, 0.5, r.th.Text)
		r.text(vb, x+nameW+2*valW, y, 1, 0.5, r.th.Text)
		r.text(showChange(row), x+nameW+2*valW+chW, y, 1, 0.5, r.textIn(VerdictColour(row.Verdict())))
	}
	if len(shown) < len(lines) {
		k := len(shown)
		x := float64(x0) + float64(k/rowsPer)*colW
		y := float64(y0) + float64(k%rowsPer+1)*lineH + lineH/2
		r.text(fmt.Sprintf("… %d more lines not shown", len(lines)-len(shown)), x, y, 0, 0.5, r.th.Axis)
	}
}

// drawHistogram draws a distribution of both runs in [x0, x1) × [y0, y1):
// its title, then each run's count and quantiles in the run's colour and
// the scale of the bars; per logarithmic bin, A's bar and B's bar side by
// side, heights on one scale (counts, or shares of each run's count when
// the counts differ) whose top is ruled, with the bin edges of whole
// decades labelled. It returns where the bars are (empty if none).
func (r *pen) drawHistogram(h *Histogram, x0, y0, x1, y1 int) image.Rectangle {
	s := r.s
	width := float64(x1 - x0)
	gap := 14 * s
	// The title, and at its right the scale of the bars.
	peak := h.peak()
	scale := ""
	if len(h.Edges) >= 2 {
		scale = histogramScale(h, peak)
		r.text(scale, float64(x1), float64(y0)+7*s, 1, 0.5, r.th.Axis)
	}
	r.text(r.fit(h.Title, width-r.textWidth(scale)-gap), float64(x0), float64(y0)+7*s, 0, 0.5, r.th.Text)
	// The runs' figures on a line of their own, in their colours: after
	// the title on one line, B's were cut off at 1280 pixels.
	figures := [2]string{histogramFigures("A", h.TotalA, h.SumA, h.QuantA), histogramFigures("B", h.TotalB, h.SumB, h.QuantB)}
	if r.textWidth(figures[0])+gap+r.textWidth(figures[1]) > width {
		// Each run gets half the line, cut to fit.
		figures[0], figures[1] = r.fit(figures[0], (width-gap)/2), r.fit(figures[1], (width-gap)/2)
	}
	figY := float64(y0) + 21*s
	r.text(figures[0], float64(x0), figY, 0, 0.5, r.textIn(ColourA))
	r.text(figures[1], float64(x0)+r.textWidth(figures[0])+gap, figY, 0, 0.5, r.textIn(ColourB))
	top := y0 + int(32*s)
	base := y1 - int(16*s)
	if base-top < int(10*s) || len(h.Edges) < 2 {
		if len(h.Edges) < 2 {
			r.text("none in either run", float64(x0), float64(top)+8*s, 0, 0.5, r.th.Axis)
		}
		return image.Rectangle{}
	}
	// The top of the scale, ruled across the plot.
	r.fill(x0, top, x1, top+1, r.th.Grid)
	// Runs with different counts are compared as shares of their counts.
	bins := len(h.A)
	values := [][]float64{make([]float64, bins), make([]float64, bins)}
	for k := range values {
		for i := range bins {
			values[k][i] = h.barValue(k, i)
		}
	}
	// Label the decade edges (every binsPerDecade-th edge), as room allows.
	var edges []paint.EdgeLabel
	for i, e := range h.Edges {
		if i%binsPerDecade == 0 {
			edges = append(edges, paint.EdgeLabel{At: i, Text: timeline.FormatDuration(e)})
		}
	}
	paint.DrawBars(r.c, image.Rect(x0, top, x1, base), paint.Bars{Values: values, Colours: runColours[:], Top: peak,
		Edges: edges, Gap: int(6 * s), Ticks: true}, r.face, r.th, s)
	return image.Rect(x0, top, x1, base)
}

// histogramFigures says how many durations a run has and their mean,
// median and 90th percentile: "A: 90, mean 10.8 µs, median 4.83 µs, p90
// 23.4 µs".
func histogramFigures(tag string, n int, sum uint64, q Quantiles) string {
	if n == 0 {
		return tag + ": none"
	}
	return fmt.Sprintf("%s: %d, mean %s, median %s, p90 %s", tag, n, timeline.FormatDuration(sum/uint64(n)),
		timeline.FormatDuration(q.P50), timeline.FormatDuration(q.P90))
}

// barValue is the height of run k's (0: A, 1: B) bar of bin i: its count,
// or its share of the run's count when the runs' counts differ.
func (h *Histogram) barValue(k, i int) float64 {
	if h.SameCounts() {
		return float64([][]int{h.A, h.B}[k][i])
	}
	return []func(int) float64{h.FractionA, h.FractionB}[k](i)
}

// peak is the tallest bar's value (a tiny positive number when there are
// none).
func (h *Histogram) peak() float64 {
	peak := 1e-300
	for i := range h.A {
		peak = max(peak, h.barValue(0, i), h.barValue(1, i))
	}
	return peak
}

// histogramScale says what the bars' heights are and the value of the
// ruled top of the scale: "bars: count, top line 44", or, when the runs'
// counts differ, "bars: share of its run, top line 58.7%".
func histogramScale(h *Histogram, peak float64) string {
	if h.SameCounts() {
		return fmt.Sprintf("bars: count, top line %.0f", peak)
	}
	return fmt.Sprintf("bars: share of its run, top line %.1f%%", 100*peak)
}
