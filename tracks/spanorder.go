package tracks

import (
	"slices"

	"github.com/hecscope/hecscope/timeline"
)

// placer takes a group's spans in order (spanOrder).
type placer interface {
	// place takes span i, from start to end, and returns what undoes it.
	place(i int32, start, end uint64) undo
	// unplace undoes the latest place not yet undone.
	unplace(u undo)
	// reset forgets the spans placed: they come again.
	reset()
}

// undo is what a placer needs to take a span back: where it went, and
// what was there before.
type undo struct {
	row    int32  // the row (threadStack) it went in
	newRow bool   // the row was made for it
	end    uint64 // the end of the row's last span before (threadStack.ends)
	high   uint64 // the largest end of the row's list before (spanList.high)
}

// threadStack places a thread's spans in rows by nesting depth: each in
// the lowest row free when it starts.
type threadStack struct {
	rows []*spanList
	ends []uint64 // the end of the last span of each row
}

func (t *threadStack) place(i int32, start, end uint64) undo {
	d := 0
	for d < len(t.ends) && t.ends[d] > start {
		d++
	}
	u := undo{row: int32(d)}
	if d == len(t.ends) {
		t.ends = append(t.ends, 0)
		t.rows = append(t.rows, &spanList{})
		u.newRow = true
	}
	u.end, u.high = t.ends[d], t.rows[d].high
	t.ends[d] = end
	t.rows[d].add(i, end)
	return u
}

func (t *threadStack) unplace(u undo) {
	t.rows[u.row].pop(u.high)
	if u.newRow {
		t.rows, t.ends = t.rows[:u.row], t.ends[:u.row]
		return
	}
	t.ends[u.row] = u.end
}

func (t *threadStack) reset() { t.rows, t.ends = nil, nil }

// labelPlacer places a label's spans in its list.
type labelPlacer struct{ l *spanList }

func (p *labelPlacer) place(i int32, _, end uint64) undo {
	u := undo{high: p.l.high}
	p.l.add(i, end)
	return u
}

func (p *labelPlacer) unplace(u undo) { p.l.pop(u.high) }

func (p *labelPlacer) reset() { *p.l = spanList{} }

// keyedSpan is a span's place in the order spanOrder gives.
type keyedSpan struct {
	start, end uint64
	i          int32
}

// before reports whether a comes before b: it starts earlier, or is the
// longer of two that start together, or the earlier in the model of two
// alike.
func (a *keyedSpan) before(b *keyedSpan) bool {
	if a.start != b.start {
		return a.start < b.start
	}
	if a.end != b.end {
		return a.end > b.end
	}
	return a.i < b.i
}

// spanOrder hands a model's user spans (indices as userSpan takes them)
// to the placers of their groups (sink makes a group's, key gives a span's
// group), each group's in order of start, the longer first of two that
// start together, then in the model's order. It takes them in the model's
// order (take), then finishes (finish).
//
// The model has them in order of their STOPs, which is their order of
// start but for the spans that enclose others (they stop after them). A
// group's spans are placed as they come while in order. One that comes out
// of order takes back the latest placed that come after it (a placer
// undoes its latest placings), and they are placed again after it: a
// group keeps what undoes its maxUndo to 2*maxUndo latest placings, and
// takes back at most rewindsPerSpan times as many spans as it has, plus
// maxUndo, in all. A group past either (spans nested deeper or wider than
// that) forgets its placings (it is set aside): once all are taken, a walk
// through the spans finds its out-of-order spans, which are sorted and
// merged in on a second walk (finish). Only those spans cost memory:
// sorting all of a log's millions of spans took 12 bytes a span, and a
// second's lookups without them.
type spanOrder struct {
	key  func(*timeline.UserSpan) uint32
	sink func(k uint32) placer
	// groups are the groups by key, and recent those last looked up by
	// their keys' low bits: the spans of a log's few threads come
	// interleaved.
	groups map[uint32]*spanGroup
	recent [16]struct {
		k uint32
		g *spanGroup
	}
	redo  int          // groups set aside
	moved []placedSpan // what a rewind takes back
}

// maxUndo is how many of its latest placings a group can take back.
const maxUndo = 1024

// rewindsPerSpan is how many times a group may take back each of its
// spans, on average, before it sets its out-of-order spans aside.
const rewindsPerSpan = 4

// spanGroup is a group's spans as spanOrder has taken them.
type spanGroup struct {
	p    placer
	last keyedSpan // the last span taken in order
	seen bool
	// placed are the latest spans placed, in order, with what undoes
	// them, until the group is set aside; trimmed says the earlier ones
	// were let go. fresh counts the spans placed in order, rewound those
	// taken back.
	placed         []placedSpan
	trimmed        bool
	fresh, rewound int
	aside          bool        // its spans are placed by finish
	left           []keyedSpan // then: its spans out of order, sorted
	next           int         // on the last walk: those of left placed
}

// placedSpan is a span a group placed, and what undoes it.
type placedSpan struct {
	ks keyedSpan
	u  undo
}

func newSpanOrder(key func(*timeline.UserSpan) uint32, sink func(k uint32) placer) *spanOrder {
	return &spanOrder{key: key, sink: sink, groups: map[uint32]*spanGroup{}}
}

// groupOf returns the group of span sp.
func (o *spanOrder) groupOf(sp *timeline.UserSpan) *spanGroup {
	k := o.key(sp)
	r := &o.recent[k%uint32(len(o.recent))]
	if r.g != nil && r.k == k {
		return r.g
	}
	g := o.groups[k]
	if g == nil {
		g = &spanGroup{p: o.sink(k)}
		o.groups[k] = g
	}
	r.k, r.g = k, g
	return g
}

// inOrder takes span ks of g as the last in order if it comes after it.
func (g *spanGroup) inOrder(ks *keyedSpan) bool {
	if g.seen && ks.before(&g.last) {
		return false
	}
	g.last, g.seen = *ks, true
	return true
}

// take takes the spans of w.
func (o *spanOrder) take(w *spanWalk) { o.walk(w, o.takeSpan) }

// walk hands f each span of w, from the first, with its group.
func (o *spanOrder) walk(w *spanWalk, f func(g *spanGroup, ks keyedSpan)) {
	w.i = 0
	for first, batch := w.next(); len(batch) > 0; first, batch = w.next() {
		for k := range batch {
			sp := &batch[k]
			f(o.groupOf(sp), keyedSpan{sp.Start, sp.End, int32(first + k)})
		}
	}
}

// takeSpan takes span ks of g.
func (o *spanOrder) takeSpan(g *spanGroup, ks keyedSpan) {
	switch {
	case g.inOrder(&ks):
		if !g.aside {
			g.fresh++
			o.place(g, ks)
		}
	case g.aside:
		// Placed by finish.
	case !o.rewind(g, ks):
		g.p.reset()
		g.aside, g.placed = true, nil
		o.redo++
	}
}

// place places ks, remembering what undoes it.
func (o *spanOrder) place(g *spanGroup, ks keyedSpan) {
	if len(g.placed) == 2*maxUndo {
		g.placed = g.placed[:copy(g.placed, g.placed[maxUndo:])]
		g.trimmed = true
	}
	g.placed = append(g.placed, placedSpan{ks, g.p.place(ks.i, ks.start, ks.end)})
}

// rewind places ks, which comes before the last placed, where it goes:
// the spans after it are taken back and placed again after it. It
// reports false, doing nothing, if they are more than g may take back.
func (o *spanOrder) rewind(g *spanGroup, ks keyedSpan) bool {
	j := len(g.placed)
	for j > 0 && ks.before(&g.placed[j-1].ks) {
		j--
	}
	m := len(g.placed) - j
	if j == 0 && g.trimmed || g.rewound+m > rewindsPerSpan*g.fresh+maxUndo {
		return false
	}
	g.rewound += m
	o.moved = append(o.moved[:0], g.placed[j:]...)
	for k := len(g.placed) - 1; k >= j; k-- {
		g.p.unplace(g.placed[k].u)
	}
	g.placed = g.placed[:j]
	o.place(g, ks)
	for _, p := range o.moved {
		o.place(g, p.ks)
	}
	return true
}

// finish places the spans of the groups set aside, walking twice through
// the spans of w, which take took: once to find those out of order, then
// to place the others, those out of order merged in.
func (o *spanOrder) finish(w *spanWalk) {
	if o.redo == 0 {
		return
	}
	for _, g := range o.groups {
		g.seen = false
	}
	o.walk(w, func(g *spanGroup, ks keyedSpan) {
		if g.aside && !g.inOrder(&ks) {
			g.left = append(g.left, ks)
		}
	})
	for _, g := range o.groups {
		if g.aside {
			slices.SortFunc(g.left, func(a, b keyedSpan) int {
				if a.before(&b) {
					return -1
				}
				return 1
			})
			g.seen = false
		}
	}
	o.walk(w, func(g *spanGroup, ks keyedSpan) {
		if !g.aside || !g.inOrder(&ks) {
			return
		}
		for ; g.next < len(g.left) && g.left[g.next].before(&ks); g.next++ {
			l := &g.left[g.next]
			g.p.place(l.i, l.start, l.end)
		}
		g.p.place(ks.i, ks.start, ks.end)
	})
	for _, g := range o.groups {
		for ; g.next < len(g.left); g.next++ {
			l := &g.left[g.next]
			g.p.place(l.i, l.start, l.end)
		}
	}
}

// byStart hands the model's first n user spans to the placers of their
// groups, in order (spanOrder).
func byStart(ov *timeline.Model, n int, key func(*timeline.UserSpan) uint32, sink func(k uint32) placer) {
	o := newSpanOrder(key, sink)
	w := modelWalk(ov, n)
	o.take(w)
	o.finish(w)
}

// spanWalk goes through user spans a block at a time, decoded together
// (timeline.StoppedSpans.From): the stopped ones, then the open ones of a
// model, counted as userSpan counts them.
type spanWalk struct {
	stopped timeline.StoppedSpans
	ov      *timeline.Model // whose open spans follow; nil: none
	n       int             // the spans to go through
	i       int             // the first span of the next block
	buf     []timeline.UserSpan
}

// modelWalk returns a walk through the first n user spans of ov.
func modelWalk(ov *timeline.Model, n int) *spanWalk {
	return &spanWalk{stopped: ov.StoppedSpans(), ov: ov, n: n}
}

// next returns the next block of spans and the index of its first; none
// at the end.
func (w *spanWalk) next() (int, []timeline.UserSpan) {
	first := w.i
	if first >= w.n {
		return first, nil
	}
	if stopped := w.stopped.Len(); first < stopped {
		w.buf = w.stopped.From(first, w.buf)
		w.buf = w.buf[:min(len(w.buf), w.n-first)]
	} else {
		w.buf = w.buf[:0]
		for j := first; j < w.n && w.ov != nil && j-stopped < w.ov.NumOpenSpans(); j++ {
			w.buf = append(w.buf, w.ov.OpenSpan(j-stopped))
		}
	}
	w.i += len(w.buf)
	return first, w.buf
}
