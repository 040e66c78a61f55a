package app

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/timeline"
)

// A file can hold several eventlogs one after another, as a program that
// restarts its logging writes them (eventlog.Log.Segments). The file
// window shows one at a time; a chooser in its header lists them all and
// loads the one picked in its place, through the same load as File > Open.

// setTitle titles the window after its file and segment.
func (w *Window) setTitle() {
	if w.path == "" {
		w.win.SetTitle(Name)
		return
	}
	title := filepath.Base(w.path)
	if s := loaded.SegmentName(w.segment, w.segments); s != "" {
		title += " (" + s + ")"
	}
	w.win.SetTitle(title + " — " + Name)
}

// segmentLabel describes segment i of the n of a file as the chooser lists
// it: "Segment 2 of 4 · ./sleep · 1.02 s · complete".
func segmentLabel(i int, g eventlog.Segment, n int) string {
	parts := []string{fmt.Sprintf("Segment %d of %d", i+1, n)}
	if g.Program != "" {
		name := filepath.Base(g.Program)
		if g.Restarted {
			name += " (logging restarted)"
		}
		parts = append(parts, name)
	}
	if g.Duration > 0 {
		parts = append(parts, timeline.FormatDuration(g.Duration))
	}
	parts = append(parts, g.Status.State.String())
	return strings.Join(parts, " · ")
}

// newSegmentChooser returns the chooser of the segments of ev's file, with
// ev's selected; picking another calls pick with its index. It returns nil
// for a file of one eventlog.
func newSegmentChooser(ev *loaded.Eventlog, pick func(int)) *widget.Select {
	n := len(ev.Segments)
	if n < 2 {
		return nil
	}
	labels := make([]string, n)
	for i, g := range ev.Segments {
		labels[i] = segmentLabel(i, g, n)
	}
	sel := widget.NewSelect(labels, nil)
	sel.SetSelectedIndex(ev.Segment)
	sel.OnChanged = func(string) {
		if k := sel.SelectedIndex(); k >= 0 && k != ev.Segment && pick != nil {
			pick(k)
		}
	}
	return sel
}

// chooserWidthMax bounds the chooser's width, so that the file's path
// beside it keeps some room.
const chooserWidthMax = 560

// sizedChooser lays sel out as wide as its longest option needs (up to
// chooserWidthMax), so that the segment shown reads whole: a Select's own
// minimum width cuts its text short. Call on Fyne's loop (it measures text).
func sizedChooser(sel *widget.Select) fyne.CanvasObject {
	var w float32
	for _, o := range sel.Options {
		w = max(w, fyne.MeasureText(o, theme.TextSize(), fyne.TextStyle{}).Width)
	}
	w += 4*theme.InnerPadding() + theme.IconInlineSize()
	return container.NewGridWrap(fyne.NewSize(min(w, chooserWidthMax), sel.MinSize().Height), sel)
}

// OpenSegment opens segment seg (0-based) of path, a file holding several
// eventlogs one after another, in a new window and starts loading it (seg
// 0 is what Open shows).
func (a *App) OpenSegment(path string, seg int) *Window {
	w := a.newWindow()
	w.loadSegment(path, seg, 0)
	w.win.Show()
	return w
}

// fileStem is what the window's exports are called by default: its file's
// name without the extension, and which segment ("restarts-segment2").
func (w *Window) fileStem() string {
	name := strings.TrimSuffix(filepath.Base(w.path), filepath.Ext(w.path))
	if ev := w.eventlog(); ev != nil && len(ev.Segments) > 1 {
		name += "-segment" + strconv.Itoa(ev.Segment+1)
	}
	return name
}
