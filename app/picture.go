package app

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/timeline"
)

// minRasterPixels is the smallest picture the timeline renderer draws.
const minRasterPixels = 64

// timelinePicture shows a timeline model as a picture drawn at the device's
// pixel size, so that it stays sharp on HiDPI screens; it is redrawn when
// resized and when given a new model.
type timelinePicture struct {
	raster *canvas.Raster
	model  *timeline.Model
}

func newTimelinePicture(m *timeline.Model) *timelinePicture {
	p := &timelinePicture{model: m}
	p.raster = canvas.NewRaster(p.draw)
	p.raster.SetMinSize(fyne.NewSize(200, 160))
	return p
}

// draw is the raster's generator: w and h are device pixels.
func (p *timelinePicture) draw(w, h int) image.Image {
	if p.model == nil || w < minRasterPixels || h < minRasterPixels || p.model.End == 0 {
		return image.NewRGBA(image.Rect(0, 0, 1, 1))
	}
	scale := 1.0
	if size := p.raster.Size(); size.Width > 0 {
		scale = float64(w) / float64(size.Width)
	}
	img, err := p.render(w, h, scale)
	if err != nil {
		return image.NewRGBA(image.Rect(0, 0, 1, 1))
	}
	return img
}

// render draws the whole run at w×h pixels for a device pixel ratio scale.
func (p *timelinePicture) render(w, h int, scale float64) (*image.RGBA, error) {
	return timeline.Render(p.model, timeline.Options{Width: w, Height: h, Scale: scale})
}

// setModel shows m instead, as when more of a log has been read.
func (p *timelinePicture) setModel(m *timeline.Model) {
	p.model = m
	p.raster.Refresh()
}

// drawable reports whether the model has anything to draw.
func (p *timelinePicture) drawable() bool { return p.model != nil && p.model.End > 0 }

// object returns what to put in a layout: the picture, or a line saying
// that there is nothing to draw.
func (p *timelinePicture) object() fyne.CanvasObject {
	if !p.drawable() {
		l := widget.NewLabel("This log has no timed events to draw.")
		l.Alignment = fyne.TextAlignCenter
		return l
	}
	return p.raster
}
