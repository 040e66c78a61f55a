package app

import (
	"context"
	"fmt"
	"image"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// liveRefresh is how often a live window redraws what has arrived.
const liveRefresh = 50 * time.Millisecond

// liveHeapRefresh is how often the heap chart of a live window is rebuilt
// (it is rebuilt whole, so less often than the timeline).
const liveHeapRefresh = time.Second

// followSpans are the time spans a live timeline can follow at its right
// edge; 0 is the whole run.
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
	w.attach(url, defaultRecorder)
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
				w.attach(url, defaultRecorder)
				return
			}
			w.app.Attach(url)
		}, w.win)
	d.Resize(fyne.NewSize(560, 200))
	d.Show()
}

// attach shows the live stream at url in this window.
func (w *Window) attach(url string, record func() (*ingest.Recorder, error)) {
	w.cancelLoad()
	w.gen++
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	w.path, w.loading = url, nil
	v := newLiveView(ctx, url, record)
	w.view = v
	w.win.SetTitle(url + " — " + Name)
	w.win.SetContent(v.content())
	w.setMenu()
	v.start()
}

// liveView shows a live stream: a status line, a Reconnect button once the
// stream has stopped, and the timeline and heap as they grow.
type liveView struct {
	ctx    context.Context
	url    string
	record func() (*ingest.Recorder, error)

	// mu serialises start and refresh. Fyne runs both on its loop; its test
	// driver runs fyne.Do callbacks on the calling goroutine instead.
	mu     sync.Mutex
	feed   *liveFeed
	cancel context.CancelFunc // stops the current feed

	status    *widget.Label
	reconnect *widget.Button
	follow    *widget.Select
	timeline  *picture
	heap      *picture
	tabs      *container.AppTabs
	root      fyne.CanvasObject

	// What was last drawn, and the rate measurement.
	shown      *timeline.Model
	span       uint64
	lastHeap   time.Time
	heapEvents int64
	lag        time.Duration
	rateAt     time.Time
	rateEvents int64
	rate       float64
}

func newLiveView(ctx context.Context, url string, record func() (*ingest.Recorder, error)) *liveView {
	v := &liveView{ctx: ctx, url: url, record: record, timeline: newPicture(nil), heap: newPicture(nil)}
	v.status = widget.NewLabel("connecting…")
	v.status.Truncation = fyne.TextTruncateEllipsis
	v.reconnect = widget.NewButton("Reconnect", v.restart)
	v.reconnect.Hide()
	labels := make([]string, len(followSpans))
	for i, f := range followSpans {
		labels[i] = f.label
	}
	v.follow = widget.NewSelect(labels, func(s string) {
		for _, f := range followSpans {
			if f.label == s {
				v.span = f.span
			}
		}
		v.shown = nil // redraw at the next refresh
	})
	v.follow.SetSelected(followSpans[0].label)
	header := widget.NewLabelWithStyle(url, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	header.Truncation = fyne.TextTruncateEllipsis
	top := container.NewBorder(nil, nil, nil, container.NewHBox(widget.NewLabel("Follow"), v.follow, v.reconnect), header)
	v.tabs = container.NewAppTabs(
		container.NewTabItem("Timeline", v.timeline.raster),
		container.NewTabItem("Heap", v.heap.raster),
	)
	v.root = container.NewBorder(top, v.status, nil, nil, v.tabs)
	return v
}

func (v *liveView) content() fyne.CanvasObject { return v.root }

func (v *liveView) hasPicture() bool { return true }

// picture exports the heap chart when its tab is shown, else the timeline.
func (v *liveView) picture(scale float32) image.Image {
	if v.tabs.Selected() != nil && v.tabs.Selected().Text == "Heap" {
		return v.heap.export(scale)
	}
	return v.timeline.export(scale)
}

// start connects (again) and starts refreshing the picture. The models of a
// previous connection are replaced: a new connection is a new stream, with
// its own header.
func (v *liveView) start() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.cancel != nil {
		v.cancel()
	}
	ctx, cancel := context.WithCancel(v.ctx)
	v.cancel = cancel
	feed := newLiveFeed(v.url, v.record)
	v.feed, v.shown, v.rateEvents, v.rateAt, v.rate = feed, nil, 0, time.Now(), 0
	v.reconnect.Hide()
	go feed.run(ctx)
	go func() {
		tick := time.NewTicker(liveRefresh)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			done := feed.state.Load() >= int32(connEnded)
			fyne.Do(func() {
				v.mu.Lock()
				defer v.mu.Unlock()
				if v.feed == feed {
					v.refresh()
				}
			})
			if done {
				return
			}
		}
	}()
}

// restart is the Reconnect button.
func (v *liveView) restart() { v.start() }

// refresh redraws what has arrived since the last refresh and updates the
// status line. It runs on Fyne's loop, with v.mu held.
func (v *liveView) refresh() {
	st := v.feed.stats()
	added := st.AddedAt
	snap := v.feed.live.Snapshot()
	now := time.Now()
	if snap != v.shown && snap.End > 0 {
		v.shown = snap
		if !added.IsZero() {
			v.lag = now.Sub(added)
		}
		v.timeline.set(liveTimelineRender(snap, v.span))
	}
	if st.Events != v.heapEvents && (now.Sub(v.lastHeap) >= liveHeapRefresh || st.State >= connEnded) {
		v.lastHeap, v.heapEvents = now, st.Events
		heap, prof := v.feed.heapResult()
		v.heap.set(heapRender("", prof, heap))
	}
	if dt := now.Sub(v.rateAt); dt >= time.Second {
		v.rate = float64(st.Events-v.rateEvents) / dt.Seconds()
		v.rateAt, v.rateEvents = now, st.Events
	}
	v.status.SetText(liveStatusText(st, v.rate, v.lag))
	if st.State >= connEnded {
		v.reconnect.Show()
	}
}

// liveTimelineRender draws the timeline of m, the last span ns of it if span
// is not 0, so that the newest events are at the right edge.
func liveTimelineRender(m *timeline.Model, span uint64) renderFunc {
	if m == nil || m.End == 0 {
		return nil
	}
	var from uint64
	if span > 0 && m.End > m.Start+span {
		from = m.End - span
	}
	return func(w, h int, scale float64) (*image.RGBA, error) {
		return timeline.Render(m, timeline.Options{From: from, To: m.End, Width: w, Height: h, Scale: scale})
	}
}

// liveStatusText is the status line: connection, rate, bytes, how far the
// view is behind the newest bytes, the recording, and what went wrong.
func liveStatusText(st liveStats, rate float64, lag time.Duration) string {
	var b strings.Builder
	b.WriteString(st.State.String())
	if st.Desc != "" {
		fmt.Fprintf(&b, " (%s)", st.Desc)
	}
	fmt.Fprintf(&b, " · %s events", formatCount(float64(st.Events)))
	if st.State == connLive {
		fmt.Fprintf(&b, " · %s events/s", formatCount(rate))
	}
	fmt.Fprintf(&b, " · %s", formatBytes(st.Bytes))
	if st.Events > 0 {
		fmt.Fprintf(&b, " · newest event at %s", timeline.FormatDuration(st.Newest))
		if st.State == connLive && !st.AddedAt.IsZero() {
			fmt.Fprintf(&b, ", received %s ago; view drawn %s after it", roundDuration(time.Since(st.AddedAt)), roundDuration(lag))
		}
	}
	switch st.State {
	case connEnded, connLost:
		if st.Status.State == ingest.StateTruncated {
			b.WriteString(" · stream cut: the events before the cut are kept")
		} else if st.Status.State == ingest.StateCorrupt {
			fmt.Fprintf(&b, " · %s", st.Status)
		}
	}
	if st.RecPath != "" {
		fmt.Fprintf(&b, " · recording %s", st.RecPath)
	}
	if st.Err != nil {
		fmt.Fprintf(&b, " · %v", st.Err)
	}
	return b.String()
}

// roundDuration rounds d for the status line.
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}
