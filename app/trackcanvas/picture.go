package trackcanvas

import (
	"image"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// minRasterPixels is the smallest picture the renderers draw.
const minRasterPixels = 64

// RenderFunc draws a picture at w×h device pixels for a device pixel ratio.
type RenderFunc func(w, h int, scale float64) (*image.RGBA, error)

// Picture shows what a renderer draws, at the device's pixel size so that
// it stays sharp on HiDPI screens; it is redrawn when resized and when given
// something new to draw.
type Picture struct {
	Raster *canvas.Raster
	render RenderFunc // nil: nothing to draw

	// drawn is called once, after the next time the picture has been
	// drawn at a real size (see WhenDrawn).
	drawn drawnHook
}

// NewPicture returns a picture drawn by render at the size it is shown.
func NewPicture(render RenderFunc) *Picture {
	p := &Picture{render: render}
	p.Raster = canvas.NewRaster(p.draw)
	p.Raster.SetMinSize(fyne.NewSize(200, 120))
	return p
}

// draw is the raster's generator: w and h are device pixels.
func (p *Picture) draw(w, h int) image.Image {
	blank := image.NewRGBA(image.Rect(0, 0, 1, 1))
	if p.render == nil || w < minRasterPixels || h < minRasterPixels {
		return blank
	}
	scale := 1.0
	if size := p.Raster.Size(); size.Width > 0 {
		scale = float64(w) / float64(size.Width)
	}
	img, err := p.render(w, h, scale)
	if err != nil {
		return blank
	}
	p.drawn.fire()
	return img
}

// WhenDrawn calls f once, from the goroutine that draws, after the picture
// has next been drawn at a real size, and asks for it to be drawn.
func (p *Picture) WhenDrawn(f func()) {
	p.drawn.set(f)
	p.Raster.Refresh()
}

// Set replaces what the picture draws and redraws it.
func (p *Picture) Set(render RenderFunc) {
	p.render = render
	p.Raster.Refresh()
}

// Export draws the picture at its size on screen for the pixel ratio scale,
// or at 1600×900 if it has not been laid out; nil if it cannot be drawn.
func (p *Picture) Export(scale float32) image.Image {
	if p.render == nil {
		return nil
	}
	size := p.Raster.Size()
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

// TimelineRender draws the whole run of m as the track canvas does, or
// returns nil if m has no timed events.
func TimelineRender(m *timeline.Model) RenderFunc {
	if m == nil || m.End == 0 {
		return nil
	}
	// A view of its own at each drawing: one kept with the function would
	// keep its layout and index of user spans (tens of MB for a log of
	// millions) for as long as Fyne keeps the picture, after the load.
	return func(w, h int, scale float64) (*image.RGBA, error) {
		v := tracks.New(timeline.Exact(m))
		// As the canvas will show it (app's buildTimeline).
		v.SetCollapsed(tracks.GroupThreads, len(m.Threads) > ManyThreads)
		v.SetSize(w, h, scale)
		v.SetDark(kit.DarkTheme())
		return v.Render(), nil
	}
}

// HeapRender draws a heap profile's bands and the heap counters (either
// may be nil) as the track canvas's heap tracks draw them, or returns nil
// if there is nothing to draw.
func HeapRender(title string, prof *heapview.Profile, heap *heapview.Heap) RenderFunc {
	if (prof == nil || prof.Len() == 0) && (heap == nil || heap.Empty()) {
		return nil
	}
	return func(w, h int, scale float64) (*image.RGBA, error) {
		v := tracks.New(nil) // the raster and an export may draw at once: a view each
		v.SetHeap(heap, prof)
		v.SetSize(w, h, scale)
		v.SetDark(kit.DarkTheme())
		v.SetCaption(title, v.Theme().Text)
		v.FitTracks()
		return v.Render(), nil
	}
}

// drawnHook is what to call once after a picture's next drawing, set from
// Fyne's loop and called from the goroutine that draws.
type drawnHook struct {
	mu sync.Mutex
	f  func()
}

// set has f called after the next drawing (instead of what was set).
func (h *drawnHook) set(f func()) {
	h.mu.Lock()
	h.f = f
	h.mu.Unlock()
}

// take returns what was set (nil if nothing), once.
func (h *drawnHook) take() func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	f := h.f
	h.f = nil
	return f
}

// fire calls what was set, once.
func (h *drawnHook) fire() {
	if f := h.take(); f != nil {
		f()
	}
}
