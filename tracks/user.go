package tracks

import (
	"cmp"
	"image"
	"image/color"
	"math"
	"slices"
	"sort"
	"strconv"
	"sync"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// spanList is a set of user spans (indices as userSpan takes them) sorted
// by start, with the largest end of each prefix so that the spans overlapping
// a range are found with one binary search.
type spanList struct {
	idx    []int32
	maxEnd []uint64
}

// userIndex is the overview's user spans by label and, stacked by
// nesting depth, by the thread that began them.
type userIndex struct {
	ov *timeline.Model
	n  int
	// byLabel is made on first use (label): only spans shown by label
	// need it, and it costs 12 bytes a span (a log of user events has
	// millions).
	labelsOnce sync.Once
	byLabel    map[int32]*spanList
	byThread   map[uint32][]*spanList // a row per depth, outermost first
	depth      []uint16               // each span's row in its thread's track
	thread     []uint32               // each span's thread (spanThread)
	threads    []uint32               // threads with spans, by id (0: spans begun outside any thread)
}

// spanThread returns the thread that began a span: as the model
// recorded it, else (a model built without its threads' events) the
// thread running on the span's HEC when it started, 0 if unknown (no
// HEC, nothing running, or a summarised stretch of the overview).
func spanThread(ov *timeline.Model, sp timeline.UserSpan) uint32 {
	if sp.Thread != 0 {
		return sp.Thread
	}
	hec := ov.HEC(sp.Cap)
	if hec == nil {
		return 0
	}
	mk := hec.Track.StateAt(sp.Start)
	if mk.Summary() || mk.State != timeline.StateRunning {
		return 0
	}
	return mk.Arg
}

// numUserSpans returns how many user spans the model has: those a STOP
// ended, then those still open where its capabilities' data ends
// (timeline.Model.OpenSpan).
func numUserSpans(m *timeline.Model) int { return m.NumUserSpans() + m.NumOpenSpans() }

// userSpan returns the model's i-th user span, counting as numUserSpans
// does.
func userSpan(m *timeline.Model, i int) timeline.UserSpan {
	if n := m.NumUserSpans(); i >= n {
		return m.OpenSpan(i - n)
	}
	return m.UserSpan(i)
}

// userIndex returns the index of the overview's user spans, built on
// first use for each overview. A thread's spans are stacked as a flame
// chart: in order of start, each goes in the lowest row free when it
// starts, so a span nested in another is a row below it and two that
// overlap without nesting never share a row.
func (v *View) userIndex() *userIndex {
	ov := v.overview()
	if ov == nil {
		return &userIndex{}
	}
	if u := v.users; u != nil && u.ov == ov && u.n == numUserSpans(ov) {
		return u
	}
	u := &userIndex{ov: ov, n: numUserSpans(ov), byThread: map[uint32][]*spanList{}}
	u.depth, u.thread = make([]uint16, u.n), make([]uint32, u.n)
	// Of two spans that start together, the longer is the outer. Sorted
	// on their starts copied out (a log of user events has millions of
	// spans: looking each up at every comparison took a second).
	starts := make([]uint64, u.n)
	all := make([]int32, u.n)
	for i := range all {
		all[i], starts[i] = int32(i), userSpan(ov, i).Start
	}
	slices.SortStableFunc(all, func(a, b int32) int {
		if c := cmp.Compare(starts[a], starts[b]); c != 0 {
			return c
		}
		return cmp.Compare(userSpan(ov, int(b)).End, userSpan(ov, int(a)).End)
	})
	ends := map[uint32][]uint64{} // per thread, the end of the last span of each row
	for _, i := range all {
		sp := userSpan(ov, int(i))
		th := spanThread(ov, sp)
		u.thread[i] = th
		rows, e := u.byThread[th], ends[th]
		if rows == nil {
			u.threads = append(u.threads, th)
		}
		d := 0
		for d < len(e) && e[d] > sp.Start {
			d++
		}
		if d == len(e) {
			e = append(e, 0)
			rows = append(rows, &spanList{})
		}
		e[d] = sp.End
		rows[d].idx = append(rows[d].idx, i)
		u.byThread[th], ends[th] = rows, e
		u.depth[i] = uint16(min(d, math.MaxUint16))
	}
	for _, rows := range u.byThread {
		for _, l := range rows {
			l.finish(ov)
		}
	}
	sort.Slice(u.threads, func(a, b int) bool { return u.threads[a] < u.threads[b] })
	v.users = u
	return u
}

// label returns the spans of label l (nil if it has none), in order of
// start, the longer first of two that start together.
func (u *userIndex) label(l int32) *spanList {
	u.labelsOnce.Do(u.makeLabels)
	return u.byLabel[l]
}

// makeLabels makes byLabel: every span, from the threads' rows, in the
// order userIndex sorts them (start, then the longer first, then as the
// model has them), dealt out by label.
func (u *userIndex) makeLabels() {
	u.byLabel = map[int32]*spanList{}
	if u.ov == nil {
		return
	}
	all := make([]int32, 0, u.n)
	for _, rows := range u.byThread {
		for _, l := range rows {
			all = append(all, l.idx...)
		}
	}
	starts := make([]uint64, u.n)
	for _, i := range all {
		starts[i] = userSpan(u.ov, int(i)).Start
	}
	slices.SortFunc(all, func(a, b int32) int {
		if c := cmp.Compare(starts[a], starts[b]); c != 0 {
			return c
		}
		if c := cmp.Compare(userSpan(u.ov, int(b)).End, userSpan(u.ov, int(a)).End); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for _, i := range all {
		lb := userSpan(u.ov, int(i)).Label
		l := u.byLabel[lb]
		if l == nil {
			l = &spanList{}
			u.byLabel[lb] = l
		}
		l.idx = append(l.idx, i)
	}
	for _, l := range u.byLabel {
		l.idx = slices.Clip(l.idx)
		l.finish(u.ov)
	}
}

// finish works out the largest end of each prefix of l's spans, which
// are in order of start.
func (l *spanList) finish(ov *timeline.Model) {
	l.maxEnd = make([]uint64, len(l.idx))
	var m uint64
	for k, i := range l.idx {
		m = max(m, userSpan(ov, int(i)).End)
		l.maxEnd[k] = m
	}
}

// enclosing returns the span that span i is nested in: the one a row
// above it in its thread's track that holds all of it, if any (a span
// that overlaps one above without nesting is in none).
func (u *userIndex) enclosing(i int) (timeline.UserSpan, bool) {
	d := int(u.depth[i])
	rows := u.byThread[u.thread[i]]
	if d == 0 || d > len(rows) {
		return timeline.UserSpan{}, false
	}
	sp := userSpan(u.ov, i)
	var out timeline.UserSpan
	found := false
	rows[d-1].each(u.ov, sp.Start, sp.Start, func(_ int, p timeline.UserSpan) bool {
		if p.Start <= sp.Start && p.End >= sp.End {
			out, found = p, true
		}
		return true
	})
	return out, found
}

// rows returns how many rows (nesting depths) the spans of thread id
// take, at least one.
func (u *userIndex) rows(id uint32) int { return max(len(u.byThread[id]), 1) }

// each calls fn with the spans of l that overlap [from, to], in order of
// start, until fn returns false.
func (l *spanList) each(ov *timeline.Model, from, to uint64, fn func(i int, sp timeline.UserSpan) bool) {
	if l == nil {
		return
	}
	k := sort.Search(len(l.maxEnd), func(k int) bool { return l.maxEnd[k] >= from })
	for ; k < len(l.idx); k++ {
		sp := userSpan(ov, int(l.idx[k]))
		if sp.Start > to {
			return
		}
		if sp.End >= from && !fn(int(l.idx[k]), sp) {
			return
		}
	}
}

// skipTo returns the first index from k on (in l.idx) of a span that may
// end at or after t: every span between k and it ends before t.
func (l *spanList) skipTo(k int, t uint64) int {
	return k + sort.Search(len(l.maxEnd)-k, func(j int) bool { return l.maxEnd[k+j] >= t })
}

// spanName names a user span: its label, with its instance id if any.
func spanName(ov *timeline.Model, sp timeline.UserSpan) string {
	s := ov.String(sp.Label)
	if sp.ID != 0 {
		s += " #" + strconv.FormatUint(uint64(sp.ID), 10)
	}
	return s
}

// drawSpans draws the spans of l as bars between y0 and y1, each in its
// label's colour, named where there is room (withName: the label, else
// its length). Spans narrower than a pixel that fall in one already drawn
// are skipped.
func (f *frame) drawSpans(l *spanList, y0, y1 int, withName bool) {
	if f.ov == nil {
		return
	}
	top, bottom := f.inset(y0, y1)
	lastX := math.Inf(-1)
	left, right := float64(f.g.plot.Min.X), float64(f.g.plot.Max.X)
	colLabel, col := int32(-2), color.RGBA{}
	ellipsis := f.small.Width("…") + 2
	if l == nil {
		return
	}
	// The spans in order of start (as spanList.each gives them), skipping
	// at once those that end two pixels or more before the last one
	// drawn: they fall in what is drawn already. Zoomed out on millions
	// of spans, looking at each took most of a frame.
	k := sort.Search(len(l.maxEnd), func(k int) bool { return l.maxEnd[k] >= f.from })
	for ; k < len(l.idx); k++ {
		sp := userSpan(f.ov, int(l.idx[k]))
		if sp.Start > f.to {
			return
		}
		if sp.End < f.from {
			continue
		}
		a, b := math.Max(f.ax.X(sp.Start), left), math.Min(f.ax.X(sp.End), right)
		xa, xb := int(math.Floor(a)), max(int(math.Ceil(b)), int(math.Floor(a))+1)
		if float64(xb) <= lastX {
			if t, ok := f.lastBefore(lastX); ok && t >= sp.End {
				// Every span ending by t, X(t) < lastX, is one of these.
				k = l.skipTo(k+1, t+1) - 1
			}
			continue
		}
		if sp.Label != colLabel {
			// A label's colour, worked out once per run of its spans.
			colLabel, col = sp.Label, paint.BandColorFor(f.ov.String(sp.Label))
		}
		if zig := px(4, f.s); sp.Open && xb-xa > 2*zig {
			f.drawOpenEnd(xa, xb, top, bottom, zig, col)
		} else {
			f.c.Fill(image.Rect(xa, top, xb, bottom), col)
		}
		if xb-xa >= 3 {
			f.c.Fill(image.Rect(xa, top, xa+1, bottom), paint.Mix(col, f.th.Text, 0.35))
		}
		if room := xb - xa - px(6, f.s); room > ellipsis && bottom-top >= f.small.Height()-2 {
			text := paint.Duration(sp.End - sp.Start)
			if sp.Open {
				text = "≥ " + text
			}
			if withName {
				text = spanName(f.ov, sp)
			}
			if fit := f.small.Fit(text, room); fit != "" {
				f.c.Text(f.small, fit, xa+px(3, f.s), f.small.Baseline(float64(top+bottom)/2), paint.Light.Text)
			}
		}
		lastX = float64(xb)
	}
}

// lastBefore returns the latest time the frame's axis places before x
// (and whether it found it): a span that starts and ends by then is drawn
// from xa to xb ≤ x, within what is drawn up to x.
func (f *frame) lastBefore(x float64) (uint64, bool) {
	t := f.ax.Time(x)
	for i := 0; f.ax.X(t) >= x; i++ {
		if t == 0 || i == 4 {
			return 0, false
		}
		t--
	}
	for i := 0; t < math.MaxUint64 && f.ax.X(t+1) < x; i++ {
		if i == 4 {
			return 0, false
		}
		t++
	}
	return t, true
}

// drawOpenEnd draws the bar of a span left open, from xa to xb between
// top and bottom, with a ragged right end zig pixels deep: the span goes
// on past where the log's knowledge of it ends.
func (f *frame) drawOpenEnd(xa, xb, top, bottom, zig int, col color.RGBA) {
	f.c.Fill(image.Rect(xa, top, xb-zig, bottom), col)
	teeth := max((bottom-top)/max(2*zig, 1), 1)
	step := float64(bottom-top) / float64(2*teeth)
	pts := []paint.Point{{X: float64(xb - zig), Y: float64(top)}}
	for k := 0; k < 2*teeth; k++ {
		x := float64(xb - zig)
		if k%2 == 0 {
			x = float64(xb)
		}
		pts = append(pts, paint.Point{X: x, Y: float64(top) + step*float64(k+1)})
	}
	f.c.Polygon(pts, col)
}

// drawUserLabel draws the spans of one label.
func (f *frame) drawUserLabel(label int32, y0, y1 int) {
	f.drawSpans(f.v.userIndex().label(label), y0, y1, false)
}

// drawUserThread draws the spans one thread began, a row per nesting
// depth, the outermost at the top.
func (f *frame) drawUserThread(id uint32, y0, y1 int) {
	rows := f.v.userIndex().byThread[id]
	for k, l := range rows {
		a, b := userRow(k, len(rows), y0, y1)
		f.drawSpans(l, a, b, true)
	}
}

// userRow returns where row k of n of a thread's spans goes in its track
// drawn from y0 to y1.
func userRow(k, n, y0, y1 int) (int, int) {
	return y0 + k*(y1-y0)/n, y0 + (k+1)*(y1-y0)/n
}

// hitUserThread describes the span of thread id under the pointer at
// device y, in the row (nesting depth) y falls in.
func (f *frame) hitUserThread(h *Hit, id uint32, col, y, y0, y1 int) {
	rows := f.v.userIndex().byThread[id]
	if len(rows) == 0 || y1 <= y0 {
		return
	}
	k := min(max((y-y0)*len(rows)/(y1-y0), 0), len(rows)-1)
	a, b := userRow(k, len(rows), y0, y1)
	f.hitSpans(h, rows[k], col, a, b)
}

// hitSpans describes the span of l under the pointer (the latest-starting
// of those holding its time, give or take half a pixel).
func (f *frame) hitSpans(h *Hit, l *spanList, col, y0, y1 int) {
	if f.ov == nil {
		return
	}
	slack := uint64(math.Ceil(1 / f.ax.PixelsPerNs() / 2))
	var best timeline.UserSpan
	bi := -1
	lo := h.Time - min(h.Time, slack)
	l.each(f.ov, lo, h.Time+slack, func(i int, sp timeline.UserSpan) bool {
		if sp.Start <= h.Time+slack && sp.End+slack >= h.Time && (bi < 0 || sp.Start >= best.Start) {
			best, bi = sp, i
		}
		return true
	})
	if bi < 0 {
		return
	}
	h.Element, h.From, h.To = ElemUserSpan, best.Start, best.End
	h.Depth = int(f.v.userIndex().depth[bi])
	h.Tip = []string{spanName(f.ov, best), "from " + f.when(best.Start) + " for " + paint.Duration(best.End-best.Start)}
	if best.Open {
		h.Tip[1] = "from " + f.when(best.Start) + " for at least " + paint.Duration(best.End-best.Start)
		if f.ov.Growing {
			h.Tip = append(h.Tip, "open: its STOP not received yet")
		} else {
			h.Tip = append(h.Tip, "open: log cut before its STOP")
		}
	}
	if best.Cap >= 0 {
		where := "started on HEC " + strconv.Itoa(int(best.Cap))
		if th := f.v.userIndex().thread[bi]; th != 0 {
			where += " by " + threadTitle(f.ov, th)
			h.Thread = th
		}
		h.Tip = append(h.Tip, where)
	}
	if h.Depth > 0 {
		line := "nested " + strconv.Itoa(h.Depth) + " deep in its thread's spans"
		if in, ok := f.v.userIndex().enclosing(bi); ok {
			line += ", in " + spanName(f.ov, in)
		}
		h.Tip = append(h.Tip, line)
	}
	h.Anchor = f.spanRect(best.Start, best.End, col, y0, y1)
}
