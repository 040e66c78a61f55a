package app

import (
	"errors"
	"fmt"
	"image"
	"sync"
	"time"

	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// ZoomView is one view of a zoom benchmark: the time range [From, To).
type ZoomView struct{ From, To uint64 }

// ZoomResult is what a zoom benchmark (`hecscope-gui --bench-zoom FILE`)
// measured: for each view, how long it took from asking for it until a
// complete frame of it was drawn.
type ZoomResult struct {
	// Events is the number of events loaded.
	Events int64
	// Views are the views drawn, in the script's order; Frames their
	// times, Drawing how much of each was spent drawing (the rest waited
	// for detail), and Waits how many frames of each were drawn before the
	// detail it needed was there.
	Views   []ZoomView
	Frames  []time.Duration
	Drawing []time.Duration
	Waits   []int
	Err     error
}

// zoomViewTimeout bounds how long a view may wait for its detail, and
// maxZoomWaits how many frames may be drawn without it (detail that cannot
// be decoded is asked for again at each frame).
const (
	zoomViewTimeout = 2 * time.Minute
	maxZoomWaits    = 100
)

// BenchZoom opens path in a new window as LoadAndQuit does and, once it is
// loaded and drawn, draws the views script gives for the run [start, end)
// one after another through the window's track canvas at w×h device pixels
// (pixel ratio 1): for each, it sets the canvas's range and draws until a
// frame is complete — one that did not stand in the overview's coarser
// picture for detail still being decoded from the file — and times that.
// Then it calls done off Fyne's loop and quits the app. If keep is not
// nil, it is given each view's complete frame, after its time is taken.
func (a *App) BenchZoom(path string, w, h int, script func(start, end uint64) []ZoomView, keep func(view int, frame *image.RGBA), done func(ZoomResult)) *Window {
	win := a.newWindow()
	win.unrecorded = true
	finish := func(r ZoomResult) {
		done(r)
		kit.OnUI(a.fa.Quit)
	}
	win.onLoaded = func(err error) {
		if err != nil {
			go finish(ZoomResult{Err: err})
			return
		}
		ev := win.eventlog()
		var c *trackcanvas.Canvas
		if win.view != nil {
			c = win.view.TimelineCanvas()
		}
		if ev == nil || c == nil || ev.Log == nil {
			go finish(ZoomResult{Err: errors.New("the file has no timeline to zoom into")})
			return
		}
		c.WhenDrawn(func() {
			go func() {
				r := benchZoom(c, ev.Log, w, h, script, keep)
				r.Events = ev.Log.Events
				finish(r)
			}()
		})
	}
	win.load(path)
	win.win.Show()
	return win
}

// detailNeeder is the part of an eventlog.Log the benchmark asks whether a
// frame needs detail.
type detailNeeder interface {
	timeline.Source
	WantsDetail(nsPerPixel float64) bool
}

// watchedSource passes a log's overview and detail on to the canvas's
// view, noting whether a frame asked for detail that was not there yet,
// and signalling when detail it waited for is ready.
type watchedSource struct {
	detailNeeder
	mu      sync.Mutex
	missing bool // a Detail call since the last reset needed detail and got none
	ready   chan struct{}
}

func (s *watchedSource) Detail(from, to uint64, nsPerPixel float64, threads bool, ready func()) *timeline.Model {
	m := s.detailNeeder.Detail(from, to, nsPerPixel, threads, func() {
		select {
		case s.ready <- struct{}{}:
		default:
		}
		if ready != nil {
			ready()
		}
	})
	if m == nil && s.WantsDetail(nsPerPixel) {
		s.mu.Lock()
		s.missing = true
		s.mu.Unlock()
	}
	return m
}

// takeMissing reports whether a frame lacked detail since the last call.
func (s *watchedSource) takeMissing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.missing
	s.missing = false
	return m
}

// benchZoom draws the script's views on c, whose source is log, giving
// keep (if not nil) each view's complete frame.
func benchZoom(c *trackcanvas.Canvas, log detailNeeder, w, h int, script func(start, end uint64) []ZoomView, keep func(int, *image.RGBA)) ZoomResult {
	src := &watchedSource{detailNeeder: log, ready: make(chan struct{}, 1)}
	var views []ZoomView
	c.With(func(v *tracks.View) {
		// The benchmark draws in the window's place: detail that becomes
		// ready wakes it (src.ready), not a redraw of the window as well.
		v.SetOnReady(nil)
		v.SetSource(src)
	})
	var r ZoomResult
	var frame *image.RGBA
	// The window has drawn the whole run already; the view's new source
	// makes it lay out its tracks and legend again, which the first view
	// would otherwise be charged for. The script is asked for after.
	c.Render(w, h, 1, &frame)
	ov := log.Overview()
	views = script(ov.Start, ov.End)
	for i, zv := range views {
		start := time.Now()
		c.With(func(v *tracks.View) { v.SetRange(zv.From, zv.To) })
		waits := 0
		var drawing time.Duration
		for {
			src.takeMissing()
			t := time.Now()
			c.Render(w, h, 1, &frame)
			drawing += time.Since(t)
			if !src.takeMissing() {
				break
			}
			if waits++; waits > maxZoomWaits {
				r.Err = fmt.Errorf("the view of %d–%d ns had no detail after %d tries", zv.From, zv.To, waits)
				return r
			}
			select {
			case <-src.ready:
			case <-time.After(zoomViewTimeout):
				r.Err = fmt.Errorf("the view of %d–%d ns had no detail after %v", zv.From, zv.To, zoomViewTimeout)
				return r
			}
		}
		r.Views = append(r.Views, zv)
		r.Frames = append(r.Frames, time.Since(start))
		r.Drawing = append(r.Drawing, drawing)
		r.Waits = append(r.Waits, waits)
		if keep != nil {
			keep(i, frame)
		}
	}
	return r
}
