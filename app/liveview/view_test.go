package liveview

import (
	"bytes"
	"image"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/hecscope/hecscope/app/internal/apptest"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/internal/fakesocket"
	"github.com/hecscope/hecscope/live"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

var liveLog = apptest.Log("parwork-N2")

// liveTest is a test's live view in a 1200×800 window on Fyne's test
// driver, recording to dir; gate, if not nil, holds its stream after half
// the bytes until closed.
type liveTest struct {
	t    *testing.T
	v    *View
	win  fyne.Window
	dir  string
	gate chan struct{}
}

// startLiveLog starts a view of liveLog served in uneven chunks that stop
// after half the bytes until the gate is closed.
func startLiveLog(t *testing.T) *liveTest {
	t.Helper()
	data, err := os.ReadFile(liveLog)
	if err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	lt := startView(t, apptest.ServeOnce(t, data, gate))
	lt.gate = gate
	return lt
}

// startView starts a view of the stream at url in a 1200×800 window,
// recording to a temporary directory; the test's cleanup stops it and
// waits for its refreshing to end.
func startView(t *testing.T, url string) *liveTest {
	t.Helper()
	fa := test.NewApp()
	lt := &liveTest{t: t, dir: t.TempDir()}
	lt.v = New(url, live.Options{RecordDir: lt.dir})
	fyne.DoAndWait(func() {
		// As onUI runs (a canvas of an earlier test may still draw).
		kit.UiMu.Lock()
		defer kit.UiMu.Unlock()
		lt.win = test.NewWindow(lt.v.Content())
		// Sized first: the test driver runs the view's refreshes on
		// their own goroutine, which must not race this one.
		lt.win.Resize(fyne.NewSize(1200, 800))
		lt.v.Start()
	})
	t.Cleanup(func() {
		lt.v.Stop()
		select {
		case <-lt.v.Finished():
		case <-time.After(10 * time.Second):
			t.Error("the live view still refreshes after it stopped")
		}
		fyne.DoAndWait(lt.win.Close)
		fa.Quit()
	})
	return lt
}

// locked runs f on Fyne's loop as the work other goroutines hand it runs
// (kit.OnUI: the view's refreshes, the canvas's redraws when detail is
// ready), with the view's lock held as its refreshes hold it.
func (lt *liveTest) locked(f func()) {
	fyne.DoAndWait(func() {
		kit.UiMu.Lock()
		defer kit.UiMu.Unlock()
		lt.v.Mu.Lock()
		defer lt.v.Mu.Unlock()
		f()
	})
}

// waitFor waits up to 10 s for cond (run locked) to hold.
func (lt *liveTest) waitFor(what string, cond func() bool) {
	lt.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ok := false
		lt.locked(func() { ok = cond() })
		if ok {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	var status string
	lt.locked(func() { status = lt.v.status.Text })
	lt.t.Fatalf("timed out waiting for %s; status %q", what, status)
}

// TestViewGrows: the view's timeline grows while the stream runs, the
// status line follows it, Reconnect appears when it ends, and the canvas
// exports as a file window's does.
func TestViewGrows(t *testing.T) {
	lt := startLiveLog(t)
	v, dir, waitFor := lt.v, lt.dir, lt.waitFor
	var half int64
	waitFor("the first half", func() bool {
		if v.shown == nil || v.canvas == nil || !strings.HasPrefix(v.status.Text, "receiving") || !strings.Contains(v.status.Text, "events/s") {
			return false
		}
		half = v.shown.Events
		return half > 0 && v.reconnect.Hidden
	})
	close(lt.gate)
	waitFor("the end", func() bool {
		return strings.HasPrefix(v.status.Text, "ended") && v.shown != nil && v.shown.Events > half && v.reconnect.Visible()
	})
	var status, rec string
	lt.locked(func() {
		if img := v.Picture(1); img == nil || img.Bounds().Dx() < 64 {
			t.Error("no picture to export")
		}
		status, rec = v.status.Text, v.stream.RecordingPath()
	})
	if filepath.Dir(rec) != dir || !strings.Contains(status, "recorded to "+rec) || !strings.Contains(status, "KiB") || strings.Contains(status, "events/s") {
		t.Fatalf("status line %q", status)
	}
	svgPath := filepath.Join(t.TempDir(), "live.svg")
	lt.locked(func() {
		if _, _, _, err := v.canvas.WriteExport(trackcanvas.CanvasExport{Format: trackcanvas.ExportSVG}, svgPath, nil); err != nil {
			t.Fatal(err)
		}
	})
	svg, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("HEC 1")) {
		t.Fatalf("SVG export of %d bytes has no HEC 1 track", len(svg))
	}
}

// TestViewIsAFullSession: the view has a file window's track canvas and
// tabs, filled from the stream as it arrives; Pause freezes what is shown
// while the stream goes on and End resumes; the Events tab lists every
// event once the stream ends.
func TestViewIsAFullSession(t *testing.T) {
	lt := startLiveLog(t)
	v, waitFor := lt.v, lt.waitFor
	var names []string
	lt.locked(func() {
		for _, ti := range v.tabs.Items {
			names = append(names, ti.Text)
		}
	})
	if got := strings.Join(names, ","); got != "Summary,GC,Sparks,Process,Selection,Details,User Events,Events" {
		t.Fatalf("tabs %s", got)
	}
	waitFor("the first half in the tabs", func() bool {
		return v.ev != nil && v.ev.Events > 0 && v.canvas != nil && v.ev.Summary.Events > 0
	})
	var half *timeline.Model
	var from0, to0 uint64
	var halfEvents uint64
	var pic0 image.Image
	lt.locked(func() {
		shown := strings.Join(apptest.Texts(v.tabs.Items[0].Content), "\n")
		if !strings.Contains(shown, paint.EventCount(v.ev.Summary.Events, v.ev.Summary.BlockMarkers)) {
			t.Errorf("Summary tab shows %q, want the %d events so far", shown, v.ev.Summary.Events)
		}
		if v.src.ov != v.shown || v.src.log == nil {
			t.Error("the canvas does not draw the snapshot shown from the followed recording")
		}
		halfEvents = v.ev.Summary.Events
		v.pause.OnTapped()
		half = v.shown
		from0, to0 = v.canvas.View()
		pic0 = v.Picture(1)
	})

	close(lt.gate)
	// "ended" is said once no more bytes come; the models have the last of
	// them once the stream is done (its sink had every event).
	waitFor("the stream's end, paused", func() bool {
		return strings.HasPrefix(v.status.Text, "paused") && strings.Contains(v.status.Text, "ended") &&
			v.session.Status().Stats.Done
	})
	lt.locked(func() {
		if v.shown != half || v.src.ov != half {
			t.Error("the timeline moved while paused")
		}
		if from, to := v.canvas.View(); from != from0 || to != to0 {
			t.Errorf("paused canvas moved from %d–%d to %d–%d", from0, to0, from, to)
		}
		if on, _ := v.canvas.Following(); on {
			t.Error("a paused canvas follows the end")
		}
		if pic := v.Picture(1); pic == nil || pic0 == nil || pic.Bounds() != pic0.Bounds() {
			t.Error("the paused canvas's picture changed size or is missing")
		}
		if m := v.models().Snapshot().Model; m == half || m.End <= half.End {
			t.Error("the recording did not go on while paused")
		}
		v.canvas.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
		if v.paused {
			t.Error("End did not resume")
		}
	})
	want, _ := apptest.ShowEvents(t, liveLog)
	waitFor("the whole stream", func() bool {
		return v.shown != half && v.ev != nil && v.ev.Events == int64(len(want)) && v.ev.Status.State == ingest.StateComplete
	})
	lt.locked(func() {
		if _, to := v.canvas.View(); to != v.shown.End || v.src.ov != v.shown {
			t.Errorf("after End the canvas shows up to %d, not the run's end %d", to, v.shown.End)
		}
		// The tabs took the whole stream: the Summary tab (shown) at once,
		// the User Events tab when next shown.
		shown := strings.Join(apptest.Texts(v.tabs.Items[0].Content), "\n")
		if n := v.ev.Summary.Events; n <= halfEvents || !strings.Contains(shown, paint.EventCount(n, v.ev.Summary.BlockMarkers)) || !strings.Contains(shown, "complete") {
			t.Errorf("Summary tab after the end shows %q, want %d events (%d at half) and the state complete", shown, n, halfEvents)
		}
		v.tabs.SelectIndex(6)
		if users := strings.Join(apptest.Texts(v.tabs.Items[6].Content), "\n"); len(v.shown.Labels) == 0 || !strings.Contains(users, v.shown.String(v.shown.Labels[0].Label)) {
			t.Errorf("User Events tab shows %q", users)
		}
		v.tabs.Select(v.eventsTab)
		markers := v.ev.Summary.BlockMarkers
		count := paint.EventCount(uint64(len(want))-markers, markers)
		if shown := apptest.Texts(v.eventsTab.Content); v.events == nil || !slices.Contains(shown, count) {
			t.Fatalf("Events tab shows %q, want the count of the whole stream %q", shown, count)
		}
		// The timeline moved to the middle event, the list shows its row.
		mid := want[len(want)/2]
		v.canvas.ShowRange(mid.Time, mid.Time+v.shown.End/100)
		if shown := apptest.Texts(v.eventsTab.Content); !slices.Contains(shown, paint.Time(mid.Time, 1)) {
			t.Errorf("with the timeline at %d ns the Events tab shows %q, not the middle event's row", mid.Time, shown)
		}
		end := v.shown.End
		v.canvas.SetSelection(end/4, end/2, true)
		sel := strings.Join(apptest.Texts(v.selection), "\n")
		if !strings.Contains(sel, "Selection: ") || !strings.Contains(sel, "Running") {
			t.Errorf("Selection tab shows %q", sel)
		}
	})
}

// TestViewNavigates: the live canvas can be moved into the past while
// events arrive without moving; End follows again, and the Follow choice
// sets the followed width.
func TestViewNavigates(t *testing.T) {
	lt := startLiveLog(t)
	v, locked, waitFor := lt.v, lt.locked, lt.waitFor
	var halfEnd uint64
	waitFor("the first half", func() bool {
		if v.canvas == nil || v.shown == nil {
			return false
		}
		halfEnd = v.shown.End
		_, to := v.canvas.View()
		on, _ := v.canvas.Following()
		return on && to == halfEnd
	})
	var from0, to0 uint64
	locked(func() {
		// More of the first half may have come since: the view follows the
		// end shown now.
		halfEnd = v.shown.End
		c := v.canvas
		c.TypedRune('+')
		c.TypedRune('+')
		// Dragging right pans into the past.
		apptest.Drag(c, fyne.NewPos(c.Size().Width/2, c.Size().Height/2), c.Size().Width/4, 0, 0)
		from0, to0 = c.View()
		if on, _ := c.Following(); on || v.follow.Selected != "" || to0 >= halfEnd {
			t.Errorf("after panning into the past: %d–%d of %d, following %v, Follow shows %q", from0, to0, halfEnd, on, v.follow.Selected)
		}
	})
	close(lt.gate)
	waitFor("the end", func() bool { return strings.HasPrefix(v.status.Text, "ended") && v.shown.End > halfEnd })
	locked(func() {
		c := v.canvas
		if from, to := c.View(); from != from0 || to != to0 {
			t.Errorf("held view moved from %d–%d to %d–%d while events arrived", from0, to0, from, to)
		}
		if v.src.ov != v.shown {
			t.Error("the canvas does not draw the newest snapshot")
		}
		if !strings.Contains(v.status.Text, "view held at") {
			t.Errorf("status %q does not say the view is held", v.status.Text)
		}
		c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
		if from, to := c.View(); to != v.shown.End || to-from != to0-from0 {
			t.Errorf("after End: %d–%d, want %d ns up to %d", from, to, to0-from0, v.shown.End)
		}
		if on, _ := c.Following(); !on {
			t.Error("End does not follow")
		}
		if want := "Last " + paint.Duration(to0-from0); v.follow.Selected != "" || v.follow.PlaceHolder != want {
			t.Errorf("after End the Follow choice shows %q (placeholder %q), want the placeholder %q", v.follow.Selected, v.follow.PlaceHolder, want)
		}
		v.follow.SetSelected("Last 100 ms")
		if from, to := c.View(); to != v.shown.End || (v.shown.End > 100e6 && to-from != 100e6) {
			t.Errorf("Last 100 ms shows %d–%d of a run ending at %d", from, to, v.shown.End)
		}
		v.follow.SetSelected("Whole run")
		if from, to := c.View(); from != 0 || to != v.shown.End {
			t.Errorf("Whole run shows %d–%d of a run ending at %d", from, to, v.shown.End)
		}
	})
}

// TestControlMenu: attached to a program serving its eventlog as
// eventlog-socket does, the Control menu's items send the library's
// commands on the view's connection and the readout says so; when the
// program exits without its last flush, the status line and the tabs'
// eventlog say the stream was cut, not that it is still decoding or
// complete.
func TestControlMenu(t *testing.T) {
	data, err := os.ReadFile(liveLog)
	if err != nil {
		t.Fatal(err)
	}
	p, err := fakesocket.ListenUnix(t.TempDir(), fakesocket.Options{Log: data, Chunk: 16 << 10, Pause: 5 * time.Millisecond, DropLastFlush: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Exit()
	lt := startView(t, p.URL())
	lt.waitFor("events", func() bool { return lt.v.ev != nil })
	var census *fyne.MenuItem
	lt.locked(func() {
		for _, it := range lt.v.ControlMenu(lt.win).Items {
			if it.Label == "Request Heap Census" {
				census = it
			}
		}
	})
	if census == nil || census.Disabled {
		t.Fatal("no enabled Request Heap Census item")
	}
	lt.locked(census.Action)
	for i := 0; len(p.Commands()) == 0; i++ {
		if i == 1000 {
			t.Fatal("the program read no command")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if c := p.Commands()[0]; c != (fakesocket.Command{Namespace: "eventlog-socket", ID: 5}) {
		t.Errorf("the program read %+v", c)
	}
	lt.locked(func() {
		if !strings.HasPrefix(lt.v.readout.Text, "Sent requestHeapCensus at ") {
			t.Errorf("readout %q", lt.v.readout.Text)
		}
	})
	p.Exit()
	lt.waitFor("the cut", func() bool {
		return strings.Contains(lt.v.status.Text, "ended: cut at byte") && lt.v.ev != nil && lt.v.ev.Status.State == ingest.StateTruncated
	})
}

// TestSilentSocketExplainedInFull: attached to a program whose one
// connection another client holds, the view says in full, where the
// timeline will be, why nothing comes and how a relay shares the program
// (the status line cuts a sentence that long).
func TestSilentSocketExplainedInFull(t *testing.T) {
	data, err := os.ReadFile(liveLog)
	if err != nil {
		t.Fatal(err)
	}
	p, err := fakesocket.ListenUnix(t.TempDir(), fakesocket.Options{Log: data, Chunk: 1 << 10, Pause: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Exit()
	holder, err := net.Dial("unix", strings.TrimPrefix(p.URL(), "unix://"))
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	for p.Accepted() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	lt := startView(t, p.URL())
	lt.waitFor("the silent socket's explanation", func() bool {
		return strings.Contains(lt.v.waitingNote.Text, "is connected but sends nothing") &&
			strings.Contains(lt.v.waitingNote.Text, "hecscope relay --from "+p.URL())
	})
}
