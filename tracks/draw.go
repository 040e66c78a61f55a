package tracks

import (
	"image"
	"image/color"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// frame is one drawing of the view: the canvas, geometry, axis, models and
// what was computed for the visible tracks.
type frame struct {
	v       *View
	c       paint.Canvas
	th      paint.Theme
	g       geometry
	s       float64
	ax      timeline.Axis
	n       int // plot columns
	from    uint64
	to      uint64
	ov, m   *timeline.Model
	face    *paint.Face
	small   *paint.Face
	bold    *paint.Face
	hecCols [][]timeline.Column   // per HEC of m, when a visible track needs them
	cols    map[TrackID]colWindow // per visible thread track
	step    uint64                // major tick step
	minor   uint64                // minor tick step
	scrollY int
	export  bool
	counts  [NumGroups]int           // tracks per group, for the titles
	inst    []timeline.InstantColumn // this frame's (or worker's) instant columns
}

// scratch holds buffers reused from frame to frame.
type scratch struct {
	hecs hecCache
	rows [][]timeline.Column
}

// Render draws the frame into a new image of the view's size.
func (v *View) Render() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, v.w, v.h))
	v.Draw(paint.NewRaster(img))
	return img
}

// Draw draws the frame — axis, pinned and visible tracks with their
// headers, markers, legend and scroll bar — onto c, whose bounds should be
// the view's size. Overlays (cursor, selection, tooltip) are the host's.
func (v *View) Draw(c paint.Canvas) {
	from, to := v.Range()
	v.drawFrame(c, v.geometry(), from, to, v.scrollY, false)
}

// newFrame prepares a frame over geometry g showing [from, to), with the
// threads' tracks if threads (some row shown is a thread's: showsThreads).
func (v *View) newFrame(c paint.Canvas, g geometry, from, to uint64, scrollY int, export, threads bool) *frame {
	f := &frame{v: v, c: c, th: v.theme, g: g, s: g.s, from: from, to: to, scrollY: scrollY, export: export}
	f.ax = g.ax(from, to)
	f.n = g.plot.Dx()
	f.ov = v.overview()
	if v.src != nil {
		f.m = timeline.ModelFor(v.src, from, to, float64(to-from)/float64(max(f.n, 1)), threads, v.ready)
	}
	f.face = paint.FaceFor(paint.Regular, textPt, f.s)
	f.small = paint.FaceFor(paint.Regular, smallPt, f.s)
	f.bold = paint.FaceFor(paint.Bold, textPt, f.s)
	f.computeTicks()
	counts := &v.ensureLayout().counts
	for g := Group(0); g < NumGroups; g++ {
		f.counts[g] = max(counts[g], v.totals[g])
	}
	return f
}

// drawFrame draws a whole frame.
func (v *View) drawFrame(c paint.Canvas, g geometry, from, to uint64, scrollY int, export bool) {
	l := v.ensureLayout()
	pinned, rows := l.shown(g, scrollY)
	f := v.newFrame(c, g, from, to, scrollY, export, showsThreads(pinned, rows))
	f.clear()
	f.prepare(pinned, rows)

	f.drawGrid(g.plot)
	f.drawRows(rows, g.tracks, g.tracks.Min.Y-scrollY)
	if !g.pinned.Empty() {
		f.drawRows(pinned, g.pinned, g.pinned.Min.Y)
		c.Fill(image.Rect(0, g.pinned.Max.Y-max(1, px(1, f.s)), g.pinned.Max.X, g.pinned.Max.Y), f.th.Axis)
	}
	f.drawMarkerLines(image.Rect(g.plot.Min.X, g.pinned.Min.Y, g.plot.Max.X, g.tracks.Max.Y))
	f.drawWakeup(l) // tracks/wakeup.go
	f.drawAxis()
	f.drawAxisFlags()
	f.drawHighlight()    // tracks/highlight.go
	f.drawFindingFlags() // tracks/findings.go
	f.drawLegend()
	if !export {
		f.drawScrollbar(l)
	}
}

// parallel calls fn(i) for i in [0, n) on up to GOMAXPROCS goroutines.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// colWindow is a thread's pixel columns: cols[i] is plot column off+i.
type colWindow struct {
	off  int
	cols []timeline.Column
}

// at returns plot column i's column, and false outside the window.
func (w colWindow) at(i int) (*timeline.Column, bool) {
	i -= w.off
	if i < 0 || i >= len(w.cols) {
		return nil, false
	}
	return &w.cols[i], true
}

// hecCache keeps the HECs' columns of the last frame: a frame that only
// scrolls, or draws the same range again, reuses them.
type hecCache struct {
	m    *timeline.Model
	ax   timeline.Axis
	n    int
	cols [][]timeline.Column
}

// window returns the plot columns [k0, k1) that a thread's life overlaps,
// and the axis to compute just those with. The sub-axis's column
// boundaries may differ from the plot's by a nanosecond, so it is used
// only when a column spans 100 ns or more.
func (f *frame) window(tr *timeline.Track, first, finished uint64) (int, int, timeline.Axis) {
	if tr.Len() == 0 || f.ax.PixelsPerNs() > 0.01 {
		return 0, f.n, f.ax
	}
	end := tr.Horizon() // to where its state is not known, if it is not
	if finished > 0 {
		end = min(tr.End(), finished)
	}
	first = min(first, tr.Mark(0).Time)
	k0 := max(0, int(math.Floor(f.ax.X(first)-f.ax.X0))-1)
	k1 := min(f.n, int(math.Ceil(f.ax.X(end)-f.ax.X0))+1)
	if k0 == 0 && k1 == f.n {
		return 0, f.n, f.ax
	}
	if k1 <= k0 {
		return 0, 0, f.ax
	}
	a, b := f.ax.ColumnTime(k0), f.ax.ColumnTime(k1)
	return k0, k1, timeline.NewAxis(a, b, f.ax.X0+float64(k0), float64(k1-k0))
}

// prepare computes, in parallel, the pixel columns of the HECs and
// threads the visible rows show.
func (f *frame) prepare(sets ...[]row) {
	if f.m == nil {
		return
	}
	needHEC := false
	var threads []TrackID
	for _, rs := range sets {
		for _, r := range rs {
			if r.title {
				continue
			}
			switch r.id.Kind.info().columns {
			case hecColumns:
				needHEC = true
			case threadColumns:
				threads = append(threads, r.id)
			}
		}
	}
	sc := &f.v.scratch
	nh := 0
	hc := &sc.hecs
	if needHEC {
		nh = len(f.m.HECs)
		if hc.m == f.m && hc.ax == f.ax && hc.n == f.n && len(hc.cols) == nh {
			f.hecCols = hc.cols
			nh = 0 // already computed
		} else {
			for len(hc.cols) < nh {
				hc.cols = append(hc.cols, nil)
			}
			hc.cols = hc.cols[:nh]
			hc.m, hc.ax, hc.n = nil, f.ax, f.n
		}
	}
	for len(sc.rows) < len(threads) {
		sc.rows = append(sc.rows, nil)
	}
	type job struct {
		tr     *timeline.Track
		k0, k1 int
		ax     timeline.Axis
	}
	jobs := make([]job, len(threads))
	for i, id := range threads {
		tr, first, finished := f.threadTrack(id.ID)
		if tr != nil {
			k0, k1, ax := f.window(tr, first, finished)
			jobs[i] = job{tr, k0, k1, ax}
		}
	}
	parallel(nh+len(threads), func(i int) {
		if i < nh {
			hc.cols[i] = f.m.HECs[i].Track.Columns(f.ax, f.n, hc.cols[i])
			return
		}
		k := i - nh
		if j := &jobs[k]; j.tr != nil && j.k1 > j.k0 {
			sc.rows[k] = j.tr.Columns(j.ax, j.k1-j.k0, sc.rows[k])
		}
	})
	if nh > 0 {
		hc.m = f.m
		f.hecCols = hc.cols
	}
	f.cols = make(map[TrackID]colWindow, len(threads))
	for i, id := range threads {
		if j := &jobs[i]; j.tr != nil && j.k1 > j.k0 {
			f.cols[id] = colWindow{off: j.k0, cols: sc.rows[i][:j.k1-j.k0]}
		}
	}
}

// showsThreads reports whether any of the rows is a thread's track: a
// frame without one draws from a detail model without threads.
func showsThreads(sets ...[]row) bool {
	for _, rs := range sets {
		for _, r := range rs {
			if !r.title && r.id.Kind.info().columns == threadColumns {
				return true
			}
		}
	}
	return false
}

// threadTrack returns the track of thread id from the frame's model, or
// from the overview if the model (a detail of the range) does not hold
// the thread; nil if neither does.
// It also returns the thread's first and finishing times (0: not
// finished).
func (f *frame) threadTrack(id uint32) (*timeline.Track, uint64, uint64) {
	if th := f.m.ThreadByID(id); th != nil {
		return &th.Track, th.First, th.Finished
	}
	if f.ov != nil && f.ov != f.m {
		if th := f.ov.ThreadByID(id); th != nil {
			return &th.Track, th.First, th.Finished
		}
	}
	return nil, 0, 0
}

// drawGrid draws the vertical lines of the major ticks over area.
func (f *frame) drawGrid(area image.Rectangle) {
	for t := firstTick(f.from, f.step); t <= f.to && f.step > 0; t += f.step {
		x := int(math.Floor(f.ax.X(t)))
		f.c.Fill(image.Rect(x, area.Min.Y, x+1, area.Max.Y), f.th.Grid)
		if t > math.MaxUint64-f.step {
			break
		}
	}
}

// clear fills the frame with the background and the headers' column with
// theirs: on a raster in strips on every core, as it is 8 MB at 1920×1080.
func (f *frame) clear() {
	ras, ok := f.c.(*paint.Raster)
	if !ok {
		f.c.Fill(f.c.Bounds(), f.th.Background)
		f.c.Fill(f.g.header, f.th.Header)
		return
	}
	b := ras.Clip()
	n := runtime.GOMAXPROCS(0)
	parallel(n, func(i int) {
		strip := image.Rect(b.Min.X, b.Min.Y+b.Dy()*i/n, b.Max.X, b.Min.Y+b.Dy()*(i+1)/n)
		paint.FillRect(ras.Image(), strip, f.th.Background)
		paint.FillRect(ras.Image(), strip.Intersect(f.g.header), f.th.Header)
	})
}

// drawRows draws rows whose content y 0 is at device y base, clipped to
// area. On a raster, bands of rows are drawn in parallel, each by a worker
// with its own canvas over the shared image (rows never overlap).
func (f *frame) drawRows(rows []row, area image.Rectangle, base int) {
	ras, ok := f.c.(*paint.Raster)
	workers := min(runtime.GOMAXPROCS(0), len(rows)/6)
	if !ok || workers < 2 {
		f.c.PushClip(area)
		f.drawRowRange(rows, 0, len(rows), base)
		f.c.PopClip()
		return
	}
	clip := ras.Clip().Intersect(area)
	per := (len(rows) + workers - 1) / workers
	parallel(workers, func(w int) {
		lo, hi := w*per, min((w+1)*per, len(rows))
		if lo >= hi {
			return
		}
		wf := *f
		wf.c = paint.NewRaster(ras.Image())
		wf.c.PushClip(clip)
		wf.inst = nil
		wf.drawRowRange(rows, lo, hi, base)
	})
}

// drawRowRange draws rows[lo:hi] (the current clip set) whose content y
// 0 is at device y base. (The rows after hi decide the rules, so that
// bands drawn in parallel draw what one pass would.)
func (f *frame) drawRowRange(rows []row, lo, hi, base int) {
	for i := lo; i < hi; i++ {
		r := rows[i]
		y0, y1 := base+r.y, base+r.y+r.h
		if r.title {
			f.drawTitle(r, y0, y1)
			continue
		}
		rect := image.Rect(0, y0, f.g.plot.Max.X, y1)
		if r.id.Kind == KindThread {
			if (r.y/max(r.h, 1))%2 == 1 {
				f.c.Fill(image.Rect(f.g.plot.Min.X, y0, f.g.plot.Max.X, y1), f.th.Stripe)
			}
		} else if r.id.Kind == KindUserThread || r.id.Kind == KindUserLabel || i+1 < len(rows) && !rows[i+1].title || i+1 == len(rows) {
			// A rule under each track but the last of a group, and
			// under every track of spans (a thread's stack several
			// rows), whatever follows.
			f.c.Fill(image.Rect(f.g.plot.Min.X, y1-1, f.g.plot.Max.X, y1), f.th.Rule)
		}
		f.c.PushClip(image.Rect(f.g.plot.Min.X, y0, f.g.plot.Max.X, y1))
		f.drawTrack(r.id, y0, y1)
		f.c.PopClip()
		f.c.PushClip(image.Rect(0, y0, f.g.header.Max.X, y1).Intersect(rect))
		f.drawHeader(r, y0, y1)
		f.c.PopClip()
		if r.id == f.v.marked {
			f.drawMark(rect)
		}
	}
}

// drawMark marks a track's row (rect: header and plot): its header tinted,
// a bar at its left edge and an outline round it, in the selection's hue.
func (f *frame) drawMark(rect image.Rectangle) {
	ink := paint.WithAlpha(f.th.Selection, 0xff)
	w := max(px(1.5, f.s), 1)
	f.c.Fill(image.Rect(rect.Min.X, rect.Min.Y, f.g.header.Max.X, rect.Max.Y), f.th.Selection)
	f.c.Fill(image.Rect(rect.Min.X, rect.Min.Y, rect.Min.X+px(4, f.s), rect.Max.Y), ink)
	f.c.Fill(image.Rect(rect.Min.X, rect.Min.Y, rect.Max.X, rect.Min.Y+w), ink)
	f.c.Fill(image.Rect(rect.Min.X, rect.Max.Y-w, rect.Max.X, rect.Max.Y), ink)
	f.c.Fill(image.Rect(rect.Max.X-w, rect.Min.Y, rect.Max.X, rect.Max.Y), ink)
}

// hecIndex returns the index in the model's HECs of the capability whose
// number a HEC, HEC activity or sparks track's id holds; -1 if the model
// has none of that number.
func (f *frame) hecIndex(id uint32) int {
	if f.m == nil {
		return -1
	}
	return f.m.HECIndex(int32(id))
}

// drawTrack draws a track's content in the plot between y0 and y1.
func (f *frame) drawTrack(id TrackID, y0, y1 int) {
	if k := id.Kind.info(); k.draw != nil {
		k.draw(f, id.ID, y0, y1)
	}
}

// drawTitle draws a group's title row: its toggle, name and track count,
// and on the User events title the switch of its spans by thread or by
// label.
func (f *frame) drawTitle(r row, y0, y1 int) {
	f.c.Fill(image.Rect(0, y0, f.g.plot.Max.X, y1), f.th.Group)
	f.c.Fill(image.Rect(0, y1-1, f.g.plot.Max.X, y1), f.th.Rule)
	mid := float64(y0+y1) / 2
	f.drawToggle(float64(px(10, f.s)), mid, f.v.collapsed[r.group])
	label := r.group.String()
	if n := f.counts[r.group]; n > 1 || r.group == GroupThreads {
		label += "  " + paint.Count(int64(n))
	}
	if n := f.v.ensureLayout().hidden[r.group]; n > 0 {
		label += "  (" + paint.Count(int64(n)) + " hidden)"
	}
	x := px(20, f.s)
	right := f.g.header.Max.X - px(4, f.s)
	if r.group == GroupUser {
		if sw := f.spansPart(y0, y1); !sw.Empty() {
			f.drawSpansSwitch(sw)
			right = sw.Min.X - px(4, f.s)
		}
	}
	f.c.Text(f.bold, f.bold.Fit(label, right-x), x, f.bold.Baseline(mid), f.th.Text)
}

// drawToggle draws a group's disclosure triangle centred on (x, y):
// pointing right when collapsed, down when expanded.
func (f *frame) drawToggle(x, y float64, collapsed bool) {
	h := 4 * f.s
	if collapsed {
		f.c.Polygon([]paint.Point{{X: x - h*0.6, Y: y - h}, {X: x + h*0.8, Y: y}, {X: x - h*0.6, Y: y + h}}, f.th.Text)
	} else {
		f.c.Polygon([]paint.Point{{X: x - h, Y: y - h*0.6}, {X: x + h, Y: y - h*0.6}, {X: x, Y: y + h*0.8}}, f.th.Text)
	}
}

// headerParts returns, for a track row at y0..y1, where its name goes,
// its pin toggle and its resize handle.
func (g geometry) headerParts(y0, y1 int) (name, pin, resize image.Rectangle) {
	pw := px(pinWidth, g.s)
	rh := min(px(resizeHandle, g.s), (y1-y0)/3)
	pin = image.Rect(g.header.Max.X-pw, y0, g.header.Max.X, y1-rh)
	name = image.Rect(px(12, g.s), y0, pin.Min.X, y1-rh)
	resize = image.Rect(0, y1-rh, g.header.Max.X, y1)
	return
}

// scalePart returns, for a track row at y0..y1, where a rate track's log
// scale toggle goes: left of the pin, on the name's line (empty when the
// row is too low for it).
func (g geometry) scalePart(y0, y1 int, small *paint.Face) image.Rectangle {
	_, pin, _ := g.headerParts(y0, y1)
	w := small.Width(logToggleWords) + px(8, g.s)
	h := small.Height() + px(4, g.s)
	top := y0 + px(3, g.s)
	if top+h > pin.Max.Y {
		return image.Rectangle{}
	}
	return image.Rect(pin.Min.X-w-px(2, g.s), top, pin.Min.X-px(2, g.s), top+h)
}

// drawScaleToggle draws a rate track's log scale toggle in rect: the word
// in a box, filled when the log scale is on.
func (f *frame) drawScaleToggle(rect image.Rectangle, on bool) {
	if rect.Empty() {
		return
	}
	ink := paint.WithAlpha(f.th.Dim, 0xa0)
	if on {
		f.c.Fill(rect, paint.WithAlpha(f.th.Dim, 0x50))
		ink = f.th.Text
	}
	x0, y0, x1, y1 := float64(rect.Min.X)+0.5, float64(rect.Min.Y)+0.5, float64(rect.Max.X)-0.5, float64(rect.Max.Y)-0.5
	f.c.Polyline([]paint.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}}, 1, ink)
	f.c.Text(f.small, logToggleWords, rect.Min.X+px(4, f.s), f.small.Baseline(float64(rect.Min.Y+rect.Max.Y)/2), ink)
}

// drawHeader draws a track's header: name (cut to fit), pin toggle, and
// for graphs their scale.
func (f *frame) drawHeader(r row, y0, y1 int) {
	g := f.g
	f.c.Fill(image.Rect(0, y0, g.header.Max.X, y1), f.th.Header)
	f.c.Fill(image.Rect(0, y1-1, g.header.Max.X, y1), f.th.Rule)
	f.c.Fill(image.Rect(g.header.Max.X-1, y0, g.header.Max.X, y1), f.th.Rule)
	name, pin, _ := g.headerParts(y0, y1)
	face := f.face
	if y1-y0 < face.Height()+px(2, f.s) {
		face = f.small
	}
	mid := float64(y0+y1) / 2
	big := y1-y0 >= 2*face.Height()+px(6, f.s)
	if big {
		mid = float64(y0) + float64(face.Height())/2 + float64(px(4, f.s))
	}
	text := f.v.Name(r.id)
	x := name.Min.X
	var toggle image.Rectangle
	if rateKind(r.id.Kind) {
		if toggle = g.scalePart(y0, y1, f.small); !toggle.Empty() {
			name.Max.X = toggle.Min.X - px(2, f.s)
		}
	}
	if r.id.Kind == KindThread || r.id.Kind == KindUserThread {
		// The id in the dim colour, then the label.
		id := itoa(r.id.ID)
		if len(text) > len(id) && text[:len(id)] == id {
			f.c.Text(face, id, x, face.Baseline(mid), f.th.Dim)
			x += face.Width(id + " ")
			text = text[len(id)+1:]
		}
	}
	f.c.Text(face, face.Fit(text, name.Max.X-x-px(2, f.s)), x, face.Baseline(mid), f.th.Text)
	if big {
		noteH := 0
		if sub := f.headerNote(r.id); sub != "" {
			f.c.Text(f.small, f.small.Fit(sub, name.Dx()), name.Min.X, f.small.Baseline(mid+float64(face.Height())+2*f.s), f.th.Dim)
			noteH = f.small.Height() + px(2, f.s)
		}
		if side := r.id.Kind.info().side; side != nil {
			top := bandLegendTop(mid, face.Height(), noteH, f.s)
			side(f, r.id.ID, image.Rect(name.Min.X, top, g.header.Max.X-px(6, f.s), name.Max.Y))
		}
	}
	f.drawPin(pin, f.v.Pinned(r.id), float64(y0+min(y1-y0, face.Height()+px(4, f.s)))/1)
	f.drawScaleToggle(toggle, f.v.LogScale(r.id.Kind))
}

// drawPin draws the pin toggle in rect: filled when the track is pinned, a
// faint outline otherwise.
func (f *frame) drawPin(rect image.Rectangle, pinned bool, _ float64) {
	if rect.Dy() < px(8, f.s) {
		return
	}
	cx := float64(rect.Min.X+rect.Max.X) / 2
	cy := float64(rect.Min.Y) + math.Min(float64(rect.Dy())/2, 9*f.s)
	r := 3 * f.s
	col := paint.WithAlpha(f.th.Dim, 0x60)
	if pinned {
		col = f.th.Text
	}
	head := []paint.Point{{X: cx - r, Y: cy - r}, {X: cx + r, Y: cy - r}, {X: cx + r*0.7, Y: cy + r*0.3}, {X: cx - r*0.7, Y: cy + r*0.3}}
	if pinned {
		f.c.Polygon(head, col)
	} else {
		f.c.Polyline(append(head, head[0]), math.Max(1, f.s), col)
	}
	f.c.Line(cx, cy+r*0.3, cx, cy+r*2, math.Max(1, f.s), col)
}

// drawScrollbar draws the scroll bar's thumb when the tracks overflow.
func (f *frame) drawScrollbar(l *layout) {
	sb := f.g.scrollbar
	if sb.Empty() || l.contentH <= f.g.tracks.Dy() {
		return
	}
	h := sb.Dy()
	th := max(h*f.g.tracks.Dy()/l.contentH, px(16, f.s))
	y := sb.Min.Y + int(float64(h-th)*float64(f.scrollY)/float64(max(l.contentH-f.g.tracks.Dy(), 1)))
	inset := max(px(2, f.s), 1)
	f.c.Fill(image.Rect(sb.Min.X+inset, y, sb.Max.X-inset, y+th), paint.WithAlpha(f.th.Dim, 0x90))
}

// colDur returns the ns covered by plot column i.
func (f *frame) colDur(i int) uint64 { return f.ax.ColumnTime(i+1) - f.ax.ColumnTime(i) }

// fillRuns fills [y0, y1) of each plot column i for which ink(i) is drawn,
// runs of equal inks as one rectangle.
func (f *frame) fillRuns(y0, y1 int, ink func(i int) (color.RGBA, bool)) {
	x0 := f.g.plot.Min.X
	runStart, have := 0, false
	var cur color.RGBA
	for i := 0; i <= f.n; i++ {
		var c color.RGBA
		ok := false
		if i < f.n {
			c, ok = ink(i)
		}
		if have && (!ok || c != cur) {
			f.c.Fill(image.Rect(x0+runStart, y0, x0+i, y1), cur)
			have = false
		}
		if ok && !have {
			runStart, cur, have = i, c, true
		}
	}
}
