package liveview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/app/panels"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/live"
)

// This file holds the tabs under a live window's timeline: the same as a
// file window's, rebuilt from the live models' snapshots.

// liveEventlog makes the view's snapshot of a live stream from its models'
// snapshot snap and the summary so far: what the tabs show.
func liveEventlog(path string, snap *live.Snapshot, m *live.Models) *loaded.Eventlog {
	ev := &loaded.Eventlog{
		Log: snap.Log, Path: path, Size: snap.Size, Status: liveStatus(snap, m), Events: snap.Events, Summary: m.Summary(),
		Model: snap.Model, Heap: snap.Heap, Profile: snap.Profile, List: snap.List,
	}
	ev.Markers = loaded.MarkersOf(ev.Model)
	return ev
}

// liveStatus is how the stream shown stands: the snapshot's, until the
// stream has ended; then how it ended (a stream cut before its end marker
// leaves a recording that its follower can only call unfinished).
func liveStatus(snap *live.Snapshot, m *live.Models) ingest.Status {
	if st, ended := m.Ended(); ended && snap.Status.State == ingest.StateDecoding {
		return st
	}
	return snap.Status
}

// buildTabs makes the tabs under the timeline, each showing what has not
// arrived yet until the first snapshot.
func (v *View) buildTabs() {
	v.panels = map[*container.TabItem]func(){}
	v.stale = map[*container.TabItem]bool{}
	waiting := func() *fyne.Container { return container.NewStack(widget.NewLabel(liveWaiting)) }
	add := func(name string, box *fyne.Container, build func(ev *loaded.Eventlog) fyne.CanvasObject) *container.TabItem {
		ti := container.NewTabItem(name, container.NewScroll(box))
		v.panels[ti] = func() {
			if v.ev == nil {
				return
			}
			box.Objects = []fyne.CanvasObject{build(v.ev)}
			box.Refresh()
		}
		return ti
	}
	summary := add("Summary", waiting(), func(ev *loaded.Eventlog) fyne.CanvasObject { return panels.SummaryPanel(ev) })
	gc := add("GC", waiting(), func(ev *loaded.Eventlog) fyne.CanvasObject { return panels.GCPanel(&ev.Summary) })
	sparks := add("Sparks", waiting(), func(ev *loaded.Eventlog) fyne.CanvasObject { return panels.SparksPanel(&ev.Summary) })
	process := add("Process", waiting(), func(ev *loaded.Eventlog) fyne.CanvasObject { return panels.ProcessPanel(&ev.Summary) })
	v.selection = container.NewVBox(widget.NewLabel(liveWaiting))
	selTab := container.NewTabItem("Selection", container.NewScroll(v.selection))
	v.panels[selTab] = v.showSelection
	users := add("User Events", waiting(), func(ev *loaded.Eventlog) fyne.CanvasObject {
		if ev.Model == nil || len(ev.Model.Labels) == 0 {
			return widget.NewLabel("No user START/STOP spans so far.")
		}
		return panels.UserEventsPanel(ev.Model)
	})
	v.eventsBox = waiting()
	v.eventsTab = container.NewTabItem("Events", v.eventsBox)
	v.panels[v.eventsTab] = v.showEvents
	v.details = panels.NewDetails()
	v.detailsTab = container.NewTabItem("Details", container.NewScroll(v.details))
	v.tabs = container.NewAppTabs(summary, gc, sparks, process, selTab, v.detailsTab, users, v.eventsTab)
	v.tabs.OnSelected = func(ti *container.TabItem) {
		if v.stale[ti] {
			delete(v.stale, ti)
			v.panels[ti]()
		}
		if ti == v.eventsTab && v.events != nil {
			v.events.Reveal()
		}
	}
}

// showPanels makes ev the snapshot the tabs show: the tab shown is rebuilt
// now, the others when they are next shown.
func (v *View) showPanels(ev *loaded.Eventlog) {
	v.ev = ev
	sel := v.tabs.Selected()
	for ti, build := range v.panels {
		if ti == sel {
			build()
			delete(v.stale, ti)
		} else {
			v.stale[ti] = true
		}
	}
}

// showEvents shows the snapshot's events in the Events tab: the list is
// made with the timeline it follows, and takes each new snapshot's rows.
func (v *View) showEvents() {
	ev := v.ev
	switch {
	case ev == nil:
		return
	case ev.List == nil || ev.Log == nil:
		msg := "The event list is read from the stream's recording, which cannot be read."
		if v.snap != nil && v.snap.Err != nil {
			msg = "The event list is not available: " + v.snap.Err.Error()
		}
		v.eventsBox.Objects = []fyne.CanvasObject{widget.NewLabel(msg)}
	case v.canvas == nil:
		v.eventsBox.Objects = []fyne.CanvasObject{widget.NewLabel(liveWaiting)}
	case v.events == nil || v.events.Nav != panels.TimeNav(v.canvas):
		v.events = panels.NewEventList(ev.List, ev.Log.Header, ev.Summary.BlockMarkers, v.canvas)
		v.eventsBox.Objects = []fyne.CanvasObject{v.events.Root}
	default:
		v.events.BlockMarkers = ev.Summary.BlockMarkers
		v.events.SetEvents(ev.List)
		return
	}
	v.eventsBox.Refresh()
}

// showSelection fills the Selection tab with the time each HEC spent in
// each state during the selection, or during the run so far without one,
// and the run's figures over it (a selection's read again from the
// recording, in the background).
func (v *View) showSelection() {
	ev := v.ev
	if ev == nil || ev.Model == nil || v.canvas == nil {
		return
	}
	from, to, sel := v.canvas.Selection()
	summary, pending := panels.FillSelection(v.selection, ev, from, to, sel, "Run so far", "the recording")
	v.selGen++
	if !pending {
		return
	}
	gen := v.selGen
	v.inBackground(func() {
		put := panels.SelectionSummary(ev, from, to, summary)
		kit.OnUI(func() {
			v.Mu.Lock()
			defer v.Mu.Unlock()
			if gen != v.selGen || v.stopped() {
				return // a newer selection replaced this one, or the window closed
			}
			put()
		})
	})
}

// setPaused pauses or resumes the view: paused, it keeps what it shows
// (the canvas stops following the end) while the session records on;
// resumed, it follows the newest data again from the next refresh.
func (v *View) setPaused(on bool) {
	if v.paused == on {
		return
	}
	v.paused = on
	if on {
		v.pause.SetText("Resume")
		v.pause.SetIcon(theme.MediaPlayIcon())
		if v.canvas != nil {
			from, to := v.canvas.View()
			v.canvas.ShowRange(from, to)
		}
		return
	}
	v.pause.SetText("Pause")
	v.pause.SetIcon(theme.MediaPauseIcon())
	if v.canvas != nil {
		if on, _ := v.canvas.Following(); !on {
			v.canvas.Follow(v.span)
		}
	}
}

// RecordingPath returns the file the current stream is recorded to, "" if
// none (not recorded, or recorded only to feed the model).
func (v *View) RecordingPath() string {
	if v.stream == nil {
		return ""
	}
	return v.stream.RecordingPath()
}
