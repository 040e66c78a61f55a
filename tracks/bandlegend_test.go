package tracks

import (
	"strings"
	"testing"

	"github.com/hecscope/hecscope/paint"
)

// The heap profile's track names its bands beside it, with their peaks,
// and with their sizes at the census nearest the cursor while the host
// gives one (those the census holds); the window's legend no longer lists
// them.
func TestBandLegendReadsTheCursor(t *testing.T) {
	v := heapProfileView(t, "../testdata/ghc-9.0.2/heap-hc.eventlog")
	id := TrackID{KindBands, 0}
	if !v.Reveal(id) {
		t.Fatal("no heap-profile track")
	}
	v.SetTrackHeight(id, 300)
	bd := v.bands
	svg := func() string {
		c := paint.NewSVG(1600, 1000)
		v.Draw(c)
		return string(c.Bytes())
	}
	peak := v.bandSize(0, -1)
	if got := svg(); !strings.Contains(got, ">peak sizes<") || !strings.Contains(got, ">"+paint.Bytes(peak)+"<") {
		t.Errorf("without a cursor the legend does not give the peak %s of %q", paint.Bytes(peak), bd.Name(0))
	}
	for _, it := range v.legendItems() {
		if it.name == bd.Name(0) {
			t.Errorf("the window's legend lists band %q", it.name)
		}
	}
	s := bd.Samples() / 2
	if !v.SetCursor(bd.Time(s), true) {
		t.Fatal("the cursor over a census does not change the picture")
	}
	if v.SetCursor(bd.Time(s), true) {
		t.Error("the same census again changes the picture")
	}
	got := svg()
	for b := range bd.Len() {
		if want := ">" + paint.Bytes(bd.Value(b, s)) + "<"; bd.Value(b, s) > 0 && !strings.Contains(got, want) {
			t.Errorf("band %q: no %s at census %d", bd.Name(b), want, s)
		}
		if bd.Value(b, s) == 0 && strings.Contains(got, ">"+bd.Name(b)+"<") {
			t.Errorf("band %q, empty at census %d, is listed", bd.Name(b), s)
		}
	}
	if !strings.Contains(got, ">census at ") {
		t.Error("the header does not say which census the legend reads")
	}
	if !v.SetCursor(0, false) || !strings.Contains(svg(), ">peak sizes<") {
		t.Error("the cursor gone, the legend does not go back to the peaks")
	}
}
