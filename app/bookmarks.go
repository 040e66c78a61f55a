package app

import (
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// bookmarkMark is a USER_MARKER of the log: its time and text.
type bookmarkMark struct {
	time uint64
	text string
}

// bookmark is a named time of a run: a marker of the log or the user's own.
type bookmark struct {
	time   uint64
	name   string
	marker bool // from the log (USER_MARKER); not editable
}

// bookmarkPrefKey returns the preferences key of a file's user bookmarks.
func bookmarkPrefKey(path string) string { return "bookmarks:" + path }

// loadUserBookmarks reads a file's user bookmarks from the preferences,
// stored as "time<TAB>name" strings; malformed entries are skipped.
func loadUserBookmarks(p kit.Settings, path string) []bookmark {
	var out []bookmark
	for _, s := range p.StringList(bookmarkPrefKey(path)) {
		ts, name, ok := strings.Cut(s, "\t")
		t, err := strconv.ParseUint(ts, 10, 64)
		if !ok || err != nil {
			continue
		}
		out = append(out, bookmark{time: t, name: name})
	}
	return out
}

// saveUserBookmarks writes the user's bookmarks among bs to the preferences.
func saveUserBookmarks(p kit.Settings, path string, bs []bookmark) {
	var list []string
	for _, b := range bs {
		if !b.marker {
			list = append(list, strconv.FormatUint(b.time, 10)+"\t"+b.name)
		}
	}
	if len(list) == 0 {
		p.RemoveValue(bookmarkPrefKey(path))
		return
	}
	p.SetStringList(bookmarkPrefKey(path), list)
}

// bookmarkPanel is the Bookmarks tab: the log's markers and the user's
// bookmarks by time; clicking one centres the timeline on it, and the
// user's can be renamed and removed.
type bookmarkPanel struct {
	path  string
	prefs kit.Settings
	nav   timeNav
	marks []bookmark // sorted by time
	// onChange, if set, hears the bookmarks after each change (the canvas
	// draws the user's).
	onChange func([]bookmark)
	list     *kit.KeyList
	root     fyne.CanvasObject
}

// newBookmarkPanel returns the Bookmarks tab of the file at path.
func newBookmarkPanel(path string, markers []bookmarkMark, nav timeNav) *bookmarkPanel {
	b := &bookmarkPanel{path: path, prefs: kit.CurrentSettings(), nav: nav}
	for _, m := range markers {
		b.marks = append(b.marks, bookmark{time: m.time, name: m.text, marker: true})
	}
	b.marks = append(b.marks, loadUserBookmarks(b.prefs, path)...)
	b.sort()
	b.list = kit.NewKeyList(
		func() int { return len(b.marks) },
		func() fyne.CanvasObject {
			// The times, right-aligned in a column as wide as the
			// longest, and the kinds in one as wide as "marker", line
			// up whatever their length.
			tm := widget.NewLabel("000.000000 s")
			tm.TextStyle = fyne.TextStyle{Monospace: true}
			tm.Alignment = fyne.TextAlignTrailing
			kind := widget.NewLabel("marker")
			// A marker's name is a label, so that clicking it jumps; the
			// user's is an entry, to rename it.
			label := widget.NewLabel("")
			label.Truncation = fyne.TextTruncateEllipsis
			name := kit.NewKeyEntry()
			del := widget.NewButton("Remove", nil)
			return container.NewBorder(nil, nil, container.NewHBox(fixedColumn(tm), fixedColumn(kind)), del, container.NewStack(label, name))
		},
		b.updateRow,
	)
	b.list.OnSelected = func(id widget.ListItemID) {
		if id < len(b.marks) {
			b.nav.CentreOn(b.marks[id].time)
		}
		b.list.Unselect(id)
	}
	add := widget.NewButton("Bookmark this time", func() { b.addHere() })
	b.root = container.NewBorder(container.NewHBox(add,
		widget.NewLabel("(the selection's start, or the view's centre; B over the timeline: the time at the pointer)")), nil, nil, nil, b.list)
	return b
}

// fixedColumn holds l in a cell as wide as l is now, whatever text it is
// given later: the cells of a column of list rows line up.
func fixedColumn(l *widget.Label) *fyne.Container {
	return container.NewGridWrap(l.MinSize(), l)
}

func (b *bookmarkPanel) sort() {
	slices.SortStableFunc(b.marks, func(x, y bookmark) int {
		switch {
		case x.time < y.time:
			return -1
		case x.time > y.time:
			return 1
		}
		return 0
	})
}

// updateRow fills row o with bookmark i.
func (b *bookmarkPanel) updateRow(i widget.ListItemID, o fyne.CanvasObject) {
	if i >= len(b.marks) {
		return
	}
	m := b.marks[i]
	c := o.(*fyne.Container)
	for _, obj := range c.Objects {
		switch v := obj.(type) {
		case *fyne.Container:
			entry, isName := v.Objects[1].(*kit.KeyEntry)
			if !isName { // the time and kind
				v.Objects[0].(*fyne.Container).Objects[0].(*widget.Label).SetText(timeline.FormatDuration(m.time))
				kind := "marker"
				if !m.marker {
					kind = "yours"
				}
				v.Objects[1].(*fyne.Container).Objects[0].(*widget.Label).SetText(kind)
				continue
			}
			label := v.Objects[0].(*widget.Label)
			entry.OnChanged = nil
			if m.marker {
				label.SetText(m.name)
				label.Show()
				entry.Hide()
			} else {
				label.Hide()
				entry.SetText(m.name)
				entry.Show()
				t := m.time
				entry.OnChanged = func(s string) { b.rename(t, i, s) }
			}
		case *widget.Button:
			if m.marker {
				v.Hide()
			} else {
				v.Show()
				v.OnTapped = func() { b.remove(i) }
			}
		}
	}
}

// add adds a user bookmark at t named name and saves the user's bookmarks.
func (b *bookmarkPanel) add(t uint64, name string) {
	b.marks = append(b.marks, bookmark{time: t, name: name})
	b.sort()
	b.save()
	b.list.Refresh()
}

// save writes the user's bookmarks to the preferences and tells onChange.
func (b *bookmarkPanel) save() {
	saveUserBookmarks(b.prefs, b.path, b.marks)
	if b.onChange != nil {
		b.onChange(b.marks)
	}
}

// addAtKey is the B key: it bookmarks t, the time under the pointer
// written to step ns as the cursor writes it, if atPointer (the pointer is
// over the timeline), else as addHere does.
func (b *bookmarkPanel) addAtKey(t, step uint64, atPointer bool) {
	if !atPointer {
		b.addHere()
		return
	}
	b.add(t, "Bookmark at "+paint.Time(t, step))
}

// addHere bookmarks the selection's start, or the view's centre.
func (b *bookmarkPanel) addHere() {
	from, to := b.nav.View()
	t := from + (to-from)/2
	if from, _, ok := b.nav.Selection(); ok {
		t = from
	}
	b.add(t, "Bookmark at "+timeline.FormatDuration(t))
}

// rename renames bookmark i (if it is still the user's at time t).
func (b *bookmarkPanel) rename(t uint64, i int, name string) {
	if i < len(b.marks) && !b.marks[i].marker && b.marks[i].time == t {
		b.marks[i].name = name
		b.save()
	}
}

// remove deletes user bookmark i.
func (b *bookmarkPanel) remove(i int) {
	if i < len(b.marks) && !b.marks[i].marker {
		b.marks = slices.Delete(b.marks, i, i+1)
		b.save()
		b.list.Refresh()
	}
}
