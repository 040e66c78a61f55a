package main

import (
	"image"

	"github.com/hecscope/hecscope/ccprofile"
	"github.com/hecscope/hecscope/paint"
)

func init() { renderViews["flame"] = renderFlameView }

// renderFlameView draws `render --view flame`: the cost-centre flame graph
// (icicle) of the run's time profile samples in [o.from, o.to).
func renderFlameView(path string, o renderOptions) (*image.RGBA, error) {
	p, err := profileOf(o.part, ccprofile.Options{From: o.from, To: o.to})
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, o.width, o.height))
	ccprofile.DrawFlame(paint.NewRaster(img), p, ccprofile.FlameOptions{Theme: paint.ThemeFor(o.dark), Scale: o.scale})
	return img, nil
}
