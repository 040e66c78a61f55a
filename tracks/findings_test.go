package tracks

import (
	"image"
	"image/color"
	"slices"
	"testing"

	"github.com/hecscope/hecscope/advise"
	"github.com/hecscope/hecscope/paint"
)

// tinyFindings are three findings of the tiny run, in a list's order: a
// problem at 104 ns, an info at 100 ns (4 pixels from it at 1 pixel per
// ns: one flag) and a warning at 600 ns.
func tinyFindings() []advise.Finding {
	return []advise.Finding{
		{Kind: advise.KindSequential, Severity: advise.Problem, From: 104, To: 400, Title: "one HEC alone"},
		{Kind: advise.KindThreads, Severity: advise.Info, From: 100, To: 1000, Title: "many threads"},
		{Kind: advise.KindGC, Severity: advise.Warning, From: 600, To: 900, Title: "GC takes long"},
	}
}

// TestFindingFlagsClusterAndHit flags the findings on the tiny run's axis:
// each flag is drawn at its finding's start in its severity's colour, the
// two 4 pixels apart are one flag in the colour of the worse, with their
// count; hitting a flag returns its findings, and zoomed in the two come
// apart.
func TestFindingFlagsClusterAndHit(t *testing.T) {
	v := tinyView(t)
	plain := v.Render()
	v.SetFindings(tinyFindings())
	img := v.Render()
	band := v.newFrame(nil, v.geometry(), 0, 1000, 0, false, true).findingBand()
	mid := (band.Min.Y + band.Max.Y) / 2
	ax := v.Axis()
	at := func(img *image.RGBA, t uint64, dx int) color.RGBA { return img.RGBAAt(int(ax.X(t))+dx, mid) }
	// The warning alone at 600 ns: a pennant from its start to the right.
	if got, want := at(img, 600, 2), paint.InkFindingWarning.Color(); got != want {
		t.Errorf("flag at 600 ns drawn in %v, want the warning's %v", got, want)
	}
	if at(img, 600, -3) != at(plain, 600, -3) {
		t.Error("the flag at 600 ns reaches left of its start")
	}
	// The cluster at 100 ns: the problem's colour, though the info comes
	// first in time.
	if got, want := at(img, 100, 1), paint.InkFindingProblem.Color(); got != want {
		t.Errorf("cluster at 100 ns drawn in %v, want the problem's %v", got, want)
	}
	for _, tm := range []uint64{300, 800} {
		if at(img, tm, 0) != at(plain, tm, 0) {
			t.Errorf("something drawn in the findings' band at %d ns", tm)
		}
	}

	hit := func(tm uint64) Hit { return v.Hit(v.X(tm)+2, float64(mid)) }
	if h := hit(100); h.Element != ElemFinding || !slices.Equal(h.Findings, []int{0, 1}) || h.From != 100 || h.To != 1000 ||
		len(h.Tip) < 3 || h.Tip[1] != "· PROBLEM: one HEC alone" {
		t.Errorf("hit on the cluster: %v %v %d–%d %q", h.Element, h.Findings, h.From, h.To, h.Tip)
	}
	if h := hit(600); h.Element != ElemFinding || !slices.Equal(h.Findings, []int{2}) || len(h.Tip) == 0 || h.Tip[0] != "GC takes long" {
		t.Errorf("hit on the warning: %v %v %q", h.Element, h.Findings, h.Tip)
	}
	if h := hit(300); h.Element == ElemFinding || len(h.Findings) != 0 {
		t.Errorf("hit between flags: %v %v", h.Element, h.Findings)
	}

	// 40 ns across the plot: 25 pixels per ns, the two 100 pixels apart.
	v.SetRange(90, 130)
	if h := hit(104); !slices.Equal(h.Findings, []int{0}) || h.Tip[0] != "one HEC alone" {
		t.Errorf("zoomed in, hit at 104 ns: %v %q", h.Findings, h.Tip)
	}
	if h := hit(100); !slices.Equal(h.Findings, []int{1}) {
		t.Errorf("zoomed in, hit at 100 ns: %v", h.Findings)
	}
	zoomed := v.Render()
	if got, want := zoomed.RGBAAt(int(v.X(100))+2, mid), paint.InkFindingInfo.Color(); got != want {
		t.Errorf("zoomed in, the info at 100 ns drawn in %v, want %v", got, want)
	}

	v.SetFindings(nil)
	v.Fit()
	if h := hit(600); h.Element == ElemFinding {
		t.Error("a flag is hit after the findings were removed")
	}
}

// TestFindingTracksHighlighted: a finding about HEC 0, thread 2 and the GC
// is shown on those tracks of the tiny run (not on HEC 1's, nor on a HEC
// the run lacks); highlighted, their headers are marked and their rows
// shaded over its range, and the other tracks are left as they were.
func TestFindingTracksHighlighted(t *testing.T) {
	v := tinyView(t)
	fd := advise.Finding{From: 200, To: 400, Tracks: advise.Tracks{Caps: []int32{0, 7}, Threads: []uint32{2, 99}, GC: true}}
	ids := v.FindingTracks(&fd)
	want := []TrackID{{KindGC, 0}, {KindHEC, 0}, {KindHECActivity, 0}, {KindThread, 2}}
	if !slices.Equal(ids, want) {
		t.Fatalf("finding tracks %v, want %v", ids, want)
	}
	plain := v.Render()
	v.SetHighlight(&Highlight{From: fd.From, To: fd.To, Weights: []float64{1}, Tracks: ids})
	lit := v.Render()
	x := int(v.X(300))
	for _, id := range []TrackID{{KindHEC, 0}, {KindThread, 2}, {KindGC, 0}, {KindHEC, 1}, {KindThread, 1}} {
		y := rowMid(t, v, id)
		marked := lit.RGBAAt(1, y) == highlightInk
		shaded := lit.RGBAAt(x, y) != plain.RGBAAt(x, y)
		outside := lit.RGBAAt(int(v.X(700)), y) != plain.RGBAAt(int(v.X(700)), y)
		in := slices.Contains(ids, id)
		if marked != in || shaded != in || outside {
			t.Errorf("%v: header marked %v, shaded in the range %v, outside it %v; want %v, %v, false", id, marked, shaded, outside, in, in)
		}
	}
}
