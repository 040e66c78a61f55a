package app

import (
	"fmt"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/ingest"
)

// eventList is the Events tab: every event of the log in time order, as
// `ghc-events show` prints them, in a virtual list that formats only the
// rows on screen. Selecting a row centres the timeline on its time; moving
// the timeline scrolls the list to the first event of the view. A search
// bar above it finds events by text, kind, thread and HEC.
type eventList struct {
	x    *eventIndex
	nav  timeNav
	list *keyList
	dec  *eventRowDecoder // rows shown, on the UI goroutine only
	ev   ingest.Event
	text []byte

	// The list widget shows rows [base, base+window) of the index: Fyne
	// scrolls by float32 offsets, which past ~10⁷ units can no longer
	// address single rows, so a window of half a million rows moves along
	// the index instead. pages says which rows it shows, and earlier and
	// later move it by half a window.
	base, window   int
	pages          *widget.Label
	earlier, later *widget.Button

	// selected is the selected row (of the index), -1 if none; fromList is
	// set while the list itself moves the timeline, so that the list does
	// not follow, and quiet while the window moves, so that the widget's
	// (un)selection is not taken for the user's.
	selected        int
	fromList, quiet bool

	search *eventSearch
	root   fyne.CanvasObject
}

// newEventList returns the Events tab over x, driving nav.
func newEventList(x *eventIndex, nav timeNav) *eventList {
	l := &eventList{x: x, nav: nav, dec: x.newRowDecoder(), selected: -1, window: listWindow}
	l.list = newKeyList(
		func() int { return min(x.Len()-l.base, l.window) },
		func() fyne.CanvasObject {
			tm := widget.NewLabel("00000000000")
			tm.Alignment = fyne.TextAlignTrailing
			tm.TextStyle = fyne.TextStyle{Monospace: true}
			hec := widget.NewLabel("cap 00")
			hec.TextStyle = fyne.TextStyle{Monospace: true}
			txt := widget.NewLabel("")
			txt.TextStyle = fyne.TextStyle{Monospace: true}
			txt.Truncation = fyne.TextTruncateEllipsis
			return container.NewBorder(nil, nil, container.NewHBox(tm, hec), nil, txt)
		},
		l.updateRow,
	)
	l.list.OnSelected = func(id widget.ListItemID) {
		if l.quiet {
			return
		}
		l.selected = l.base + id
		l.centreOn(x.Time(l.selected))
	}
	l.list.OnUnselected = func(id widget.ListItemID) {
		if !l.quiet && l.selected == l.base+id {
			l.selected = -1
		}
	}
	l.search = newEventSearch(l)
	l.pages = widget.NewLabel("")
	l.earlier = widget.NewButton("Earlier rows", func() { l.setBase(l.base - l.window/2) })
	l.later = widget.NewButton("Later rows", func() { l.setBase(l.base + l.window/2) })
	l.showPages()
	bottom := container.NewHBox(l.earlier, l.later, l.pages, l.search.status)
	l.root = container.NewBorder(l.search.bar, bottom, nil, nil, l.list)
	return l
}

// listWindow is how many rows the list widget holds at once.
const listWindow = 1 << 19

// setBase moves the window to start at row b (kept inside the index),
// keeping the selection if it stays in the window.
func (l *eventList) setBase(b int) {
	b = max(0, min(b, l.x.Len()-l.window))
	if b == l.base {
		return
	}
	l.quiet = true
	defer func() { l.quiet = false }()
	l.list.UnselectAll()
	l.base = b
	l.list.Refresh()
	if l.selected >= b && l.selected < b+l.window {
		l.list.Select(l.selected - b)
	}
	l.showPages()
}

// showPages says which rows the window holds.
func (l *eventList) showPages() {
	n := l.x.Len()
	if n <= l.window {
		l.pages.SetText(fmt.Sprintf("%d events", n))
		l.earlier.Hide()
		l.later.Hide()
		return
	}
	l.pages.SetText(fmt.Sprintf("rows %d–%d of %d events", l.base+1, min(n, l.base+l.window), n))
	l.earlier.Show()
	l.later.Show()
}

// scrollToRow scrolls to row i of the index, moving the window if needed.
func (l *eventList) scrollToRow(i int) {
	if i < l.base || i >= l.base+l.window {
		l.setBase(i - l.window/2)
	}
	l.list.ScrollTo(i - l.base)
}

// rowTexts returns row i's time, capability and text as shown.
func (l *eventList) rowTexts(i int) (tm, hec, text string) {
	if err := l.dec.event(i, &l.ev); err != nil {
		return "", "", err.Error()
	}
	l.text = ingest.AppendEventText(l.text[:0], l.x.header, &l.ev)
	hec = ""
	if l.ev.Cap != ingest.NoCap {
		hec = "cap " + strconv.Itoa(int(l.ev.Cap))
	}
	return strconv.FormatUint(l.ev.Time, 10), hec, string(l.text)
}

// updateRow fills the row object o with row i.
func (l *eventList) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	i := l.base + id
	c := o.(*fyne.Container)
	var txt *widget.Label
	var left *fyne.Container
	for _, obj := range c.Objects {
		switch v := obj.(type) {
		case *widget.Label:
			txt = v
		case *fyne.Container:
			left = v
		}
	}
	tm, hec, text := l.rowTexts(i)
	left.Objects[0].(*widget.Label).SetText(tm)
	left.Objects[1].(*widget.Label).SetText(hec)
	txt.SetText(text)
}

// centreOn moves the timeline so that t is in the middle of the view,
// keeping the zoom.
func (l *eventList) centreOn(t uint64) {
	l.fromList = true
	defer func() { l.fromList = false }()
	l.nav.centreOn(t)
}

// viewChanged scrolls the list to the first event at or after from, unless
// the list moved the view itself.
func (l *eventList) viewChanged(from, _ uint64) {
	if l.fromList {
		return
	}
	i := l.x.Search(from)
	if i >= l.x.Len() {
		i = l.x.Len() - 1
	}
	if i >= 0 {
		l.scrollToRow(i)
	}
}

// reveal scrolls to the selected row if it is in the timeline's view, else
// to the first event of the view (a list not yet shown cannot scroll, so
// this is done again when its tab is shown).
func (l *eventList) reveal() {
	from, to := l.nav.View()
	if l.selected >= 0 && l.selected < l.x.Len() {
		if t := l.x.Time(l.selected); t >= from && t <= to {
			l.scrollToRow(l.selected)
			return
		}
	}
	l.viewChanged(from, to)
}

// selectRow selects row i, scrolling to it and centring the timeline on it.
func (l *eventList) selectRow(i int) {
	l.scrollToRow(i)
	l.list.Select(i - l.base)
	if l.selected != i { // Select does not call back for the row already selected
		l.selected = i
		l.centreOn(l.x.Time(i))
	}
}

// addEventPanels adds the Events and Bookmarks tabs to v, and makes the
// list follow the timeline.
func (v *eventlogView) addEventPanels() {
	ev := v.log
	if ev.index == nil {
		msg := "The event list is not available."
		if ev.indexErr != nil {
			msg = fmt.Sprintf("The event list is not available: %v", ev.indexErr)
		}
		v.tabs.Append(container.NewTabItem("Events", widget.NewLabel(msg)))
		return
	}
	v.events = newEventList(ev.index, v.canvas)
	prev := v.canvas.onView
	v.canvas.onView = func(from, to uint64) {
		if prev != nil {
			prev(from, to)
		}
		v.events.viewChanged(from, to)
	}
	eventsTab := container.NewTabItem("Events", container.NewScroll(v.events.root))
	v.tabs.Append(eventsTab)
	prevTab := v.tabs.OnSelected
	v.tabs.OnSelected = func(ti *container.TabItem) {
		if prevTab != nil {
			prevTab(ti)
		}
		if ti == eventsTab {
			v.events.reveal()
		}
	}
	v.bookmarks = newBookmarkPanel(ev.Path, ev.index.markers, v.canvas)
	v.bookmarks.onChange = func(bs []bookmark) { v.canvas.setBookmarks(userBookmarks(bs)) }
	v.bookmarks.onChange(v.bookmarks.marks)
	v.canvas.onBookmark = v.bookmarks.addHere
	v.tabs.Append(container.NewTabItem("Bookmarks", container.NewScroll(v.bookmarks.root)))
}
