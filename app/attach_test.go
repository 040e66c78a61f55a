package app

import (
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/hecscope/hecscope/app/internal/apptest"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/library"
	"github.com/hecscope/hecscope/app/liveview"
	"github.com/hecscope/hecscope/live"
)

// The live view's own behaviour (its canvas, tabs, Pause, Follow, status
// line, Control menu's commands) is tested in package liveview; these
// tests check how a window shows it.

const liveLog = "../testdata/ghc-9.0.2/parwork-N2.eventlog"

// liveWindow is a test's window attached to a stream.
type liveWindow struct {
	t *testing.T
	w *Window
	v *liveview.View
}

// attachTo opens a 1200×800 window attached to url, recording to a
// temporary directory.
func attachTo(t *testing.T, url string) *liveWindow {
	t.Helper()
	a, _ := newTestApp(t)
	lw := &liveWindow{t: t, w: a.newWindow()}
	dir := t.TempDir()
	fyne.DoAndWait(func() {
		// As onUI runs (a canvas of an earlier test may still draw).
		kit.UiMu.Lock()
		defer kit.UiMu.Unlock()
		// Sized first: the test driver runs the view's refreshes on
		// their own goroutine, which must not race this one.
		lw.w.win.Resize(fyne.NewSize(1200, 800))
		lw.w.attach(url, live.Options{RecordDir: dir})
	})
	lw.v = lw.w.view.(liveFile).View
	return lw
}

// shown returns the texts the window shows, read on Fyne's loop as the
// view's refreshes run (under its lock).
func (lw *liveWindow) shown() []string {
	var out []string
	fyne.DoAndWait(func() {
		kit.UiMu.Lock()
		defer kit.UiMu.Unlock()
		lw.v.Mu.Lock()
		defer lw.v.Mu.Unlock()
		out = texts(lw.w.win.Content())
	})
	return out
}

// recording returns the path of the window's recording.
func (lw *liveWindow) recording() string {
	var rec string
	fyne.DoAndWait(func() { ui(func() { rec, _ = lw.w.view.recording() }) })
	return rec
}

// waitForText waits up to 10 s for the window to show a text that holds
// every one of parts.
func (lw *liveWindow) waitForText(what string, parts ...string) {
	lw.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var shown []string
	for time.Now().Before(deadline) {
		shown = lw.shown()
		for _, s := range shown {
			ok := true
			for _, p := range parts {
				ok = ok && strings.Contains(s, p)
			}
			if ok {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	lw.t.Fatalf("timed out waiting for %s; the window shows %q", what, shown)
}

// TestAttachWindow: a window attached to a stream shows the live view and
// its status line, has the Attach…, canvas export and Save Recording to
// Library… items, and saves the recording to the library during the run
// (what was recorded so far) and after it (the whole recording).
func TestAttachWindow(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // the test app's storage root (library)
	data, err := os.ReadFile(liveLog)
	if err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	url := apptest.ServeOnce(t, data, gate)
	lw := attachTo(t, url)
	w := lw.w
	defer lw.v.Stop()
	if title := w.win.Title(); !strings.HasPrefix(title, url) {
		t.Errorf("window title %q", title)
	}
	lw.waitForText("the first half", "receiving", "events/s")
	for _, item := range []string{"Attach…", "View as SVG…", "Selection as PNG…", "Save Recording to Library…"} {
		if menuItem(w, item) == nil {
			t.Errorf("no %s menu item", item)
		}
	}
	if controlMenuOf(w) == nil {
		t.Error("the live window has no Control menu")
	}
	rec := lw.recording()
	if rec == "" {
		t.Fatal("no recording")
	}
	e := saveAndWait(t, w, rec, library.SaveOptions{Name: "half"})
	if e.Size <= 0 {
		t.Errorf("saved %d bytes of the recording", e.Size)
	}
	close(gate)
	// The recording is renamed after the program once its name arrived;
	// the status line says where it is once the stream ended.
	lw.waitForText("the end", "ended", "recorded to ")
	rec = lw.recording()
	lw.waitForText("the recording's path", "recorded to "+rec)
	whole := saveAndWait(t, w, rec, library.SaveOptions{Name: "whole"})
	if st, err := os.Stat(rec); err != nil || whole.Size != st.Size() || whole.Size <= e.Size {
		t.Errorf("saved %d bytes after the run (during it %d; recording %v, %v)", whole.Size, e.Size, st, err)
	}
}
