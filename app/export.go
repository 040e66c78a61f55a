package app

import (
	"fmt"
	"image"
	"image/png"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	native "github.com/sqweek/dialog"
)

// pngFilters and svgFilters are the file types offered when exporting a
// picture.
var (
	pngFilters = []native.FileFilter{{Desc: "PNG images", Extensions: []string{"png"}}}
	svgFilters = []native.FileFilter{{Desc: "SVG images", Extensions: []string{"svg"}}}
)

// writePNG saves img to path as PNG.
func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("exporting PNG: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("exporting PNG to %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("exporting PNG to %s: %w", path, err)
	}
	return nil
}

// writeCanvas saves the canvas to path as PNG or SVG: the whole canvas as
// shown, over the visible range or (selection) the selected one, at the
// pixel ratio scale.
func writeCanvas(path string, c *trackCanvas, f exportFormat, selection bool, scale float64) error {
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("exporting the timeline: %w", err)
	}
	if err := c.export(out, f, selection, scale); err != nil {
		out.Close()
		os.Remove(path)
		return fmt.Errorf("%w (to %s)", err, path)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("exporting the timeline to %s: %w", path, err)
	}
	return nil
}

// exportMenuItems returns the File menu's export items for what the
// window shows, binding their shortcuts with bind: a timeline exports as
// PNG or SVG, the visible range or the selection; another picture as PNG.
func (w *Window) exportMenuItems(bind func(*fyne.MenuItem)) []*fyne.MenuItem {
	if w.view == nil || !w.view.hasPicture() {
		return nil
	}
	png := fyne.NewMenuItem("Export View as PNG…", w.exportImage)
	png.Shortcut = shortcut(fyne.KeyE)
	bind(png)
	h, ok := w.view.(canvasHolder)
	if !ok {
		return []*fyne.MenuItem{png}
	}
	if v, ok := h.(*eventlogView); ok && v.canvas == nil {
		return []*fyne.MenuItem{png}
	}
	// A live window's canvas comes with the stream's first events, and is
	// replaced by the next stream's: taken when the item is chosen.
	export := func(f exportFormat, selection bool) func() {
		return func() {
			c := h.timelineCanvas()
			if c == nil {
				dialog.ShowInformation("Export", "There is no timeline to export yet.", w.win)
				return
			}
			w.exportCanvas(c, f, selection)
		}
	}
	png.Action = export(exportPNG, false)
	return []*fyne.MenuItem{
		png,
		fyne.NewMenuItem("Export View as SVG…", export(exportSVG, false)),
		fyne.NewMenuItem("Export Selection as PNG…", export(exportPNG, true)),
		fyne.NewMenuItem("Export Selection as SVG…", export(exportSVG, true)),
	}
}

// canvasHolder is a view whose timeline is a track canvas.
type canvasHolder interface {
	// timelineCanvas returns the canvas, nil while there is none.
	timelineCanvas() *trackCanvas
}

// timelineCanvas returns the log's canvas (nil if it has no timed events).
func (v *eventlogView) timelineCanvas() *trackCanvas { return v.canvas }

// timelineCanvas returns the current stream's canvas, nil before its first
// timed events.
func (v *liveView) timelineCanvas() *trackCanvas {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.canvas
}

// exportCanvas asks where to save the canvas as PNG or SVG — the visible
// range or the selection — and saves it there.
func (w *Window) exportCanvas(c *trackCanvas, f exportFormat, selection bool) {
	if _, _, ok := c.Selection(); selection && !ok {
		dialog.ShowInformation("Export", "Nothing is selected: Shift+drag on the timeline selects a range.", w.win)
		return
	}
	ext, filters := ".png", pngFilters
	if f == exportSVG {
		ext, filters = ".svg", svgFilters
	}
	name := w.fileStem()
	if selection {
		name += "-selection"
	}
	scale := float64(w.win.Canvas().Scale())
	pickFileToSave(w.win, w.app.useNative, name+ext, filters, func(path string) {
		if err := writeCanvas(path, c, f, selection, scale); err != nil {
			dialog.ShowError(err, w.win)
		}
	})
}
