package app

import (
	"context"
	"fmt"
	"image"
	"path/filepath"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/timeline"
)

// alignStart is the alignment choice that lines the runs up at their start.
const alignStart = "Align at start"

// alignMarkerPrefix starts the alignment choices of markers.
const alignMarkerPrefix = "Align at marker: "

// CompareWindow shows two runs side by side in time: the headline, both
// timelines on one time scale, the table of differences, the distributions
// of GC pauses and thread runs, and both heaps on one scale. Zoom is not
// linked yet: the picture always shows both whole runs.
type CompareWindow struct {
	app *App
	win fyne.Window

	// paths and names are the two runs' files and how they are called (A
	// first).
	paths, names [2]string
	// logs are the loaded runs (nil until loaded); cmp their comparison.
	logs [2]*Eventlog
	cmp  *timeline.Comparison

	status *widget.Label
	align  *widget.Select
	pic    *picture
	// alignA and alignB are the aligned times of the current choice.
	alignA, alignB uint64
	// done, if set, is called on Fyne's loop when loading ends (tests).
	done func(error)
}

// Fyne returns the underlying Fyne window.
func (c *CompareWindow) Fyne() fyne.Window { return c.win }

// Comparison returns the table of differences, nil until both runs have
// loaded.
func (c *CompareWindow) Comparison() *timeline.Comparison { return c.cmp }

// OpenCompare opens a window comparing run B (file pathB, called nameB)
// against run A and starts loading both; an empty name is the file's name.
func (a *App) OpenCompare(pathA, nameA, pathB, nameB string) *CompareWindow {
	return a.openCompare(pathA, nameA, pathB, nameB, nil)
}

func (a *App) openCompare(pathA, nameA, pathB, nameB string, done func(error)) *CompareWindow {
	c := &CompareWindow{app: a, paths: [2]string{pathA, pathB}, names: [2]string{nameA, nameB}, done: done}
	for i := range c.names {
		if c.names[i] == "" {
			c.names[i] = filepath.Base(c.paths[i])
		}
	}
	c.win = a.fa.NewWindow("Compare " + c.names[0] + " and " + c.names[1] + " — " + Name)
	c.win.SetIcon(Icon)
	c.win.Resize(fyne.NewSize(1280, 900))
	c.status = widget.NewLabel("Loading " + c.names[0] + " and " + c.names[1] + "…")
	c.win.SetContent(container.NewCenter(container.NewVBox(c.status, widget.NewProgressBarInfinite())))
	c.win.Show()
	go c.load()
	return c
}

// load reads both runs off Fyne's loop and then shows them.
func (c *CompareWindow) load() {
	var logs [2]*Eventlog
	var err error
	for i, p := range c.paths {
		logs[i], err = LoadEventlog(context.Background(), p, nil)
		if err != nil {
			break
		}
	}
	fyne.Do(func() {
		if err != nil {
			c.status.SetText(fmt.Sprintf("Cannot compare: %v", err))
			c.win.SetContent(container.NewCenter(c.status))
		} else {
			c.logs = logs
			c.show()
		}
		if c.done != nil {
			c.done(err)
		}
	})
}

// runs returns the loaded runs as the timeline package takes them.
func (c *CompareWindow) runs() (*timeline.Run, *timeline.Run) {
	run := func(i int) *timeline.Run {
		return &timeline.Run{Name: c.names[i], Summary: c.logs[i].Summary, Model: c.logs[i].Model}
	}
	return run(0), run(1)
}

// show builds the window's content once both runs have loaded.
func (c *CompareWindow) show() {
	a, b := c.runs()
	c.cmp = timeline.Compare(a, b)
	options := []string{alignStart}
	for _, m := range commonMarkers(a.Model, b.Model) {
		options = append(options, alignMarkerPrefix+m)
	}
	c.pic = newPicture(nil)
	c.align = widget.NewSelect(options, func(choice string) { c.setAlign(choice) })
	c.align.SetSelected(alignStart)
	swap := widget.NewButtonWithIcon("Swap A and B", theme.ViewRefreshIcon(), c.swap)
	export := widget.NewButtonWithIcon("Export PNG…", theme.DocumentSaveIcon(), c.exportImage)
	legend := widget.NewLabel(fmt.Sprintf("A: %s    B: %s", c.names[0], c.names[1]))
	legend.Truncation = fyne.TextTruncateEllipsis
	bar := container.NewBorder(nil, nil, nil, container.NewHBox(c.align, swap, export), legend)
	c.win.SetContent(container.NewBorder(bar, nil, nil, nil, c.pic.raster))
}

// setAlign lines the runs up at the start or at a marker both have.
func (c *CompareWindow) setAlign(choice string) {
	c.alignA, c.alignB = 0, 0
	if text, ok := strings.CutPrefix(choice, alignMarkerPrefix); ok {
		ta, okA := timeline.FindMarker(c.logs[0].Model, text)
		tb, okB := timeline.FindMarker(c.logs[1].Model, text)
		if okA && okB {
			c.alignA, c.alignB = ta, tb
		}
	}
	c.pic.set(c.render())
}

// render returns what draws the comparison at the current alignment.
func (c *CompareWindow) render() renderFunc {
	a, b := c.runs()
	cmp := c.cmp
	heapA, heapB := c.logs[0].Heap, c.logs[1].Heap
	alignA, alignB := c.alignA, c.alignB
	label := ""
	if alignA != 0 || alignB != 0 {
		label = fmt.Sprintf("aligned at %s (A %s, B %s)", strings.TrimPrefix(c.align.Selected, "Align at "),
			timeline.FormatDuration(alignA), timeline.FormatDuration(alignB))
	}
	return func(w, h int, scale float64) (*image.RGBA, error) {
		return heapview.RenderComparison(a, b, heapA, heapB, cmp, timeline.CompareOptions{
			Width: w, Height: h, Scale: scale, AlignA: alignA, AlignB: alignB, AlignLabel: label})
	}
}

// swap makes B the baseline and A the run compared with it.
func (c *CompareWindow) swap() {
	c.paths[0], c.paths[1] = c.paths[1], c.paths[0]
	c.names[0], c.names[1] = c.names[1], c.names[0]
	c.logs[0], c.logs[1] = c.logs[1], c.logs[0]
	selected := c.align.Selected
	c.show()
	c.align.SetSelected(selected)
}

// exportImage saves the comparison picture as shown.
func (c *CompareWindow) exportImage() {
	img := c.pic.export(c.win.Canvas().Scale())
	if img == nil {
		dialog.ShowInformation("Export", "There is no picture to export.", c.win)
		return
	}
	name := "compare-" + strings.TrimSuffix(c.names[0], filepath.Ext(c.names[0])) + "-" +
		strings.TrimSuffix(c.names[1], filepath.Ext(c.names[1])) + ".png"
	pickFileToSave(c.win, c.app.useNative, name, pngFilters, func(path string) {
		if err := writePNG(path, img); err != nil {
			dialog.ShowError(err, c.win)
		}
	})
}

// commonMarkers returns the texts of user markers both runs have, in the
// order they first appear in a, at most 40.
func commonMarkers(a, b *timeline.Model) []string {
	inB := map[string]bool{}
	for _, t := range markerTexts(b) {
		inB[t.text] = true
	}
	var out []string
	for _, t := range markerTexts(a) {
		if inB[t.text] && len(out) < 40 {
			out = append(out, t.text)
		}
	}
	return out
}

// markerText is a marker's text and the time it first appears.
type markerText struct {
	text string
	time uint64
}

// markerTexts returns the distinct texts of m's user markers in order of
// first appearance.
func markerTexts(m *timeline.Model) []markerText {
	first := map[string]uint64{}
	add := func(in timeline.Instant) {
		if in.Kind != timeline.InstantUserMarker {
			return
		}
		s := m.String(int32(in.Arg))
		if t, ok := first[s]; !ok || in.Time < t {
			first[s] = in.Time
		}
	}
	for c := range m.HECs {
		h := &m.HECs[c]
		for i := 0; i < h.NumInstants(); i++ {
			add(h.Instant(i))
		}
	}
	for i := 0; i < m.NumGlobalInstants(); i++ {
		add(m.GlobalInstant(i))
	}
	out := make([]markerText, 0, len(first))
	for s, t := range first {
		out = append(out, markerText{s, t})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].time != out[j].time {
			return out[i].time < out[j].time
		}
		return out[i].text < out[j].text
	})
	return out
}

// chooseCompare asks for two eventlogs, A then B, and opens a window
// comparing them.
func (w *Window) chooseCompare() {
	pickFileToOpen(w.win, w.app.useNative, func(pathA string) {
		pickFileToOpen(w.win, w.app.useNative, func(pathB string) {
			w.app.OpenCompare(pathA, "", pathB, "")
		})
	})
}
