package app

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/library"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/app/panels"
	"github.com/hecscope/hecscope/timeline"
)

// sharedLibrary is one library directory and the windows that show it.
type sharedLibrary struct {
	lib   *library.Library
	views []*LibraryWindow
}

// libraries holds the open libraries by root: a directory is opened once
// per process (library.Library values must not share one).
var (
	librariesMu sync.Mutex
	libraries   = map[string]*sharedLibrary{}
)

// libraryRoot returns where the app keeps saved profiles,
// library.DefaultRoot ($XDG_DATA_HOME/hecscope/library), after moving there
// the profiles older versions kept in the app's Fyne storage directory
// (LegacyDir).
func (a *App) libraryRoot() (string, error) {
	root, err := library.DefaultRoot()
	if err != nil {
		return "", err
	}
	if dir := LegacyDir(); dir != "" {
		if old := filepath.Join(dir, "library"); old != root {
			if _, err := library.MoveEntries(old, root); err != nil {
				return "", err
			}
		}
	}
	return root, nil
}

// openLibrary returns the app's library, opening it on first use.
func (a *App) openLibrary() (*sharedLibrary, error) {
	root, err := a.libraryRoot()
	if err != nil {
		return nil, err
	}
	librariesMu.Lock()
	defer librariesMu.Unlock()
	if sl, ok := libraries[root]; ok {
		return sl, nil
	}
	lib, err := library.Open(root)
	if err != nil {
		return nil, err
	}
	sl := &sharedLibrary{lib: lib}
	libraries[root] = sl
	return sl, nil
}

// changed refreshes every window showing the library (on Fyne's loop).
func (sl *sharedLibrary) changed() {
	librariesMu.Lock()
	views := append([]*LibraryWindow(nil), sl.views...)
	librariesMu.Unlock()
	for _, v := range views {
		v.refresh()
	}
}

// LibraryWindow lists the saved profiles: search, rename, tag, annotate,
// delete, open one, or compare two.
type LibraryWindow struct {
	app *App
	sl  *sharedLibrary
	win fyne.Window

	search  *widget.Entry
	list    *widget.List
	entries []library.Entry
	// selected is the ID of the selected entry, "" for none.
	selected string

	name, tags, note *widget.Entry
	info             *widget.Label
	detail           *fyne.Container
	pickA, pickB     *widget.Select
	status           *widget.Label
}

// Fyne returns the underlying Fyne window.
func (v *LibraryWindow) Fyne() fyne.Window { return v.win }

// ShowLibrary opens the window of saved profiles.
func (a *App) ShowLibrary() (*LibraryWindow, error) {
	sl, err := a.openLibrary()
	if err != nil {
		return nil, err
	}
	v := &LibraryWindow{app: a, sl: sl, win: a.fa.NewWindow("Saved profiles — " + Name)}
	v.win.SetIcon(Icon)
	v.win.Resize(fyne.NewSize(980, 640))
	v.build()
	librariesMu.Lock()
	sl.views = append(sl.views, v)
	librariesMu.Unlock()
	v.win.SetOnClosed(func() {
		librariesMu.Lock()
		defer librariesMu.Unlock()
		for i, o := range sl.views {
			if o == v {
				sl.views = append(sl.views[:i], sl.views[i+1:]...)
				break
			}
		}
	})
	v.refresh()
	v.win.Show()
	return v, nil
}

// build makes the window's widgets.
func (v *LibraryWindow) build() {
	v.search = widget.NewEntry()
	v.search.SetPlaceHolder("Search names, tags, notes, programs (tag:x for a tag)")
	v.search.OnChanged = func(string) { v.refresh() }
	v.list = widget.NewList(
		func() int { return len(v.entries) },
		func() fyne.CanvasObject {
			title := widget.NewLabelWithStyle("name", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			title.Truncation = fyne.TextTruncateEllipsis
			sub := widget.NewLabel("details")
			sub.Truncation = fyne.TextTruncateEllipsis
			return container.NewVBox(title, sub)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(v.entries) {
				return
			}
			e := &v.entries[i]
			box := o.(*fyne.Container)
			box.Objects[0].(*widget.Label).SetText(entryTitle(e))
			box.Objects[1].(*widget.Label).SetText(entrySubtitle(e))
		})
	v.list.OnSelected = func(i widget.ListItemID) {
		if i < len(v.entries) {
			v.selected = v.entries[i].ID
			v.showDetail()
		}
	}
	v.name = widget.NewEntry()
	v.tags = widget.NewEntry()
	v.tags.SetPlaceHolder("comma-separated")
	v.note = widget.NewMultiLineEntry()
	v.note.Wrapping = fyne.TextWrapWord
	v.note.SetMinRowsVisible(4)
	v.info = widget.NewLabel("")
	v.info.Wrapping = fyne.TextWrapWord
	v.info.Selectable = true
	form := widget.NewForm(
		widget.NewFormItem("Name", v.name),
		widget.NewFormItem("Tags", v.tags),
		widget.NewFormItem("Note", v.note),
	)
	saveButton := widget.NewButtonWithIcon("Save changes", theme.DocumentSaveIcon(), v.saveEdits)
	openButton := widget.NewButtonWithIcon("Open", theme.FolderOpenIcon(), v.openSelected)
	deleteButton := widget.NewButtonWithIcon("Delete…", theme.DeleteIcon(), v.confirmDelete)
	deleteButton.Importance = widget.DangerImportance
	v.detail = container.NewVBox(form, container.NewHBox(saveButton, openButton, deleteButton), widget.NewSeparator(), v.info)
	v.detail.Hide()

	v.pickA = widget.NewSelect(nil, nil)
	v.pickA.PlaceHolder = "run A (baseline)"
	v.pickB = widget.NewSelect(nil, nil)
	v.pickB.PlaceHolder = "run B"
	compareButton := widget.NewButtonWithIcon("Compare", theme.ViewFullScreenIcon(), v.compare)
	compareButton.Importance = widget.HighImportance
	v.status = widget.NewLabel("")
	v.status.Truncation = fyne.TextTruncateEllipsis
	compareBar := container.NewBorder(nil, nil, widget.NewLabel("Compare"), compareButton,
		container.NewGridWithColumns(2, v.pickA, v.pickB))
	split := container.NewHSplit(v.list, container.NewVScroll(v.detail))
	split.Offset = 0.45
	v.win.SetContent(container.NewBorder(v.search, container.NewVBox(compareBar, v.status), nil, nil, split))
}

// entryTitle is an entry's name and tags.
func entryTitle(e *library.Entry) string {
	if len(e.Tags) == 0 {
		return e.Name
	}
	return e.Name + "   [" + strings.Join(e.Tags, ", ") + "]"
}

// entrySubtitle is what an entry's run was and how it went.
func entrySubtitle(e *library.Entry) string {
	f := &e.Figures
	parts := []string{e.Saved.Local().Format("2006-01-02 15:04")}
	if e.Program != "" {
		parts = append(parts, filepath.Base(e.Program))
	}
	if e.Segment != "" {
		parts = append(parts, e.Segment+" of "+filepath.Base(e.Source))
	}
	parts = append(parts, timeline.FormatDuration(f.TotalNS), fmt.Sprintf("%d HEC", f.Capabilities))
	if f.HasHeap {
		parts = append(parts, "ThreadScope's productivity "+panels.Percent(f.Productivity))
	}
	parts = append(parts, kit.FormatBytes(e.Size))
	return strings.Join(parts, " · ")
}

// pickLabel is how an entry is offered in the compare pickers: unique even
// when names repeat.
func pickLabel(e *library.Entry) string {
	return e.Name + " (" + e.Saved.Local().Format("2006-01-02 15:04:05") + ", " + e.ID[len(e.ID)-8:] + ")"
}

// refresh lists the entries that match the search again.
func (v *LibraryWindow) refresh() {
	entries, err := v.sl.lib.Search(v.search.Text)
	if err != nil {
		v.status.SetText(err.Error())
		return
	}
	v.entries = entries
	v.list.UnselectAll()
	v.list.Refresh()
	found := false
	for i := range entries {
		if entries[i].ID == v.selected {
			v.list.Select(i)
			found = true
		}
	}
	if !found {
		v.selected = ""
		v.detail.Hide()
	}
	// The pickers offer every entry, whatever the search.
	all, err := v.sl.lib.List()
	if err != nil {
		v.status.SetText(err.Error())
		return
	}
	var labels []string
	for i := range all {
		labels = append(labels, pickLabel(&all[i]))
	}
	for _, p := range []*widget.Select{v.pickA, v.pickB} {
		keep := p.Selected
		p.Options = labels
		p.ClearSelected()
		for _, l := range labels {
			if l == keep {
				p.SetSelected(l)
			}
		}
		p.Refresh()
	}
	if v.search.Text == "" {
		v.status.SetText(fmt.Sprintf("%d saved profiles in %s", len(entries), v.sl.lib.Root()))
	} else {
		v.status.SetText(fmt.Sprintf("%d of %d saved profiles match", len(entries), len(all)))
	}
}

// current returns the selected entry.
func (v *LibraryWindow) current() (library.Entry, bool) {
	for _, e := range v.entries {
		if e.ID == v.selected {
			return e, true
		}
	}
	return library.Entry{}, false
}

// showDetail fills the editor with the selected entry.
func (v *LibraryWindow) showDetail() {
	e, ok := v.current()
	if !ok {
		v.detail.Hide()
		return
	}
	v.name.SetText(e.Name)
	v.tags.SetText(strings.Join(e.Tags, ", "))
	v.note.SetText(e.Note)
	f := &e.Figures
	var b strings.Builder
	fmt.Fprintf(&b, "Program: %s %s\nRTS: %s\n", e.Program, strings.Join(e.Args, " "), e.RTS)
	if !e.Started.IsZero() {
		fmt.Fprintf(&b, "Run started: %s\n", e.Started.Local().Format("2006-01-02 15:04:05"))
	}
	fmt.Fprintf(&b, "Saved: %s from %s\nSize: %s (%s)\n", e.Saved.Local().Format("2006-01-02 15:04:05"), e.Source, kit.FormatBytes(e.Size), f.Status)
	fmt.Fprintf(&b, "Wall time %s · %d HECs · %d threads\n", timeline.FormatDuration(f.TotalNS), f.Capabilities, f.Threads)
	if f.HasHeap {
		fmt.Fprintf(&b, "ThreadScope's mutator %s · GC %s · productivity %s\nThreadScope's count: %d collections, max pause %s\nAllocated %s · max heap %s · max live %s\n",
			timeline.FormatDuration(f.MutatorNS), timeline.FormatDuration(f.GCNS), panels.Percent(f.Productivity),
			f.Collections, timeline.FormatDuration(f.MaxPauseNS),
			kit.FormatBytes(int64(min(f.Allocated, 1<<62))), kit.FormatBytes(int64(min(f.MaxHeapSize, 1<<62))), maxLiveText(f))
	}
	if f.SparksCreated > 0 {
		fmt.Fprintf(&b, "Sparks: %d created, %d converted, %d fizzled\n", f.SparksCreated, f.SparksConvert, f.SparksFizzled)
	}
	v.info.SetText(b.String())
	v.detail.Show()
}

// maxLiveText is an entry's max live, "—" if its log had no HeapLive
// events.
func maxLiveText(f *library.Figures) string {
	if f.NoLive {
		return "— (no HeapLive events)"
	}
	return kit.FormatBytes(int64(min(f.MaxLive, 1<<62)))
}

// saveEdits writes the edited name, tags and note of the selected entry.
func (v *LibraryWindow) saveEdits() {
	e, ok := v.current()
	if !ok {
		return
	}
	var err error
	if v.name.Text != e.Name {
		_, err = v.sl.lib.Rename(e.ID, v.name.Text)
	}
	if err == nil {
		_, err = v.sl.lib.SetTags(e.ID, strings.Split(v.tags.Text, ","))
	}
	if err == nil && v.note.Text != e.Note {
		_, err = v.sl.lib.SetNote(e.ID, v.note.Text)
	}
	if err != nil {
		dialog.ShowError(err, v.win)
	}
	v.sl.changed()
}

// openSelected opens the selected entry's saved eventlog in a new window.
func (v *LibraryWindow) openSelected() {
	if e, ok := v.current(); ok {
		v.app.Open(v.sl.lib.EventlogPath(e.ID))
	}
}

// confirmDelete asks, then deletes the selected entry.
func (v *LibraryWindow) confirmDelete() {
	e, ok := v.current()
	if !ok {
		return
	}
	dialog.ShowConfirm("Delete saved profile", fmt.Sprintf("Delete %q and its copy of the eventlog (%s)?", e.Name, kit.FormatBytes(e.Size)),
		func(yes bool) {
			if !yes {
				return
			}
			if err := v.sl.lib.Delete(e.ID); err != nil {
				dialog.ShowError(err, v.win)
			}
			v.sl.changed()
		}, v.win)
}

// compare opens a compare window on the two picked entries.
func (v *LibraryWindow) compare() {
	all, err := v.sl.lib.List()
	if err != nil {
		dialog.ShowError(err, v.win)
		return
	}
	find := func(label string) (library.Entry, bool) {
		for _, e := range all {
			if pickLabel(&e) == label {
				return e, true
			}
		}
		return library.Entry{}, false
	}
	a, okA := find(v.pickA.Selected)
	b, okB := find(v.pickB.Selected)
	if !okA || !okB {
		dialog.ShowInformation("Compare", "Pick two saved profiles, A (the baseline) and B.", v.win)
		return
	}
	v.app.OpenCompare(v.sl.lib.EventlogPath(a.ID), a.Name, v.sl.lib.EventlogPath(b.ID), b.Name)
}

// saveToLibrary asks for a name, tags and a note and saves the window's
// eventlog to the library.
func (w *Window) saveToLibrary() {
	path := w.path
	if rec, live := w.recording(); live {
		// A live window saves its current stream's recording: during the
		// run, what has been recorded so far.
		path = rec
		if path == "" {
			dialog.ShowInformation("Save to library", "There is no recording to save yet (or the stream is not recorded to a file).", w.win)
			return
		}
	}
	if path == "" {
		return
	}
	seg := w.librarySegment(path)
	title := "Save to library"
	if seg.Segment != "" {
		title = "Save " + seg.Segment + " to library"
	}
	name := widget.NewEntry()
	name.SetText(seg.Name)
	tags := widget.NewEntry()
	tags.SetPlaceHolder("comma-separated")
	note := widget.NewMultiLineEntry()
	note.SetMinRowsVisible(3)
	items := []*widget.FormItem{
		widget.NewFormItem("Name", name), widget.NewFormItem("Tags", tags), widget.NewFormItem("Note", note),
	}
	d := dialog.NewForm(title, "Save", "Cancel", items, func(ok bool) {
		if ok {
			opt := seg
			opt.Name, opt.Tags, opt.Note = name.Text, strings.Split(tags.Text, ","), note.Text
			w.saveToLibraryAs(path, opt, nil)
		}
	}, w.win)
	d.Resize(fyne.NewSize(520, 320))
	d.Show()
}

// librarySegment returns what saving the window's file (path) to the
// library starts from: its default name and, for one eventlog of a file
// holding several, which bytes to save (that one's alone) and which it is.
func (w *Window) librarySegment(path string) library.SaveOptions {
	opt := library.SaveOptions{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))}
	if ev := w.eventlog(); ev != nil && len(ev.Segments) > 1 {
		g := ev.Segments[ev.Segment]
		opt.Offset, opt.Length = g.Offset, g.End-g.Offset
		opt.Segment = loaded.SegmentName(ev.Segment, len(ev.Segments))
		opt.Name += " (" + opt.Segment + ")"
	}
	return opt
}

// saveToLibraryAs copies path into the library off Fyne's loop and
// refreshes the library windows; done (if set, for tests) gets the result
// on Fyne's loop.
func (w *Window) saveToLibraryAs(path string, opt library.SaveOptions, done func(library.Entry, error)) {
	sl, err := w.app.openLibrary()
	if err != nil {
		dialog.ShowError(err, w.win)
		if done != nil {
			done(library.Entry{}, err)
		}
		return
	}
	go func() {
		e, err := sl.lib.Save(path, opt)
		kit.OnUI(func() {
			if err != nil {
				dialog.ShowError(err, w.win)
			} else {
				dialog.ShowInformation("Saved to library", fmt.Sprintf("Saved %q (%s) to the library.", e.Name, kit.FormatBytes(e.Size)), w.win)
			}
			sl.changed()
			if done != nil {
				done(e, err)
			}
		})
	}()
}

// showLibrary opens the library window, reporting a failure in w.
func (w *Window) showLibrary() {
	if _, err := w.app.ShowLibrary(); err != nil {
		dialog.ShowError(err, w.win)
	}
}

// libraryMenuItems are the File menu's items for saved profiles and
// comparisons: save the open eventlog or compare it with another, show the
// library, compare two files.
func (w *Window) libraryMenuItems() []*fyne.MenuItem {
	items := []*fyne.MenuItem{fyne.NewMenuItemSeparator()}
	if w.path != "" && w.view != nil {
		if ev := w.view.eventlog(); ev != nil {
			save := "Save to Library…"
			if n := len(ev.Segments); n > 1 {
				save = fmt.Sprintf("Save Segment %d of %d to Library…", ev.Segment+1, n)
			}
			items = append(items, fyne.NewMenuItem(save, w.saveToLibrary),
				fyne.NewMenuItem("Compare This Run With…", w.chooseCompareWith))
		} else if _, live := w.view.recording(); live {
			items = append(items, fyne.NewMenuItem("Save Recording to Library…", w.saveToLibrary))
		}
	}
	return append(items,
		fyne.NewMenuItem("Saved Profiles…", w.showLibrary),
		fyne.NewMenuItem("Compare Two Eventlogs (A, then B)…", w.chooseCompare))
}
