package app

import (
	"testing"

	"fyne.io/fyne/v2/widget"

	"github.com/hecscope/hecscope/app/panels"
	"github.com/hecscope/hecscope/spans"
	"github.com/hecscope/hecscope/tracks"
)

const (
	spanworkLog = "../spans/testdata/spanwork.eventlog"
	profworkLog = "../ccprofile/testdata/profwork.eventlog"
)

func TestAnalysisTabsFollowTheCanvas(t *testing.T) {
	w, v, _ := openNav(t, profworkLog)
	defer w.Fyne().Close()
	if v.spans == nil || v.profile == nil {
		t.Fatal("no Spans or Profile tab")
	}
	pv := v.profile
	loaded := make(chan struct{}, 4)
	pv.OnLoad = func() { loaded <- struct{}{} }
	ui(pv.EnsureLoaded)
	waitFor(t, loaded, "the profile")
	all := pv.Prof.Samples
	// A selection on the canvas switches the tab to it and measures again.
	from, to := pv.Prof.First, pv.Prof.First+(pv.Prof.Last-pv.Prof.First)/4
	ui(func() { v.canvas.SetSelection(from, to, true) })
	waitFor(t, loaded, "the selection's profile")
	if pv.Scope.Selected != panels.ScopeSelection || pv.Prof.Samples == 0 || pv.Prof.Samples >= all {
		t.Errorf("after a selection: scope %q, %d of %d samples", pv.Scope.Selected, pv.Prof.Samples, all)
	}
	ui(func() { v.canvas.SetSelection(0, 0, false) })
	waitFor(t, loaded, "the whole run's profile")
	if pv.Scope.Selected != panels.ScopeRun || pv.Prof.Samples != all {
		t.Errorf("after clearing it: scope %q, %d of %d samples", pv.Scope.Selected, pv.Prof.Samples, all)
	}
	// Picking a cost centre highlights its samples on the canvas.
	placed := make(chan struct{}, 1)
	pv.OnSpread = func() { placed <- struct{}{} }
	ui(func() {
		for i, r := range pv.Rows {
			if r.CC.Label == "heavy" {
				pv.Table.Select(widget.TableCellID{Row: i, Col: 0})
			}
		}
	})
	waitFor(t, placed, "heavy's samples")
	var h *tracks.Highlight
	ui(func() { v.canvas.With(func(tv *tracks.View) { h = tv.Highlight() }) })
	if h == nil || len(h.Weights) != panels.SpreadBins {
		t.Fatalf("canvas highlight %+v", h)
	}
	// A later load clears it.
	ui(pv.Load)
	waitFor(t, loaded, "the profile again")
	ui(func() { v.canvas.With(func(tv *tracks.View) { h = tv.Highlight() }) })
	if h != nil {
		t.Error("the highlight outlived the profile it came from")
	}
}

func TestSpansInstanceShownAndMarkedOnTheCanvas(t *testing.T) {
	w, v, _ := openNav(t, spanworkLog)
	defer w.Fyne().Close()
	sv := v.spans
	loaded := make(chan struct{}, 4)
	sv.OnLoad = func() { loaded <- struct{}{} }
	ui(sv.EnsureLoaded)
	waitFor(t, loaded, "the spans")
	ui(func() {
		for i, l := range sv.Rows {
			if l.Name == "sleep" {
				sv.Table.Select(widget.TableCellID{Row: i, Col: 0})
			}
		}
	})
	if sv.Label == nil || len(sv.Longest) == 0 {
		t.Fatal("sleep not picked")
	}
	// The tracks at the top made tall, the label's track is out of view
	// until an instance is picked.
	var id tracks.TrackID
	ui(func() {
		var ok bool
		id, ok = panels.InstanceTrack(v.log.Model, sv.Label, sv.Longest[1], false)
		if !ok || id.Kind != tracks.KindUserThread {
			t.Fatalf("sleep's track: %v, %v", id, ok)
		}
		v.canvas.With(func(tv *tracks.View) {
			tv.SetTrackHeight(tracks.TrackID{Kind: tracks.KindActivity}, 600)
			tv.ScrollTo(0)
		})
	})
	if _, ok := canvasTrackRect(v.canvas, id); ok {
		t.Fatal("sleep's track is in view before an instance is picked")
	}
	ui(func() { sv.List.Select(1) })
	if _, ok := canvasTrackRect(v.canvas, id); !ok {
		t.Error("picking an instance did not scroll its track into view")
	}
	// A thread label's instance is its thread; a label the timeline does
	// not know, the spans of the thread that ran it.
	in7 := spans.Instance{Thread: 7}
	if id, ok := panels.InstanceTrack(v.log.Model, &spans.Label{Name: "worker", Kind: spans.Thread}, in7, false); !ok || id != (tracks.TrackID{Kind: tracks.KindThread, ID: 7}) {
		t.Errorf("a thread label's instance: %v", id)
	}
	if id, ok := panels.InstanceTrack(v.log.Model, &spans.Label{Name: "no such label"}, in7, true); !ok || id != (tracks.TrackID{Kind: tracks.KindUserThread, ID: 7}) {
		t.Errorf("an unknown label's instance: %v", id)
	}
	// With the spans shown by label, a user span's instance is its label's track.
	if id, ok := panels.InstanceTrack(v.log.Model, sv.Label, sv.Longest[1], true); !ok || id.Kind != tracks.KindUserLabel {
		t.Errorf("by label, sleep's instance: %v", id)
	}
	in := sv.Longest[1]
	from, to := v.canvas.View()
	if from > in.Start || to < in.End || to-from > 2*in.Duration() {
		t.Errorf("canvas shows [%d, %d] for the instance [%d, %d]", from, to, in.Start, in.End)
	}
	var h *tracks.Highlight
	ui(func() { v.canvas.With(func(tv *tracks.View) { h = tv.Highlight() }) })
	if h == nil || h.From != in.Start || h.To != in.End {
		t.Fatalf("canvas highlight %+v, want [%d, %d)", h, in.Start, in.End)
	}
	// Measuring again clears the tab's mark.
	ui(sv.Load)
	waitFor(t, loaded, "the spans again")
	ui(func() { v.canvas.With(func(tv *tracks.View) { h = tv.Highlight() }) })
	if h != nil {
		t.Errorf("the mark outlived its table: %+v", h)
	}
}
