package tracks

import (
	"image"
	"image/color"
	"math"
	"sort"
	"strconv"

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

// userIndex is the overview's user spans by label and by the thread that
// began them.
type userIndex struct {
	ov       *timeline.Model
	n        int
	byLabel  map[int32]*spanList
	byThread map[uint32]*spanList
	thread   []uint32 // thread of each span (0: unknown)
	threads  []uint32 // threads with spans, by id
}

// spanThread returns the thread running on the span's HEC when it
// started, 0 if unknown (no HEC, nothing running, or a summarised stretch
// of the overview).
func spanThread(ov *timeline.Model, sp timeline.UserSpan) uint32 {
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
// first use for each overview.
func (v *View) userIndex() *userIndex {
	ov := v.overview()
	if ov == nil {
		return &userIndex{}
	}
	if u := v.users; u != nil && u.ov == ov && u.n == numUserSpans(ov) {
		return u
	}
	u := &userIndex{ov: ov, n: numUserSpans(ov), byLabel: map[int32]*spanList{}, byThread: map[uint32]*spanList{}}
	u.thread = make([]uint32, u.n)
	for i := 0; i < u.n; i++ {
		sp := userSpan(ov, i)
		l := u.byLabel[sp.Label]
		if l == nil {
			l = &spanList{}
			u.byLabel[sp.Label] = l
		}
		l.idx = append(l.idx, int32(i))
		if th := spanThread(ov, sp); th != 0 {
			u.thread[i] = th
			l := u.byThread[th]
			if l == nil {
				l = &spanList{}
				u.byThread[th] = l
				u.threads = append(u.threads, th)
			}
			l.idx = append(l.idx, int32(i))
		}
	}
	finish := func(l *spanList) {
		sort.SliceStable(l.idx, func(a, b int) bool { return userSpan(ov, int(l.idx[a])).Start < userSpan(ov, int(l.idx[b])).Start })
		l.maxEnd = make([]uint64, len(l.idx))
		var m uint64
		for k, i := range l.idx {
			m = max(m, userSpan(ov, int(i)).End)
			l.maxEnd[k] = m
		}
	}
	for _, l := range u.byLabel {
		finish(l)
	}
	for _, l := range u.byThread {
		finish(l)
	}
	sort.Slice(u.threads, func(a, b int) bool { return u.threads[a] < u.threads[b] })
	v.users = u
	return u
}

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
	l.each(f.ov, f.from, f.to, func(_ int, sp timeline.UserSpan) bool {
		a, b := math.Max(f.ax.X(sp.Start), left), math.Min(f.ax.X(sp.End), right)
		xa, xb := int(math.Floor(a)), max(int(math.Ceil(b)), int(math.Floor(a))+1)
		if float64(xb) <= lastX {
			return true
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
		return true
	})
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
	f.drawSpans(f.v.userIndex().byLabel[label], y0, y1, false)
}

// drawUserThread draws the spans one thread began.
func (f *frame) drawUserThread(id uint32, y0, y1 int) {
	f.drawSpans(f.v.userIndex().byThread[id], y0, y1, true)
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
	u := f.v.userIndex()
	h.Element, h.From, h.To = ElemUserSpan, best.Start, best.End
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
		if th := u.thread[bi]; th != 0 {
			where += " by " + threadTitle(f.ov, th)
			h.Thread = th
		}
		h.Tip = append(h.Tip, where)
	}
	h.Anchor = f.spanRect(best.Start, best.End, col, y0, y1)
}
