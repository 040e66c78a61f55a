package tracks

import (
	"image"
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// tinyCreate is the kind of the tiny run's thread creations.
const tinyCreate = ingest.KindCreateThread

// tinyEvents are the events of a run of two HECs with known spans: thread
// 1 runs on HEC 0 over [0, 500), then blocks on an MVar; HEC 0 is in GC
// over [500, 600) (working from 520); thread 2, runnable from 0, runs on
// HEC 1 over [600, 1000).
func tinyEvents() []ingest.Event {
	ev := func(t uint64, c int32, k ingest.Kind, args ...uint64) ingest.Event {
		e := ingest.Event{Time: t, Cap: c, Kind: k}
		copy(e.Args[:], args)
		return e
	}
	return []ingest.Event{
		ev(0, 0, ingest.KindCreateThread, 1),
		ev(0, 1, ingest.KindCreateThread, 2),
		ev(0, 0, ingest.KindRunThread, 1),
		ev(500, 0, ingest.KindStopThread, 1, 7),
		ev(500, 0, ingest.KindGCStart),
		ev(520, 0, ingest.KindGCWork),
		ev(600, 0, ingest.KindGCEnd),
		ev(600, 1, ingest.KindRunThread, 2),
		ev(1000, 1, ingest.KindStopThread, 2, 5),
	}
}

// tiny builds the model of tinyEvents.
func tiny() *timeline.Model {
	b := timeline.NewOverviewBuilder(timeline.Grid{})
	for _, e := range tinyEvents() {
		b.Add(&e)
	}
	b.Finish()
	return b.Snapshot()
}

// rowMid returns the middle device y of a track, failing if it is not in
// view.
func rowMid(t *testing.T, v *View, id TrackID) int {
	t.Helper()
	r, ok := v.TrackRect(id)
	if !ok {
		t.Fatalf("track %v not in view", id)
	}
	return (r.Min.Y + r.Max.Y) / 2
}

// TestTracksLineUp draws the tiny model and checks that every track puts a
// time at the same pixel column: thread 1's run, HEC 0's run and the
// activity graph end at the same column, the GC's columns are the same in
// the HEC track and the activity graph.
func TestTracksLineUp(t *testing.T) {
	v := New(timeline.Exact(tiny()))
	v.SetSize(1000+px(headerWidth, 1)+px(scrollbarW, 1), 700, 1)
	img := v.Render()
	ax := v.Axis()
	if ax.Width != 1000 || ax.From != 0 || ax.To != 1000 {
		t.Fatalf("axis %+v, want 1000 px over [0, 1000)", ax)
	}
	running := paint.InkRunning.Color()
	gcWork := paint.InkGCWork.Color()
	yHEC0 := rowMid(t, v, TrackID{KindHEC, 0})
	yT1 := rowMid(t, v, TrackID{KindThread, 1})
	yAct := v.trackBottom(t, TrackID{KindActivity, 0}) - 3
	x := func(tm uint64) int { return int(math.Floor(ax.X(tm))) }
	for tm := uint64(0); tm < 500; tm += 7 {
		if c := img.RGBAAt(x(tm), yHEC0); c != running {
			t.Fatalf("HEC 0 at %d ns (x %d): %v, want running", tm, x(tm), c)
		}
		if c := img.RGBAAt(x(tm), yT1); c != running {
			t.Fatalf("thread 1 at %d ns (x %d): %v, want running", tm, x(tm), c)
		}
		if c := img.RGBAAt(x(tm), yAct); c != running {
			t.Fatalf("activity at %d ns (x %d): %v, want running", tm, x(tm), c)
		}
	}
	// The first column after the run is GC on HEC 0 and blocked on thread 1.
	if c := img.RGBAAt(x(500), yHEC0); c != paint.InkGCSync.Color() {
		t.Errorf("HEC 0 at 500: %v, want GC sync", c)
	}
	if c := img.RGBAAt(x(500), yT1); c != paint.InkBlockedMVar.Color() {
		t.Errorf("thread 1 at 500: %v, want blocked on MVar", c)
	}
	for tm := uint64(520); tm < 600; tm += 5 {
		if c := img.RGBAAt(x(tm), yHEC0); c != gcWork {
			t.Fatalf("HEC 0 at %d: %v, want GC work", tm, c)
		}
		if c := img.RGBAAt(x(tm), yAct); c != gcWork {
			t.Fatalf("activity at %d: %v, want GC work", tm, c)
		}
	}
	if c := img.RGBAAt(x(600), yHEC0); c == gcWork || c == running {
		t.Errorf("HEC 0 after the GC: %v, want idle", c)
	}
}

// trackBottom returns the last device row of a track inside its bars.
func (v *View) trackBottom(t *testing.T, id TrackID) int {
	r, ok := v.TrackRect(id)
	if !ok {
		t.Fatalf("track %v not in view", id)
	}
	return r.Max.Y - px(2, v.scale)
}

// inkAt returns the state ink whose colour c is, InkFinished for the
// background (or any other colour).
func inkAt(th paint.Theme, c color.RGBA) paint.Ink {
	for k := paint.InkRunning; k < paint.InkFinished; k++ {
		if th.Ink(k) == c {
			return k
		}
	}
	return paint.InkFinished
}

// TestHitRoundTrip draws a synthetic run and hits the drawn pixels: a
// thread or HEC span's hit names the state the pixel is drawn in, its time
// range holds the pointer's time, its anchor holds the pointer; headers
// and group titles are hit as such.
func TestHitRoundTrip(t *testing.T) {
	m := synthModel(4, 300, 300_000)
	for _, scale := range []float64{1, 2} {
		v := New(timeline.Exact(m))
		v.SetSize(int(1200*scale), int(900*scale), scale)
		v.SetRange(m.End/2, m.End/2+m.End/200)
		v.ScrollTo(int(300 * scale))
		img := v.Render()
		spans, mixed := 0, 0
		for _, id := range v.Tracks() {
			r, ok := v.TrackRect(id)
			if !ok || (id.Kind != KindThread && id.Kind != KindHEC) {
				continue
			}
			y := (r.Min.Y + r.Max.Y) / 2
			if id.Kind == KindHEC {
				y = r.Max.Y - px(3, scale) // below the instants' ticks
			}
			for x := v.PlotRect().Min.X; x < v.PlotRect().Max.X; x += 13 {
				h := v.Hit(float64(x)+0.5, float64(y)+0.5)
				if h.Area != AreaPlot || h.Track != id || !h.HasTime {
					t.Fatalf("hit at (%d, %d) on %v: %+v", x, y, id, h)
				}
				drawnInk := inkAt(v.Theme(), img.RGBAAt(x, y))
				switch h.Element {
				case ElemSpan:
					spans++
					if h.Time < h.From || h.Time >= h.To && h.To > h.From {
						t.Errorf("%v at x %d: time %d outside span [%d, %d)", id, x, h.Time, h.From, h.To)
					}
					if !image.Pt(x, y).In(h.Anchor) {
						t.Errorf("%v at x %d: anchor %v misses the point", id, x, h.Anchor)
					}
					want := spanInk(t, h)
					if want != drawnInk && !(!drawn(want) && !drawn(drawnInk)) {
						t.Errorf("%v at x %d: drawn %s, hit says %q (%s)", id, x, drawnInk.Name(), h.Tip, want.Name())
					}
				case ElemMixed:
					mixed++
					if len(h.Tip) < 3 || !strings.Contains(h.Tip[1], "changes in this pixel") {
						t.Errorf("mixed column tip %q", h.Tip)
					}
				case ElemNone:
					if drawn(drawnInk) {
						t.Errorf("%v at x %d: nothing hit, but %s drawn", id, x, drawnInk.Name())
					}
				}
			}
		}
		if spans < 100 {
			t.Errorf("scale %v: only %d spans hit (%d mixed)", scale, spans, mixed)
		}
	}
}

// spanInk returns the ink a span hit's state is drawn in, from its tip.
func spanInk(t *testing.T, h Hit) paint.Ink {
	t.Helper()
	what := h.Tip[1]
	switch {
	case strings.HasPrefix(what, "running"):
		return paint.InkRunning
	case what == "runnable":
		return paint.InkRunnable
	case what == "idle", what == "not yet created":
		return paint.InkIdle
	case strings.HasPrefix(what, "finished"):
		return paint.InkFinished
	}
	for k := paint.InkGCSync; k < paint.InkFinished; k++ {
		if strings.HasPrefix(what, k.Name()) || what == k.Name() {
			return k
		}
	}
	for _, c := range []struct {
		prefix string
		ink    paint.Ink
	}{{"blocked on MVar", paint.InkBlockedMVar}, {"blocked on black hole", paint.InkBlockedBlackHole},
		{"blocked on STM", paint.InkBlockedSTM}, {"blocked on I/O", paint.InkBlockedIO},
		{"blocked on delay", paint.InkBlockedIO}, {"blocked on foreign call", paint.InkForeignCall},
		{"blocked on throwTo", paint.InkBlockedThrowTo}, {"blocked", paint.InkBlocked}} {
		if strings.HasPrefix(what, c.prefix) {
			return c.ink
		}
	}
	t.Fatalf("unknown state %q", what)
	return 0
}

// TestHeaders hits the parts of headers and titles.
func TestHeaders(t *testing.T) {
	m := synthModel(2, 50, 50_000)
	v := New(timeline.Exact(m))
	v.SetSize(1200, 800, 1)
	id := TrackID{KindThread, m.Thread(7).ID}
	if !v.Reveal(id) {
		t.Fatal("no thread 8")
	}
	r, ok := v.TrackRect(id)
	if !ok {
		t.Fatal("thread 8 not in view")
	}
	mid := float64(r.Min.Y+r.Max.Y) / 2
	if h := v.Hit(20, mid); h.Area != AreaHeader || h.Part != PartName || h.Track != id || h.Name != v.Name(id) || len(h.Tip) == 0 {
		t.Errorf("name hit %+v", h)
	}
	hr := v.HeaderRect()
	if h := v.Hit(float64(hr.Max.X)-4, float64(r.Min.Y)+3); h.Part != PartPin || h.Track != id {
		t.Errorf("pin hit %+v", h)
	}
	if h := v.Hit(20, float64(r.Max.Y)-1); h.Part != PartResize || h.Track != id {
		t.Errorf("resize hit %+v", h)
	}
	v.ScrollTo(0)
	if h := v.Hit(20, float64(v.TracksRect().Min.Y)+3); h.Part != PartToggle || h.Group != GroupActivity || h.Name != "Activity" {
		t.Errorf("title hit %+v", h)
	}
	if h := v.Hit(500, 5); h.Area != AreaAxis || !h.HasTime {
		t.Errorf("axis hit %+v", h)
	}
	if h := v.Hit(-1, 5); h.Area != AreaNone {
		t.Errorf("outside hit %+v", h)
	}
	// A label longer than the header is cut, its whole text is the hit's.
	long := strings.Repeat("very long label ", 8)
	if !strings.HasPrefix(v.Name(TrackID{KindThread, 7}), "7 worker-7") {
		t.Errorf("thread 7's name %q", v.Name(TrackID{KindThread, 7}))
	}
	f := paint.FaceFor(paint.Regular, textPt, 1)
	if fit := f.Fit(long, hr.Dx()); fit == long || !strings.HasSuffix(fit, paint.Ellipsis) {
		t.Errorf("long label not cut: %q", fit)
	}
}

// TestScrollPinCollapse collapses, pins, resizes and scrolls.
func TestScrollPinCollapse(t *testing.T) {
	m := synthModel(2, 400, 100_000)
	v := New(timeline.Exact(m))
	v.SetSize(1200, 800, 1)
	_, content, viewport := v.Scroll()
	if content <= viewport {
		t.Fatalf("content %d fits the viewport %d", content, viewport)
	}
	n := len(v.Tracks())
	threads := 0
	for _, id := range v.Tracks() {
		if id.Kind == KindThread {
			threads++
		}
	}
	if threads != m.NumThreads() || n < 1+2+2+threads {
		t.Fatalf("%d tracks, %d of threads; want all %d threads", n, threads, m.NumThreads())
	}
	// Scrolling is clamped to the content.
	v.ScrollBy(1e9)
	if off, c, vp := v.Scroll(); off != c-vp {
		t.Errorf("scrolled to %d, want %d", off, c-vp)
	}
	if _, ok := v.TrackRect(v.Tracks()[n-1]); !ok {
		t.Error("last track not in view at the bottom")
	}
	last := TrackID{KindThread, m.Thread(m.NumThreads() - 1).ID}
	v.ScrollBy(-1e9)
	if off, _, _ := v.Scroll(); off != 0 {
		t.Errorf("scrolled to %d, want 0", off)
	}
	// Collapsing the threads leaves their title only.
	v.ToggleGroup(GroupThreads)
	if got := len(v.Tracks()); got != n-threads {
		t.Errorf("collapsed: %d tracks", got)
	}
	if _, c, _ := v.Scroll(); c >= content {
		t.Errorf("collapsing did not shrink the content: %d", c)
	}
	v.ToggleGroup(GroupThreads)
	// Pinning puts a thread in the pinned area, which stays put as the
	// tracks scroll; unpinning puts it back.
	v.Pin(last)
	r, ok := v.TrackRect(last)
	if !ok || !r.In(v.PinnedRect()) || v.PinnedRect().Min.Y != v.AxisRect().Max.Y {
		t.Fatalf("pinned track at %v, pinned area %v", r, v.PinnedRect())
	}
	v.ScrollBy(500)
	if r2, _ := v.TrackRect(last); r2 != r {
		t.Errorf("pinned track moved from %v to %v", r, r2)
	}
	if h := v.Hit(500, float64(r.Min.Y+r.Max.Y)/2); h.Track != last {
		t.Errorf("hit in the pinned area: %+v", h.Track)
	}
	if got := v.Tracks(); got[0] != last || len(got) != n {
		t.Errorf("pinned first: %v… (%d tracks)", got[:2], len(got))
	}
	v.Pin(last)
	if v.Pinned(last) || !v.PinnedRect().Empty() {
		t.Error("unpinning")
	}
	// Resizing moves the tracks below.
	v.ScrollTo(0)
	a, b := TrackID{KindHEC, 0}, TrackID{KindHEC, 1}
	ra, _ := v.TrackRect(a)
	rb, _ := v.TrackRect(b)
	v.SetTrackHeight(a, ra.Dy()+40)
	ra2, _ := v.TrackRect(a)
	rb2, _ := v.TrackRect(b)
	if ra2.Dy() != ra.Dy()+40 || rb2.Min.Y != rb.Min.Y+40 {
		t.Errorf("resized: %v→%v, next %v→%v", ra, ra2, rb, rb2)
	}
	v.SetTrackHeight(a, 1)
	if v.TrackHeight(a) != minTrack {
		t.Errorf("height %d, want the minimum %d", v.TrackHeight(a), minTrack)
	}
	// Reveal scrolls a thread into view.
	if !v.Reveal(last) {
		t.Fatal("Reveal")
	}
	if _, ok := v.TrackRect(last); !ok {
		t.Error("revealed thread not in view")
	}
}

// TestZoomPanSelect checks the view-state operations keep the time under
// the pointer and stay inside the run.
func TestZoomPanSelect(t *testing.T) {
	m := synthModel(2, 50, 50_000)
	v := New(timeline.Exact(m))
	v.SetSize(1200, 800, 1)
	x := 700.0
	at := v.Time(x)
	v.ZoomAt(x, 8)
	from, to := v.Range()
	if to-from > m.End/7 || to-from < m.End/9 {
		t.Errorf("zoomed ×8 to %d of %d", to-from, m.End)
	}
	if got := v.Time(x); absDiff(got, at) > (to-from)/1000 {
		t.Errorf("time under the pointer moved from %d to %d", at, got)
	}
	ppn := v.Axis().PixelsPerNs()
	v.Pan(100)
	f2, _ := v.Range()
	if d := float64(from) - float64(f2); math.Abs(d-100/ppn) > 2/ppn {
		t.Errorf("panned by %v ns, want %v", d, 100/ppn)
	}
	v.Pan(1e9)
	if f3, _ := v.Range(); f3 != 0 {
		t.Errorf("panned past the start to %d", f3)
	}
	for i := 0; i < 100; i++ {
		v.ZoomAt(x, 10)
	}
	if f, t2 := v.Range(); t2-f != minSpan {
		t.Errorf("zoomed in to %d ns, want the least span %d", t2-f, minSpan)
	}
	v.Fit()
	if f, t2 := v.Range(); f != 0 || t2 != m.End {
		t.Errorf("fit [%d, %d]", f, t2)
	}
	v.ZoomAt(x, 0.01)
	if f, t2 := v.Range(); f != 0 || t2 != m.End {
		t.Errorf("zoomed out past the run: [%d, %d]", f, t2)
	}
	pr := v.PlotRect()
	got := v.Select(float64(pr.Min.X+200), float64(pr.Min.X+100))
	a, b, ok := v.Selection()
	if !ok || b <= a || got != paint.Duration(b-a) {
		t.Errorf("selection [%d, %d] %v, text %q", a, b, ok, got)
	}
	v.ZoomToSelection()
	if f, t2 := v.Range(); f != a || t2 != b {
		t.Errorf("zoomed to [%d, %d], want [%d, %d]", f, t2, a, b)
	}
}

func absDiff(a, b uint64) uint64 {
	if a > b {
		return a - b
	}
	return b - a
}

// TestHiDPI lays out the same view at scale 1 and 2: every rectangle
// doubles, and the same tracks are hit at doubled points.
func TestHiDPI(t *testing.T) {
	m := synthModel(2, 60, 40_000)
	v1, v2 := New(timeline.Exact(m)), New(timeline.Exact(m))
	v1.SetSize(900, 700, 1)
	v2.SetSize(1800, 1400, 2)
	near := func(a, b image.Rectangle) bool {
		d := func(x, y int) bool { return x-y <= 4 && y-x <= 4 } // hinted text is not exactly twice as tall
		return d(2*a.Min.X, b.Min.X) && d(2*a.Min.Y, b.Min.Y) && d(2*a.Max.X, b.Max.X) && d(2*a.Max.Y, b.Max.Y)
	}
	for _, r := range [][2]image.Rectangle{{v1.PlotRect(), v2.PlotRect()}, {v1.AxisRect(), v2.AxisRect()},
		{v1.HeaderRect(), v2.HeaderRect()}} {
		if !near(r[0], r[1]) {
			t.Errorf("scale 2 rectangle %v is not twice %v", r[1], r[0])
		}
	}
	for _, id := range v1.Tracks()[:8] {
		r1, ok1 := v1.TrackRect(id)
		r2, ok2 := v2.TrackRect(id)
		if ok1 != ok2 || ok1 && r2.Dy() < 2*r1.Dy()-2 {
			t.Errorf("track %v: %v at scale 1, %v at scale 2", id, r1, r2)
		}
		if ok1 {
			mid := (r1.Min.Y + r1.Max.Y) / 2
			if h1, h2 := v1.Hit(20, float64(mid)), v2.Hit(40, float64(2*mid)); h1.Track != h2.Track {
				t.Errorf("hit %v at scale 1, %v at scale 2", h1.Track, h2.Track)
			}
		}
	}
	img := v2.Render()
	if img.Bounds().Dx() != 1800 {
		t.Fatal("frame size")
	}
}

// TestHideTracks: a hidden track leaves the layout (and the pins), its
// group's title counts it as hidden, and ShowHidden, Pin or Reveal bring
// it back.
func TestHideTracks(t *testing.T) {
	v := tinyView(t)
	hec := TrackID{Kind: KindHEC, ID: 0}
	gc := TrackID{Kind: KindGC}
	has := func(id TrackID) bool { return slices.Contains(v.Tracks(), id) }
	n := len(v.Tracks())
	v.Pin(hec)
	v.Hide(hec)
	v.Hide(gc)
	if has(hec) || has(gc) || v.Pinned(hec) || len(v.Tracks()) != n-2 || v.NumHidden() != 2 {
		t.Fatalf("after hiding two tracks: %d of %d shown, HEC 0 pinned %v", len(v.Tracks()), n, v.Pinned(hec))
	}
	if _, ok := v.TrackRect(gc); ok {
		t.Error("a hidden track has a place in the frame")
	}
	svg := paint.NewSVG(v.w, v.h)
	v.Draw(svg)
	if !strings.Contains(string(svg.Bytes()), "(1 hidden)") {
		t.Error("no group title says it has a hidden track")
	}
	if !v.Reveal(gc) || !has(gc) || v.NumHidden() != 1 {
		t.Error("Reveal did not show the hidden GC track")
	}
	v.ShowHidden()
	if !has(hec) || len(v.Tracks()) != n || v.NumHidden() != 0 {
		t.Errorf("after ShowHidden %d of %d tracks", len(v.Tracks()), n)
	}
	v.Hide(hec)
	v.Pin(hec)
	if !has(hec) || !v.Pinned(hec) {
		t.Error("pinning a hidden track did not show it")
	}
}

// TestTracksInView: the tracks in view, with their rectangles, are those
// TrackRect finds in view, in the order of Tracks, at any scroll, with a
// pinned track.
func TestTracksInView(t *testing.T) {
	m := synthModel(2, 400, 100_000)
	v := New(timeline.Exact(m))
	v.SetSize(1200, 800, 1)
	v.Pin(TrackID{KindThread, m.Thread(7).ID})
	_, content, _ := v.Scroll()
	for _, y := range []int{0, 333, content / 2, content} {
		v.ScrollTo(y)
		var want []TrackInView
		for _, id := range v.Tracks() {
			if r, in := v.TrackRect(id); in {
				want = append(want, TrackInView{ID: id, Rect: r})
			}
		}
		got := v.TracksInView()
		if len(want) < 10 {
			t.Fatalf("scrolled to %d: %d tracks in view: the test proves little", y, len(want))
		}
		if !slices.Equal(got, want) {
			t.Errorf("scrolled to %d: TracksInView\n%v\nwant\n%v", y, got, want)
		}
	}
}
