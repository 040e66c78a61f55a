package app

import (
	"fmt"
	"image"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/live"
	"github.com/hecscope/hecscope/timeline"
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

// DefaultAttachURL is what the Attach dialog offers: the address hecscope
// relay listens on by default.
const DefaultAttachURL = "tcp://127.0.0.1:4242"

// Attach opens a window that watches the live eventlog stream at url (see
// ingest.OpenSource) and records it under the user's recordings directory.
func (a *App) Attach(url string) *Window {
	w := a.newWindow()
	w.attach(url, live.Options{})
	w.win.Show()
	return w
}

// chooseAttach asks for a stream's URL and attaches to it.
func (w *Window) chooseAttach() {
	entry := widget.NewEntry()
	entry.SetText(DefaultAttachURL)
	help := widget.NewLabel("tcp://HOST:PORT (hecscope relay), unix:///PATH (eventlog-socket),\nfifo:///PATH (+RTS -l -ol/PATH) or follow:///PATH (a growing file)")
	d := dialog.NewForm("Attach to a Running Program", "Attach", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("Stream", entry), widget.NewFormItem("", help)},
		func(ok bool) {
			url := strings.TrimSpace(entry.Text)
			if !ok || url == "" {
				return
			}
			if w.path == "" {
				w.attach(url, live.Options{})
				return
			}
			w.app.Attach(url)
		}, w.win)
	d.Resize(fyne.NewSize(560, 200))
	d.Show()
}

// attach shows the live streams at url in this window (see live.Session).
func (w *Window) attach(url string, opts live.Options) {
	w.cancelLoad()
	w.gen++
	w.path, w.loading = url, nil
	v := newLiveView(url, opts)
	w.view = v
	w.cancel = v.stop
	w.win.SetTitle(url + " — " + Name)
	w.win.SetContent(v.content())
	w.setMenu()
	v.start()
}

// liveView shows a live session as a full session: a status line, a
// Reconnect button once the stream has stopped, a choice to reconnect by
// itself, Pause, and the timeline of the current stream over the same tabs
// as a file window (Summary, GC, Sparks, Process, Selection, User Events,
// Events, Heap), all growing as data arrives. The models follow the
// stream's recording (live.Models), so memory stays bounded however long
// the program runs. The timeline is navigable (zoom, pan, select, hover)
// and follows the newest events until the user moves it away from the end;
// End or the Follow choice resumes following. Pause freezes what is shown
// while the recording goes on; End, the Follow choice or Resume takes up
// the newest data again. A new stream (the program's next run, or a
// reconnection) replaces what is shown only once its header has arrived.
type liveView struct {
	url  string
	opts live.Options

	// mu serialises start and refresh. Fyne runs both on its loop; its test
	// driver runs fyne.Do callbacks on the calling goroutine instead.
	mu      sync.Mutex
	session *live.Session
	stream  *live.Stream  // the stream drawn
	done    chan struct{} // closed by stop, ends the refreshing
	exited  chan struct{} // closed when the refreshing and bg have ended
	// bg counts the view's background work (a selection's summary), which
	// touches no widget once the view has stopped.
	bg sync.WaitGroup

	status    *widget.Label
	readout   *widget.Label // what the pointer is on
	reconnect *widget.Button
	auto      *widget.Check
	follow    *widget.Select
	pause     *widget.Button
	// paused freezes what is shown (the session records on).
	paused bool
	// nav is the HEC timeline of the current stream on its scale sc, made
	// when its first timed events arrive (nil before), and rows are all
	// its row groups (nav first); timelineBox holds them with the panel
	// that toggles them, or a note while there is nothing to draw.
	nav         *timelineNav
	rows        []*navRow
	sc          *navScale
	timelineBox *fyne.Container
	heap        *picture
	tabs        *container.AppTabs
	root        fyne.CanvasObject
	// panels are the tabs under the timeline, stale those not rebuilt
	// since the panels' snapshot changed (rebuilt when shown).
	panels map[*container.TabItem]func()
	stale  map[*container.TabItem]bool
	// The Selection tab and its generation (a slow summary of an old
	// selection is dropped); the Events tab once there is a timeline.
	selection *fyne.Container
	selGen    int
	events    *eventList
	eventsBox *fyne.Container
	eventsTab *container.TabItem
	// syncing is set while the Follow choice is changed to match the view
	// (its callback then does nothing).
	syncing bool

	// What was last drawn, and how long after its data: snap is the
	// models' snapshot shown, shown its timeline; ev the snapshot the tabs
	// show (taken at most every livePanelRefresh), panelsAt when.
	snap     *live.Snapshot
	shown    *timeline.Model
	span     uint64 // the width chosen under Follow (0: the whole run)
	ev       *Eventlog
	panelsAt time.Time
	lag      time.Duration
}

func newLiveView(url string, opts live.Options) *liveView {
	v := &liveView{url: url, opts: opts, heap: newPicture(nil), done: make(chan struct{}), exited: make(chan struct{})}
	v.status = widget.NewLabel("connecting…")
	v.status.Truncation = fyne.TextTruncateEllipsis
	v.readout = widget.NewLabel(liveReadoutHelp)
	v.readout.Truncation = fyne.TextTruncateEllipsis
	v.timelineBox = container.NewStack(widget.NewLabel(liveWaiting))
	v.reconnect = widget.NewButton("Reconnect", v.restart)
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
	v.follow.PlaceHolder = "Not following (End resumes)"
	v.follow.SetSelected(followSpans[0].label)
	v.pause = widget.NewButtonWithIcon("Pause", theme.MediaPauseIcon(), func() { v.setPaused(!v.paused) })
	header := widget.NewLabelWithStyle(url, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	header.Truncation = fyne.TextTruncateEllipsis
	top := container.NewBorder(nil, nil, nil, container.NewHBox(v.pause, widget.NewLabel("Follow"), v.follow, v.auto, v.reconnect), header)
	v.buildTabs()
	split := container.NewVSplit(v.timelineBox, v.tabs)
	split.Offset = 0.62
	v.root = container.NewBorder(top, container.NewVBox(v.readout, v.status), nil, nil, split)
	return v
}

// What the live window says before the pointer or the events arrive.
const (
	liveReadoutHelp = "Point at the timeline to read it. Wheel zooms, drag pans, Shift+drag selects; End follows the newest events again."
	liveWaiting     = "Waiting for timed events…"
)

// chooseFollow is the Follow choice: the timeline shows the chosen width at
// the run's end and follows it from now on. Choosing again resumes
// following after the user moved away.
func (v *liveView) chooseFollow(label string) {
	if v.syncing {
		return
	}
	v.setPaused(false)
	found := false
	for _, f := range followSpans {
		if f.label == label {
			v.span, found = f.span, true
		}
	}
	if found && v.sc != nil {
		v.sc.followLast(v.span)
	}
}

// syncFollow shows in the Follow choice whether the timeline follows the
// end: cleared (its placeholder says how to resume) once the user moved
// away, the matching width again when following resumes.
func (v *liveView) syncFollow() {
	if v.sc == nil {
		return
	}
	v.syncing = true
	defer func() { v.syncing = false }()
	if !v.sc.following() {
		if v.follow.Selected != "" {
			v.follow.ClearSelected()
		}
		return
	}
	w := v.sc.followed()
	for _, f := range followSpans {
		if f.span == w {
			if v.follow.Selected != f.label {
				v.follow.SetSelected(f.label)
			}
			return
		}
	}
}

// liveRowGroups are the row groups a live timeline offers besides the HEC
// rows: all of them, since a running program may start sparking or
// labelling at any time.
var liveRowGroups = []struct{ name, view string }{
	{"Threads (one row per thread)", "threads"},
	{"Activity per HEC", "activity"},
	{"Sparks per HEC", "sparks"},
	{"User events (START/STOP spans)", userView},
}

// showModel draws snapshot m of the current stream: the first one makes
// the navigable row groups, later ones extend them.
func (v *liveView) showModel(m *timeline.Model) {
	if v.nav != nil {
		for _, r := range v.rows {
			r.nav.setModel(m)
		}
		return
	}
	v.sc = newNavScale(m.End)
	v.sc.grows = true
	v.nav = newTimelineNav(m, v.sc, "timeline", nil)
	v.nav.autoFocus = true
	v.rows = []*navRow{{name: "HECs (activity and one row per HEC)", nav: v.nav, shown: true}}
	for _, g := range liveRowGroups {
		v.rows = append(v.rows, &navRow{name: g.name, nav: newTimelineNav(m, v.sc, g.view, nil)})
	}
	for _, r := range v.rows {
		r.nav.onHover = func(s string) {
			if s != "" {
				v.readout.SetText(s)
			}
		}
		r.nav.onDetails = func(facts []fact) { v.readout.SetText(factsLine(facts)) }
	}
	v.sc.onView = func(from, to uint64) {
		v.syncFollow()
		if v.events != nil && v.tabs.Selected() == v.eventsTab {
			v.events.viewChanged(from, to)
		}
	}
	v.sc.onSelect = func(_, _ uint64, _, final bool) {
		if final {
			v.showSelection()
		}
	}
	v.sc.onFollow = func() { v.setPaused(false) }
	v.sc.followLast(v.span)
	stack, side := rowPanels(v.rows)
	split := container.NewHSplit(container.NewVScroll(side), stack)
	split.Offset = 0.16
	v.timelineBox.Objects = []fyne.CanvasObject{split}
	v.timelineBox.Refresh()
}

// factsLine puts the details of a span on one line.
func factsLine(facts []fact) string {
	parts := make([]string, 0, len(facts))
	for _, f := range facts {
		parts = append(parts, f.label+": "+f.value)
	}
	return strings.Join(parts, " · ")
}

// viewText says what the timeline shows: following the end, or where it
// rests, and the selection.
func (v *liveView) viewText() string {
	if v.nav == nil {
		return ""
	}
	from, to := v.nav.View()
	var s string
	if v.sc.following() {
		s = fmt.Sprintf("following the newest events (%s shown)", timeline.FormatDuration(to-from))
	} else {
		s = fmt.Sprintf("view held at %s – %s (End follows again)", timeline.FormatDuration(from), timeline.FormatDuration(to))
	}
	if a, b, ok := v.nav.Selection(); ok {
		s += fmt.Sprintf(" · selected %s – %s (%s)", timeline.FormatDuration(a), timeline.FormatDuration(b), timeline.FormatDuration(b-a))
	}
	return s
}

func (v *liveView) content() fyne.CanvasObject { return v.root }

func (v *liveView) hasPicture() bool { return true }

// picture exports the heap chart when its tab is shown, else the timeline.
func (v *liveView) picture(scale float32) image.Image {
	if v.tabs.Selected() != nil && v.tabs.Selected().Text == "Heap" {
		return v.heap.export(scale)
	}
	if v.nav == nil {
		return nil
	}
	return v.nav.pic.export(scale)
}

// start starts the session and the refreshing of the picture.
func (v *liveView) start() {
	v.mu.Lock()
	defer v.mu.Unlock()
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
			onUI(func() {
				v.mu.Lock()
				defer v.mu.Unlock()
				if v.session == session {
					v.refresh()
				}
			})
		}
	}()
}

// stop ends the session (when the window closes or shows something else);
// the recordings are finished in the background.
func (v *liveView) stop() {
	v.mu.Lock()
	defer v.mu.Unlock()
	select {
	case <-v.done:
		return
	default:
	}
	close(v.done)
	if s := v.session; s != nil {
		go s.Close()
	}
}

// stopped reports whether stop has been called.
func (v *liveView) stopped() bool {
	select {
	case <-v.done:
		return true
	default:
		return false
	}
}

// restart is the Reconnect button: a new connection, while what is shown
// stays until the new stream's header has arrived.
func (v *liveView) restart() {
	if v.session != nil {
		v.session.Reconnect()
	}
}

// refresh redraws what has arrived since the last refresh and updates the
// status line. It runs on Fyne's loop, with v.mu held.
func (v *liveView) refresh() {
	st := v.session.Status()
	now := time.Now()
	if cur := st.Stream; cur != v.stream {
		// A new stream has its own run and scale.
		v.stream, v.snap, v.shown, v.ev = cur, nil, nil, nil
		v.nav, v.rows, v.sc, v.events = nil, nil, nil, nil
		v.timelineBox.Objects = []fyne.CanvasObject{widget.NewLabel(liveWaiting)}
		v.timelineBox.Refresh()
		v.eventsBox.Objects = []fyne.CanvasObject{widget.NewLabel(liveWaiting)}
		v.eventsBox.Refresh()
		v.heap.set(nil)
		v.setPaused(false)
	}
	if m := v.models(); m != nil && !v.paused {
		if snap := m.Snapshot(); snap != nil && snap != v.snap {
			v.snap = snap
			if tm := snap.Model; tm != nil && tm != v.shown && tm.End > 0 {
				v.shown = tm
				if !st.Stats.LastData.IsZero() {
					v.lag = now.Sub(st.Stats.LastData)
				}
				v.showModel(tm)
			}
		}
		if v.snap != nil && (v.ev == nil || v.ev.Events != v.snap.Events || (st.Stats.Done && v.ev.Status != v.snap.Status)) &&
			(now.Sub(v.panelsAt) >= livePanelRefresh || st.Stats.Done) {
			v.panelsAt = now
			v.showPanels(liveEventlog(v.recordingPath(), v.snap, m.Summary()))
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
	if st.Phase == live.PhaseEnded || st.Phase == live.PhaseFailed || (st.Phase == live.PhaseConnecting && st.Err != nil) {
		v.reconnect.Show()
	} else {
		v.reconnect.Hide()
	}
	if v.auto.Checked != st.Auto {
		v.auto.SetChecked(st.Auto)
	}
}

// models returns the models of the stream drawn, nil if there is none.
func (v *liveView) models() *live.Models {
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
