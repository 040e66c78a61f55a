package liveview

import (
	"fmt"
	"image"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/app/panels"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/live"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// liveRefresh is how often a live window redraws what has arrived.
const liveRefresh = 50 * time.Millisecond

// livePanelRefresh is how often the tabs under a live window's timeline
// (summary, GC, events, heap, …) are rebuilt: whole, so less often than
// the timeline.
const livePanelRefresh = time.Second

// followSpans are the widths a live timeline can show while it follows the
// run's end; 0 is the whole run.
var followSpans = []struct {
	label string
	span  uint64
}{{"Whole run", 0}, {"Last 10 s", 10e9}, {"Last 1 s", 1e9}, {"Last 100 ms", 100e6}}

// View shows a live session as a full session: a status line, a
// Reconnect button once the stream has stopped, a choice to reconnect by
// itself, Pause, and the timeline of the current stream — the same track
// canvas as a file window's (every track of the run under one time axis,
// heap included), drawn from the live models' followed recording — over
// the same tabs as a file window (Summary, GC, Sparks, Process,
// Selection, Details, User Events, Events), all growing as data arrives.
// The models follow the stream's recording (live.Models), so memory stays
// bounded however long the program runs. The canvas follows the newest
// events until the user moves it away from the end; End or the Follow
// choice resumes following. Pause freezes what is shown while the
// recording goes on; End, the Follow choice or Resume takes up the newest
// data again. A new stream (the program's next run, or a reconnection)
// replaces what is shown only once its header has arrived.
type View struct {
	url  string
	opts live.Options

	// Mu serialises start and refresh. Fyne runs both on its loop; its test
	// driver runs fyne.Do callbacks on the calling goroutine instead.
	Mu      sync.Mutex
	session *live.Session
	stream  *live.Stream  // the stream drawn
	done    chan struct{} // closed by stop, ends the refreshing
	exited  chan struct{} // closed when the refreshing, bg and the session have ended
	// bg counts the view's background work (a selection's summary, a
	// redraw once detail is ready), which touches no widget once the view
	// has stopped; bgMu keeps work from being added once it has.
	bg   sync.WaitGroup
	bgMu sync.Mutex

	status    *widget.Label
	readout   *widget.Label // what was last clicked on the canvas
	reconnect *widget.Button
	auto      *widget.Check
	follow    *widget.Select
	pause     *widget.Button
	// paused freezes what is shown (the session records on).
	paused bool
	// census is a census request being watched for (see watchCensus).
	census *censusRequest
	// waitingNote stands where the timeline will be until timed events
	// arrive: what the window waits for, and the status in full (the
	// status line cuts a long sentence, such as why a socket is silent).
	waitingNote *widget.Label
	// canvas is the timeline of the current stream, made when its first
	// timed events arrive (nil before), drawing src; timelineBox holds it,
	// or a note while there is nothing to draw.
	canvas      *trackcanvas.Canvas
	src         *liveSource
	timelineBox *fyne.Container
	tabs        *container.AppTabs
	root        fyne.CanvasObject
	// onHasSelection, set by the window, hears when the timeline gains or
	// loses its selection (a new stream's canvas has none).
	onHasSelection func(has bool)
	// panels are the tabs under the timeline, stale those not rebuilt
	// since the panels' snapshot changed (rebuilt when shown).
	panels map[*container.TabItem]func()
	stale  map[*container.TabItem]bool
	// The Selection tab and its generation (a slow summary of an old
	// selection is dropped); the Details tab; the Events tab once there is
	// a timeline.
	selection  *fyne.Container
	selGen     int
	details    *fyne.Container
	detailsTab *container.TabItem
	events     *panels.EventList
	eventsBox  *fyne.Container
	eventsTab  *container.TabItem
	// syncing is set while the Follow choice is changed to match the view
	// (its callback then does nothing).
	syncing bool

	// What was last drawn, and how long after its data: snap is the
	// models' snapshot shown, shown its timeline; ev the snapshot the tabs
	// show (taken at most every livePanelRefresh), panelsAt when.
	snap     *live.Snapshot
	shown    *timeline.Model
	span     uint64 // the width chosen under Follow (0: the whole run)
	ev       *loaded.Eventlog
	panelsAt time.Time
	lag      time.Duration
}

// liveSource is what a live window's canvas draws: the overview of the
// snapshot shown (which stays put while the view is paused) and detail
// decoded from the followed recording. Its fields change only under the
// canvas's lock, under which the canvas draws.
type liveSource struct {
	ov  *timeline.Model
	log *eventlog.Log // nil if the recording cannot be read
	// ready is called for the canvas when detail it asked for is ready.
	ready func()
	// heap and prof are the heap counters and profile the canvas shows.
	heap *heapview.Heap
	prof *heapview.Profile
}

// Overview returns the overview of the snapshot shown.
func (s *liveSource) Overview() *timeline.Model { return s.ov }

// Detail returns the recording's detail of [from, to), if it has any; the
// source's ready, not the canvas's, hears when detail being made is there.
func (s *liveSource) Detail(from, to uint64, nsPerPixel float64, threads bool, _ func()) *timeline.Model {
	if s.log == nil {
		return nil
	}
	return s.log.Detail(from, to, nsPerPixel, threads, s.ready)
}

// detailReady draws the canvas again once detail it asked for is ready
// (called from the goroutine that decoded it), unless the view has
// stopped: counted in bg, so that nothing draws after the window closed.
func (v *View) detailReady() {
	v.inBackground(func() {
		kit.OnUI(func() {
			v.Mu.Lock()
			defer v.Mu.Unlock()
			if v.canvas != nil && !v.stopped() {
				v.canvas.Redraw()
			}
		})
	})
}

// inBackground runs work on a goroutine counted in bg, unless the view
// has stopped: stop waits for bg, so that nothing the view started runs
// after its window closed.
func (v *View) inBackground(work func()) {
	v.bgMu.Lock()
	defer v.bgMu.Unlock()
	if v.stopped() {
		return
	}
	v.bg.Add(1)
	go func() {
		defer v.bg.Done()
		work()
	}()
}

// New returns the view of the live stream at url, not yet started (see
// Start).
func New(url string, opts live.Options) *View {
	v := &View{url: url, opts: opts, done: make(chan struct{}), exited: make(chan struct{})}
	v.status = widget.NewLabel("connecting…")
	v.status.Truncation = fyne.TextTruncateEllipsis
	v.readout = widget.NewLabel(liveReadoutHelp)
	v.readout.Truncation = fyne.TextTruncateEllipsis
	v.waitingNote = widget.NewLabel(liveWaiting)
	v.waitingNote.Wrapping = fyne.TextWrapWord
	v.timelineBox = container.NewStack(v.waitingNote)
	v.reconnect = widget.NewButton("Reconnect", v.Restart)
	v.reconnect.Hide()
	v.auto = widget.NewCheck("Reconnect by itself", func(on bool) {
		if v.session != nil {
			v.session.SetAutoReconnect(on)
		}
	})
	v.auto.SetChecked(opts.AutoReconnect)
	labels := make([]string, len(followSpans))
	for i, f := range followSpans {
		labels[i] = f.label
	}
	v.follow = widget.NewSelect(labels, v.chooseFollow)
	v.follow.PlaceHolder = notFollowing
	v.follow.SetSelected(followSpans[0].label)
	v.pause = widget.NewButtonWithIcon("Pause", theme.MediaPauseIcon(), func() { v.setPaused(!v.paused) })
	header := widget.NewLabelWithStyle(url, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	header.Truncation = fyne.TextTruncateEllipsis
	top := container.NewBorder(nil, nil, nil, container.NewHBox(v.pause, widget.NewLabel("Follow"), v.follow, v.auto, v.reconnect), header)
	v.buildTabs()
	split := container.NewVSplit(v.timelineBox, v.tabs)
	split.Offset = 0.7
	v.root = container.NewBorder(top, container.NewVBox(v.readout, v.status), nil, nil, split)
	return v
}

// What the live window says before a click or the events arrive.
const (
	liveReadoutHelp = "Wheel scrolls, Ctrl+wheel zooms, drag pans, Shift+drag selects, a click shows a span's details; End follows the newest events again."
	liveWaiting     = "Waiting for timed events…"
)

// chooseFollow is the Follow choice: the timeline shows the chosen width at
// the run's end and follows it from now on. Choosing again resumes
// following after the user moved away.
func (v *View) chooseFollow(label string) {
	if v.syncing {
		return
	}
	for _, f := range followSpans {
		if f.label == label {
			v.span = f.span
		}
	}
	v.setPaused(false)
	if v.canvas != nil {
		v.canvas.Follow(v.span)
	}
}

// syncFollow shows in the Follow choice whether the timeline follows the
// end: cleared (its placeholder says how to resume) once the user moved
// away, the matching width again when following resumes.
func (v *View) syncFollow() {
	if v.canvas == nil {
		return
	}
	v.syncing = true
	defer func() { v.syncing = false }()
	on, w := v.canvas.Following()
	if on {
		for _, f := range followSpans {
			if f.span == w {
				if v.follow.Selected != f.label {
					v.follow.SetSelected(f.label)
				}
				return
			}
		}
	}
	// Not following, or following a width of the user's (End after a
	// zoom): the placeholder says which.
	hold := notFollowing
	if on {
		hold = "Last " + paint.Duration(w)
	}
	if v.follow.Selected != "" || v.follow.PlaceHolder != hold {
		v.follow.PlaceHolder = hold
		v.follow.ClearSelected()
	}
}

// notFollowing is the Follow choice's placeholder when the view rests.
const notFollowing = "Not following (End resumes)"

// showModel draws snapshot snap of the current stream: the first one makes
// the canvas, later ones give it their data.
func (v *View) showModel(snap *live.Snapshot) {
	if v.canvas != nil {
		v.canvas.With(func(tv *tracks.View) {
			v.src.ov, v.src.log = snap.Model, snap.Log
			if v.src.heap != snap.Heap || v.src.prof != snap.Profile {
				v.src.heap, v.src.prof = snap.Heap, snap.Profile
				tv.SetHeap(snap.Heap, snap.Profile)
			}
			tv.SourceChanged()
		})
		v.canvas.Changed()
		return
	}
	v.src = &liveSource{ov: snap.Model, log: snap.Log, heap: snap.Heap, prof: snap.Profile, ready: v.detailReady}
	v.canvas = trackcanvas.New(v.src, snap.Heap, snap.Profile)
	v.canvas.AutoFocus = true
	v.canvas.OnHasSelection = v.onHasSelection
	v.canvas.SetGrowing(true)
	v.canvas.With(func(tv *tracks.View) { tv.Follow(v.span) })
	v.canvas.OnView = func(from, to uint64) {
		if on, _ := v.canvas.Following(); on && v.paused {
			v.setPaused(false) // End, while paused
		}
		v.syncFollow()
		if v.events != nil && v.tabs.Selected() == v.eventsTab {
			v.events.ViewChanged(from, to)
		}
	}
	v.canvas.OnSelect = func(_, _ uint64, _, final bool) {
		if final {
			v.showSelection()
		}
	}
	v.canvas.OnTap = v.showTap
	v.timelineBox.Objects = []fyne.CanvasObject{v.canvas}
	v.timelineBox.Refresh()
}

// showTap fills the Details tab with what was clicked on the canvas.
func (v *View) showTap(h tracks.Hit) {
	if len(h.Tip) == 0 {
		return
	}
	v.readout.SetText(strings.Join(h.Tip, " · "))
	panels.ShowHit(v.details, h)
	v.tabs.Select(v.detailsTab)
}

// viewText says what the timeline shows: following the end, or where it
// rests, and the selection.
func (v *View) viewText() string {
	if v.canvas == nil {
		return ""
	}
	from, to := v.canvas.View()
	step := panels.ReadoutStep(to - from)
	var s string
	if on, _ := v.canvas.Following(); on {
		s = fmt.Sprintf("following the newest events (%s shown)", paint.Duration(to-from))
	} else {
		s = fmt.Sprintf("view held at %s – %s (End follows again)", paint.Time(from, step), paint.Time(to, step))
	}
	if a, b, ok := v.canvas.Selection(); ok {
		s += fmt.Sprintf(" · selected %s – %s (%s)", paint.Time(a, step), paint.Time(b, step), paint.Duration(b-a))
	}
	return s
}

// Content returns the view's widgets.
func (v *View) Content() fyne.CanvasObject { return v.root }

// KeyTarget is the current stream's canvas, nil before its first timed
// events.
func (v *View) KeyTarget() kit.KeyTarget {
	if v.canvas == nil {
		return nil
	}
	return v.canvas
}

// HasPicture reports true: a live view exports its canvas's picture
// (none before the stream's first timed events).
func (v *View) HasPicture() bool { return true }

// Picture draws the timeline as the canvas shows it, at its size in
// device pixels for the pixel ratio scale; nil before the first timed
// events.
func (v *View) Picture(scale float32) image.Image { return v.canvas.Picture(scale) }

// Start starts the session and the refreshing of the picture.
func (v *View) Start() {
	v.Mu.Lock()
	defer v.Mu.Unlock()
	v.session = live.Start(v.url, v.opts)
	session := v.session
	go func() {
		defer close(v.exited)
		defer v.bg.Wait()
		tick := time.NewTicker(liveRefresh)
		defer tick.Stop()
		for {
			select {
			case <-v.done:
				return
			case <-tick.C:
			case <-session.Changed():
			}
			kit.OnUI(func() {
				v.Mu.Lock()
				defer v.Mu.Unlock()
				if v.session == session {
					v.refresh()
				}
			})
		}
	}()
}

// Stop ends the session (when the window closes or shows something else);
// the recordings are finished in the background (see Finished).
func (v *View) Stop() {
	v.Mu.Lock()
	defer v.Mu.Unlock()
	select {
	case <-v.done:
		return
	default:
	}
	v.bgMu.Lock()
	defer v.bgMu.Unlock()
	s := v.session
	if s == nil {
		// Never started: nothing refreshes, nothing is recorded.
		close(v.done)
		close(v.exited)
		return
	}
	// Counted in bg before done closes, so that the refreshing, which
	// waits for bg once done is closed, ends after the session has.
	v.bg.Add(1)
	close(v.done)
	go func() {
		defer v.bg.Done()
		s.Close()
	}()
}

// Finished returns a channel closed once the view has stopped and
// everything it started has ended: the refreshing, its background work,
// and its session, whose recordings are then complete on disk.
func (v *View) Finished() <-chan struct{} { return v.exited }

// stopped reports whether stop has been called.
func (v *View) stopped() bool {
	select {
	case <-v.done:
		return true
	default:
		return false
	}
}

// Restart is the Reconnect button: a new connection, while what is shown
// stays until the new stream's header has arrived.
func (v *View) Restart() {
	if v.session != nil {
		v.session.Reconnect()
	}
}

// refresh redraws what has arrived since the last refresh and updates the
// status line. It runs on Fyne's loop, with v.mu held.
func (v *View) refresh() {
	st := v.session.Status()
	now := time.Now()
	if cur := st.Stream; cur != v.stream {
		// A new stream has its own run and scale.
		v.stream, v.snap, v.shown, v.ev = cur, nil, nil, nil
		if v.canvas != nil && v.onHasSelection != nil {
			v.onHasSelection(false)
		}
		v.canvas, v.src, v.events = nil, nil, nil
		v.timelineBox.Objects = []fyne.CanvasObject{v.waitingNote}
		v.timelineBox.Refresh()
		v.eventsBox.Objects = []fyne.CanvasObject{widget.NewLabel(liveWaiting)}
		v.eventsBox.Refresh()
		v.setPaused(false)
	}
	if m := v.models(); m != nil && !v.paused {
		if snap := m.Snapshot(); snap != nil && snap != v.snap {
			if tm := snap.Model; tm != nil && tm != v.shown && tm.End > 0 {
				v.shown = tm
				if !st.Stats.LastData.IsZero() {
					v.lag = now.Sub(st.Stats.LastData)
				}
				v.showModel(snap)
			}
			v.snap = snap
		}
		if v.snap != nil && (v.ev == nil || v.ev.Events != v.snap.Events || (st.Stats.Done && v.ev.Status != liveStatus(v.snap, m))) &&
			(now.Sub(v.panelsAt) >= livePanelRefresh || st.Stats.Done) {
			v.panelsAt = now
			v.showPanels(liveEventlog(v.RecordingPath(), v.snap, m))
		}
	}
	text := st.Text
	if v.paused {
		text = "paused (recording goes on; Resume, End or Follow shows the newest data) · " + text
	} else if st.Phase == live.PhaseReceiving && v.shown != nil {
		text += fmt.Sprintf(" · view drawn %s after the data", roundDuration(v.lag))
	}
	if v.snap != nil && v.snap.Err != nil {
		text += " · " + v.snap.Err.Error()
	}
	if vt := v.viewText(); vt != "" {
		text += " · " + vt
	}
	v.status.SetText(text)
	if v.canvas == nil {
		if note := liveWaiting + "\n\n" + st.Text; v.waitingNote.Text != note {
			v.waitingNote.SetText(note)
		}
	}
	if st.Phase == live.PhaseEnded || st.Phase == live.PhaseFailed || (st.Phase == live.PhaseConnecting && st.Err != nil) {
		v.reconnect.Show()
	} else {
		v.reconnect.Hide()
	}
	if v.auto.Checked != st.Auto {
		v.auto.SetChecked(st.Auto)
	}
	v.watchCensus(now)
}

// models returns the models of the stream drawn, nil if there is none.
func (v *View) models() *live.Models {
	if v.stream == nil {
		return nil
	}
	return v.stream.Models()
}

// roundDuration rounds d for the status line.
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}

// TimelineCanvas returns the current stream's canvas, nil before its first
// timed events.
func (v *View) TimelineCanvas() *trackcanvas.Canvas {
	v.Mu.Lock()
	defer v.Mu.Unlock()
	return v.canvas
}

// WatchSelection has f called when the current stream's canvas, or any
// later one, gains or loses its selection.
func (v *View) WatchSelection(f func(has bool)) {
	v.Mu.Lock()
	defer v.Mu.Unlock()
	v.onHasSelection = f
	if v.canvas != nil {
		v.canvas.OnHasSelection = f
	}
}
