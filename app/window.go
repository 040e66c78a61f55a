package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/liveview"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/app/panels"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/live"
	"github.com/hecscope/hecscope/tracks"
)

// Window is one hecscope window: the start page, or one file being loaded
// or shown.
type Window struct {
	app *App
	win fyne.Window

	// path is the file shown, "" on the start page; segment is which
	// eventlog of it (0-based), for a file holding several one after
	// another (see segmentchooser.go), and segments how many it holds (0
	// until known).
	path     string
	segment  int
	segments int
	// gen counts loads, so that the result of a superseded load is dropped.
	gen    int
	cancel context.CancelFunc

	// loading is the progress view while a load runs.
	loading *loadingView
	// view is what the window shows once loaded (nil on the start page,
	// while loading, or after a failed load).
	view fileView

	// onLoaded, if set, is called on Fyne's loop once a load has finished
	// and its view (or error page) is in the window; err is why it failed.
	onLoaded func(err error)
	// unrecorded keeps the window's files out of the recent-files list.
	unrecorded bool
	// onPreviewDrawn, if set, is called from the goroutine that draws once
	// the loading page has first drawn a picture of what has been read.
	onPreviewDrawn func()
	// selItems are the File menu's exports of the timeline's selection,
	// enabled only while there is one.
	selItems []*fyne.MenuItem
}

// fileView is what a window shows once loaded: an eventlog, a heap
// profile or a live stream. It is all the window asks of it, whichever it
// is.
type fileView interface {
	// Content returns the view's widgets.
	Content() fyne.CanvasObject
	// HasPicture reports whether the view shows a picture that can be
	// exported.
	HasPicture() bool
	// Picture draws the view's picture as the window shows it, at its size
	// in device pixels for the pixel ratio scale; nil if it cannot.
	Picture(scale float32) image.Image
	// KeyTarget returns the time view the keys act on, nil if none.
	KeyTarget() kit.KeyTarget
	// TimelineCanvas returns the track canvas shown now, nil while there
	// is none.
	TimelineCanvas() *trackcanvas.Canvas
	// WatchSelection has f called, on Fyne's loop, whenever the timeline
	// gains or loses its selection.
	WatchSelection(f func(has bool))

	// eventlog returns the eventlog the view shows, nil for a heap
	// profile or a live stream.
	eventlog() *loaded.Eventlog
	// opened is called once w shows the view, after its load.
	opened(w *Window)
	// restart reads the view's source again itself and reports whether it
	// did (a live stream reconnects); false leaves the reload to the
	// window.
	restart() bool
	// menus returns the view's own menus for the window's menu bar.
	menus(win fyne.Window) []*fyne.Menu
	// recording returns the file a live stream is recorded to ("" while
	// there is none yet) and true; false for a file's view.
	recording() (path string, live bool)
	// whenDrawn arranges for f to be called once, from the goroutine that
	// draws, after the view's picture has been drawn, and reports whether
	// it will be (false: the view has no picture to wait for).
	whenDrawn(f func()) bool
	// eventCount returns how many events (of a heap profile: samples) the view
	// holds.
	eventCount() int64
	// arrange shows the view as a snapshot asks (opt): its tracks, range,
	// tab and selection.
	arrange(opt SnapshotOptions) error
	// layOut adds where the view's parts are to lay.
	layOut(lay *Layout)
	// finderItems returns what the finder offers of the view (its
	// tracks, labels and markers).
	finderItems() []findItem
	// release frees what the view holds; the view is not shown again
	// afterwards.
	release()
}

// eventlog returns the eventlog the window shows, nil if it shows none.
func (w *Window) eventlog() *loaded.Eventlog {
	if w.view == nil {
		return nil
	}
	return w.view.eventlog()
}

// recording returns where the window's live stream is recorded, and
// whether it shows one (see fileView.recording).
func (w *Window) recording() (path string, live bool) {
	if w.view == nil {
		return "", false
	}
	return w.view.recording()
}

// plainView is what a view that has none of fileView's extras answers:
// embedded, it gives the view the methods it does not define itself.
type plainView struct{}

func (plainView) eventlog() *loaded.Eventlog     { return nil }
func (plainView) opened(*Window)                 {}
func (plainView) restart() bool                  { return false }
func (plainView) menus(fyne.Window) []*fyne.Menu { return nil }
func (plainView) recording() (string, bool)      { return "", false }
func (plainView) whenDrawn(func()) bool          { return false }
func (plainView) eventCount() int64              { return 0 }
func (plainView) arrange(SnapshotOptions) error  { return nil }
func (plainView) layOut(*Layout)                 {}
func (plainView) finderItems() []findItem        { return nil }
func (plainView) release()                       {}

// liveFile is a live stream's view as a window shows it.
type liveFile struct {
	*liveview.View
	plainView
}

func (v liveFile) restart() bool { v.Restart(); return true }

func (v liveFile) menus(win fyne.Window) []*fyne.Menu {
	return []*fyne.Menu{v.ControlMenu(win)}
}

func (v liveFile) recording() (string, bool) {
	v.Mu.Lock()
	defer v.Mu.Unlock()
	return v.RecordingPath(), true
}

// Fyne returns the underlying Fyne window.
func (w *Window) Fyne() fyne.Window { return w.win }

// Path returns the file the window shows, or "" for the start page.
func (w *Window) Path() string { return w.path }

// Reload reads the window's file again from disk.
func (w *Window) Reload() {
	if w.view != nil && w.view.restart() {
		return
	}
	if w.path != "" {
		w.loadSegment(w.path, w.segment, w.segments)
	}
}

func (w *Window) showStart() {
	w.cancelLoad()
	w.releaseView()
	w.path, w.view, w.loading = "", nil, nil
	w.segment, w.segments = 0, 0
	w.win.SetTitle(Name)
	w.setContent(newStartPage(w.app.recent.List(), w.chooseFile, w.openHere))
	w.setMenu()
}

// openHere opens path in this window if it is empty (the start page, or
// the error page of a file that could not be opened), else in a new
// window: a window shows one file, and opening another never replaces it.
func (w *Window) openHere(path string) {
	if w.empty() {
		w.load(path)
		return
	}
	w.app.Open(path)
}

// empty reports whether the window shows no file and is not loading one.
func (w *Window) empty() bool { return w.view == nil && w.loading == nil }

// chooseFile asks for a file and opens it.
func (w *Window) chooseFile() {
	kit.PickFileToOpen(w.win, w.app.useNative, "Open a GHC eventlog or heap profile", w.openHere)
}

func (w *Window) dropped(uris []fyne.URI) {
	for _, u := range uris {
		if u.Scheme() != "file" {
			continue
		}
		w.openHere(u.Path())
	}
}

func (w *Window) cancelLoad() {
	if w.cancel != nil {
		w.cancel()
		w.cancel = nil
	}
}

// load starts loading path into this window in the background.
func (w *Window) load(path string) { w.loadSegment(path, 0, 0) }

// loadSegment starts loading segment seg (0-based) of path into this
// window in the background; of is how many segments the file is known to
// hold (0 if not known yet), for the titles.
func (w *Window) loadSegment(path string, seg, of int) {
	w.cancelLoad()
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	w.gen++
	gen := w.gen
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	w.releaseView()
	w.path, w.view = path, nil
	w.segment, w.segments = seg, of
	current := func() bool { return w.gen == gen }
	// Reading starts before the loading page is made (making it measures
	// text, which costs a first window a tenth of a second of fonts); what
	// it reports until then is kept, the latest overview with it, and shown
	// as soon as the page is there: a big log's first overview comes within
	// a tenth of a second, and the next a quarter of a second later.
	// Progress without an overview is shown at most every
	// progressShownEvery.
	// The load waits after its first overview until it is drawn
	// (previewDrawn), at most firstPreviewWait: the window's first frame,
	// made meanwhile on the UI thread, came later while the loader kept
	// both cores busy (the ~170 MB logs' first pictures, medians of five
	// alternating runs: 0.29 → 0.24 s, 0.26 → 0.22 s, 0.25 → 0.21 s; their
	// full pictures no later).
	pageMade, previewDrawn := make(chan struct{}), make(chan struct{})
	var early heldProgress
	var lastShown atomic.Int64 // when the last report was shown, in unix ns
	var firstOverview atomic.Bool
	show := func(p loaded.Progress) {
		p, held := early.hold(p)
		if held {
			return
		}
		// Not before the page's maker has shown the report held for it
		// (with Fyne's test driver, which runs OnUI at once, the two
		// would update the page together).
		<-pageMade
		now := time.Now().UnixNano()
		if p.Model == nil && p.Bytes < p.Total && time.Duration(now-lastShown.Load()) < progressShownEvery {
			return
		}
		lastShown.Store(now)
		kit.OnUI(func() {
			if current() && w.loading != nil {
				w.loading.update(p)
			}
		})
	}
	report := func(p loaded.Progress) {
		first := p.Model != nil && p.Model.Growing && firstOverview.CompareAndSwap(false, true)
		show(p)
		if first {
			select {
			case <-previewDrawn:
			case <-ctx.Done():
			case <-time.After(firstPreviewWait):
			}
		}
	}
	go func() {
		makeView, release, err := loadView(ctx, path, seg, report)
		<-pageMade
		kit.OnUI(func() {
			if !current() {
				if release != nil {
					release()
				}
				return
			}
			w.cancel = nil
			w.loading = nil
			var view fileView
			if err == nil {
				view = makeView()
			} else if release != nil {
				release()
			}
			if err != nil {
				if errors.Is(err, os.ErrNotExist) {
					w.app.recent.Remove(path)
				}
				w.setContent(newErrorPage(err, w.Reload, w.chooseFile))
			} else {
				w.view = view
				view.opened(w)
				w.setContent(view.Content())
			}
			w.setMenu()
			if w.onLoaded != nil {
				w.onLoaded(err)
			}
			if w.app.loaded != nil {
				w.app.loaded(w)
			}
		})
	}()
	w.loading = newLoadingView(path, loaded.SegmentName(seg, of))
	w.loading.picture.WhenDrawn(func() {
		close(previewDrawn)
		if w.onPreviewDrawn != nil {
			w.onPreviewDrawn()
		}
	})
	w.setTitle()
	w.setContent(w.loading.root)
	if !w.unrecorded {
		w.app.recent.Add(path)
	}
	w.setMenu()
	if p, ok := early.release(); ok {
		lastShown.Store(time.Now().UnixNano())
		w.loading.update(p)
	}
	close(pageMade)
}

// firstPreviewWait is the longest a load waits for its first overview to
// be drawn (see loadSegment).
const firstPreviewWait = 300 * time.Millisecond

// progressShownEvery is the least time between two progress reports shown
// while a log loads: each redraws the window, which costs a software
// renderer (Mesa's llvmpipe) a few milliseconds of both cores.
const progressShownEvery = 250 * time.Millisecond

// heldProgress keeps a load's progress until the page that shows it is
// made: the latest report, with the latest overview any report brought,
// is shown as soon as the page is there (release), by the page's maker on
// Fyne's loop; every later report goes out from the loading goroutine.
type heldProgress struct {
	mu       sync.Mutex
	released bool
	last     *loaded.Progress
}

// hold keeps p if the page is not made yet (held); otherwise it returns p
// to show.
func (h *heldProgress) hold(p loaded.Progress) (show loaded.Progress, held bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.released {
		if h.last != nil && p.Model == nil {
			p.Model = h.last.Model
		}
		h.last = &p
		return p, true
	}
	return p, false
}

// release says the page is made, and returns the report held for it, if
// any: from then on hold keeps nothing. (Waiting for the next report to
// carry it, up to 50 ms later, made a big log's first picture wait too.)
func (h *heldProgress) release() (held loaded.Progress, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.released = true
	if h.last == nil {
		return loaded.Progress{}, false
	}
	held, h.last = *h.last, nil
	return held, true
}

// loadView reads path, an eventlog or a textual heap profile, off Fyne's
// loop, and returns what builds its view; call that on Fyne's loop, as
// widgets must be made there (they measure text through caches that only
// Fyne's loop may touch). release, if not nil, frees what was loaded when
// no view is made of it.
func loadView(ctx context.Context, path string, seg int, report func(loaded.Progress)) (makeView func() fileView, release func(), err error) {
	isHP, err := looksLikeHeapProfile(path)
	if err != nil {
		return nil, nil, err
	}
	if isHP && seg != 0 {
		return nil, nil, fmt.Errorf("loading %s: no segment %d: a .hp heap profile is one run", path, seg+1)
	}
	if isHP {
		p, err := loaded.LoadHeapProfile(ctx, path, report)
		if err != nil {
			return nil, nil, err
		}
		return func() fileView { return newHeapProfileView(path, p) }, nil, nil
	}
	ev, err := loaded.LoadEventlog(ctx, path, eventlog.Options{Segment: seg}, report)
	if err != nil {
		return nil, nil, err
	}
	// The findings are flagged on the canvas from the start. It costs a
	// tenth of the time loading took or less on a quiet machine (advise's
	// package doc), up to a quarter on a busy one (a 178 MB log: 0.12 to
	// 0.52 s after 1.7 to 3.0 s), but makes the window draw the same
	// flags whenever it is looked at. What the view derives before its
	// first picture is made meanwhile (storm170: the findings 0.3 s of
	// CPU, shared out over the cores, the legend's inks 0.04 s, as its
	// 1.6 M finished threads were summed up as they loaded; user170: the
	// spans' rows, 0.10–0.11 s, user1g 0.65–0.73 s).
	prepared := make(chan *tracks.Prepared, 1)
	go func() { prepared <- tracks.Prepare(ev.Model) }()
	ev.Findings, _ = panels.Analyzer(ev)(0, 0)
	ev.Analysed = true
	ev.Prepared = <-prepared
	return func() fileView { return newEventlogView(ev) }, func() { go ev.Log.Close() }, nil
}

// releaseView frees what the window's view holds; the view is not shown
// again afterwards.
func (w *Window) releaseView() {
	if w.view != nil {
		w.view.release()
	}
}

// looksLikeHeapProfile tells a textual .hp heap profile from an eventlog:
// by the eventlog magic first, then by the name or the JOB line.
func looksLikeHeapProfile(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, fmt.Errorf("opening %s: %w", path, err)
	}
	defer f.Close()
	head := make([]byte, 8)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return false, fmt.Errorf("reading %s: %w", path, err)
	}
	head = head[:n]
	if bytes.Equal(head, []byte("hdrbhetb")) {
		return false, nil
	}
	return strings.EqualFold(filepath.Ext(path), ".hp") || bytes.HasPrefix(head, []byte(`JOB "`)), nil
}

// recentChanged refreshes what shows the recent files.
func (w *Window) recentChanged() {
	if w.path == "" {
		w.setContent(newStartPage(w.app.recent.List(), w.chooseFile, w.openHere))
	}
	w.setMenu()
}

// exportImage asks where to save and writes the view's picture as PNG, at
// the size the window shows it in device pixels times zoom (2 for a
// picture as sharp on a screen of twice the density), then says where it
// went.
func (w *Window) exportImage(zoom float32) {
	if w.view == nil {
		return
	}
	img := w.view.Picture(w.win.Canvas().Scale() * zoom)
	if img == nil {
		dialog.ShowInformation("Export", "There is no picture to export.", w.win)
		return
	}
	name := w.fileStem()
	if zoom != 1 {
		name += fmt.Sprintf("@%gx", zoom)
	}
	kit.PickFileToSave(w.win, w.app.useNative, "Export the view as PNG", name+".png", kit.PNGFilters, func(path string) {
		if err := trackcanvas.WritePNG(path, img); err != nil {
			dialog.ShowError(err, w.win)
			return
		}
		b := img.Bounds()
		dialog.ShowInformation("Export", kit.ExportedMessage("the view", b.Dx(), b.Dy(), []string{path}), w.win)
	})
}

// shortcut returns the platform's primary-modifier shortcut for key.
func shortcut(key fyne.KeyName) fyne.Shortcut {
	return &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault}
}

// setMenu builds the window's menus for what it shows now, and binds their
// keyboard shortcuts.
func (w *Window) setMenu() {
	open := fyne.NewMenuItem("Open…", w.chooseFile)
	open.Shortcut = shortcut(fyne.KeyO)

	recent := fyne.NewMenuItem("Open Recent", nil)
	var items []*fyne.MenuItem
	for _, p := range w.app.recent.List() {
		items = append(items, fyne.NewMenuItem(p, func() { w.openHere(p) }))
	}
	if len(items) > 0 {
		items = append(items, fyne.NewMenuItemSeparator(), fyne.NewMenuItem("Clear Recent Files", w.app.recent.Clear))
	} else {
		none := fyne.NewMenuItem("No recent files", nil)
		none.Disabled = true
		items = append(items, none)
	}
	recent.ChildMenu = fyne.NewMenu("", items...)

	file := []*fyne.MenuItem{open, recent, fyne.NewMenuItem("Attach…", w.chooseAttach)}
	canvas := w.win.Canvas()
	bind := func(item *fyne.MenuItem) {
		canvas.AddShortcut(item.Shortcut, func(fyne.Shortcut) { item.Action() })
	}
	bind(open)
	for _, key := range []fyne.KeyName{fyne.KeyR, fyne.KeyE} {
		canvas.RemoveShortcut(shortcut(key))
	}
	if w.path != "" {
		reload := fyne.NewMenuItem("Reload", w.Reload)
		reload.Shortcut = shortcut(fyne.KeyR)
		file = append(file, reload)
		bind(reload)
	}
	file = append(file, w.exportMenuItems(bind)...) // app/export.go
	file = append(file, w.dataExportMenuItems()...) // app/exportdata.go
	file = append(file, w.libraryMenuItems()...)
	closeItem := fyne.NewMenuItem("Close Window", w.win.Close)
	closeItem.Shortcut = shortcut(fyne.KeyW)
	bind(closeItem)
	file = append(file, fyne.NewMenuItemSeparator(), closeItem)

	// The finder: Ctrl+P from the menu (menu shortcuts work whatever has
	// the keyboard), Ctrl+K on the canvas (and passed on by text fields).
	goTo := fyne.NewMenuItem("Go to…", w.showFinder)
	goTo.Shortcut = shortcut(fyne.KeyP)
	canvas.AddShortcut(shortcut(fyne.KeyK), func(fyne.Shortcut) { w.showFinder() })

	about := fyne.NewMenuItem("About hecscope", func() { showAbout(w.win) })
	keys := fyne.NewMenuItem("Keyboard Shortcuts", func() { showShortcuts(w.win) })
	menus := []*fyne.Menu{fyne.NewMenu("File", file...), fyne.NewMenu("View", goTo)}
	if w.view != nil {
		menus = append(menus, w.view.menus(w.win)...)
	}
	w.win.SetMainMenu(fyne.NewMainMenu(append(menus, fyne.NewMenu("Help", keys, about))...))
}

// ingestStatusNotice describes a load that did not end cleanly, or returns
// "" for a complete log.
func ingestStatusNotice(ev *loaded.Eventlog) string {
	var b strings.Builder
	// Offsets count from the start of the file, a segment's too.
	of := fmt.Sprintf("of %d bytes", ev.Size)
	if g, ok := ev.SegmentBytes(); ok {
		of = fmt.Sprintf("(its bytes are %d–%d of the file)", g.Offset, g.End)
	}
	switch ev.Status.State {
	case ingest.StateTruncated:
		fmt.Fprintf(&b, "This eventlog is %s %s: it ends inside an event or before its end marker, "+
			"as when the program was killed or is still writing.", ev.Status, of)
	case ingest.StateCorrupt:
		fmt.Fprintf(&b, "This eventlog is %s.", ev.Status)
	case ingest.StateComplete:
		if ev.Status.Trailing > 0 {
			fmt.Fprintf(&b, "The %d bytes after the end marker were ignored.", ev.Status.Trailing)
		}
	}
	if b.Len() > 0 && ev.Status.State != ingest.StateComplete {
		fmt.Fprintf(&b, " Shown: the %d events before that point.", ev.Events)
	}
	// say adds a sentence.
	say := func(format string, args ...any) {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, format, args...)
	}
	cf, tf := ev.Summary.CapFaults, ev.Summary.TimeFaults
	if ev.Log != nil {
		cf, tf = ev.Log.CapFaults, ev.Log.TimeFaults
	}
	if cf.Count > 0 {
		// A corrupt block marker: its events are on a capability the
		// run never had, and missing from the one they belong to.
		say("This eventlog is damaged: %s. Such blocks' events are shown on the capability they claim.", cf)
	}
	if tf.Count > 0 {
		// The summary and the CLI say so; the window said nothing, and a
		// block of a capability drawn idle for a while was unexplained.
		say("This eventlog is damaged: %s. Such events are shown at the latest time their block allows.", tf)
	}
	return b.String()
}

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
	v := liveview.New(url, opts)
	w.app.watchLive(v)
	w.view = liveFile{View: v}
	w.cancel = v.Stop
	w.win.SetTitle(url + " — " + Name)
	w.win.SetContent(v.Content())
	w.setMenu()
	v.Start()
}

// chooseCompare asks for two eventlogs, Run A then Run B, each chooser
// saying which it asks for, and opens a window comparing them.
func (w *Window) chooseCompare() {
	kit.PickRunToOpen(w.win, w.app.useNative, chooseRunATitle, func(pathA string) {
		kit.PickRunToOpen(w.win, w.app.useNative, chooseRunBTitle, func(pathB string) {
			w.app.OpenCompare(pathA, "", pathB, "")
		})
	})
}

// chooseCompareWith asks for a second eventlog and compares it (B) with the
// window's (A).
func (w *Window) chooseCompareWith() {
	a, seg, nameA := w.path, w.segment, ""
	if s := loaded.SegmentName(w.segment, w.segments); s != "" {
		nameA = filepath.Base(a) + " (" + s + ")"
	}
	shown := nameA
	if shown == "" {
		shown = filepath.Base(a)
	}
	kit.PickRunToOpen(w.win, w.app.useNative, "Compare with "+shown+" (Run A): choose Run B", func(pathB string) {
		w.app.openCompareSegments([2]string{a, pathB}, [2]int{seg, 0}, [2]string{nameA, ""}, nil)
	})
}

// Titles of the file choosers of a comparison.
const (
	chooseRunATitle = "Compare: choose Run A (the run compared against)"
	chooseRunBTitle = "Compare: choose Run B (compared with Run A)"
)
