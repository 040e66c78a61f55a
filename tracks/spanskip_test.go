package tracks

import (
	"image"
	"math"
	"math/rand"
	"slices"
	"sort"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// drawSpansEach is drawSpans as it was before it skipped spans: it looks
// at every span in the range. The test's reference.
func (f *frame) drawSpansEach(l *spanList, y0, y1 int) {
	top, bottom := f.inset(y0, y1)
	lastX := math.Inf(-1)
	left, right := float64(f.g.plot.Min.X), float64(f.g.plot.Max.X)
	ellipsis := f.small.Width("…") + 2
	l.each(f.ov, f.from, f.to, func(_ int, sp timeline.UserSpan) bool {
		a, b := math.Max(f.ax.X(sp.Start), left), math.Min(f.ax.X(sp.End), right)
		xa, xb := int(math.Floor(a)), max(int(math.Ceil(b)), int(math.Floor(a))+1)
		if float64(xb) <= lastX {
			return true
		}
		col := paint.BandColorFor(f.ov.String(sp.Label))
		f.c.Fill(image.Rect(xa, top, xb, bottom), col)
		if xb-xa >= 3 {
			f.c.Fill(image.Rect(xa, top, xa+1, bottom), paint.Mix(col, f.th.Text, 0.35))
		}
		if room := xb - xa - px(6, f.s); room > ellipsis && bottom-top >= f.small.Height()-2 {
			if fit := f.small.Fit(paint.Duration(sp.End-sp.Start), room); fit != "" {
				f.c.Text(f.small, fit, xa+px(3, f.s), f.small.Baseline(float64(top+bottom)/2), paint.Light.Text)
			}
		}
		lastX = float64(xb)
		return true
	})
}

// TestDrawSpansSkipsOnlyHidden: drawing a label's spans while skipping at
// once those that end before the last pixel drawn gives the picture that
// looking at each span gives, over ranges from the whole run down to a few
// spans, for runs of dense, sparse, nested and instant (zero-length)
// spans whose ends fall on pixel boundaries and between them.
func TestDrawSpansSkipsOnlyHidden(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	b := timeline.NewOverviewBuilder(timeline.Grid{})
	msg := func(tm uint64, s string) {
		b.Add(&ingest.Event{Kind: ingest.KindUserMsg, Cap: 0, Time: tm, Data: []byte(s)})
	}
	tm := uint64(1000)
	for i := 0; i < 20000; i++ {
		switch rng.Intn(4) {
		case 0: // dense and short
			msg(tm, "START a")
			tm += uint64(rng.Intn(50))
			msg(tm, "STOP a")
		case 1: // nested
			msg(tm, "START a")
			msg(tm+uint64(rng.Intn(3)), "START a")
			tm += uint64(rng.Intn(2000))
			msg(tm, "STOP a")
			tm += uint64(rng.Intn(3))
			msg(tm, "STOP a")
		case 2: // long
			msg(tm, "START a")
			tm += uint64(rng.Intn(200000))
			msg(tm, "STOP a")
		default: // a gap
			tm += uint64(rng.Intn(100000))
		}
		tm += uint64(rng.Intn(20))
	}
	b.Finish()
	m := b.Snapshot()
	if m.NumUserSpans() < 10000 {
		t.Fatalf("%d spans made", m.NumUserSpans())
	}
	v := New(timeline.Exact(m))
	v.SetSize(1200, 200, 1)
	l := v.userIndex().label(m.UserSpan(0).Label)
	ranges := [][2]uint64{{0, m.End + 1}, {m.End / 3, m.End/3 + m.End/50}, {m.End / 2, m.End/2 + 5000}, {m.End / 7, m.End/7 + 997}}
	for k := 0; k < 20; k++ {
		from := uint64(rng.Int63n(int64(m.End)))
		ranges = append(ranges, [2]uint64{from, from + 1 + uint64(rng.Int63n(int64(m.End-from)))})
	}
	for _, r := range ranges {
		draw := func(skip bool) *image.RGBA {
			img := image.NewRGBA(image.Rect(0, 0, 1200, 200))
			f := v.newFrame(paint.NewRaster(img), v.geometry(), r[0], r[1], 0, false)
			if skip {
				f.drawSpans(l, 10, 40, false)
			} else {
				f.drawSpansEach(l, 10, 40)
			}
			return img
		}
		got, want := draw(true), draw(false)
		for i := range got.Pix {
			if got.Pix[i] != want.Pix[i] {
				p := i / 4
				t.Fatalf("range %v: pixel (%d, %d) differs", r, p%1200, p/1200)
			}
		}
	}
}

// TestLabelListsMadeOnDemand: the spans of each label, made on first use
// from the threads' rows, are every span of that label in order of start,
// the longer first of two that start together, then in the model's order.
func TestLabelListsMadeOnDemand(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	b := timeline.NewOverviewBuilder(timeline.Grid{})
	tm := uint64(1000)
	labels := []string{"a", "b", "c"}
	for i := 0; i < 3000; i++ {
		l := labels[rng.Intn(len(labels))]
		c := int32(rng.Intn(2))
		b.Add(&ingest.Event{Kind: ingest.KindUserMsg, Cap: c, Time: tm, Data: []byte("START " + l)})
		if rng.Intn(3) == 0 {
			b.Add(&ingest.Event{Kind: ingest.KindUserMsg, Cap: c, Time: tm, Data: []byte("START " + l)})
			b.Add(&ingest.Event{Kind: ingest.KindUserMsg, Cap: c, Time: tm + uint64(rng.Intn(3)), Data: []byte("STOP " + l)})
		}
		tm += uint64(rng.Intn(4))
		b.Add(&ingest.Event{Kind: ingest.KindUserMsg, Cap: c, Time: tm, Data: []byte("STOP " + l)})
		tm += uint64(rng.Intn(3))
	}
	b.Finish()
	m := b.Snapshot()
	u := New(timeline.Exact(m)).userIndex()
	want := map[int32][]int32{}
	all := make([]int32, m.NumUserSpans())
	for i := range all {
		all[i] = int32(i)
	}
	sort.SliceStable(all, func(a, b int) bool {
		x, y := m.UserSpan(int(all[a])), m.UserSpan(int(all[b]))
		if x.Start != y.Start {
			return x.Start < y.Start
		}
		return x.End > y.End
	})
	for _, i := range all {
		l := m.UserSpan(int(i)).Label
		want[l] = append(want[l], i)
	}
	if len(want) != len(labels) {
		t.Fatalf("%d labels made, want %d", len(want), len(labels))
	}
	for l, idx := range want {
		got := u.label(l)
		if got == nil || !slices.Equal(got.idx, idx) || len(got.maxEnd) != len(idx) {
			t.Fatalf("label %q: spans %v, want %v", m.String(l), got, idx)
		}
	}
	if u.label(-7) != nil {
		t.Error("a label with no spans has a list")
	}
}
