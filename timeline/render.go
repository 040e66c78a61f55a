package timeline

import (
	"cmp"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/math/fixed"
)

// viewFuncs maps view names to what draws them.
var viewFuncs = map[string]func(*renderer){
	"timeline": (*renderer).drawTimeline,
	"threads":  (*renderer).drawThreads,
	"activity": (*renderer).drawActivityView,
	"sparks":   (*renderer).drawSparks,
}

// Views returns the names of the views RenderPanel draws, sorted.
func Views() []string {
	var v []string
	for k := range viewFuncs {
		v = append(v, k)
	}
	sort.Strings(v)
	return v
}

var (
	fontOnce  sync.Once
	fontFont  *truetype.Font
	fontError error
	faceMu    sync.Mutex
	faces     = map[float64]font.Face{}
)

// face returns the Go Regular font at size points (cached: faces are not
// safe for concurrent use, so each renderer takes its own lock while drawing
// text).
func face(size float64) font.Face {
	fontOnce.Do(func() { fontFont, fontError = truetype.Parse(goregular.TTF) })
	if fontError != nil {
		return nil
	}
	faceMu.Lock()
	defer faceMu.Unlock()
	f, ok := faces[size]
	if !ok {
		f = truetype.NewFace(fontFont, &truetype.Options{Size: size, Hinting: font.HintingNone})
		faces[size] = f
	}
	return f
}

// renderer holds one frame's drawing state.
type renderer struct {
	img    *image.RGBA
	dc     *gg.Context
	face   font.Face
	m      *Model
	ax     Axis
	w, h   int
	s      float64 // scale
	gutter int     // width of the row labels on the left
	plotW  int     // columns of the plot
	top    int     // first pixel row below the time axis
	bottom int     // first pixel row of the key
	key    []keyItem
	hecCol [][]Column // HEC columns, computed once per frame
	pal    Palette
	// rows are the activity graphs and HEC rows drawn, where they are.
	rows []PanelRow
}

// PanelRow is a row of a panel RenderPanelRows drew: an activity graph or
// a HEC's states.
type PanelRow struct {
	// Rect is where the row is drawn, in the panel's pixels.
	Rect image.Rectangle
	// HEC is the index in Model.HECs of the HEC whose states the row shows,
	// or of the one HEC whose activity it graphs; -1 for the activity of
	// all HECs.
	HEC int
	// Activity says the row graphs activity rather than showing states.
	Activity bool
}

type keyItem struct {
	c    color.RGBA
	name string
}

func newRenderer(img *image.RGBA, m *Model, from, to uint64, scale float64, pal Palette) *renderer {
	if !(scale > 0) {
		scale = 1
	}
	b := img.Bounds()
	r := &renderer{img: img, m: m, w: b.Dx(), h: b.Dy(), s: scale, pal: pal}
	r.dc = gg.NewContextForRGBA(img)
	if f := face(11 * scale); f != nil {
		r.dc.SetFontFace(f)
		r.face = f
	}
	r.gutter = min(int(110*scale), r.w/4)
	r.plotW = max(r.w-r.gutter-int(8*scale), 1)
	r.ax = NewAxis(from, to, float64(r.gutter), float64(r.plotW))
	r.top = int(24 * scale)
	r.bottom = r.h - int(22*scale)
	return r
}

// fill paints a rectangle with an opaque colour by writing pixels directly.
func (r *renderer) fill(x0, y0, x1, y1 int, c color.RGBA) {
	x0, y0 = max(x0, 0), max(y0, 0)
	x1, y1 = min(x1, r.w), min(y1, r.h)
	if x1 <= x0 || y1 <= y0 {
		return
	}
	pix := r.img.Pix
	stride := r.img.Stride
	n := 4 * (x1 - x0)
	first := y0*stride + 4*x0
	row := pix[first : first+n]
	row[0], row[1], row[2], row[3] = c.R, c.G, c.B, c.A
	for k := 4; k < n; k *= 2 {
		copy(row[k:], row[:k])
	}
	for y := y0 + 1; y < y1; y++ {
		copy(pix[y*stride+4*x0:y*stride+4*x0+n], row)
	}
}

// text draws s with its anchor (ax, ay in 0..1 of its width and of the
// font's ascent) at x, y: glyph masks are drawn straight into the image.
func (r *renderer) text(s string, x, y, ax, ay float64, c color.RGBA) {
	if r.face == nil {
		return
	}
	w := r.textWidth(s)
	faceMu.Lock()
	defer faceMu.Unlock()
	asc := float64(r.face.Metrics().Ascent) / 64
	d := font.Drawer{Dst: r.img, Src: image.NewUniform(c), Face: r.face,
		Dot: fixed.Point26_6{X: fixed.Int26_6((x - ax*w) * 64), Y: fixed.Int26_6((y + ay*asc) * 64)}}
	d.DrawString(s)
}

// textWidth returns the width of s in pixels (the sum of its glyphs'
// advances, cached per rune and size).
func (r *renderer) textWidth(s string) float64 {
	faceMu.Lock()
	defer faceMu.Unlock()
	f := r.face
	size := 11 * r.s
	if f == nil {
		return 6 * size / 11 * float64(len(s))
	}
	var w fixed.Int26_6
	for _, c := range s {
		k := advanceKey{size, c}
		a, ok := advances[k]
		if !ok {
			a, _ = f.GlyphAdvance(c)
			advances[k] = a
		}
		w += a
	}
	return float64(w) / 64
}

type advanceKey struct {
	size float64
	r    rune
}

// advances caches glyph advances (guarded by faceMu).
var advances = map[advanceKey]fixed.Int26_6{}

// colX returns the pixel of plot column i.
func (r *renderer) colX(i int) int { return r.gutter + i }

// drawAxis draws the time ruler at the top and the grid over [top, bottom).
func (r *renderer) drawAxis() {
	y := r.top - 1
	r.fill(r.gutter, y, r.gutter+r.plotW, y+1, r.pal.Axis)
	for _, tk := range r.ax.Ticks(90 * r.s) {
		x := int(math.Round(tk.X))
		if tk.Major {
			r.fill(x, r.top, x+1, r.bottom, r.pal.Grid)
			r.fill(x, y-int(6*r.s), x+1, y, r.pal.Axis)
			// Labels stay inside the image at both ends.
			lx := math.Min(math.Max(float64(x), r.textWidth(tk.Label)/2+1), float64(r.w)-r.textWidth(tk.Label)/2-1)
			r.text(tk.Label, lx, float64(y)-7*r.s, 0.5, 0, r.pal.Text)
		} else {
			r.fill(x, y-int(3*r.s), x+1, y, r.pal.Axis)
		}
	}
}

// drawKey draws the key of the colours used at the bottom.
func (r *renderer) drawKey() {
	x := float64(r.gutter)
	y := float64(r.bottom) + 4*r.s
	box := 10 * r.s
	for _, k := range r.key {
		r.fill(int(x), int(y), int(x+box), int(y+box), k.c)
		r.text(k.name, x+box+4*r.s, y+box/2, 0, 0.35, r.pal.Text)
		x += box + 12*r.s + r.textWidth(k.name)
		if x > float64(r.w) {
			break
		}
	}
}

// rowLabel writes a row's name in the gutter.
func (r *renderer) rowLabel(name string, y0, y1 int) {
	r.text(name, 6*r.s, float64(y0+y1)/2, 0, 0.35, r.pal.Text)
}

// hecColumns returns (computing once) the columns of every HEC.
func (r *renderer) hecColumns() [][]Column {
	if r.hecCol == nil {
		r.hecCol = make([][]Column, len(r.m.HECs))
		for c := range r.m.HECs {
			r.hecCol[c] = r.m.HECs[c].Track.Columns(r.ax, r.plotW, nil)
		}
	}
	return r.hecCol
}

// colDur returns the ns covered by plot column i.
func (r *renderer) colDur(i int) uint64 { return r.ax.ColumnTime(i+1) - r.ax.ColumnTime(i) }

// drawActivity draws the activity profile (HECs running Haskell code) of the
// HECs in caps (all if nil) as a filled graph in [y0, y1).
func (r *renderer) drawActivity(y0, y1 int, caps []int, title string) {
	cols := r.hecColumns()
	row := PanelRow{Rect: image.Rect(r.gutter, y0, r.gutter+r.plotW, y1), HEC: -1, Activity: true}
	if len(caps) == 1 {
		row.HEC = caps[0]
	}
	r.rows = append(r.rows, row)
	if caps == nil {
		for c := range cols {
			caps = append(caps, c)
		}
	}
	h := float64(y1 - y0)
	maxv := float64(max(len(caps), 1))
	sel := make([][]Column, len(caps))
	for k, c := range caps {
		sel[k] = cols[c]
	}
	for i := 0; i < r.plotW; i++ {
		d := float64(r.colDur(i))
		if d == 0 {
			continue
		}
		run := float64(BusyOf(sel, i).Running)
		v := run / d / maxv * h
		top := float64(y1) - v
		it := int(math.Ceil(top))
		r.fill(r.colX(i), it, r.colX(i)+1, y1, ColourActivity)
		if frac := float64(it) - top; frac > 0.05 && it > y0 {
			r.blend(r.colX(i), it-1, ColourActivity, frac)
		}
	}
	// The HECs past their frontier, not known there: hatched from the top.
	r.hatchColumns(y0, func(i int) int {
		u := float64(BusyOf(sel, i).Unknown)
		if d := float64(r.colDur(i)); u > 0 && d > 0 {
			return y0 + int(math.Round(u/d/maxv*h))
		}
		return y0
	})
	r.fill(r.gutter, y1, r.gutter+r.plotW, y1+1, r.pal.RowRule)
	r.rowLabel(title, y0, y1)
	if len(caps) > 1 {
		r.text(fmt.Sprintf("%d", len(caps)), float64(r.gutter)-4*r.s, float64(y0)+6*r.s, 1, 0.5, r.pal.Text)
		r.text("0", float64(r.gutter)-4*r.s, float64(y1)-4*r.s, 1, 0.5, r.pal.Text)
	}
}

// hatchColumns hatches each plot column i from y0 down to bottom(i):
// time whose state is not known (paint.HatchColumns).
func (r *renderer) hatchColumns(y0 int, bottom func(i int) int) {
	paint.HatchColumns(paint.NewRaster(r.img), r.gutter, r.plotW, y0, bottom, r.pal.Unknown, r.pal.UnknownHatch,
		int(math.Round(paint.HatchStep*r.s)))
}

// drawFrontier marks where a cut log's data for a capability ends (its
// frontier fr) on a row from y0 to y1, when that is in view before the
// run's end.
func (r *renderer) drawFrontier(fr uint64, y0, y1 int) {
	if !r.m.Cut || fr >= r.m.End || fr < r.ax.From || fr > r.ax.To {
		return
	}
	x := int(math.Round(r.ax.X(fr)))
	w := max(int(math.Round(2*r.s)), 1)
	r.fill(x-w/2, y0, x-w/2+w, y1, r.pal.Frontier)
}

// blend mixes colour c with coverage a into one pixel.
func (r *renderer) blend(x, y int, c color.RGBA, a float64) {
	if x < 0 || y < 0 || x >= r.w || y >= r.h {
		return
	}
	w := uint32(a*255 + 0.5) // coverage in 1/255ths
	if w == 0 {
		return
	}
	o := y*r.img.Stride + 4*x
	p := r.img.Pix[o : o+4 : o+4]
	p[0] = uint8((uint32(p[0])*(255-w) + uint32(c.R)*w + 127) / 255)
	p[1] = uint8((uint32(p[1])*(255-w) + uint32(c.G)*w + 127) / 255)
	p[2] = uint8((uint32(p[2])*(255-w) + uint32(c.B)*w + 127) / 255)
	p[3] = 0xff
}

// drawHEC draws HEC c's row in [y0, y1): running (green) and GC (orange) as
// bars whose height is their share of the column, thread ids on spans wide
// enough for them, and instant events when few enough to tell apart.
func (r *renderer) drawHEC(c int, y0, y1 int) {
	r.rows = append(r.rows, PanelRow{Rect: image.Rect(r.gutter, y0, r.gutter+r.plotW, y1), HEC: c})
	cols := r.hecColumns()[c]
	h := float64(y1 - y0)
	for i := range cols {
		d := float64(r.colDur(i))
		if d == 0 {
			continue
		}
		col := &cols[i]
		x := r.colX(i)
		// Stacked from the bottom: running, GC work, GC waiting, each as
		// tall as its share of the column.
		y := y1
		for _, part := range [3]struct {
			ns uint64
			c  color.RGBA
		}{{col.Time[StateRunning], ColourRunning}, {col.Time[StateGCWork], ColourGC},
			{col.Time[StateGCSync] + col.Time[StateGCIdle] + col.Time[StateGCDone], ColourGCWaiting}} {
			if part.ns == 0 {
				continue
			}
			top := y - max(int(math.Round(float64(part.ns)/d*h)), 1)
			r.fill(x, top, x+1, y, part.c)
			y = top
		}
	}
	r.hatchColumns(y0, func(i int) int {
		if cols[i].MostlyUnknown() {
			return y1
		}
		return y0
	})
	r.drawFrontier(r.m.HECs[c].Frontier(), y0, y1)
	r.fill(r.gutter, y1, r.gutter+r.plotW, y1+1, r.pal.RowRule)
	r.rowLabel(fmt.Sprintf("HEC %d", r.m.HECs[c].Cap), y0, y1)
	r.drawThreadIDs(&r.m.HECs[c].Track, y0, y1)
	r.drawInstants(&r.m.HECs[c], y0, y1)
}

// drawThreadIDs writes the id of the running thread on running spans wide
// enough for it, when the view holds few enough spans to look at each.
func (r *renderer) drawThreadIDs(tr *Track, y0, y1 int) {
	a, b := tr.Search(r.ax.From), tr.Search(r.ax.To)
	if b-a > 4*r.plotW || y1-y0 < int(12*r.s) {
		return
	}
	labels := 0
	for i := max(a-1, 0); i < b && labels < 400; i++ {
		m := tr.Mark(i)
		if m.State != StateRunning {
			continue
		}
		end := tr.End()
		if i+1 < tr.Len() {
			end = tr.Mark(i + 1).Time
		}
		x0 := math.Max(r.ax.X(m.Time), float64(r.gutter))
		x1 := math.Min(r.ax.X(end), float64(r.gutter+r.plotW))
		s := uitoa(uint64(m.Arg))
		if x1-x0 < 6*r.s*float64(len(s))+6*r.s {
			continue
		}
		r.text(s, (x0+x1)/2, float64(y0+y1)/2, 0.5, 0.35, r.pal.LabelOnBar)
		labels++
	}
}

// drawInstants draws a HEC's instant events as ticks in the top third of its
// row, when there are no more of them in view than pixels.
func (r *renderer) drawInstants(h *HEC, y0, y1 int) {
	if h.CountInstants(r.ax.From, r.ax.To) > r.plotW {
		return
	}
	h.InstantsIn(r.ax.From, r.ax.To, func(in Instant) bool {
		if in.Kind != InstantUserMarker { // markers are drawn across all rows
			x := int(r.ax.X(in.Time))
			r.fill(x, y0, x+1, y0+(y1-y0)/3, InstantColour(in.Kind))
		}
		return true
	})
}

// drawMarkers draws user markers as lines across [y0, y1), labelled when
// few.
func (r *renderer) drawMarkers(y0, y1 int) {
	var marks []Instant
	for i := r.m.SearchMarkers(r.ax.From); i < r.m.NumMarkers(); i++ {
		in := r.m.Marker(i)
		if in.Time > r.ax.To {
			break
		}
		marks = append(marks, in)
	}
	if len(marks) > r.plotW {
		return
	}
	for _, in := range marks {
		x := int(r.ax.X(in.Time))
		r.fill(x, y0, x+1, y1, ColourMarker)
	}
	// Label the markers left to right, each where it does not run into the
	// previous label; a label that would is cut to fit, or left out.
	slices.SortFunc(marks, func(a, b Instant) int { return cmp.Compare(a.Time, b.Time) })
	free := float64(r.gutter) // where the next label may start
	for i, in := range marks {
		x := r.ax.X(in.Time) + 3*r.s
		if x < free {
			continue
		}
		room := float64(r.gutter+r.plotW) - x
		if i+1 < len(marks) {
			room = min(room, r.ax.X(marks[i+1].Time)-x-2*r.s)
		}
		label := r.fit(r.m.String(int32(in.Arg)), room)
		if r.textWidth(label) > room {
			continue
		}
		r.text(label, x, float64(y0)+8*r.s, 0, 0.5, ColourMarker)
		free = x + r.textWidth(label) + 6*r.s
	}
	if len(marks) > 0 {
		r.key = append(r.key, keyItem{ColourMarker, "marker"})
	}
}

// drawTimeline draws ThreadScope's main view: activity, then one row per HEC.
func (r *renderer) drawTimeline() {
	r.drawAxis()
	n := max(len(r.m.HECs), 1)
	avail := r.bottom - r.top
	actH := min(int(90*r.s), avail/4)
	pad := int(4 * r.s) // between the axis and the activity graph
	rowH := min(max((avail-pad-actH)/n, int(8*r.s)), int(60*r.s))
	y := r.top + pad
	r.drawActivity(y, y+actH-int(6*r.s), nil, "Activity")
	y += actH
	for c := range r.m.HECs {
		if y+rowH > r.bottom {
			break
		}
		r.drawHEC(c, y+int(3*r.s), y+rowH-int(3*r.s))
		y += rowH
	}
	r.key = append(r.key, keyItem{ColourRunning, "running"}, keyItem{ColourGC, "GC"}, keyItem{ColourGCWaiting, "GC waiting"},
		keyItem{ColourCreateThread, "create thread"}, keyItem{ColourWakeup, "wakeup"}, keyItem{ColourMigrate, "migrate"},
		keyItem{ColourSeqGCRequest, "seq GC req"}, keyItem{ColourParGCRequest, "par GC req"}, keyItem{ColourUserMessage, "message"})
	r.drawMarkers(r.top, y)
	r.drawKey()
}

// drawActivityView draws the activity of the whole run and of each HEC.
func (r *renderer) drawActivityView() {
	r.drawAxis()
	avail := r.bottom - r.top
	n := len(r.m.HECs)
	allH := avail / 2
	if n <= 1 {
		allH = avail - int(8*r.s)
	}
	y := r.top + int(4*r.s)
	r.drawActivity(y, y+allH-int(8*r.s), nil, "All HECs")
	y += allH
	if n > 1 {
		rowH := max((r.bottom-y)/n, int(10*r.s))
		for c := 0; c < n && y+rowH <= r.bottom; c++ {
			r.drawActivity(y+int(2*r.s), y+rowH-int(2*r.s), []int{c}, fmt.Sprintf("HEC %d", r.m.HECs[c].Cap))
			y += rowH
		}
	}
	r.key = append(r.key, keyItem{ColourActivity, "HECs running Haskell code"})
	r.drawMarkers(r.top, y)
	r.drawKey()
}

// drawThreads draws one row per thread alive in the view, coloured by state.
func (r *renderer) drawThreads() {
	var shown []int
	for i := range r.m.Threads {
		if AliveIn(&r.m.Threads[i], r.ax.From, r.ax.To) {
			shown = append(shown, i)
		}
	}
	r.drawThreadRows(shown)
}

// blockedReason returns why the thread is blocked at the start of column i.
func (r *renderer) blockedReason(tr *Track, i int) ingest.StopStatus {
	return tr.StateAt(r.ax.ColumnTime(i) + r.colDur(i)/2).Stop()
}

// fit shortens s with an ellipsis until it is at most w pixels wide.
func (r *renderer) fit(s string, w float64) string {
	if r.textWidth(s) <= w {
		return s
	}
	rs := []rune(s)
	for len(rs) > 1 {
		rs = rs[:len(rs)-1]
		if t := string(rs) + "…"; r.textWidth(t) <= w {
			return t
		}
	}
	return string(rs)
}
