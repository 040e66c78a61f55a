package panels

import (
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/tracks"
)

// TimeNav is the time view other panels move and read: the canvas.
type TimeNav interface {
	// View returns the visible time range.
	View() (from, to uint64)
	// Selection returns the selected range, if any.
	Selection() (from, to uint64, ok bool)
	// CentreOn shows a range as wide as the current one centred on t.
	CentreOn(t uint64)
}

// EventList is the Events tab: every event of the log in time order, as
// `ghc-events show` prints them, in a virtual list that formats only the
// rows on screen. Selecting a row centres the timeline on its time; moving
// the timeline scrolls the list to the first event of the view. A search
// bar above it finds events by text, kind, thread and HEC.
type EventList struct {
	x      *eventlog.Events
	header *ingest.Header
	// BlockMarkers is how many of x's events are block markers, which the
	// count says (the Summary tab counts them apart from the events).
	BlockMarkers uint64
	// kinds are the event kinds the header declares (and Unknown), for the
	// search's kind filter.
	kinds []ingest.Kind
	Nav   TimeNav
	list  *kit.KeyList
	text  []byte

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
	Root   fyne.CanvasObject
}

// NewEventList returns the Events tab over x, the events of a log with
// header h of which blockMarkers are block markers, driving nav.
func NewEventList(x *eventlog.Events, h *ingest.Header, blockMarkers uint64, nav TimeNav) *EventList {
	l := &EventList{x: x, header: h, BlockMarkers: blockMarkers, kinds: declaredKinds(h), Nav: nav, selected: -1, window: listWindow}
	l.list = kit.NewKeyList(
		func() int { return min(l.rows()-l.base, l.window) },
		func() fyne.CanvasObject {
			// The columns keep the width of their widest text, so that
			// they line up from row to row.
			tm := widget.NewLabel(timeColumnTemplate)
			tm.Alignment = fyne.TextAlignTrailing
			tm.TextStyle = fyne.TextStyle{Monospace: true}
			hec := widget.NewLabel("cap 000")
			hec.TextStyle = fyne.TextStyle{Monospace: true}
			txt := widget.NewLabel("")
			txt.TextStyle = fyne.TextStyle{Monospace: true}
			txt.Truncation = fyne.TextTruncateEllipsis
			left := container.NewHBox(container.NewGridWrap(tm.MinSize(), tm), container.NewGridWrap(hec.MinSize(), hec))
			return container.NewBorder(nil, nil, left, nil, txt)
		},
		l.updateRow,
	)
	l.list.OnSelected = func(id widget.ListItemID) {
		if l.quiet {
			return
		}
		l.selected = l.base + id
		l.centreOn(l.rowTime(l.selected))
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
	l.Root = container.NewBorder(l.search.bar, bottom, nil, nil, l.list)
	return l
}

// SetEvents shows x, the rows of the same log grown (a live stream's newer
// snapshot), keeping the window and the selection.
func (l *EventList) SetEvents(x *eventlog.Events) {
	if x == l.x {
		return
	}
	l.x = x
	l.showPages()
	l.list.Refresh()
}

// listWindow is how many rows the list widget holds at once.
const listWindow = 1 << 19

// declaredKinds returns the kinds of the event types h declares, and
// Unknown, sorted by name.
func declaredKinds(h *ingest.Header) []ingest.Kind {
	seen := map[ingest.Kind]bool{ingest.KindUnknown: true, ingest.KindBlockMarker: true}
	if h != nil {
		for _, t := range h.Types {
			if k := ingest.Kind(t.ID); k.String() != ingest.KindUnknown.String() {
				seen[k] = true
			}
		}
	}
	kinds := make([]ingest.Kind, 0, len(seen))
	for k := range seen {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, func(a, b ingest.Kind) int { return strings.Compare(a.String(), b.String()) })
	return kinds
}

// rows returns the number of rows.
func (l *EventList) rows() int { return int(l.x.Len()) }

// rowTime returns row i's time (0 if it cannot be read).
func (l *EventList) rowTime(i int) uint64 {
	ev, err := l.x.Get(int64(i))
	if err != nil {
		return 0
	}
	return ev.Time
}

// rowAt returns the first row at or after time t (the number of rows if
// none, or if the file cannot be read).
func (l *EventList) rowAt(t uint64) int {
	i, err := l.x.Search(t)
	if err != nil {
		return l.rows()
	}
	return int(i)
}

// setBase moves the window to start at row b (kept inside the index),
// keeping the selection if it stays in the window.
func (l *EventList) setBase(b int) {
	b = max(0, min(b, l.rows()-l.window))
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
func (l *EventList) showPages() {
	n := l.rows()
	markers := min(l.BlockMarkers, uint64(n))
	count := paint.EventCount(uint64(n)-markers, markers) // as the Summary tab says it
	if n <= l.window {
		l.pages.SetText(count)
		l.earlier.Hide()
		l.later.Hide()
		return
	}
	l.pages.SetText("rows " + paint.Count(int64(l.base+1)) + "–" + paint.Count(int64(min(n, l.base+l.window))) + " of " + count)
	l.earlier.Show()
	l.later.Show()
}

// scrollToRow scrolls to row i of the index, moving the window if needed.
func (l *EventList) scrollToRow(i int) {
	if i < l.base || i >= l.base+l.window {
		l.setBase(i - l.window/2)
	}
	l.list.ScrollTo(i - l.base)
}

// timeColumnTemplate is as wide as the widest time the Events tab writes
// in a run of less than 10,000 s.
const timeColumnTemplate = "0000.000000000 s"

// noCap is what the Events tab writes for the capability of an event of
// none (the RTS's global events, such as its block of events).
const noCap = "—"

// rowTexts returns row i's time, capability and text as shown: the time
// as the timeline's axis writes times, to the ns; "cap N", or noCap for
// an event of no capability.
func (l *EventList) rowTexts(i int) (tm, hec, text string) {
	ev, err := l.x.Get(int64(i))
	if err != nil {
		return "", "", err.Error()
	}
	l.text = appendShownText(l.text[:0], l.header, &ev)
	return paint.Time(ev.Time, 1), capText(ev.Cap), string(l.text)
}

// capText writes a capability: "cap 3", or noCap for none.
func capText(c int32) string {
	if c == ingest.NoCap || c < 0 {
		return noCap
	}
	return "cap " + strconv.Itoa(int(c))
}

// appendShownText appends the text the Events tab shows for ev (h, its
// log's header, may be nil): `ghc-events show`'s, but for a block marker,
// whose capability and end time it writes as the tab's columns do (ghc-events
// writes the global block's capability as 65535, and the time in ns).
func appendShownText(dst []byte, h *ingest.Header, ev *ingest.Event) []byte {
	if ev.Kind != ingest.KindBlockMarker {
		return ingest.AppendEventText(dst, h, ev)
	}
	c := int32(ev.Args[2])
	if ev.Args[2] == 0xFFFF {
		c = ingest.NoCap
	}
	dst = append(dst, "event block: cap "...)
	if c == ingest.NoCap {
		dst = append(dst, noCap...)
	} else {
		dst = strconv.AppendInt(dst, int64(c), 10)
	}
	dst = append(dst, ", end time: "...)
	return append(dst, paint.Time(ev.Args[1], 1)...)
}

// updateRow fills the row object o with row i.
func (l *EventList) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
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
	left.Objects[0].(*fyne.Container).Objects[0].(*widget.Label).SetText(tm)
	left.Objects[1].(*fyne.Container).Objects[0].(*widget.Label).SetText(hec)
	txt.SetText(text)
}

// centreOn moves the timeline so that t is in the middle of the view,
// keeping the zoom.
func (l *EventList) centreOn(t uint64) {
	l.fromList = true
	defer func() { l.fromList = false }()
	l.Nav.CentreOn(t)
}

// ViewChanged scrolls the list to the first event at or after from, unless
// the list moved the view itself.
func (l *EventList) ViewChanged(from, _ uint64) {
	if l.fromList {
		return
	}
	i := l.rowAt(from)
	if i >= l.rows() {
		i = l.rows() - 1
	}
	if i >= 0 {
		l.scrollToRow(i)
	}
}

// Reveal scrolls to the selected row if it is in the timeline's view, else
// to the first event of the view (a list not yet shown cannot scroll, so
// this is done again when its tab is shown).
func (l *EventList) Reveal() {
	from, to := l.Nav.View()
	if l.selected >= 0 && l.selected < l.rows() {
		if t := l.rowTime(l.selected); t >= from && t <= to {
			l.scrollToRow(l.selected)
			return
		}
	}
	l.ViewChanged(from, to)
}

// selectRow selects row i, scrolling to it and centring the timeline on it.
func (l *EventList) selectRow(i int) {
	l.scrollToRow(i)
	l.list.Select(i - l.base)
	if l.selected != i { // Select does not call back for the row already selected
		l.selected = i
		l.centreOn(l.rowTime(i))
	}
}

// showAtLook is how many rows past a time showAt looks through for an
// event of the thread or capability asked for.
const showAtLook = 1 << 16

// ShowAt selects, without moving the timeline, the first event at or after
// t for which match holds (any, if match is nil or none does within
// showAtLook rows), scrolling the list to it, and returns its row (-1 if
// the log has no event at or after t).
func (l *EventList) ShowAt(t uint64, match func(ev *ingest.Event) bool) int {
	i := l.rowAt(t)
	if i >= l.rows() {
		return -1
	}
	if match != nil {
		l.x.Scan(int64(i), true, func(j int64, ev *ingest.Event) bool {
			if int(j)-i >= showAtLook {
				return false
			}
			if match(ev) {
				i = int(j)
				return false
			}
			return true
		})
	}
	l.scrollToRow(i)
	l.quiet = true
	l.list.Select(i - l.base)
	l.quiet = false
	l.selected = i
	return i
}

// TrackEvents returns what tells the events of a track: a thread's, a
// HEC's (nil for the others, which no event field names).
func TrackEvents(id tracks.TrackID) func(ev *ingest.Event) bool {
	switch id.Kind {
	case tracks.KindThread:
		return func(ev *ingest.Event) bool { th, ok := threadOf(ev); return ok && th == id.ID }
	case tracks.KindHEC, tracks.KindHECActivity, tracks.KindSparks:
		return func(ev *ingest.Event) bool { return ev.Cap == int32(id.ID) }
	}
	return nil
}
