package tracks

import (
	"image"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// SetSpansByLabel shows the START/STOP spans of the User events group in
// a track per label (on) or, the default, in a track per thread, the
// spans nested in others a row below them.
func (v *View) SetSpansByLabel(on bool) {
	if v.spansByLabel != on {
		v.spansByLabel = on
		v.version++
	}
}

// SpansByLabel reports whether the spans are shown by label
// (SetSpansByLabel).
func (v *View) SpansByLabel() bool { return v.spansByLabel }

// SpanTrack returns the track that shows user span sp of the overview:
// its label's, or its thread's.
func (v *View) SpanTrack(sp timeline.UserSpan) TrackID {
	if v.spansByLabel {
		return TrackID{KindUserLabel, uint32(sp.Label)}
	}
	ov := v.overview()
	if ov == nil {
		return TrackID{KindUserThread, sp.Thread}
	}
	return TrackID{KindUserThread, spanThread(ov, sp)}
}

// spansWords returns the words of the User events title's switch: how
// the spans are shown now.
func (v *View) spansWords() string {
	if v.spansByLabel {
		return "by label"
	}
	return "by thread"
}

// hasSpans reports whether the run has START/STOP spans, which the User
// events title's switch then shows by thread or by label.
func (v *View) hasSpans() bool {
	ov := v.overview()
	return ov != nil && len(ov.Labels) > 0
}

// spansPart returns where the User events title row drawn from y0 to y1
// has its switch between spans by thread and by label: at the right of
// the headers' column (empty when the run has no spans).
func (f *frame) spansPart(y0, y1 int) image.Rectangle {
	if !f.v.hasSpans() {
		return image.Rectangle{}
	}
	w := f.small.Width(f.v.spansWords()) + px(8, f.s)
	h := min(f.small.Height()+px(4, f.s), y1-y0)
	top := (y0 + y1 - h) / 2
	right := f.g.header.Max.X - px(4, f.s)
	return image.Rect(right-w, top, right, top+h)
}

// drawSpansSwitch draws the User events title's switch in rect: the way
// the spans are shown, in a box.
func (f *frame) drawSpansSwitch(rect image.Rectangle) {
	ink := f.th.Text
	x0, y0, x1, y1 := float64(rect.Min.X)+0.5, float64(rect.Min.Y)+0.5, float64(rect.Max.X)-0.5, float64(rect.Max.Y)-0.5
	f.c.Polyline([]paint.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}}, 1, paint.WithAlpha(f.th.Dim, 0xa0))
	f.c.Text(f.small, f.v.spansWords(), rect.Min.X+px(4, f.s), f.small.Baseline(float64(rect.Min.Y+rect.Max.Y)/2), ink)
}
