package app

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/tracks"
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

// exportFormat is a picture format the canvas exports to.
type exportFormat uint8

const (
	exportPNG exportFormat = iota
	exportSVG
)

// ext returns the format's file extension.
func (f exportFormat) ext() string {
	if f == exportSVG {
		return ".svg"
	}
	return ".png"
}

// canvasExport is one of the timeline's picture exports.
type canvasExport struct {
	format exportFormat
	// all exports every track shown (cut into pages past
	// tracks.MaxPageHeight); otherwise the frame as the canvas shows it.
	all bool
	// selection exports the frame over the selected range.
	selection bool
	// zoom is the picture's pixels per device pixel of the canvas (0: 1).
	zoom float64
}

// what names the export in messages.
func (e canvasExport) what() string {
	switch {
	case e.all:
		return "all tracks"
	case e.selection:
		return "the selection"
	}
	return "the view"
}

// errNoSelection is why the selection cannot be exported.
var errNoSelection = errors.New("nothing is selected (Shift+drag on the timeline selects a range)")

// options returns the tracks' export options of e, under the lock.
func (c *trackCanvas) options(e canvasExport) (tracks.ExportOptions, error) {
	opt := tracks.ExportOptions{All: e.all, Zoom: e.zoom}
	if e.selection {
		from, to, ok := c.view.Selection()
		if !ok || to <= from {
			return opt, errNoSelection
		}
		opt.From, opt.To = from, to
	} else {
		opt.From, opt.To = c.view.Range()
	}
	return opt, nil
}

// exportPlan is what an export would write now.
type exportPlan struct {
	pages []tracks.ExportPage
	// w and h are its size as one picture, n the tracks it shows.
	w, h, n int
	// collapsed names the collapsed groups an export of all tracks leaves
	// out, with their tracks: "Threads (4,916 tracks)".
	collapsed []string
}

// exportPlan returns what e would write now, or why it cannot be
// written.
func (c *trackCanvas) exportPlan(e canvasExport) (exportPlan, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var p exportPlan
	opt, err := c.options(e)
	if err != nil {
		return p, err
	}
	p.w, p.h, p.n = c.view.ExportSize(opt)
	for g := tracks.Group(0); g < tracks.NumGroups; g++ {
		if n := c.view.GroupSize(g); n > 0 && c.view.Collapsed(g) {
			p.collapsed = append(p.collapsed, fmt.Sprintf("%s (%s)", g, countOf(n, "track")))
		}
	}
	p.pages, err = c.view.ExportPages(opt)
	return p, err
}

// countOf writes n things: "1 track", "4,916 tracks".
func countOf(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return paint.Count(int64(n)) + " " + thing + "s"
}

// pagePaths returns the files n pages saved as path are written to: path
// itself for one page, else path with -1, -2, … before its extension
// (numbered with as many digits as the last).
func pagePaths(path string, n int) []string {
	if n == 1 {
		return []string{path}
	}
	ext := filepath.Ext(path)
	base := strings.TrimSuffix(path, ext)
	digits := len(fmt.Sprint(n))
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%0*d%s", base, digits, i+1, ext)
	}
	return out
}

// writeExport writes e of the canvas as it is now to path (to one file
// per page, see pagePaths) and returns the files written and the size of
// the picture they make; progress, if not nil, hears before each page how
// many are written of how many. Each page is drawn under the lock and
// encoded outside it (encoding a page of 16,000 px takes a second), so
// that the canvas goes on drawing meanwhile. A page that could not be
// written is removed.
func (c *trackCanvas) writeExport(e canvasExport, path string, progress func(done, of int)) (paths []string, w, h int, err error) {
	c.mu.Lock()
	opt, err := c.options(e)
	var pages []tracks.ExportPage
	if err == nil {
		w, h, _ = c.view.ExportSize(opt)
		pages, err = c.view.ExportPages(opt)
	}
	c.mu.Unlock()
	if err != nil {
		return nil, 0, 0, fmt.Errorf("exporting %s: %w", e.what(), err)
	}
	paths = pagePaths(path, len(pages))
	for i, p := range pages {
		if progress != nil {
			progress(i, len(pages))
		}
		if err := c.writePage(e.format, opt, p, paths[i]); err != nil {
			return paths[:i], w, h, err
		}
	}
	return paths, w, h, nil
}

// writePage draws page p of opt's export of the canvas and writes it as f
// to path.
func (c *trackCanvas) writePage(f exportFormat, opt tracks.ExportOptions, p tracks.ExportPage, path string) error {
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("exporting the timeline: %w", err)
	}
	if f == exportSVG {
		s := paint.NewSVG(p.Width, p.Height)
		c.with(func(v *tracks.View) { v.Export(s, opt, p) })
		_, err = s.WriteTo(out)
	} else {
		img := image.NewRGBA(image.Rect(0, 0, p.Width, p.Height))
		c.with(func(v *tracks.View) { v.Export(paint.NewRaster(img), opt, p) })
		err = png.Encode(out, img)
	}
	if err == nil {
		err = out.Close()
	} else {
		out.Close()
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("exporting the timeline to %s: %w", path, err)
	}
	return nil
}

// picture draws the canvas's frame as shown — its size, its scroll, its
// range — at the pixel ratio scale (twice the canvas's draws twice as
// many pixels each way); nil without a canvas. The cursor, the selection
// and the tooltip, laid over the frame on screen, are not drawn.
func (c *trackCanvas) picture(scale float32) image.Image {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	opt := tracks.ExportOptions{Zoom: float64(scale) / c.scale}
	opt.From, opt.To = c.view.Range()
	pages, err := c.view.ExportPages(opt)
	if err != nil {
		return nil
	}
	img := image.NewRGBA(image.Rect(0, 0, pages[0].Width, pages[0].Height))
	c.view.Export(paint.NewRaster(img), opt, pages[0])
	return img
}
