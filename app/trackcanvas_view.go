package app

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/panels"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// buildTimeline makes the view's timeline area: the track canvas of the
// run with the status line under it.
func (v *eventlogView) buildTimeline() fyne.CanvasObject {
	ev := v.log
	// The loaded log is the source: its overview, and the detail of a
	// range zoomed in past the overview's buckets, decoded from the file.
	var src timeline.Source = timeline.Exact(ev.Model)
	if ev.Log != nil {
		src = ev.Log
	}
	v.canvas = trackcanvas.New(src, ev.Heap, ev.Profile)
	v.canvas.AutoFocus = true
	v.canvas.With(func(tv *tracks.View) { tv.UsePrepared(ev.Prepared) })
	if ev.Model.NumThreads() > trackcanvas.ManyThreads {
		v.canvas.With(func(tv *tracks.View) { tv.SetCollapsed(tracks.GroupThreads, true) })
	}
	v.status = widget.NewLabel("")
	v.status.Truncation = fyne.TextTruncateEllipsis
	return container.NewBorder(nil, v.status, nil, nil, v.canvas)
}

// showAllTracks expands every group of the canvas and gives the canvas
// most of the window's height (as dragging the divider to the tabs does).
func (v *eventlogView) showAllTracks() {
	if v.canvas == nil {
		return
	}
	v.setDivider(0.93)
	v.canvas.With(func(tv *tracks.View) {
		for g := tracks.Group(0); g < tracks.NumGroups; g++ {
			tv.SetCollapsed(g, false)
		}
	})
	v.canvas.Changed()
}

// hasPicture reports whether the view has a canvas to export.
func (v *eventlogView) HasPicture() bool { return v.canvas != nil }

// picture draws the timeline as the canvas shows it, at its size in
// device pixels for the pixel ratio scale.
func (v *eventlogView) Picture(scale float32) image.Image { return v.canvas.Picture(scale) }

// showTap fills the Details tab with what was clicked on the canvas.
func (v *eventlogView) showTap(h tracks.Hit) {
	if panels.ShowHit(v.details, h) && v.tabs != nil && v.detailsTab != nil {
		v.tabs.Select(v.detailsTab)
	}
}

// userBookmarks returns the user's bookmarks among bs, for the canvas.
func userBookmarks(bs []panels.Bookmark) []tracks.Bookmark {
	var out []tracks.Bookmark
	for _, b := range bs {
		if !b.Marker {
			out = append(out, tracks.Bookmark{Time: b.Time, Name: b.Name})
		}
	}
	return out
}

// prefSpansByLabel is the settings key that remembers whether the User
// events group shows its spans by label (1) or by thread (0).
const prefSpansByLabel = "tracks.spansByLabel"

// rememberSpans shows the spans as the settings say they were last shown
// and remembers each switch of the User events title.
func (v *eventlogView) rememberSpans(s Settings) {
	if v.canvas == nil {
		return
	}
	byLabel := s.FloatWithFallback(prefSpansByLabel, 0) == 1
	v.canvas.With(func(tv *tracks.View) { tv.SetSpansByLabel(byLabel) })
	v.canvas.OnTrackChange = func() {
		var now bool
		v.canvas.With(func(tv *tracks.View) { now = tv.SpansByLabel() })
		if now != byLabel {
			byLabel = now
			val := 0.0
			if now {
				val = 1
			}
			s.SetFloat(prefSpansByLabel, val)
		}
	}
}
