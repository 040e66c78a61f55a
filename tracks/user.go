package tracks

import (
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
// by start, with the largest end up to each block of spanBlock of them, so
// that the spans overlapping a range are found with one binary search and
// a look at a block's spans. A span takes about 2 bytes, where its index
// and the largest end of each prefix took 12 (a log of user events has
// millions): its index is kept as the difference from that of its block's
// first span, in a byte in a chunk where they all fit one (a thread's spans
// among those of a few others), else in 2 (an index further off among the
// list's few exceptions, far).
type spanList struct {
	ov *timeline.Model
	// deltas holds each span's index less its block's first in chunks of
	// idxChunk (the first grows up to it), so that a list made span by
	// span holds little room to spare, and not two copies of itself while
	// it grows.
	deltas []deltaChunk
	far    []farIndex // the indices further off, by position
	n      int
	// first[b] is the index of block b's first span, maxEnd[b] the
	// largest end of the spans up to the end of block b (the first
	// (b+1)*spanBlock).
	first  []int32
	maxEnd []uint64
	high   uint64 // the largest end so far, while the list is made
}

// farIndex is the index of the span at position k of a list, when it
// is too far from its block's first for 2 bytes.
type farIndex struct {
	k, i int32
}

// deltaChunk is a chunk of a spanList's deltas: in a byte each (narrow)
// while they all fit one, in 2 (wide, not nil) once one does not.
type deltaChunk struct {
	narrow []int8
	wide   []int16
}

func (c *deltaChunk) len() int {
	if c.wide != nil {
		return len(c.wide)
	}
	return len(c.narrow)
}

// widen turns the chunk's deltas into 2 bytes each.
func (c *deltaChunk) widen() {
	w := make([]int16, len(c.narrow), cap(c.narrow))
	for j, d := range c.narrow {
		w[j] = int16(d)
	}
	c.wide, c.narrow = w, nil
}

// farDelta in a list's deltas says the span's index is among its far
// ones.
const farDelta = math.MinInt16

// idxChunk is the size of a spanList's chunks of deltas.
const idxChunk = 4096

// spanBlock is how many spans of a spanList share an entry of first and
// maxEnd.
const spanBlock = 16

// userIndex is the overview's user spans by label and, stacked by
// nesting depth, by the thread that began them.
type userIndex struct {
	ov *timeline.Model
	n  int
	// byLabel is made on first use (label): only spans shown by label
	// need it.
	labelsOnce sync.Once
	byLabel    map[int32]*spanList
	byThread   map[uint32][]*spanList // a row per depth, outermost first
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

// spanEnd returns the end of the model's i-th user span, counting as
// numUserSpans does (userSpan(m, i).End).
func spanEnd(m *timeline.Model, i int) uint64 {
	if n := m.NumUserSpans(); i >= n {
		return m.OpenSpan(i - n).End
	}
	return m.UserSpanEnd(i)
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
	v.users = newUserIndex(ov)
	return v.users
}

// newUserIndex places the user spans of ov (not nil) in their rows.
func newUserIndex(ov *timeline.Model) *userIndex { return newThreadRows().index(ov) }

// threadRows places the user spans of a model in their threads' rows
// (index).
type threadRows struct {
	// ov is the model whose spans are placed, once known: a span is
	// keyed by the thread that began it, which only a model can tell
	// when the span does not say (spanThread).
	ov     *timeline.Model
	order  *spanOrder
	stacks map[uint32]*threadStack
}

func newThreadRows() *threadRows {
	r := &threadRows{stacks: map[uint32]*threadStack{}}
	r.order = newSpanOrder(func(sp *timeline.UserSpan) uint32 { return spanThread(r.ov, *sp) }, func(th uint32) placer {
		t := &threadStack{}
		r.stacks[th] = t
		return t
	})
	return r
}

// index places the spans of ov, and returns them in their rows. r must
// not be used afterwards.
func (r *threadRows) index(ov *timeline.Model) *userIndex {
	r.ov = ov
	u := &userIndex{ov: ov, n: numUserSpans(ov), byThread: map[uint32][]*spanList{}}
	w := modelWalk(ov, u.n)
	r.order.take(w)
	r.order.finish(w)
	for th, t := range r.stacks {
		for _, l := range t.rows {
			l.finish(ov)
		}
		u.byThread[th] = t.rows
		u.threads = append(u.threads, th)
	}
	slices.Sort(u.threads)
	return u
}

// label returns the spans of label l (nil if it has none), in order of
// start, the longer first of two that start together.
func (u *userIndex) label(l int32) *spanList {
	u.labelsOnce.Do(u.makeLabels)
	return u.byLabel[l]
}

// makeLabels makes byLabel: every span, in the order userIndex places
// them (start, then the longer first, then as the model has them), dealt
// out by label.
func (u *userIndex) makeLabels() {
	u.byLabel = map[int32]*spanList{}
	if u.ov == nil {
		return
	}
	byStart(u.ov, u.n, func(sp *timeline.UserSpan) uint32 { return uint32(sp.Label) }, func(k uint32) placer {
		l := &spanList{}
		u.byLabel[int32(k)] = l
		return &labelPlacer{l}
	})
	for _, l := range u.byLabel {
		l.finish(u.ov)
	}
}

// add appends span i, which ends at end, to a list being made.
func (l *spanList) add(i int32, end uint64) {
	if c := len(l.deltas) - 1; c < 0 || l.deltas[c].len() == idxChunk {
		var d deltaChunk
		if c >= 0 {
			d.narrow = make([]int8, 0, idxChunk)
		}
		l.deltas = append(l.deltas, d)
	}
	if l.n%spanBlock == 0 {
		l.first = append(l.first, i)
	}
	delta := int64(i) - int64(l.first[l.n/spanBlock])
	if delta <= farDelta || delta > math.MaxInt16 {
		l.far = append(l.far, farIndex{k: int32(l.n), i: i})
		delta = farDelta
	}
	c := &l.deltas[len(l.deltas)-1]
	if c.wide == nil && delta >= math.MinInt8 && delta <= math.MaxInt8 {
		c.narrow = append(c.narrow, int8(delta))
	} else {
		if c.wide == nil {
			c.widen()
		}
		c.wide = append(c.wide, int16(delta))
	}
	l.n++
	l.high = max(l.high, end)
	if l.n%spanBlock == 0 {
		l.maxEnd = append(l.maxEnd, l.high)
	}
}

// pop takes the last span added back off a list being made, whose
// largest end was high before it was added.
func (l *spanList) pop(high uint64) {
	if l.n%spanBlock == 0 {
		l.maxEnd = l.maxEnd[:len(l.maxEnd)-1]
	}
	l.n--
	c := &l.deltas[len(l.deltas)-1]
	if c.wide != nil {
		last := len(c.wide) - 1
		if c.wide[last] == farDelta {
			l.far = l.far[:len(l.far)-1]
		}
		c.wide = c.wide[:last]
	} else {
		c.narrow = c.narrow[:len(c.narrow)-1]
	}
	if c.len() == 0 && len(l.deltas) > 1 {
		l.deltas = l.deltas[:len(l.deltas)-1]
	}
	if l.n%spanBlock == 0 {
		l.first = l.first[:len(l.first)-1]
	}
	l.high = high
}

// finish ends the making of l, the spans of ov: the largest end of its
// last, partial block, and its first chunk (which grew by doubling)
// without room to spare.
func (l *spanList) finish(ov *timeline.Model) {
	l.ov = ov
	if l.n%spanBlock != 0 {
		l.maxEnd = append(l.maxEnd, l.high)
	}
	if len(l.deltas) == 1 {
		c := &l.deltas[0]
		if c.wide != nil && cap(c.wide) > len(c.wide) {
			c.wide = slices.Clone(c.wide)
		}
		if cap(c.narrow) > len(c.narrow) {
			c.narrow = slices.Clone(c.narrow)
		}
	}
	l.first, l.maxEnd, l.far = slices.Clip(l.first), slices.Clip(l.maxEnd), slices.Clip(l.far)
}

// len returns the number of spans in l.
func (l *spanList) len() int {
	if l == nil {
		return 0
	}
	return l.n
}

// index returns the index (as userSpan takes it) of the k-th span of l.
func (l *spanList) index(k int) int {
	c := &l.deltas[k/idxChunk]
	if c.wide == nil {
		return int(l.first[k/spanBlock]) + int(c.narrow[k%idxChunk])
	}
	d := c.wide[k%idxChunk]
	if d == farDelta {
		j, _ := slices.BinarySearchFunc(l.far, int32(k), func(f farIndex, k int32) int { return int(f.k - k) })
		return int(l.far[j].i)
	}
	return int(l.first[k/spanBlock]) + int(d)
}

// span returns the k-th span of l.
func (l *spanList) span(k int) timeline.UserSpan { return userSpan(l.ov, l.index(k)) }

// skipTo returns the first index from k on (in l) of a span that may
// end at or after t: every span between k and it ends before t.
func (l *spanList) skipTo(k int, t uint64) int {
	b := sort.Search(len(l.maxEnd), func(b int) bool { return l.maxEnd[b] >= t })
	if b == len(l.maxEnd) {
		return l.n
	}
	// The largest end of the prefix reaches t within block b: at its
	// first span that ends at or after t.
	j := b * spanBlock
	if j+spanBlock <= k {
		return k
	}
	for j < l.n-1 && spanEnd(l.ov, l.index(j)) < t {
		j++
	}
	return max(k, j)
}

// depth returns the row of span i (of the overview, sp) in its thread's
// track: 0 if it is not in its thread's rows (an index of another
// overview).
func (u *userIndex) depth(i int, sp timeline.UserSpan) int {
	for d, l := range u.byThread[spanThread(u.ov, sp)] {
		k := sort.Search(l.len(), func(k int) bool { return l.span(k).Start >= sp.Start })
		for ; k < l.len() && l.span(k).Start == sp.Start; k++ {
			if l.index(k) == i {
				return d
			}
		}
	}
	return 0
}

// enclosing returns the span that span i is nested in: the one a row
// above it in its thread's track that holds all of it, if any (a span
// that overlaps one above without nesting is in none).
func (u *userIndex) enclosing(i int) (timeline.UserSpan, bool) {
	sp := userSpan(u.ov, i)
	d := u.depth(i, sp)
	rows := u.byThread[spanThread(u.ov, sp)]
	if d == 0 || d > len(rows) {
		return timeline.UserSpan{}, false
	}
	var out timeline.UserSpan
	found := false
	rows[d-1].each(sp.Start, sp.Start, func(_ int, p timeline.UserSpan) bool {
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
func (l *spanList) each(from, to uint64, fn func(i int, sp timeline.UserSpan) bool) {
	if l == nil {
		return
	}
	for k := l.skipTo(0, from); k < l.n; k++ {
		sp := l.span(k)
		if sp.Start > to {
			return
		}
		if sp.End >= from && !fn(l.index(k), sp) {
			return
		}
	}
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
	for k := l.skipTo(0, f.from); k < l.n; k++ {
		sp := l.span(k)
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
	l.each(lo, h.Time+slack, func(i int, sp timeline.UserSpan) bool {
		if sp.Start <= h.Time+slack && sp.End+slack >= h.Time && (bi < 0 || sp.Start >= best.Start) {
			best, bi = sp, i
		}
		return true
	})
	if bi < 0 {
		return
	}
	h.Element, h.From, h.To = ElemUserSpan, best.Start, best.End
	h.Depth = f.v.userIndex().depth(bi, best)
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
		if th := spanThread(f.ov, best); th != 0 {
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
