package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/advise"
	"github.com/hecscope/hecscope/app/panels"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/ccprofile"
	"github.com/hecscope/hecscope/spans"
	"github.com/hecscope/hecscope/tracks"
)

// addEventPanels adds the Events and Bookmarks tabs to v, and makes the
// list follow the timeline.
func (v *eventlogView) addEventPanels() {
	ev := v.log
	if ev.List == nil || ev.Log == nil {
		v.addTab(container.NewTabItem("Events", widget.NewLabel("The event list is not available.")))
		return
	}
	v.events = panels.NewEventList(ev.List, ev.Log.Header, ev.Summary.BlockMarkers, v.canvas)
	prev := v.canvas.OnView
	v.canvas.OnView = func(from, to uint64) {
		if prev != nil {
			prev(from, to)
		}
		v.events.ViewChanged(from, to)
	}
	eventsTab := container.NewTabItem("Events", container.NewScroll(v.events.Root))
	v.addTab(eventsTab)
	// The menu of a track's plot shows the track's events from the time
	// under the pointer.
	v.canvas.ContextItems = func(h tracks.Hit) []*fyne.MenuItem {
		if !h.HasTime {
			return nil
		}
		t, match := h.Time, panels.TrackEvents(h.Track)
		return []*fyne.MenuItem{fyne.NewMenuItem("Show in Events", func() {
			v.tabs.Select(eventsTab)
			v.events.ShowAt(t, match)
		})}
	}
	prevTab := v.tabs.OnSelected
	v.tabs.OnSelected = func(ti *container.TabItem) {
		if prevTab != nil {
			prevTab(ti)
		}
		if ti == eventsTab {
			v.events.Reveal()
		}
	}
	v.bookmarks = panels.NewBookmarkPanel(ev.BookmarkKey(), ev.Markers, v.canvas)
	v.bookmarks.OnChange = func(bs []panels.Bookmark) { v.canvas.SetBookmarks(userBookmarks(bs)) }
	v.bookmarks.OnChange(v.bookmarks.Marks)
	v.canvas.OnBookmark = v.bookmarks.AddAtKey
	v.addTab(container.NewTabItem("Bookmarks", container.NewScroll(v.bookmarks.Root)))
}

// addFindingsTab adds the Findings tab to v, linked to its canvas as the
// Spans and Profile tabs are: it looks through the log the first time it
// is shown (unless the window did as it loaded the log), follows the
// canvas's selection, and shows the finding picked on the canvas, with
// its tracks. The canvas flags the findings listed; clicking a flag picks
// its finding here, and Esc on the canvas unpicks it.
func (v *eventlogView) addFindingsTab() {
	c := v.canvas
	fv := panels.NewFindingsView(panels.Analyzer(v.log), panels.RangeLink{Selection: c.Selection, Show: c.ShowRange})
	m := &trackcanvas.Marker{C: c} // app/trackcanvas/analysismarks.go
	fv.Mark = func(f *advise.Finding) { m.Show(c.FindingMark(f)) }
	fv.Flags = c.SetFindings
	// In a scroller, so that it asks nothing of the window's minimum size.
	tab := container.NewTabItem("Findings", container.NewScroll(fv.Root))
	v.addTab(tab)
	c.OnFinding = func(indices []int) {
		fv.Choose(indices)
		v.tabs.Select(tab)
	}
	c.OnEscape = fv.Clear
	if v.log.Analysed {
		fv.PresetRun(v.log.Findings)
	}
	prev := v.tabs.OnSelected
	v.tabs.OnSelected = func(ti *container.TabItem) {
		if prev != nil {
			prev(ti)
		}
		if ti == tab {
			fv.EnsureLoaded()
		}
	}
	prevSel := c.OnSelect
	c.OnSelect = func(from, to uint64, ok, final bool) {
		if prevSel != nil {
			prevSel(from, to, ok, final)
		}
		if final {
			fv.SelectionChanged(ok && to > from)
		}
	}
	v.findings = fv
}

// addAnalysisTabs adds the Spans and Profile tabs to v, linked to its
// canvas: they measure the log the first time they are shown, follow the
// canvas's selection (a final selection switches them to it, clearing it
// back to the whole run), and show what is picked in them on the canvas.
func (v *eventlogView) addAnalysisTabs() {
	c := v.canvas
	link := panels.RangeLink{Selection: c.Selection, Show: c.ShowRange}
	sv := panels.NewSpansView(v.log.Log.Pass, link)
	pv := panels.NewProfileView(v.log.Log.Pass, link)
	sm, pm := &trackcanvas.Marker{C: c}, &trackcanvas.Marker{C: c} // app/trackcanvas/analysismarks.go
	sv.Mark = func(from, to uint64) { sm.Show(trackcanvas.RangeMark(from, to)) }
	sv.Reveal = func(l *spans.Label, in spans.Instance) {
		var byLabel bool
		c.With(func(tv *tracks.View) { byLabel = tv.SpansByLabel() })
		if id, ok := panels.InstanceTrack(v.log.Model, l, in, byLabel); ok {
			c.Reveal(id)
		}
	}
	pv.Mark = func(s *ccprofile.Spread) { pm.Show(trackcanvas.SampleMarks(s)) }
	// In scrollers, so that they ask nothing of the window's minimum size
	// (they get the whole tab whenever it is larger than they need).
	spansTab := container.NewTabItem("Spans", container.NewScroll(sv.Root))
	profileTab := container.NewTabItem("Profile", container.NewScroll(pv.Root))
	v.addTab(spansTab)
	v.addTab(profileTab)
	prev := v.tabs.OnSelected
	v.tabs.OnSelected = func(ti *container.TabItem) {
		if prev != nil {
			prev(ti)
		}
		switch ti {
		case spansTab:
			sv.EnsureLoaded()
		case profileTab:
			pv.EnsureLoaded()
		}
	}
	prevSel := c.OnSelect
	c.OnSelect = func(from, to uint64, ok, final bool) {
		if prevSel != nil {
			prevSel(from, to, ok, final)
		}
		if final {
			sv.SelectionChanged(ok && to > from)
			pv.SelectionChanged(ok && to > from)
		}
	}
	v.spans, v.profile = sv, pv
}
