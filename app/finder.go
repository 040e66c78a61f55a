package app

import (
	"sort"
	"strconv"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/panels"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// finderShown is the most results the finder lists.
const finderShown = 200

// findItem is one thing the finder jumps to or does.
type findItem struct {
	// kind says what it is: "thread", "label", "marker", "HEC", "command"
	// or "file"; title is what the query is matched against; detail is
	// shown after it.
	kind, title, detail string
	do                  func()
}

// kindRank orders the kinds of equally good matches.
var kindRank = map[string]int{"command": 0, "HEC": 1, "thread": 2, "label": 3, "marker": 4, "file": 5}

// fuzzyScore scores how well query matches text: every rune of the query
// must appear in text in order (case ignored); matches at the start of a
// word and runs of consecutive matches score more, and shorter texts rank
// above longer ones. ok is false if text does not match.
func fuzzyScore(query, text string) (score int, ok bool) {
	q := []rune(strings.ToLower(strings.TrimSpace(query)))
	if len(q) == 0 {
		return 0, true
	}
	t := []rune(strings.ToLower(text))
	qi, last := 0, -2
	for ti, r := range t {
		if qi == len(q) {
			break
		}
		if r != q[qi] {
			continue
		}
		s := 1
		if ti == last+1 {
			s += 4
		}
		if ti == 0 || !unicode.IsLetter(t[ti-1]) && !unicode.IsDigit(t[ti-1]) {
			s += 6
		}
		score += s
		last = ti
		qi++
	}
	if qi < len(q) {
		return 0, false
	}
	lower := string(t)
	switch {
	case lower == string(q):
		score += 40
	case strings.HasPrefix(lower, string(q)):
		score += 20
	case strings.Contains(lower, string(q)):
		score += 10
	}
	return score - len(t)/10, true
}

// findMatches returns the items matching query, best first (all of them,
// in their order, for an empty query), at most limit.
func findMatches(items []findItem, query string, limit int) []findItem {
	type scored struct {
		item  findItem
		score int
		at    int
	}
	var found []scored
	for i, it := range items {
		if s, ok := fuzzyScore(query, it.title); ok {
			found = append(found, scored{it, s, i})
		}
	}
	if strings.TrimSpace(query) != "" {
		sort.SliceStable(found, func(i, j int) bool {
			a, b := found[i], found[j]
			if a.score != b.score {
				return a.score > b.score
			}
			if kindRank[a.item.kind] != kindRank[b.item.kind] {
				return kindRank[a.item.kind] < kindRank[b.item.kind]
			}
			return a.at < b.at
		})
	}
	out := make([]findItem, 0, min(len(found), limit))
	for _, f := range found[:min(len(found), limit)] {
		out = append(out, f.item)
	}
	return out
}

// finderItems returns what the finder offers in the window: the view's
// HECs, threads, user-event labels and markers, the commands, and the
// recent files.
func (w *Window) finderItems() []findItem {
	var items []findItem
	for _, b := range kit.KeyBindings {
		a := b.Action
		items = append(items, findItem{kind: "command", title: b.Help, detail: b.KeysHelp, do: func() { w.viewAction(a) }})
	}
	items = append(items,
		findItem{kind: "command", title: "Open a file…", detail: "Ctrl+O", do: w.chooseFile},
		findItem{kind: "command", title: "Keyboard shortcuts", detail: "Help", do: func() { showShortcuts(w.win) }},
	)
	if w.path != "" {
		items = append(items, findItem{kind: "command", title: "Reload the file", detail: "Ctrl+R", do: w.Reload})
	}
	if w.view != nil && w.view.HasPicture() {
		items = append(items, findItem{kind: "command", title: "Export the view as PNG…", detail: "Ctrl+E", do: func() { w.exportImage(1) }})
	}
	if w.view != nil {
		items = append(items, w.view.finderItems()...)
	}
	for _, p := range w.app.recent.List() {
		items = append(items, findItem{kind: "file", title: p, detail: "open", do: func() { w.openHere(p) }})
	}
	return items
}

// finderItems returns the HECs, threads, labels and markers of the log,
// each jumping to its track on the canvas (marked and pinned until the
// next jump, see trackCanvas.jumpTo) and to its time.
func (v *eventlogView) finderItems() []findItem {
	m := v.log.Model
	if v.canvas == nil || m == nil {
		return nil
	}
	var items []findItem
	for c := range m.HECs {
		if !m.HECs[c].Used() {
			continue
		}
		n := int(m.HECs[c].Cap)
		id := tracks.TrackID{Kind: tracks.KindHEC, ID: uint32(n)}
		items = append(items, findItem{kind: "HEC", title: "HEC " + strconv.Itoa(n), detail: "capability " + strconv.Itoa(n),
			do: func() { v.canvas.JumpTo(id) }})
	}
	// Times to a hundred-thousandth of the run: enough to tell items apart
	// (choosing one goes to its exact time), no digits of noise.
	step := panels.ReadoutStep(m.End / 100)
	for _, th := range m.ThreadRecords() {
		title := "thread " + strconv.FormatUint(uint64(th.ID), 10)
		if th.Label >= 0 {
			title += " " + m.String(th.Label)
		}
		from, _ := threadLife(m, th)
		detail := "from " + paint.Time(from, step)
		if th.Finished > 0 {
			detail += " to " + paint.Time(th.Finished, step)
		}
		id := th.ID
		items = append(items, findItem{kind: "thread", title: title, detail: detail, do: func() { v.revealThread(id) }})
	}
	for _, l := range m.Labels {
		label := l.Label
		items = append(items, findItem{kind: "label", title: m.String(label),
			detail: paint.CountOf(int64(l.Count), "span", "spans") + ", " + paint.Duration(l.Total) + " in all",
			do:     func() { v.revealLabel(label) }})
	}
	for i := 0; i < m.NumMarkers(); i++ {
		mk := m.Marker(i)
		at := mk.Time
		items = append(items, findItem{kind: "marker", title: m.String(int32(mk.Arg)), detail: "marker at " + paint.Time(at, step),
			do: func() { v.revealMarker(at) }})
	}
	return items
}

// threadLife returns the time a thread lived: from its creation (or first
// event) to its end (or the run's).
func threadLife(m *timeline.Model, th *timeline.ThreadRecord) (from, to uint64) {
	from, to = th.Created, th.Finished
	if from == 0 {
		from = th.First
	}
	if to <= from {
		to = m.End
	}
	return from, to
}

// showAround shows [from, to) with a margin each side.
func (v *eventlogView) showAround(from, to uint64) {
	to = max(to, from+1)
	margin := uint64(float64(to-from) * trackcanvas.SpanZoomMargin)
	v.canvas.ShowRange(from-min(margin, from), to+margin)
}

// revealThread shows thread id's track over its lifetime.
func (v *eventlogView) revealThread(id uint32) {
	m := v.log.Model
	th := m.ThreadByID(id)
	if th == nil {
		return
	}
	v.showAround(threadLife(m, &th.ThreadRecord))
	v.canvas.JumpTo(tracks.TrackID{Kind: tracks.KindThread, ID: id})
}

// revealLabel shows the first span of label, and the track it is in
// (its label's or its thread's).
func (v *eventlogView) revealLabel(label int32) {
	m := v.log.Model
	for i := 0; i < m.NumUserSpans(); i++ {
		if s := m.UserSpan(i); s.Label == label {
			var id tracks.TrackID
			v.canvas.With(func(tv *tracks.View) { id = tv.SpanTrack(s) })
			v.canvas.JumpTo(id)
			v.showAround(s.Start, s.End)
			return
		}
	}
}

// revealMarker centres the view on a marker and shows the markers' track.
func (v *eventlogView) revealMarker(at uint64) {
	v.canvas.JumpTo(tracks.TrackID{Kind: tracks.KindMarkers})
	v.canvas.CentreOn(at)
}

// finder is the Ctrl+P / Ctrl+K pop-up: a query and the best matches.
type finder struct {
	items    []findItem
	shown    []findItem
	selected int
	entry    *finderEntry
	list     *widget.List
	popup    *widget.PopUp
}

// showFinder opens the finder over the window.
func (w *Window) showFinder() {
	f := &finder{items: w.finderItems()}
	f.entry = newFinderEntry(f)
	f.entry.SetPlaceHolder("Go to a thread, label, marker, HEC or command")
	f.entry.OnChanged = f.filter
	f.entry.OnSubmitted = func(string) { f.run(f.selected) }
	f.list = widget.NewList(
		func() int { return len(f.shown) },
		func() fyne.CanvasObject {
			kind := widget.NewLabelWithStyle("command", fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
			title := widget.NewLabel("")
			title.Truncation = fyne.TextTruncateEllipsis
			detail := widget.NewLabel("")
			detail.Importance = widget.LowImportance
			return container.NewBorder(nil, nil, kind, detail, title)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(f.shown) {
				return
			}
			it := f.shown[i]
			c := o.(*fyne.Container)
			c.Objects[0].(*widget.Label).SetText(it.title)
			c.Objects[1].(*widget.Label).SetText(it.kind)
			c.Objects[2].(*widget.Label).SetText(it.detail)
		})
	f.list.OnSelected = func(i widget.ListItemID) { f.run(i) }
	box := container.NewBorder(f.entry, nil, nil, nil, f.list)
	c := w.win.Canvas()
	f.popup = widget.NewModalPopUp(box, c)
	size := c.Size()
	f.popup.Resize(fyne.NewSize(min(720, size.Width*0.9), min(480, size.Height*0.8)))
	f.filter("")
	f.popup.Show()
	c.Focus(f.entry)
}

// filter lists the items matching query, the best selected.
func (f *finder) filter(query string) {
	f.shown = findMatches(f.items, query, finderShown)
	f.selected = 0
	f.list.UnselectAll()
	f.list.Refresh()
	f.list.ScrollToTop()
	if len(f.shown) > 0 {
		f.highlight()
	}
}

// move moves the selection by delta rows.
func (f *finder) move(delta int) {
	if len(f.shown) == 0 {
		return
	}
	f.selected = min(max(f.selected+delta, 0), len(f.shown)-1)
	f.list.ScrollTo(f.selected)
	f.highlight()
}

// highlight shows which row Enter runs without running it.
func (f *finder) highlight() {
	on := f.list.OnSelected
	f.list.OnSelected = nil
	f.list.Select(f.selected)
	f.list.OnSelected = on
}

// run closes the finder and does item i.
func (f *finder) run(i int) {
	f.popup.Hide()
	if i >= 0 && i < len(f.shown) {
		f.shown[i].do()
	}
}

// finderEntry is the finder's query field: Up and Down move through the
// matches and Esc closes the finder.
type finderEntry struct {
	widget.Entry
	f *finder
}

func newFinderEntry(f *finder) *finderEntry {
	e := &finderEntry{f: f}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey moves through the matches with Up and Down, closes with Esc.
func (e *finderEntry) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyUp:
		e.f.move(-1)
	case fyne.KeyDown:
		e.f.move(1)
	case fyne.KeyEscape:
		e.f.popup.Hide()
	default:
		e.Entry.TypedKey(ev)
	}
}
