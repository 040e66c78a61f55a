package timeline

import (
	"math"
	"os"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

func TestViewportAxes(t *testing.T) {
	axA, axB := Viewport{AlignA: 30e6, AlignB: 50e6, EndA: 80e6, EndB: 110e6}.Axes(110, 1482)
	if axA.PixelsPerNs() != axB.PixelsPerNs() {
		t.Errorf("scales differ: %v %v", axA.PixelsPerNs(), axB.PixelsPerNs())
	}
	if d := axA.X(30e6) - axB.X(50e6); math.Abs(d) > 1e-6 {
		t.Errorf("alignment points %v px apart", d)
	}
	if axA.From != 0 || axB.From != 0 || axB.X0 != 110 || axA.X0 <= axB.X0 {
		t.Errorf("axes start at %v (x %v) and %v (x %v)", axA.From, axA.X0, axB.From, axB.X0)
	}
	// Both end at the right edge of the plot: lead 50 ms + tail 60 ms.
	if ra, rb := axA.X0+axA.Width, axB.X0+axB.Width; math.Abs(ra-rb) > 1e-6 || math.Abs(rb-(1600-8)) > 1e-6 {
		t.Errorf("right ends %v %v", ra, rb)
	}
	// Aligned at the start: one axis.
	a0, b0 := Viewport{EndA: 10, EndB: 20}.Axes(110, 882)
	if a0.X(7) != b0.X(7) {
		t.Errorf("start-aligned axes differ: %+v %+v", a0, b0)
	}
}

// TestViewportZoomIsLinked zooms and pans the shared scale: both runs'
// axes keep one scale and their alignment points one x.
func TestViewportZoomIsLinked(t *testing.T) {
	sp := Viewport{AlignA: 30e6, AlignB: 50e6, EndA: 80e6, EndB: 110e6}
	if sp.Lead() != 50e6 || sp.Length() != 110e6 {
		t.Fatalf("lead %d length %d", sp.Lead(), sp.Length())
	}
	z := sp.Zoom(0.5, 50e6)
	if from, to := z.View(); from != 25e6 || to != 80e6 {
		t.Fatalf("zoomed view [%d, %d], want [25ms, 80ms]", from, to)
	}
	axA, axB := z.Axes(110, 1482)
	if math.Abs(axA.PixelsPerNs()-axB.PixelsPerNs()) > 1e-15 || math.Abs(axA.PixelsPerNs()-z.PixelsPerNs(1482)) > 1e-15 {
		t.Errorf("scales %v %v %v", axA.PixelsPerNs(), axB.PixelsPerNs(), z.PixelsPerNs(1482))
	}
	if math.Abs(axA.X(30e6)-axB.X(50e6)) > 1e-6 {
		t.Errorf("alignment points at %v and %v", axA.X(30e6), axB.X(50e6))
	}
	// Both runs show the same stretch of shared time: A from 5 ms (shared
	// 25 ms), B from 25 ms.
	if axA.From != 5e6 || axA.To != 60e6 || axB.From != 25e6 || axB.To != 80e6 || axA.X0 != 110 || axB.X0 != 110 {
		t.Errorf("axes A [%d, %d] at %v, B [%d, %d] at %v", axA.From, axA.To, axA.X0, axB.From, axB.To, axB.X0)
	}
	// The point under the pointer stays put.
	if got := z.TimeAt(axB.X(50e6), 110, 1482); got < 50e6-100 || got > 50e6+100 {
		t.Errorf("TimeAt under the anchor: %d", got)
	}
	// Panning moves both and stops at the ends.
	p := z.Pan(10e6)
	if from, to := p.View(); from != 35e6 || to != 90e6 {
		t.Errorf("panned view [%d, %d]", from, to)
	}
	if from, to := z.Pan(-1e12).View(); from != 0 || to != 55e6 {
		t.Errorf("pan past the start: [%d, %d]", from, to)
	}
	if from, to := z.Pan(1e12).View(); from != 55e6 || to != 110e6 {
		t.Errorf("pan past the end: [%d, %d]", from, to)
	}
	// Zooming has limits: a microsecond, and the whole runs.
	if from, to := sp.Zoom(1e-9, 50e6).View(); to-from != minViewport {
		t.Errorf("deepest zoom [%d, %d]", from, to)
	}
	if out := z.Zoom(100, 0); out.From != 0 || out.To != 0 {
		t.Errorf("zoomed out: %+v", out)
	}
	// A run that starts right of the view (A, aligned 50 ms later in
	// shared time) gets an empty axis at the right edge.
	far := Viewport{AlignA: 0, AlignB: 50e6, EndA: 10e6, EndB: 100e6, From: 0, To: 40e6}
	fa, fb := far.Axes(110, 882)
	if fa.X0 != 1000-8 || fa.Width != 1 || fb.From != 0 || fb.To != 40e6 || fb.X0 != 110 {
		t.Errorf("axes outside %+v, inside %+v", fa, fb)
	}
}

// modelOf builds the exact model of a test log.
func modelOf(t *testing.T, path string) *Model {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := ingest.NewReader(f)
	b := NewOverviewBuilder(Grid{})
	var ev ingest.Event
	for r.Next(&ev) {
		b.Add(&ev)
	}
	b.Finish()
	return b.Snapshot()
}

// TestAlignmentPoints finds a marker and a user span's start in real logs
// (the points a comparison can align two runs at).
func TestAlignmentPoints(t *testing.T) {
	m := modelOf(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	at, ok := FindMarker(m, "round 3")
	if !ok || at == 0 || at >= m.End {
		t.Fatalf("marker round 3: %d %v", at, ok)
	}
	if _, ok := FindMarker(m, "no such marker"); ok {
		t.Error("found a missing marker")
	}
	if m.NumUserSpans() == 0 {
		t.Skip("no user spans in the log")
	}
	sp := m.UserSpan(m.NumUserSpans() - 1)
	start, ok := FindSpanStart(m, m.String(sp.Label))
	if !ok || start > sp.Start {
		t.Errorf("span %q: start %d %v, a span of it starts at %d", m.String(sp.Label), start, ok, sp.Start)
	}
	if _, ok := FindSpanStart(m, "no such label"); ok {
		t.Error("found a missing span label")
	}
}
