package trackcanvas

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

// WritePNG saves img to path as PNG.
func WritePNG(path string, img image.Image) error {
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
	ExportPNG exportFormat = iota
	ExportSVG
)

// Ext returns the format's file extension.
func (f exportFormat) Ext() string {
	if f == ExportSVG {
		return ".svg"
	}
	return ".png"
}

// CanvasExport is one of the timeline's picture exports.
type CanvasExport struct {
	Format exportFormat
	// All exports every track shown (cut into pages past
	// tracks.MaxPageHeight); otherwise the frame as the canvas shows it.
	All bool
	// Selection exports the frame over the selected range.
	Selection bool
}

// What names the export in messages.
func (e CanvasExport) What() string {
	switch {
	case e.All:
		return "all tracks"
	case e.Selection:
		return "the selection"
	}
	return "the view"
}

// ErrNoSelection is why the selection cannot be exported.
var ErrNoSelection = errors.New("nothing is selected (Shift+drag on the timeline selects a range)")

// options returns the tracks' export options of e, under the lock.
func (c *Canvas) options(e CanvasExport) (tracks.ExportOptions, error) {
	opt := tracks.ExportOptions{All: e.All}
	if e.Selection {
		from, to, ok := c.view.Selection()
		if !ok || to <= from {
			return opt, ErrNoSelection
		}
		opt.From, opt.To = from, to
	} else {
		opt.From, opt.To = c.view.Range()
	}
	return opt, nil
}

// ExportPlan is what an export would write now.
type ExportPlan struct {
	Pages []tracks.ExportPage
	// W and h are its size as one picture, n the tracks it shows.
	W, H, N int
	// Collapsed names the collapsed groups an export of all tracks leaves
	// out, with their tracks: "Threads (4,916 tracks)".
	Collapsed []string
}

// ExportPlan returns what e would write now, or why it cannot be
// written.
func (c *Canvas) ExportPlan(e CanvasExport) (ExportPlan, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var p ExportPlan
	opt, err := c.options(e)
	if err != nil {
		return p, err
	}
	p.W, p.H, p.N = c.view.ExportSize(opt)
	for g := tracks.Group(0); g < tracks.NumGroups; g++ {
		if n := c.view.GroupSize(g); n > 0 && c.view.Collapsed(g) {
			p.Collapsed = append(p.Collapsed, fmt.Sprintf("%s (%s)", g, CountOf(n, "track")))
		}
	}
	p.Pages, err = c.view.ExportPages(opt)
	return p, err
}

// CountOf writes n things: "1 track", "4,916 tracks".
func CountOf(n int, thing string) string {
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

// WriteExport writes e of the canvas as it is now to path (to one file
// per page, see pagePaths) and returns the files written and the size of
// the picture they make; progress, if not nil, hears before each page how
// many are written of how many. Each page is drawn under the lock and
// encoded outside it (encoding a page of 16,000 px takes a second), so
// that the canvas goes on drawing meanwhile. A page that could not be
// written is removed.
func (c *Canvas) WriteExport(e CanvasExport, path string, progress func(done, of int)) (paths []string, w, h int, err error) {
	c.mu.Lock()
	opt, err := c.options(e)
	var pages []tracks.ExportPage
	if err == nil {
		w, h, _ = c.view.ExportSize(opt)
		pages, err = c.view.ExportPages(opt)
	}
	c.mu.Unlock()
	if err != nil {
		return nil, 0, 0, fmt.Errorf("exporting %s: %w", e.What(), err)
	}
	paths = pagePaths(path, len(pages))
	for i, p := range pages {
		if progress != nil {
			progress(i, len(pages))
		}
		if err := c.writePage(e.Format, opt, p, paths[i]); err != nil {
			return paths[:i], w, h, err
		}
	}
	return paths, w, h, nil
}

// writePage draws page p of opt's export of the canvas and writes it as f
// to path.
func (c *Canvas) writePage(f exportFormat, opt tracks.ExportOptions, p tracks.ExportPage, path string) error {
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("exporting the timeline: %w", err)
	}
	if f == ExportSVG {
		s := paint.NewSVG(p.Width, p.Height)
		c.With(func(v *tracks.View) { v.Export(s, opt, p) })
		_, err = s.WriteTo(out)
	} else {
		img := image.NewRGBA(image.Rect(0, 0, p.Width, p.Height))
		c.With(func(v *tracks.View) { v.Export(paint.NewRaster(img), opt, p) })
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

// Picture draws the canvas's frame as shown — its size, its scroll, its
// range — at the pixel ratio scale (twice the canvas's draws twice as
// many pixels each way); nil without a canvas. The cursor, the selection
// and the tooltip, laid over the frame on screen, are not drawn.
func (c *Canvas) Picture(scale float32) image.Image {
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
