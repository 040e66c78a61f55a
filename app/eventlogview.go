package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/app/panels"
	"github.com/hecscope/hecscope/app/trackcanvas"
)

// eventlogView shows a loaded eventlog: a notice if it did not load whole,
// the timeline of the whole run, and under it the run's summary and the
// process that wrote it.
type eventlogView struct {
	plainView
	log *loaded.Eventlog
	// canvas is the timeline: every track of the run under one time axis
	// (app/trackcanvas*.go); nil if the log has no timed events. status,
	// under it, shows the visible range and the selection.
	canvas *trackcanvas.Canvas
	status *widget.Label
	split  *container.Split // the timeline over the tabs
	// dividerSet is the split's offset as the app last set it: an offset
	// that differs from it is where the user dragged the divider.
	dividerSet float64
	tabs       *container.AppTabs
	root       fyne.CanvasObject

	// details holds the facts of the last span clicked; selection the
	// figures of the selection (or the whole run).
	details, selection *fyne.Container
	detailsTab, selTab *container.TabItem
	// selStale: the Selection tab has not been filled since the view was
	// made (it is filled when first shown).
	selStale bool
	// selGen counts selections, so that a slow summary of an old one is
	// dropped; onSelSummary (tests) hears when a summary is shown.
	selGen       int
	onSelSummary func()

	// events is the Events tab and bookmarks the Bookmarks tab; nil
	// without a navigable timeline or an index.
	events    *panels.EventList
	bookmarks *panels.BookmarkPanel

	// spans and profile are the Spans and Profile tabs (nil without them).
	spans   *panels.SpansView
	profile *panels.ProfileView
	// findings is the Findings tab (nil without a timeline).
	findings *panels.FindingsView

	// segments chooses which eventlog of a file holding several the view
	// shows (nil for a file of one); pickSegment, set by the window, loads
	// the one picked (app/segmentchooser.go).
	segments    *widget.Select
	pickSegment func(int)
}

func newEventlogView(ev *loaded.Eventlog) *eventlogView {
	v := &eventlogView{log: ev}
	var timelineArea fyne.CanvasObject
	if ev.Model != nil && ev.Model.End > 0 {
		timelineArea = v.buildTimeline() // app/trackcanvas_view.go
	}
	header := widget.NewLabelWithStyle(ev.Path, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	header.Truncation = fyne.TextTruncateEllipsis
	var headRow fyne.CanvasObject = header
	v.segments = newSegmentChooser(ev, func(k int) {
		if v.pickSegment != nil {
			v.pickSegment(k)
		}
	})
	if v.segments != nil {
		headRow = container.NewBorder(nil, nil, nil, sizedChooser(v.segments), header)
	}
	head := container.NewVBox(headRow)
	if n := ingestStatusNotice(ev); n != "" {
		head.Add(newNotice(n, func() { v.root.Refresh() }))
	}
	s := &ev.Summary
	v.tabs = container.NewAppTabs(
		container.NewTabItem("Summary", container.NewScroll(panels.SummaryPanel(ev))),
		container.NewTabItem("GC", container.NewScroll(panels.GCPanel(s))),
		container.NewTabItem("Sparks", container.NewScroll(panels.SparksPanel(s))),
		container.NewTabItem("Process", panels.ProcessPanel(s)),
	)
	if v.canvas != nil {
		v.addNavPanels()
		v.addEventPanels()
		v.addAnalysisTabs() // Spans and Profile tabs: app/tabs.go
		v.addFindingsTab()  // app/tabs.go
	}
	// The tabs not shown are laid out, their renderers made, when first shown.
	for i, item := range v.tabs.Items {
		if i != v.tabs.SelectedIndex() {
			item.Content = kit.NewDeferred(item.Content)
		}
	}
	var top fyne.CanvasObject
	if v.canvas != nil {
		top = timelineArea
	} else {
		l := widget.NewLabel("This log has no timed events to draw.")
		l.Alignment = fyne.TextAlignCenter
		top = l
	}
	v.split = container.NewVSplit(top, v.tabs)
	v.split.Offset = rememberedDivider(kit.CurrentSettings())
	v.dividerSet = v.split.Offset
	v.root = container.NewBorder(head, nil, nil, nil, v.split)
	return v
}

func (v *eventlogView) Content() fyne.CanvasObject { return v.root }

func (v *eventlogView) eventlog() *loaded.Eventlog { return v.log }

func (v *eventlogView) eventCount() int64 { return v.log.Events }

// opened numbers the file's segments in w's title, has the segment
// chooser load the one picked into w, and shows the spans as they were
// last shown.
func (v *eventlogView) opened(w *Window) {
	w.segments = len(v.log.Segments)
	path := w.path
	v.pickSegment = func(k int) { w.loadSegment(path, k, w.segments) }
	v.rememberSpans(w.app.settings)
	w.setTitle()
}

// Where the divider between the timeline and the tabs starts: the offset
// (the timeline's share of the height under the file's name) the user last
// dragged it to, kept at prefDivider, else defaultDivider.
const (
	prefDivider = "eventlog.divider"
	// defaultDivider gives the tabs 36 % of the height under the file's
	// name: at least 30 % of the window's height in a window of 400 units
	// or more (the name's row takes ~40), room for the Summary's first
	// rows at 1280×800.
	defaultDivider = 0.64
	// minDivider and maxDivider bound a remembered offset, so that
	// neither the timeline nor the tabs start hidden.
	minDivider, maxDivider = 0.15, 0.9
)

// rememberedDivider returns the offset the divider starts at.
func rememberedDivider(s Settings) float64 {
	return min(maxDivider, max(minDivider, s.FloatWithFallback(prefDivider, defaultDivider)))
}

// setDivider moves the divider to offset, for the app (not the user).
func (v *eventlogView) setDivider(offset float64) {
	v.keepDivider()
	v.split.SetOffset(offset)
	v.dividerSet = v.split.Offset
}

// keepDivider remembers where the user dragged the divider, if they did
// since the app last set it, for the views made after.
func (v *eventlogView) keepDivider() {
	if v.split == nil || v.split.Offset == v.dividerSet {
		return
	}
	v.dividerSet = v.split.Offset
	kit.CurrentSettings().SetFloat(prefDivider, v.split.Offset)
}

// addTab adds a tab to the view's tabs while the view is being made. It
// does not refresh them, as AppTabs.Append does: each refresh makes the
// tab bar again, and eleven of them cost a quarter of a second before the
// window could show the loaded log.
func (v *eventlogView) addTab(t *container.TabItem) {
	v.tabs.Items = append(v.tabs.Items, t)
}

// release closes the log's file once the view is gone (off Fyne's loop:
// closing waits for detail being decoded).
func (v *eventlogView) release() {
	v.keepDivider()
	if l := v.log.Log; l != nil {
		go l.Close()
	}
}
