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
	l.each(f.from, f.to, func(_ int, sp timeline.UserSpan) bool {
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
			f := v.newFrame(paint.NewRaster(img), v.geometry(), r[0], r[1], 0, false, true)
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

// TestLabelListsMadeOnDemand: the spans of each label, made on first use,
// are every span of that label in order of start,
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
		if got == nil || !slices.Equal(indices(got), idx) {
			t.Fatalf("label %q: spans %v, want %v", m.String(l), got, idx)
		}
		var maxEnd []uint64
		var high uint64
		for k, i := range idx {
			high = max(high, m.UserSpan(int(i)).End)
			if k%spanBlock == spanBlock-1 || k == len(idx)-1 {
				maxEnd = append(maxEnd, high)
			}
		}
		if !slices.Equal(got.maxEnd, maxEnd) {
			t.Fatalf("label %q: largest ends per block %v, want %v", m.String(l), got.maxEnd, maxEnd)
		}
	}
	if u.label(-7) != nil {
		t.Error("a label with no spans has a list")
	}
}

// TestThreadRowsMatchSort: the rows of each thread's spans, made by taking
// the spans in order as the model has them and merging in those that come
// out of order, are those that sorting every span by start (the longer
// first of two that start together, then in the model's order) and
// stacking each in the lowest row free gives; each span's depth is its
// row, and a row's largest end per block is that of its spans.
func TestThreadRowsMatchSort(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	b := timeline.NewOverviewBuilder(timeline.Grid{})
	tm := uint64(1000)
	labels := []string{"a", "b", "c"}
	running := [2]uint32{}
	for i := 0; i < 4000; i++ {
		c := int32(rng.Intn(2))
		if rng.Intn(20) == 0 || running[c] == 0 {
			// Another thread runs on c (some of the time none).
			if running[c] != 0 {
				b.Add(&ingest.Event{Kind: ingest.KindStopThread, Cap: c, Time: tm, Args: [9]uint64{uint64(running[c]), uint64(ingest.StopYielding)}})
			}
			running[c] = uint32(1 + rng.Intn(5))
			if running[c] == running[1-c] {
				running[c] = 0
			} else {
				b.Add(&ingest.Event{Kind: ingest.KindRunThread, Cap: c, Time: tm, Args: [9]uint64{uint64(running[c])}})
			}
		}
		l := labels[rng.Intn(len(labels))]
		msg := "START " + l
		if rng.Intn(2) == 0 {
			msg = "STOP " + l // labels shared by threads: STOPs close others' STARTs too
		}
		b.Add(&ingest.Event{Kind: ingest.KindUserMsg, Cap: c, Time: tm, Data: []byte(msg)})
		tm += uint64(rng.Intn(5))
	}
	b.Finish()
	m := b.Snapshot()
	n := numUserSpans(m)
	if n < 1000 {
		t.Fatalf("%d spans made", n)
	}
	// The reference: every span sorted, then stacked.
	all := spansByStart(m)
	want := map[uint32][][]int32{}
	depth := make([]int, n)
	ends := map[uint32][]uint64{}
	for _, i := range all {
		sp := userSpan(m, int(i))
		th := spanThread(m, sp)
		e := ends[th]
		d := 0
		for d < len(e) && e[d] > sp.Start {
			d++
		}
		if d == len(e) {
			e = append(e, 0)
			want[th] = append(want[th], nil)
		}
		e[d] = sp.End
		ends[th] = e
		want[th][d] = append(want[th][d], i)
		depth[i] = d
	}
	u := New(timeline.Exact(m)).userIndex()
	nested := 0
	for th, rows := range want {
		got := u.byThread[th]
		if len(got) != len(rows) {
			t.Fatalf("thread %d: %d rows, want %d", th, len(got), len(rows))
		}
		for d := range rows {
			if !slices.Equal(indices(got[d]), rows[d]) {
				t.Fatalf("thread %d row %d: spans differ from the sorted reference", th, d)
			}
			var high uint64
			for k, i := range rows[d] {
				high = max(high, userSpan(m, int(i)).End)
				if (k%spanBlock == spanBlock-1 || k == len(rows[d])-1) && got[d].maxEnd[k/spanBlock] != high {
					t.Fatalf("thread %d row %d: largest end of block %d is %d, want %d", th, d, k/spanBlock, got[d].maxEnd[k/spanBlock], high)
				}
			}
		}
		nested += len(rows) - 1
	}
	if nested == 0 || len(want) < 3 {
		t.Fatalf("%d threads, %d rows below the first: the test says little", len(want), nested)
	}
	for i := 0; i < n; i++ {
		if d := u.depth(i, userSpan(m, i)); d != depth[i] {
			t.Fatalf("span %d at depth %d, want %d", i, d, depth[i])
		}
	}
	// skipTo finds the first span from k on by which the spans before it
	// all end before t, as a look at each span's prefix finds it.
	for th, rows := range u.byThread {
		for _, l := range rows {
			for probe := 0; probe < 50; probe++ {
				k := rng.Intn(l.len() + 1)
				at := uint64(rng.Int63n(int64(m.End + 10)))
				first, high := l.len(), uint64(0)
				for j := 0; j < l.len(); j++ {
					high = max(high, l.span(j).End)
					if j >= k && high >= at {
						first = j
						break
					}
				}
				if got := l.skipTo(k, at); got != first {
					t.Fatalf("thread %d: skipTo(%d, %d) = %d, want %d", th, k, at, got, first)
				}
			}
		}
	}
	if len(u.threads) != len(want) || !slices.IsSorted(u.threads) {
		t.Fatalf("threads %v, want the %d with spans by id", u.threads, len(want))
	}
}

// indices returns the indices of l's spans, in its order.
func indices(l *spanList) []int32 {
	out := make([]int32, l.len())
	for k := range out {
		out[k] = int32(l.index(k))
	}
	return out
}

// TestSpanListIndices: a list keeps the index of each of its spans, in 1
// or 2 bytes from its block's first where it fits (before or after it) and
// among the list's exceptions where it does not, across chunks of deltas.
func TestSpanListIndices(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	l := &spanList{}
	var want []int32
	i := int32(1000)
	for k := 0; k < 3*idxChunk+7; k++ {
		switch rng.Intn(40) {
		case 0:
			i += 40000 // too far from its block's first
		case 1:
			i -= min(i, 30000) // before its block's first, within 2 bytes or not
		default:
			i += int32(rng.Intn(50))
		}
		l.add(i, uint64(k))
		want = append(want, i)
	}
	l.finish(nil)
	if got := indices(l); !slices.Equal(got, want) {
		t.Fatalf("indices differ: %d kept of %d", len(got), len(want))
	}
	if len(l.far) == 0 || len(l.far) > len(want)/5 {
		t.Fatalf("%d of %d indices kept whole: the test says little, or the deltas hold few", len(l.far), len(want))
	}
	// A list of spans close in the model keeps each difference in a byte,
	// and in 2 from the first that does not fit one on, in its chunk.
	close := &spanList{}
	want = want[:0]
	for k := 0; k < 2*idxChunk+5; k++ {
		i := int32(3 * k)
		if k == idxChunk+10 {
			i -= 200 // before its block's first by more than a byte holds
		}
		close.add(i, uint64(k))
		want = append(want, i)
	}
	close.finish(nil)
	if got := indices(close); !slices.Equal(got, want) {
		t.Fatalf("close indices differ: %d kept of %d", len(got), len(want))
	}
	if len(close.deltas) != 3 || close.deltas[0].wide != nil || close.deltas[1].wide == nil || close.deltas[2].wide != nil {
		t.Fatal("the chunks of close indices are not kept in a byte each, but for the one with an index 200 off")
	}
}
