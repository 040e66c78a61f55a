package app

import (
	"bytes"
	"context"
	"math/rand"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"github.com/hecscope/hecscope/ingest"
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

// recordTo returns a record function writing to dir/name.
func recordTo(dir string) func() (*ingest.Recorder, error) {
	return func() (*ingest.Recorder, error) { return ingest.NewRecorder(filepath.Join(dir, "rec.eventlog")) }
}

// TestLiveFeedMatchesFile: a stream received over a socket in uneven chunks
// gives the model, heap and recording that loading the file gives.
func TestLiveFeedMatchesFile(t *testing.T) {
	data, err := os.ReadFile(liveLog)
	if err != nil {
		t.Fatal(err)
	}
	want, err := LoadEventlog(context.Background(), liveLog, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	feed := newLiveFeed(serveOnce(t, data, nil), recordTo(dir))
	if err := feed.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := feed.stats()
	if st.State != connEnded || st.Status.State != ingest.StateComplete {
		t.Fatalf("feed ended %s, %s", st.State, st.Status)
	}
	m := feed.live.Snapshot()
	if m.Events != want.Model.Events || len(m.HECs) != len(want.Model.HECs) || len(m.Threads) != len(want.Model.Threads) ||
		m.Start != want.Model.Start || m.End != want.Model.End {
		t.Fatalf("live model: %d events, %d HECs, %d threads, %d..%d; file: %d, %d, %d, %d..%d",
			m.Events, len(m.HECs), len(m.Threads), m.Start, m.End,
			want.Model.Events, len(want.Model.HECs), len(want.Model.Threads), want.Model.Start, want.Model.End)
	}
	if st.Events != want.Events || st.Bytes != int64(len(data)) {
		t.Fatalf("stats: %d events, %d bytes; want %d, %d", st.Events, st.Bytes, want.Events, len(data))
	}
	heap, _ := feed.heapResult()
	if len(heap.GCs) != len(want.Heap.GCs) || heap.Live.Len() != want.Heap.Live.Len() {
		t.Fatalf("heap: %d GCs, %d live points; file: %d, %d", len(heap.GCs), heap.Live.Len(), len(want.Heap.GCs), want.Heap.Live.Len())
	}
	rec, err := os.ReadFile(st.RecPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(rec, data) {
		t.Fatalf("recording (%d bytes) differs from the stream (%d bytes)", len(rec), len(data))
	}
}

// TestLiveFeedCut cuts the connection at random bytes: the events before the
// cut are kept, the state says disconnected, and the recording decodes to
// the same events.
func TestLiveFeedCut(t *testing.T) {
	data, err := os.ReadFile(liveLog)
	if err != nil {
		t.Fatal(err)
	}
	var offsets []int64
	if _, _, err := ingest.ReadAll(bytes.NewReader(data), func(ev *ingest.Event) error {
		offsets = append(offsets, ev.Offset+int64(len(ev.Raw)))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 12; i++ {
		cut := offsets[0] + rng.Int63n(int64(len(data))-offsets[0]-2)
		var before int64
		for _, end := range offsets {
			if end <= cut {
				before++
			}
		}
		dir := t.TempDir()
		feed := newLiveFeed(serveOnce(t, data[:cut], nil), recordTo(dir))
		feed.run(context.Background())
		st := feed.stats()
		if st.State != connLost || st.Status.State != ingest.StateTruncated {
			t.Fatalf("cut at %d: %s, %s", cut, st.State, st.Status)
		}
		if st.Events != before || feed.live.Snapshot().Events != before {
			t.Fatalf("cut at %d: %d events kept (model %d), want %d", cut, st.Events, feed.live.Snapshot().Events, before)
		}
		var recEvents int64
		_, rst, err := ingest.ReadAll(mustOpen(t, st.RecPath), func(*ingest.Event) error { recEvents++; return nil })
		if err != nil || rst.State != ingest.StateComplete || recEvents != before {
			t.Fatalf("cut at %d: recording %s with %d events (%v), want complete with %d", cut, rst, recEvents, err, before)
		}
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// liveWindow is a test's window attached to liveLog, served in uneven
// chunks that stop after half the bytes until gate is closed, and recorded
// to dir.
type liveWindow struct {
	t    *testing.T
	w    *Window
	v    *liveView
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
	a, _ := newTestApp(t)
	lw := &liveWindow{t: t, w: a.newWindow(), dir: t.TempDir(), gate: make(chan struct{})}
	url := serveOnce(t, data, lw.gate)
	fyne.DoAndWait(func() {
		lw.w.attach(url, recordTo(lw.dir))
		lw.w.win.Resize(fyne.NewSize(1200, 800))
	})
	lw.v = lw.w.view.(*liveView)
	return lw
}

// locked runs f on Fyne's loop with the view's lock held, as its refreshes
// run.
func (lw *liveWindow) locked(f func()) {
	fyne.DoAndWait(func() {
		lw.v.mu.Lock()
		defer lw.v.mu.Unlock()
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
	lw.locked(func() { status = lw.v.status.Text })
	lw.t.Fatalf("timed out waiting for %s; status %q", what, status)
}

// TestAttachWindowGrows: the window's timeline grows while the stream runs,
// the status line follows it, and Reconnect appears when it ends.
func TestAttachWindowGrows(t *testing.T) {
	lw := attachLiveLog(t)
	w, v, dir, gate, waitFor := lw.w, lw.v, lw.dir, lw.gate, lw.waitFor
	var half int64
	waitFor("the first half", func() bool {
		if v.shown == nil || v.nav == nil || !strings.HasPrefix(v.status.Text, "live") || !strings.Contains(v.status.Text, "events/s") {
			return false
		}
		half = v.shown.Events
		return half > 0 && v.reconnect.Hidden
	})
	close(gate)
	waitFor("the end", func() bool {
		return strings.HasPrefix(v.status.Text, "ended") && v.shown != nil && v.shown.Events > half && v.reconnect.Visible()
	})
	if img := v.picture(1); img == nil || img.Bounds().Dx() < 64 {
		t.Fatal("no picture to export")
	}
	var status string
	lw.locked(func() { status = v.status.Text })
	if !strings.Contains(status, "recording "+filepath.Join(dir, "rec.eventlog")) || !strings.Contains(status, "KiB") || strings.Contains(status, "events/s") {
		t.Fatalf("status line %q", status)
	}
	if menuItem(w, "Attach…") == nil {
		t.Fatal("no Attach… menu item")
	}
}

func TestLiveStatusText(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		st         liveStats
		have, lack []string
	}{
		{liveStats{State: connConnecting, Desc: "FIFO /tmp/p.fifo"}, []string{"connecting (FIFO /tmp/p.fifo)", "0 B"}, []string{"newest", "events/s"}},
		{liveStats{State: connLive, Events: 12345, Bytes: 3 << 20, Newest: 1500e6, AddedAt: now.Add(-300 * time.Millisecond)},
			[]string{"live", "12.3k events", "2.00k events/s", "3.00 MiB", "newest event at 1.50s", "received 300ms ago", "view drawn 7ms after it"}, nil},
		{liveStats{State: connLost, Events: 10, Status: ingest.Status{State: ingest.StateTruncated, Offset: 99}, RecPath: "/r/x.eventlog"},
			[]string{"disconnected", "stream cut", "recording /r/x.eventlog"}, []string{"events/s"}},
		{liveStats{State: connFailed, Err: os.ErrNotExist}, []string{"failed", "file does not exist"}, nil},
	} {
		got := liveStatusText(c.st, 2000, 7*time.Millisecond)
		for _, h := range c.have {
			if !strings.Contains(got, h) {
				t.Errorf("status %q lacks %q", got, h)
			}
		}
		for _, l := range c.lack {
			if strings.Contains(got, l) {
				t.Errorf("status %q has %q", got, l)
			}
		}
	}
}
