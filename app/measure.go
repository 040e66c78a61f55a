package app

import (
	"sync/atomic"
	"time"

	"github.com/hecscope/hecscope/app/kit"
)

// LoadResult is what one load in the measurement mode
// (`hecscope-gui --quit-after-load FILE`) read.
type LoadResult struct {
	// Path is the file loaded.
	Path string
	// Events is the number of events decoded: for a .hp heap profile, the
	// number of samples.
	Events int64
	// Err is why the load failed, nil if it did not.
	Err error
	// FirstPicture is when the window first drew a picture of the log:
	// the loading page's preview of what had been read so far, or the
	// loaded view if no preview was drawn before it.
	FirstPicture time.Time
}

// LoadAndQuit opens path in a new window as Open does and, once the whole
// file has loaded and the window has drawn what it shows (or the load has
// failed), calls done on Fyne's loop and quits the app. It is the
// measurement mode: what it costs to open a log and show it can be measured
// from outside the process. The file is not added to the recent files.
func (a *App) LoadAndQuit(path string, done func(LoadResult)) *Window {
	w := a.newWindow()
	w.unrecorded = true
	var first atomic.Int64 // unix nanoseconds of the first picture, 0 until then
	drawn := func() { first.CompareAndSwap(0, time.Now().UnixNano()) }
	w.onPreviewDrawn = drawn
	w.onLoaded = func(err error) {
		finish := func() {
			r := LoadResult{Path: w.path, Err: err}
			if t := first.Load(); t != 0 {
				r.FirstPicture = time.Unix(0, t)
			}
			if w.view != nil {
				r.Events = w.view.eventCount()
			}
			done(r)
			a.fa.Quit()
		}
		if w.view != nil && err == nil && w.view.whenDrawn(func() { drawn(); go kit.OnUI(finish) }) {
			return
		}
		finish()
	}
	w.load(path)
	w.win.Show()
	return w
}

func (v *eventlogView) whenDrawn(f func()) bool {
	if v.canvas == nil {
		return false
	}
	v.canvas.WhenDrawn(f)
	return true
}

func (v *heapProfileView) whenDrawn(f func()) bool {
	if v.chart == nil {
		return false
	}
	v.chart.WhenDrawn(f)
	return true
}
