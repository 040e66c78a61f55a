package timeline

import (
	"image"
	"image/color"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// adder returns what adds an event of kind k at time t on capability cap,
// with its arguments, to b.
func adder(b *Builder) func(t uint64, cap int32, k ingest.Kind, args ...uint64) {
	return func(t uint64, cap int32, k ingest.Kind, args ...uint64) {
		ev := ingest.Event{Time: t, Cap: cap, Kind: k}
		copy(ev.Args[:], args)
		b.Add(&ev)
	}
}

// synthetic builds a model of two HECs with known spans.
func synthetic() *Model {
	b := NewBuilder()
	add := adder(b)
	add(0, 0, ingest.KindCreateThread, 1)
	add(0, 1, ingest.KindCreateThread, 2)
	add(0, 0, ingest.KindRunThread, 1)       // HEC 0 runs thread 1 for the first half
	add(500, 0, ingest.KindStopThread, 1, 7) // blocked on an MVar
	add(500, 0, ingest.KindGCStart)
	add(500, 0, ingest.KindGCWork)
	add(600, 0, ingest.KindGCEnd)
	add(600, 1, ingest.KindRunThread, 2) // HEC 1 runs thread 2 in the second part
	add(1000, 1, ingest.KindStopThread, 2, 5)
	b.Finish()
	return b.Snapshot()
}

func colourAt(img *image.RGBA, x, y int) color.RGBA {
	return img.RGBAAt(x, y)
}

// renderView draws a view of m over [from, to) (to 0: the end of the run)
// in a w×h picture at scale s in the light palette, through RenderPanel
// with the axis a lone panel has: the plot right of the gutter.
func renderView(m *Model, view string, from, to uint64, w, h int, s float64) (*image.RGBA, error) {
	if to == 0 {
		to = m.End
	}
	gutter := min(int(110*s), w/4)
	ax := NewAxis(from, to, float64(gutter), float64(max(w-gutter-int(8*s), 1)))
	return RenderPanel(m, view, w, h, s, ax, Light)
}

// TestRenderTimelineShapes checks the pixels of HEC rows where the spans are.
func TestRenderTimelineShapes(t *testing.T) {
	m := synthetic()
	if m.End != 1000 {
		t.Fatalf("end %d", m.End)
	}
	img, err := renderView(m, "timeline", 0, 0, 800, 400, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := newRenderer(img, m, 0, m.End, 1, Light)
	// Find the HEC rows: scan down a column in the first quarter of the run
	// (HEC 0 running) and one in the last quarter (HEC 1 running).
	xEarly := int(r.ax.X(200))
	xGC := int(r.ax.X(550))
	xLate := int(r.ax.X(800))
	var early, late, gc []int
	for y := r.top; y < r.bottom; y++ {
		if colourAt(img, xEarly, y) == ColourRunning {
			early = append(early, y)
		}
		if colourAt(img, xLate, y) == ColourRunning {
			late = append(late, y)
		}
		if colourAt(img, xGC, y) == ColourGC {
			gc = append(gc, y)
		}
	}
	if len(early) == 0 || len(late) == 0 || len(gc) == 0 {
		t.Fatalf("missing shapes: %d running rows early, %d late, %d GC", len(early), len(late), len(gc))
	}
	// Early running is on HEC 0's row (with the activity graph above it),
	// late running on HEC 1's, below; the GC is on HEC 0's row.
	if late[len(late)-1] <= early[len(early)-1] {
		t.Errorf("HEC 1's run (rows %d..%d) is not below HEC 0's (%d..%d)", late[0], late[len(late)-1], early[0], early[len(early)-1])
	}
	if gc[len(gc)-1] > early[len(early)-1] || gc[0] < early[0] {
		t.Errorf("GC rows %d..%d not within HEC 0's running rows %d..%d", gc[0], gc[len(gc)-1], early[0], early[len(early)-1])
	}
	// Nothing is drawn right of the plot's end in the HEC rows.
	if c := colourAt(img, r.gutter+r.plotW+2, late[0]); c != Light.Background {
		t.Errorf("pixel right of the plot is %v", c)
	}
}

func TestRenderThreadsAndErrors(t *testing.T) {
	m := synthetic()
	img, err := renderView(m, "threads", 0, 0, 600, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := newRenderer(img, m, 0, m.End, 1, Light)
	// Thread 1's row is the first: running green then MVar red.
	y := r.top + int(2*r.s) + 7
	if c := colourAt(img, int(r.ax.X(250)), y); c != ColourRunning {
		t.Errorf("thread 1 at 250 ns: %v, want running", c)
	}
	if c := colourAt(img, int(r.ax.X(750)), y); c != BlockedColour(ingest.StopBlockedMVar) {
		t.Errorf("thread 1 at 750 ns: %v, want blocked on MVar", c)
	}
	if _, err := renderView(m, "nope", 0, 0, 100, 100, 1); err == nil {
		t.Error("an unknown view drew")
	}
	for _, v := range Views() {
		if _, err := renderView(m, v, 0, 0, 300, 200, 2); err != nil {
			t.Errorf("view %s: %v", v, err)
		}
	}
	// An empty model renders without panicking.
	if _, err := renderView(NewBuilder().Snapshot(), "timeline", 0, 10, 200, 100, 1); err != nil {
		t.Errorf("empty model: %v", err)
	}
}

// TestRenderCorpus renders every view of every test log.
func TestRenderCorpus(t *testing.T) {
	for _, path := range testLogs(t) {
		m, _ := build(t, path)
		if m.End == 0 {
			continue
		}
		for _, v := range Views() {
			if _, err := renderView(m, v, 0, 0, 640, 360, 1); err != nil {
				t.Errorf("%s %s: %v", path, v, err)
			}
		}
	}
}

func benchFrame(b *testing.B, view string, window func(m *Model) (uint64, uint64)) {
	m := loadBig(b)
	from, to := window(m)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := renderView(m, view, from, to, 1920, 1080, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func whole(m *Model) (uint64, uint64) { return 0, m.End }
func oneMs(m *Model) (uint64, uint64) { return m.End / 2, m.End/2 + 1e6 }

func BenchmarkFrameTimelineWhole(b *testing.B) { benchFrame(b, "timeline", whole) }
func BenchmarkFrameTimeline1ms(b *testing.B)   { benchFrame(b, "timeline", oneMs) }
func BenchmarkFrameThreadsWhole(b *testing.B)  { benchFrame(b, "threads", whole) }
func BenchmarkFrameThreads1ms(b *testing.B)    { benchFrame(b, "threads", oneMs) }
func BenchmarkFrameSparksWhole(b *testing.B)   { benchFrame(b, "sparks", whole) }

// TestTimelineShowsEveryHEC renders the two-HEC model at many heights: both
// HEC rows must always be drawn, each ending in its row rule.
func TestTimelineShowsEveryHEC(t *testing.T) {
	m := synthetic()
	for h := 150; h <= 1100; h += 7 {
		img, err := renderView(m, "timeline", 0, 0, 600, h, 1)
		if err != nil {
			t.Fatal(err)
		}
		r := newRenderer(img, m, 0, m.End, 1, Light)
		x := r.gutter + r.plotW/2
		rules := 0
		for y := r.top; y < r.bottom; y++ {
			if colourAt(img, x, y) == Light.RowRule {
				rules++
			}
		}
		if want := 1 + len(m.HECs); rules != want { // activity + each HEC
			t.Fatalf("height %d: %d row rules, want %d (a HEC row was dropped)", h, rules, want)
		}
	}
}

// TestRenderCutRunHatchesPastTheFrontier: the compare picture of a cut
// run (HEC 1's events stop at 200 ns of 1000) draws HEC 1's row and the
// activity's share of it as not known past its frontier — the hatch, no
// state — with the frontier's mark, where it drew HEC 1 as idle and the
// activity as "1 HEC busy" out of 2.
func TestRenderCutRunHatchesPastTheFrontier(t *testing.T) {
	b := NewBuilder()
	add := adder(b)
	add(0, 0, ingest.KindRunThread, 1)
	add(100, 1, ingest.KindRunThread, 2)
	add(200, 1, ingest.KindStopThread, 2, 3)
	add(1000, 0, ingest.KindStopThread, 1, 3)
	b.EndCapabilities(b.Frontiers())
	b.Finish()
	m := b.Snapshot()
	if fr := m.HECs[1].Frontier(); fr != 200 || !m.Cut {
		t.Fatalf("HEC 1's frontier %d, cut %v", fr, m.Cut)
	}
	ax := NewAxis(0, 1000, 40, 500)
	img, rows, err := RenderPanelRows(m, "timeline", 560, 300, 1, ax, Light)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, row := range rows {
		if row.HEC != 1 && !(row.Activity && row.HEC < 0) {
			continue
		}
		checked++
		x0 := int(ax.X(200))
		if row.HEC == 1 && !row.Activity && colourAt(img, x0, row.Rect.Min.Y+row.Rect.Dy()/2) != Light.Frontier {
			t.Errorf("no frontier mark at x %d on HEC 1's row", x0)
		}
		hatch := 0
		// HEC 1's row whole; the activity's top half (HEC 1's share).
		y1 := row.Rect.Max.Y
		if row.Activity {
			y1 = row.Rect.Min.Y + row.Rect.Dy()/2 - 2
		}
		for x := x0 + 3; x < row.Rect.Max.X-1; x++ {
			for y := row.Rect.Min.Y + 1; y < y1; y++ {
				switch c := colourAt(img, x, y); c {
				case ColourRunning, ColourActivity, ColourGC, ColourGCWaiting:
					t.Fatalf("row %+v: HEC 1 (or its share of the activity) drawn %v at x %d, y %d, past its frontier", row, c, x, y)
				case Light.Unknown, Light.UnknownHatch:
					hatch++
				}
			}
		}
		if hatch < (row.Rect.Max.X-x0)*(y1-row.Rect.Min.Y)/3 {
			t.Errorf("row %+v: %d pixels hatched past HEC 1's frontier", row, hatch)
		}
	}
	if checked != 2 {
		t.Fatalf("%d rows checked, want HEC 1's and the activity", checked)
	}
}
