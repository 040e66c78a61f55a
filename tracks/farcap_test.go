package tracks

import (
	"slices"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/internal/testlog"
	"github.com/hecscope/hecscope/timeline"
)

// TestFarCapabilityHasItsTracks: parwork-N2 with its first block of
// capability 0 rewritten to claim capability 4095 is drawn with tracks
// HEC 4095, HEC 4095 activity and HEC 4095 sparks holding that block's
// events, and hit there as HEC 4095. Before, the view had HEC 0 (empty) and
// HEC 1 only: the block's 4,099 events were drawn nowhere.
func TestFarCapabilityHasItsTracks(t *testing.T) {
	path, _ := testlog.CapRewritten(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", 4095)
	m := realModel(t, path)
	v := New(timeline.Exact(m))
	v.SetSize(1200, 900, 1)
	v.Render()
	shown := v.Tracks()
	for _, id := range []TrackID{{KindHEC, 0}, {KindHEC, 1}, {KindHEC, 4095}, {KindHECActivity, 4095}, {KindSparks, 4095}} {
		if !slices.Contains(shown, id) {
			t.Errorf("no track %v among %v", id, shown)
		}
	}
	if slices.Contains(shown, TrackID{KindHEC, 2}) {
		t.Errorf("a track HEC 2 for a log without capability 2")
	}
	id := TrackID{KindHEC, 4095}
	r, ok := v.TrackRect(id)
	if !ok {
		t.Fatal("HEC 4095 not in view")
	}
	spans := 0
	y := r.Max.Y - 3
	for x := v.PlotRect().Min.X; x < v.PlotRect().Max.X; x += 3 {
		h := v.Hit(float64(x)+0.5, float64(y)+0.5)
		if h.Track != id {
			t.Fatalf("hit at (%d, %d) on HEC 4095: %+v", x, y, h)
		}
		if h.Element == ElemSpan && h.Thread != 0 {
			spans++
			if len(h.Tip) == 0 || !strings.Contains(strings.Join(h.Tip, " "), "HEC 4095") {
				t.Fatalf("hit on HEC 4095 says %q", h.Tip)
			}
		}
	}
	if spans == 0 {
		t.Errorf("HEC 4095 is drawn without a thread running on it")
	}
}
