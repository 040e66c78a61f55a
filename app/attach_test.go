package app

import (
	"bytes"
	"image"
	"math/rand"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/library"
	"github.com/hecscope/hecscope/app/liveview"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/live"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

const liveLog = "../testdata/ghc-9.0.2/parwork-N2.eventlog"

// serveOnce listens on loopback and sends data to the first client in uneven
// chunks with pauses; if gate is not nil it waits on it after half the data.
func serveOnce(t *testing.T, data []byte, gate chan struct{}) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		rng := rand.New(rand.NewSource(int64(len(data))))
		half := len(data) / 2
		for off := 0; off < len(data); {
			n := min(len(data)-off, 1+rng.Intn(9000))
			if off < half && off+n > half {
				n = half - off
			}
			if _, err := c.Write(data[off : off+n]); err != nil {
				return
			}
			off += n
			if off == half && gate != nil {
				<-gate
			}
			if rng.Intn(4) == 0 {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	return "tcp://" + l.Addr().String()
}

// liveWindow is a test's window attached to liveLog, served in uneven
// chunks that stop after half the bytes until gate is closed, and recorded
// to dir.
type liveWindow struct {
	t    *testing.T
	w    *Window
	v    *liveview.View
	dir  string
	gate chan struct{}
}

// attachLiveLog opens a 1200×800 window on liveLog served as liveWindow
// says.
func attachLiveLog(t *testing.T) *liveWindow {
	t.Helper()
	data, err := os.ReadFile(liveLog)
	if err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	lw := attachTo(t, serveOnce(t, data, gate))
	lw.gate = gate
	return lw
}

// attachTo opens a 1200×800 window attached to url, recording to a
// temporary directory.
func attachTo(t *testing.T, url string) *liveWindow {
	t.Helper()
	a, _ := newTestApp(t)
	lw := &liveWindow{t: t, w: a.newWindow(), dir: t.TempDir()}
	fyne.DoAndWait(func() {
		// As onUI runs (a canvas of an earlier test may still draw).
		kit.UiMu.Lock()
		defer kit.UiMu.Unlock()
		// Sized first: the test driver runs the view's refreshes on
		// their own goroutine, which must not race this one.
		lw.w.win.Resize(fyne.NewSize(1200, 800))
		lw.w.attach(url, live.Options{RecordDir: lw.dir})
	})
	lw.v = lw.w.view.(liveFile).View
	return lw
}

// locked runs f on Fyne's loop as the work other goroutines hand it runs
// (onUI: the view's refreshes, the canvas's redraws when detail is ready),
// with the view's lock held as its refreshes hold it.
func (lw *liveWindow) locked(f func()) {
	fyne.DoAndWait(func() {
		kit.UiMu.Lock()
		defer kit.UiMu.Unlock()
		lw.v.Mu.Lock()
		defer lw.v.Mu.Unlock()
		f()
	})
}

// waitFor waits up to 10 s for cond (run locked) to hold.
func (lw *liveWindow) waitFor(what string, cond func() bool) {
	lw.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ok := false
		lw.locked(func() { ok = cond() })
		if ok {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	var status string
	lw.locked(func() { status = lw.v.Status.Text })
	lw.t.Fatalf("timed out waiting for %s; status %q", what, status)
}

// TestAttachWindowGrows: the window's timeline grows while the stream runs,
// the status line follows it, and Reconnect appears when it ends.
func TestAttachWindowGrows(t *testing.T) {
	lw := attachLiveLog(t)
	w, v, dir, gate, waitFor := lw.w, lw.v, lw.dir, lw.gate, lw.waitFor
	defer v.Stop()
	var half int64
	waitFor("the first half", func() bool {
		if v.Shown == nil || v.Canvas == nil || !strings.HasPrefix(v.Status.Text, "receiving") || !strings.Contains(v.Status.Text, "events/s") {
			return false
		}
		half = v.Shown.Events
		return half > 0 && v.Reconnect.Hidden
	})
	close(gate)
	waitFor("the end", func() bool {
		return strings.HasPrefix(v.Status.Text, "ended") && v.Shown != nil && v.Shown.Events > half && v.Reconnect.Visible()
	})
	if img := v.Picture(1); img == nil || img.Bounds().Dx() < 64 {
		t.Fatal("no picture to export")
	}
	var status string
	lw.locked(func() { status = v.Status.Text })
	rec := v.Stream.RecordingPath()
	if filepath.Dir(rec) != dir || !strings.Contains(status, "recorded to "+rec) || !strings.Contains(status, "KiB") || strings.Contains(status, "events/s") {
		t.Fatalf("status line %q", status)
	}
	if menuItem(w, "Attach…") == nil {
		t.Fatal("no Attach… menu item")
	}
	// The canvas exports as a file window's does.
	if menuItem(w, "View as SVG…") == nil || menuItem(w, "Selection as PNG…") == nil {
		t.Fatal("no canvas export items in the menu")
	}
	svgPath := filepath.Join(t.TempDir(), "live.svg")
	lw.locked(func() {
		if _, _, _, err := v.Canvas.WriteExport(trackcanvas.CanvasExport{Format: trackcanvas.ExportSVG}, svgPath, nil); err != nil {
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

// TestAttachWindowIsAFullSession: the live window has a file window's
// track canvas and tabs, filled from the stream as it arrives; Pause
// freezes what is shown while the stream goes on and End resumes; the
// recording saves to the library during the run; the Events tab lists
// every event once the stream ends.
func TestAttachWindowIsAFullSession(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // the test app's storage root (library)
	lw := attachLiveLog(t)
	w, v, gate, waitFor := lw.w, lw.v, lw.gate, lw.waitFor
	defer v.Stop()
	var names []string
	lw.locked(func() {
		for _, ti := range v.Tabs.Items {
			names = append(names, ti.Text)
		}
	})
	if got := strings.Join(names, ","); got != "Summary,GC,Sparks,Process,Selection,Details,User Events,Events" {
		t.Fatalf("tabs %s", got)
	}
	waitFor("the first half in the tabs", func() bool {
		return v.Ev != nil && v.Ev.Events > 0 && v.Canvas != nil && v.Ev.Summary.Events > 0
	})
	var half *timeline.Model
	var rec string
	var from0, to0 uint64
	var halfEvents uint64
	var pic0 image.Image
	lw.locked(func() {
		shown := strings.Join(texts(v.Tabs.Items[0].Content), "\n")
		if !strings.Contains(shown, paint.EventCount(v.Ev.Summary.Events, v.Ev.Summary.BlockMarkers)) {
			t.Errorf("Summary tab shows %q, want the %d events so far", shown, v.Ev.Summary.Events)
		}
		if v.Src.Ov != v.Shown || v.Src.Log == nil {
			t.Error("the canvas does not draw the snapshot shown from the followed recording")
		}
		halfEvents = v.Ev.Summary.Events
		v.Pause.OnTapped()
		half, rec = v.Shown, v.RecordingPath()
		from0, to0 = v.Canvas.View()
		pic0 = v.Picture(1)
	})
	if rec == "" || menuItem(w, "Save Recording to Library…") == nil {
		t.Fatalf("recording %q; no Save Recording to Library… item", rec)
	}
	// Saved during the run: what was recorded so far.
	e := saveAndWait(t, w, rec, library.SaveOptions{Name: "half"})
	if e.Size <= 0 {
		t.Errorf("saved %d bytes of the recording", e.Size)
	}

	close(gate)
	// "ended" is said once no more bytes come; the models have the last of
	// them once the stream is done (its sink had every event).
	waitFor("the stream's end, paused", func() bool {
		return strings.HasPrefix(v.Status.Text, "paused") && strings.Contains(v.Status.Text, "ended") &&
			v.Session.Status().Stats.Done
	})
	lw.locked(func() {
		if v.Shown != half || v.Src.Ov != half {
			t.Error("the timeline moved while paused")
		}
		if from, to := v.Canvas.View(); from != from0 || to != to0 {
			t.Errorf("paused canvas moved from %d–%d to %d–%d", from0, to0, from, to)
		}
		if on, _ := v.Canvas.Following(); on {
			t.Error("a paused canvas follows the end")
		}
		if pic := v.Picture(1); pic == nil || pic0 == nil || pic.Bounds() != pic0.Bounds() {
			t.Error("the paused canvas's picture changed size or is missing")
		}
		if m := v.Models().Snapshot().Model; m == half || m.End <= half.End {
			t.Error("the recording did not go on while paused")
		}
		v.Canvas.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
		if v.Paused {
			t.Error("End did not resume")
		}
	})
	want, _ := showEvents(t, liveLog)
	waitFor("the whole stream", func() bool {
		return v.Shown != half && v.Ev != nil && v.Ev.Events == int64(len(want)) && v.Ev.Status.State == ingest.StateComplete
	})
	lw.locked(func() {
		if _, to := v.Canvas.View(); to != v.Shown.End || v.Src.Ov != v.Shown {
			t.Errorf("after End the canvas shows up to %d, not the run's end %d", to, v.Shown.End)
		}
		// The tabs took the whole stream: the Summary tab (shown) at once,
		// the User Events tab when next shown.
		shown := strings.Join(texts(v.Tabs.Items[0].Content), "\n")
		if n := v.Ev.Summary.Events; n <= halfEvents || !strings.Contains(shown, paint.EventCount(n, v.Ev.Summary.BlockMarkers)) || !strings.Contains(shown, "complete") {
			t.Errorf("Summary tab after the end shows %q, want %d events (%d at half) and the state complete", shown, n, halfEvents)
		}
		v.Tabs.SelectIndex(6)
		if users := strings.Join(texts(v.Tabs.Items[6].Content), "\n"); len(v.Shown.Labels) == 0 || !strings.Contains(users, v.Shown.String(v.Shown.Labels[0].Label)) {
			t.Errorf("User Events tab shows %q", users)
		}
		v.Tabs.Select(v.EventsTab)
		if v.Events == nil || v.Events.Len() != len(want) {
			t.Fatalf("Events tab: %v", v.Events != nil)
		}
		if _, _, text := v.Events.RowTexts(len(want) / 2); text == "" {
			t.Error("an empty row")
		}
		end := v.Shown.End
		v.Canvas.SetSelection(end/4, end/2, true)
		sel := strings.Join(texts(v.Selection), "\n")
		if !strings.Contains(sel, "Selection: ") || !strings.Contains(sel, "Running") {
			t.Errorf("Selection tab shows %q", sel)
		}
	})
	// Saved after the run: the whole recording (renamed after the program
	// once its name arrived).
	lw.locked(func() { rec = v.RecordingPath() })
	whole := saveAndWait(t, w, rec, library.SaveOptions{Name: "whole"})
	if st, err := os.Stat(rec); err != nil || whole.Size != st.Size() || whole.Size <= e.Size {
		t.Errorf("saved %d bytes after the run (during it %d; recording %v, %v)", whole.Size, e.Size, st, err)
	}
}

// TestAttachWindowNavigates: the live canvas can be moved into the past
// while events arrive without moving; End follows again, and the Follow
// choice sets the followed width.
func TestAttachWindowNavigates(t *testing.T) {
	lw := attachLiveLog(t)
	v, gate, locked, waitFor := lw.v, lw.gate, lw.locked, lw.waitFor
	defer v.Stop()
	var halfEnd uint64
	waitFor("the first half", func() bool {
		if v.Canvas == nil || v.Shown == nil {
			return false
		}
		halfEnd = v.Shown.End
		_, to := v.Canvas.View()
		on, _ := v.Canvas.Following()
		return on && to == halfEnd
	})
	var from0, to0 uint64
	locked(func() {
		c := v.Canvas
		c.ViewAction(kit.ActZoomIn)
		c.ViewAction(kit.ActZoomIn)
		// Dragging right pans into the past.
		canvasDrag(c, fyne.NewPos(c.Size().Width/2, c.Size().Height/2), c.Size().Width/4, 0, 0)
		from0, to0 = c.View()
		if on, _ := c.Following(); on || v.Follow.Selected != "" || to0 >= halfEnd {
			t.Errorf("after panning into the past: %d–%d of %d, following %v, Follow shows %q", from0, to0, halfEnd, on, v.Follow.Selected)
		}
	})
	close(gate)
	waitFor("the end", func() bool { return strings.HasPrefix(v.Status.Text, "ended") && v.Shown.End > halfEnd })
	locked(func() {
		c := v.Canvas
		if from, to := c.View(); from != from0 || to != to0 {
			t.Errorf("held view moved from %d–%d to %d–%d while events arrived", from0, to0, from, to)
		}
		if v.Src.Ov != v.Shown {
			t.Error("the canvas does not draw the newest snapshot")
		}
		if !strings.Contains(v.Status.Text, "view held at") {
			t.Errorf("status %q does not say the view is held", v.Status.Text)
		}
		c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
		if from, to := c.View(); to != v.Shown.End || to-from != to0-from0 {
			t.Errorf("after End: %d–%d, want %d ns up to %d", from, to, to0-from0, v.Shown.End)
		}
		if on, _ := c.Following(); !on {
			t.Error("End does not follow")
		}
		if want := "Last " + paint.Duration(to0-from0); v.Follow.Selected != "" || v.Follow.PlaceHolder != want {
			t.Errorf("after End the Follow choice shows %q (placeholder %q), want the placeholder %q", v.Follow.Selected, v.Follow.PlaceHolder, want)
		}
		v.Follow.SetSelected("Last 100 ms")
		if from, to := c.View(); to != v.Shown.End || (v.Shown.End > 100e6 && to-from != 100e6) {
			t.Errorf("Last 100 ms shows %d–%d of a run ending at %d", from, to, v.Shown.End)
		}
		v.Follow.SetSelected("Whole run")
		if from, to := c.View(); from != 0 || to != v.Shown.End {
			t.Errorf("Whole run shows %d–%d of a run ending at %d", from, to, v.Shown.End)
		}
	})
}
