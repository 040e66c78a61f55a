package panels

import (
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// Bookmark is a named time of a run: a marker of the log or the user's own.
type Bookmark struct {
	Time   uint64
	Name   string
	Marker bool // from the log (USER_MARKER); not editable
}

// bookmarkPrefKey returns the preferences key of a file's user bookmarks.
func bookmarkPrefKey(path string) string { return "bookmarks:" + path }

// loadUserBookmarks reads a file's user bookmarks from the preferences,
// stored as "time<TAB>name" strings; malformed entries are skipped.
func loadUserBookmarks(p kit.Settings, path string) []Bookmark {
	var out []Bookmark
	for _, s := range p.StringList(bookmarkPrefKey(path)) {
		ts, name, ok := strings.Cut(s, "\t")
		t, err := strconv.ParseUint(ts, 10, 64)
		if !ok || err != nil {
			continue
		}
		out = append(out, Bookmark{Time: t, Name: name})
	}
	return out
}

// saveUserBookmarks writes the user's bookmarks among bs to the preferences.
func saveUserBookmarks(p kit.Settings, path string, bs []Bookmark) {
	var list []string
	for _, b := range bs {
		if !b.Marker {
			list = append(list, strconv.FormatUint(b.Time, 10)+"\t"+b.Name)
		}
	}
	if len(list) == 0 {
		p.RemoveValue(bookmarkPrefKey(path))
		return
	}
	p.SetStringList(bookmarkPrefKey(path), list)
}

// BookmarkPanel is the Bookmarks tab: the log's markers and the user's
// bookmarks by time; clicking one centres the timeline on it, and the
// user's can be renamed and removed.
type BookmarkPanel struct {
	path  string
	prefs kit.Settings
	nav   TimeNav
	Marks []Bookmark // sorted by time
	// OnChange, if set, hears the bookmarks after each change (the canvas
	// draws the user's).
	OnChange func([]Bookmark)
	list     *kit.KeyList
	Root     fyne.CanvasObject
}

// NewBookmarkPanel returns the Bookmarks tab of the file at path.
func NewBookmarkPanel(path string, markers []loaded.BookmarkMark, nav TimeNav) *BookmarkPanel {
	b := &BookmarkPanel{path: path, prefs: kit.CurrentSettings(), nav: nav}
	for _, m := range markers {
		b.Marks = append(b.Marks, Bookmark{Time: m.Time, Name: m.Text, Marker: true})
	}
	b.Marks = append(b.Marks, loadUserBookmarks(b.prefs, path)...)
	b.sort()
	b.list = kit.NewKeyList(
		func() int { return len(b.Marks) },
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
		if id < len(b.Marks) {
			b.nav.CentreOn(b.Marks[id].Time)
		}
		b.list.Unselect(id)
	}
	add := widget.NewButton("Bookmark this time", func() { b.addHere() })
	b.Root = container.NewBorder(container.NewHBox(add,
		widget.NewLabel("(the selection's start, or the view's centre; B over the timeline: the time at the pointer)")), nil, nil, nil, b.list)
	return b
}

// fixedColumn holds l in a cell as wide as l is now, whatever text it is
// given later: the cells of a column of list rows line up.
func fixedColumn(l *widget.Label) *fyne.Container {
	return container.NewGridWrap(l.MinSize(), l)
}

func (b *BookmarkPanel) sort() {
	slices.SortStableFunc(b.Marks, func(x, y Bookmark) int {
		switch {
		case x.Time < y.Time:
			return -1
		case x.Time > y.Time:
			return 1
		}
		return 0
	})
}

// updateRow fills row o with bookmark i.
func (b *BookmarkPanel) updateRow(i widget.ListItemID, o fyne.CanvasObject) {
	if i >= len(b.Marks) {
		return
	}
	m := b.Marks[i]
	c := o.(*fyne.Container)
	for _, obj := range c.Objects {
		switch v := obj.(type) {
		case *fyne.Container:
			entry, isName := v.Objects[1].(*kit.KeyEntry)
			if !isName { // the time and kind
				v.Objects[0].(*fyne.Container).Objects[0].(*widget.Label).SetText(timeline.FormatDuration(m.Time))
				kind := "marker"
				if !m.Marker {
					kind = "yours"
				}
				v.Objects[1].(*fyne.Container).Objects[0].(*widget.Label).SetText(kind)
				continue
			}
			label := v.Objects[0].(*widget.Label)
			entry.OnChanged = nil
			if m.Marker {
				label.SetText(m.Name)
				label.Show()
				entry.Hide()
			} else {
				label.Hide()
				entry.SetText(m.Name)
				entry.Show()
				t := m.Time
				entry.OnChanged = func(s string) { b.rename(t, i, s) }
			}
		case *widget.Button:
			if m.Marker {
				v.Hide()
			} else {
				v.Show()
				v.OnTapped = func() { b.remove(i) }
			}
		}
	}
}

// Add adds a user bookmark at t named name and saves the user's bookmarks.
func (b *BookmarkPanel) Add(t uint64, name string) {
	b.Marks = append(b.Marks, Bookmark{Time: t, Name: name})
	b.sort()
	b.save()
	b.list.Refresh()
}

// save writes the user's bookmarks to the preferences and tells onChange.
func (b *BookmarkPanel) save() {
	saveUserBookmarks(b.prefs, b.path, b.Marks)
	if b.OnChange != nil {
		b.OnChange(b.Marks)
	}
}

// AddAtKey is the B key: it bookmarks t, the time under the pointer
// written to step ns as the cursor writes it, if atPointer (the pointer is
// over the timeline), else as addHere does.
func (b *BookmarkPanel) AddAtKey(t, step uint64, atPointer bool) {
	if !atPointer {
		b.addHere()
		return
	}
	b.Add(t, "Bookmark at "+paint.Time(t, step))
}

// addHere bookmarks the selection's start, or the view's centre.
func (b *BookmarkPanel) addHere() {
	from, to := b.nav.View()
	t := from + (to-from)/2
	if from, _, ok := b.nav.Selection(); ok {
		t = from
	}
	b.Add(t, "Bookmark at "+timeline.FormatDuration(t))
}

// rename renames bookmark i (if it is still the user's at time t).
func (b *BookmarkPanel) rename(t uint64, i int, name string) {
	if i < len(b.Marks) && !b.Marks[i].Marker && b.Marks[i].Time == t {
		b.Marks[i].Name = name
		b.save()
	}
}

// remove deletes user bookmark i.
func (b *BookmarkPanel) remove(i int) {
	if i < len(b.Marks) && !b.Marks[i].Marker {
		b.Marks = slices.Delete(b.Marks, i, i+1)
		b.save()
		b.list.Refresh()
	}
}
