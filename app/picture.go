package app

import (
	"image"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// minRasterPixels is the smallest picture the renderers draw.
const minRasterPixels = 64

// renderFunc draws a picture at w×h device pixels for a device pixel ratio.
type renderFunc func(w, h int, scale float64) (*image.RGBA, error)

// picture shows what a renderer draws, at the device's pixel size so that
// it stays sharp on HiDPI screens; it is redrawn when resized and when given
// something new to draw.
type picture struct {
	raster *canvas.Raster
	render renderFunc // nil: nothing to draw

	// drawn, if set, is called once, after the next time the picture has
	// been drawn at a real size (see whenDrawn).
	drawnMu sync.Mutex
	drawn   func()
}

func newPicture(render renderFunc) *picture {
	p := &picture{render: render}
	p.raster = canvas.NewRaster(p.draw)
	p.raster.SetMinSize(fyne.NewSize(200, 120))
	return p
}

// draw is the raster's generator: w and h are device pixels.
func (p *picture) draw(w, h int) image.Image {
	blank := image.NewRGBA(image.Rect(0, 0, 1, 1))
	if p.render == nil || w < minRasterPixels || h < minRasterPixels {
		return blank
	}
	scale := 1.0
	if size := p.raster.Size(); size.Width > 0 {
		scale = float64(w) / float64(size.Width)
	}
	img, err := p.render(w, h, scale)
	if err != nil {
		return blank
	}
	p.drawnMu.Lock()
	f := p.drawn
	p.drawn = nil
	p.drawnMu.Unlock()
	if f != nil {
		f()
	}
	return img
}

// whenDrawn calls f once, from the goroutine that draws, after the picture
// has next been drawn at a real size, and asks for it to be drawn.
func (p *picture) whenDrawn(f func()) {
	p.drawnMu.Lock()
	p.drawn = f
	p.drawnMu.Unlock()
	p.raster.Refresh()
}

// set replaces what the picture draws and redraws it.
func (p *picture) set(render renderFunc) {
	p.render = render
	p.raster.Refresh()
}

// export draws the picture at its size on screen for the pixel ratio scale,
// or at 1600×900 if it has not been laid out; nil if it cannot be drawn.
func (p *picture) export(scale float32) image.Image {
	if p.render == nil {
		return nil
	}
	size := p.raster.Size()
	w, h := int(size.Width*scale+0.5), int(size.Height*scale+0.5)
	if w < minRasterPixels || h < minRasterPixels {
		w, h, scale = 1600, 900, 1
	}
	img, err := p.render(w, h, float64(scale))
	if err != nil {
		return nil
	}
	return img
}

// timelineRender draws the whole run of m as the track canvas does, or
// returns nil if m has no timed events.
func timelineRender(m *timeline.Model) renderFunc {
	if m == nil || m.End == 0 {
		return nil
	}
	// A view of its own at each drawing: one kept with the function would
	// keep its layout and index of user spans (tens of MB for a log of
	// millions) for as long as Fyne keeps the picture, after the load.
	return func(w, h int, scale float64) (*image.RGBA, error) {
		v := tracks.New(timeline.Exact(m))
		// As the canvas will show it (buildTimeline).
		v.SetCollapsed(tracks.GroupThreads, len(m.Threads) > manyThreads)
		v.SetSize(w, h, scale)
		v.SetDark(darkTheme())
		return v.Render(), nil
	}
}

// heapRender draws a heap profile's bands and the heap counters (either
// may be nil) as the track canvas's heap tracks draw them, or returns nil
// if there is nothing to draw.
func heapRender(title string, prof *heapview.Profile, heap *heapview.Heap) renderFunc {
	if (prof == nil || prof.Len() == 0) && (heap == nil || heap.Empty()) {
		return nil
	}
	return func(w, h int, scale float64) (*image.RGBA, error) {
		v := tracks.New(nil) // the raster and an export may draw at once: a view each
		v.SetHeap(heap, prof)
		v.SetSize(w, h, scale)
		v.SetDark(darkTheme())
		v.SetCaption(title, v.Theme().Text)
		v.FitTracks()
		return v.Render(), nil
	}
}
