package app

import (
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/tracks"
)

// writeInBackground writes e of c to path off Fyne's loop, showing the
// pages' progress when there are several (pages: how many there were
// when asked), and then says where they went or what went wrong.
func (w *Window) writeInBackground(c *trackcanvas.Canvas, e trackcanvas.CanvasExport, path string, pages int) {
	var d dialog.Dialog
	var bar *widget.ProgressBar
	var note *widget.Label
	if pages > 1 {
		bar, note = widget.NewProgressBar(), widget.NewLabel("")
		d = dialog.NewCustomWithoutButtons("Exporting "+e.What(), container.NewVBox(note, bar), w.win)
		d.Resize(fyne.NewSize(420, d.MinSize().Height))
		d.Show()
	}
	go func() {
		paths, pw, ph, err := c.WriteExport(e, path, func(done, of int) {
			if bar == nil {
				return
			}
			kit.OnUI(func() {
				note.SetText(fmt.Sprintf("Writing page %d of %d…", done+1, of))
				bar.SetValue(float64(done) / float64(of))
			})
		})
		kit.OnUI(func() {
			if d != nil {
				d.Hide()
			}
			if err != nil {
				dialog.ShowError(err, w.win)
				return
			}
			dialog.ShowInformation("Export", kit.ExportedMessage(e.What(), pw, ph, paths), w.win)
		})
	}()
}

// allTracksNotice says, before an export of all tracks, how big it is,
// how it is written and what it leaves out; or, when it is refused, why.
func allTracksNotice(p trackcanvas.ExportPlan, err error) (string, bool) {
	var tooMany *tracks.ErrTooManyPages
	if errors.As(err, &tooMany) {
		return fmt.Sprintf("Not exported: %v.\n\nCollapse the Threads group (click its title) "+
			"or pin the tracks you want and export the view.", err), false
	}
	if err != nil {
		return "Not exported: " + err.Error() + ".", false
	}
	s := fmt.Sprintf("All %s make a picture %s × %s px.", trackcanvas.CountOf(p.N, "track"),
		paint.Count(int64(p.W)), paint.Count(int64(p.H)))
	if len(p.Pages) > 1 {
		s += fmt.Sprintf("\nTaller than %s px, it is written as %d pages\n(name-1, name-2, … after the name you choose),\n"+
			"each with the time axis and the legend.", paint.Count(tracks.MaxPageHeight), len(p.Pages))
	}
	if len(p.Collapsed) > 0 {
		s += "\nLeft out, collapsed: " + strings.Join(p.Collapsed, ", ") + "."
	}
	return s, true
}

// exportMenuItems returns the File menu's picture exports for what the
// window shows, binding their shortcuts with bind: the view as PNG at the
// size it is shown, and a submenu of the others: the view at twice that
// size (for HiDPI screens) and, for a timeline, the view as SVG, all
// tracks, and the selection, whose items are enabled only while there is
// one.
func (w *Window) exportMenuItems(bind func(*fyne.MenuItem)) []*fyne.MenuItem {
	w.selItems = nil
	if w.view == nil || !w.view.HasPicture() {
		return nil
	}
	png := fyne.NewMenuItem("Export View as PNG…", func() { w.exportImage(1) })
	png.Shortcut = shortcut(fyne.KeyE)
	bind(png)
	more := fyne.NewMenuItem("Export Picture", nil)
	png2 := fyne.NewMenuItem("View as PNG at ×2 (HiDPI)…", func() { w.exportImage(2) })
	more.ChildMenu = fyne.NewMenu("", png2)
	// A heap profile, or a log with no timeline, has no canvas to export
	// (a live stream's comes with its first events).
	h := w.view
	if _, live := h.recording(); !live && h.TimelineCanvas() == nil {
		return []*fyne.MenuItem{png, more}
	}
	// A live window's canvas comes with the stream's first events, and is
	// replaced by the next stream's: taken when the item is chosen.
	export := func(e trackcanvas.CanvasExport) func() {
		return func() {
			c := h.TimelineCanvas()
			if c == nil {
				dialog.ShowInformation("Export", "There is no timeline to export yet.", w.win)
				return
			}
			w.exportCanvas(c, e)
		}
	}
	selPNG := fyne.NewMenuItem("Selection as PNG…", export(trackcanvas.CanvasExport{Format: trackcanvas.ExportPNG, Selection: true}))
	selSVG := fyne.NewMenuItem("Selection as SVG…", export(trackcanvas.CanvasExport{Format: trackcanvas.ExportSVG, Selection: true}))
	w.selItems = []*fyne.MenuItem{selPNG, selSVG}
	has := false
	if c := h.TimelineCanvas(); c != nil {
		_, _, has = c.Selection()
	}
	w.enableSelectionItems(has)
	h.WatchSelection(func(has bool) {
		if w.enableSelectionItems(has) {
			if m := w.win.MainMenu(); m != nil {
				w.win.SetMainMenu(m)
			}
		}
	})
	more.ChildMenu.Items = append(more.ChildMenu.Items,
		fyne.NewMenuItem("View as SVG…", export(trackcanvas.CanvasExport{Format: trackcanvas.ExportSVG})),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("All Tracks as PNG…", export(trackcanvas.CanvasExport{Format: trackcanvas.ExportPNG, All: true})),
		fyne.NewMenuItem("All Tracks as SVG…", export(trackcanvas.CanvasExport{Format: trackcanvas.ExportSVG, All: true})),
		fyne.NewMenuItemSeparator(),
		selPNG, selSVG)
	return []*fyne.MenuItem{png, more}
}

// enableSelectionItems enables the selection's export items if there is
// a selection, else disables them, and reports whether any changed.
func (w *Window) enableSelectionItems(has bool) bool {
	changed := false
	for _, it := range w.selItems {
		if it.Disabled == has {
			it.Disabled = !has
			changed = true
		}
	}
	return changed
}

// timelineCanvas returns the log's canvas (nil if it has no timed events).
func (v *eventlogView) TimelineCanvas() *trackcanvas.Canvas { return v.canvas }

// watchSelection has f called when the canvas gains or loses its
// selection.
func (v *eventlogView) WatchSelection(f func(has bool)) {
	if v.canvas != nil {
		v.canvas.OnHasSelection = f
	}
}

// exportCanvas exports e of the canvas: it asks where to save it and saves
// it there, after saying, for all tracks, how big the picture is and in
// how many pages it is written (or why it is not); then it says where the
// files went.
func (w *Window) exportCanvas(c *trackcanvas.Canvas, e trackcanvas.CanvasExport) {
	plan, err := c.ExportPlan(e)
	if errors.Is(err, trackcanvas.ErrNoSelection) {
		dialog.ShowInformation("Export", "Nothing is selected: Shift+drag on the timeline selects a range.", w.win)
		return
	}
	filters := kit.PNGFilters
	if e.Format == trackcanvas.ExportSVG {
		filters = kit.SVGFilters
	}
	name := w.fileStem()
	switch {
	case e.All:
		name += "-all-tracks"
	case e.Selection:
		name += "-selection"
	}
	save := func() {
		kit.PickFileToSave(w.win, w.app.useNative, "Export "+e.What()+" as "+strings.ToUpper(e.Format.Ext()[1:]), name+e.Format.Ext(), filters, func(path string) {
			w.writeInBackground(c, e, path, len(plan.Pages))
		})
	}
	if !e.All {
		if err != nil {
			dialog.ShowError(err, w.win)
			return
		}
		save()
		return
	}
	text, ok := allTracksNotice(plan, err)
	if !ok {
		dialog.ShowInformation("Export All Tracks", text, w.win)
		return
	}
	d := dialog.NewConfirm("Export All Tracks", text+"\n\nChoose where to save it?", func(yes bool) {
		if yes {
			save()
		}
	}, w.win)
	d.SetConfirmText("Choose File…")
	d.SetDismissText("Cancel")
	d.Show()
}
