package timeline

import (
	"fmt"
	"image"
	"image/color"
	"math"
)

// userRowColours colour the user-span rows in turn.
var userRowColours = []color.RGBA{
	{0x4c, 0x72, 0xb0, 0xff}, {0xdd, 0x84, 0x52, 0xff}, {0x55, 0xa8, 0x68, 0xff}, {0xc4, 0x4e, 0x52, 0xff},
	{0x81, 0x72, 0xb3, 0xff}, {0x93, 0x78, 0x60, 0xff}, {0xda, 0x8b, 0xc3, 0xff}, {0x8c, 0x8c, 0x8c, 0xff},
}

// userRowLayout is where RenderUserRows puts its rows at scale s: the first
// row's top and the row height.
func userRowLayout(s float64) (y0, rowH int) {
	if !(s > 0) {
		s = 1
	}
	return int(24*s) + int(4*s), int(18 * s)
}

// RenderUserRows draws the user events: one row per START/STOP label
// (Model.Labels order) with its spans as bars, and user markers as lines
// across the rows (opt.View is ignored). Each frame visits every user span.
func RenderUserRows(m *Model, opt Options) (*image.RGBA, error) {
	img, r, err := newFrame("rendering user rows", m, opt)
	if err != nil {
		return nil, err
	}
	r.drawAxis()
	y0, rowH := userRowLayout(r.s)
	fit := max((r.bottom-y0)/rowH, 0)
	rowOf := make(map[int32]int, len(m.Labels))
	for i := range m.Labels {
		rowOf[m.Labels[i].Label] = i
	}
	left, right := float64(r.gutter), float64(r.gutter+r.plotW)
	for i := 0; i < m.NumUserSpans(); i++ {
		sp := m.UserSpan(i)
		row, ok := rowOf[sp.Label]
		if !ok || row >= fit || sp.End < r.ax.From || sp.Start > r.ax.To {
			continue
		}
		x0 := math.Max(r.ax.X(sp.Start), left)
		x1 := math.Min(r.ax.X(sp.End), right)
		y := y0 + row*rowH
		r.fill(int(x0), y+int(2*r.s), max(int(math.Ceil(x1)), int(x0)+1), y+rowH-int(2*r.s), userRowColours[row%len(userRowColours)])
	}
	for i := range m.Labels[:min(fit, len(m.Labels))] {
		y := y0 + i*rowH
		r.fill(r.gutter, y+rowH-1, r.gutter+r.plotW, y+rowH, r.pal.RowRule)
		r.rowLabel(r.fit(m.String(m.Labels[i].Label), float64(r.gutter)-10*r.s), y, y+rowH)
	}
	if len(m.Labels) > fit {
		r.text(fmt.Sprintf("%d of %d labels shown", fit, len(m.Labels)), float64(r.w)-6*r.s, float64(r.bottom)+10*r.s, 1, 0.35, r.pal.Text)
	}
	if len(m.Labels) == 0 {
		r.text("no START/STOP user spans in this log", float64(r.gutter)+6*r.s, float64(y0+rowH/2), 0, 0.35, r.pal.Text)
	}
	r.drawMarkers(r.top, r.bottom)
	r.drawKey()
	return img, nil
}

// UserHit is what lies under a point of a RenderUserRows picture.
type UserHit struct {
	// Label is the row's index in Model.Labels, -1 if the point is on no row.
	Label int
	// Time is the time under the point.
	Time uint64
	// Span is the label's span holding Time; Found says whether there is one
	// (the latest-starting if several overlap).
	Span  UserSpan
	Found bool
}

// HitUserRows returns what lies at device pixel (x, y) of the picture
// RenderUserRows draws for opt.
func HitUserRows(m *Model, opt Options, x, y float64) UserHit {
	h := UserHit{Label: -1}
	to := opt.To
	if to == 0 {
		to = m.End
	}
	if to <= opt.From {
		return h
	}
	l := layoutTimeline(opt.Width, opt.Height, opt.Scale, 0)
	if x < float64(l.gutter) || x >= float64(l.gutter+l.plotW) {
		return h
	}
	s := opt.Scale
	if !(s > 0) {
		s = 1
	}
	y0, rowH := userRowLayout(s)
	fit := max((opt.Height-int(22*s)-y0)/rowH, 0)
	row := int(math.Floor((y - float64(y0)) / float64(rowH)))
	if y < float64(y0) || row >= min(fit, len(m.Labels)) {
		return h
	}
	ax := NewAxis(opt.From, to, float64(l.gutter), float64(l.plotW))
	h.Label, h.Time = row, ax.Time(x)
	// A span narrower than a pixel is found within the pixel's half-width.
	slack := uint64(math.Ceil(1 / ax.PixelsPerNs() / 2))
	label := m.Labels[row].Label
	for i := 0; i < m.NumUserSpans(); i++ {
		sp := m.UserSpan(i)
		if sp.Label == label && sp.Start <= h.Time+slack && h.Time <= sp.End+slack && (!h.Found || sp.Start > h.Span.Start) {
			h.Span, h.Found = sp, true
		}
	}
	return h
}
