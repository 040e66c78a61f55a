package ingest_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/internal/testlog"
	"github.com/hecscope/hecscope/timeline"
)

// watched is what a test viewer saw of a live stream.
type watched struct {
	status ingest.Status
	events int64
	// growth lists the event counts of the model's snapshots after each
	// batch of input, as they grew.
	growth []int64
	// firstAt is when the first event arrived.
	firstAt time.Time
	model   *timeline.Model
}

// watch is a viewer as the app builds one: it reads url with a Source,
// decodes with a Decoder into a timeline.Builder, records to recPath, and
// takes a snapshot after each read while the stream runs (as eventlog's
// follow publishes one per batch), until the stream ends
// (a relay's cut mark and end marker end a cut one).
func watch(t *testing.T, url, recPath string) watched {
	t.Helper()
	src, err := ingest.OpenSource(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	rec, err := ingest.NewRecorder(recPath)
	if err != nil {
		t.Fatal(err)
	}
	b := timeline.NewOverviewBuilder(timeline.Grid{})
	var w watched
	d := ingest.NewDecoder()
	buf := make([]byte, 64<<10)
	batch := make([]ingest.Event, 0, 1024)
	var ev ingest.Event
	drain := func() {
		for d.Next(&ev) {
			if !ingest.IsCutMark(&ev) {
				batch = append(batch, ev)
			}
		}
		if len(batch) > 0 && w.firstAt.IsZero() {
			w.firstAt = time.Now()
		}
		for i := range batch {
			b.Add(&batch[i])
		}
		w.events += int64(len(batch))
		batch = batch[:0]
		// What a viewer drawing now would see.
		if n := b.Snapshot().Events; n > 0 && (len(w.growth) == 0 || n > w.growth[len(w.growth)-1]) {
			w.growth = append(w.growth, n)
		}
	}
	for d.Status().State == ingest.StateDecoding {
		n, err := src.Read(buf)
		if n > 0 {
			if _, err := rec.Write(buf[:n]); err != nil {
				t.Fatal(err)
			}
			d.Feed(buf[:n])
			drain()
		}
		if err != nil {
			d.End()
			drain()
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	w.status = rec.Status() // the recorder knows a relay's cut mark
	b.Finish()
	w.model = b.Snapshot()
	return w
}

// rawEvents decodes a file and returns its events' bytes and its status.
func rawEvents(t *testing.T, path string) ([][]byte, ingest.Status) {
	t.Helper()
	f, err := ingest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	var ev ingest.Event
	for f.Next(&ev) {
		out = append(out, append([]byte(nil), ev.Raw...))
	}
	return out, f.Status()
}

func sameRaw(t *testing.T, what string, got, want [][]byte) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d events, want %d", what, len(got), len(want))
	}
	for i := range got {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("%s: event %d differs", what, i)
		}
	}
}

// startRelay serves viewers on loopback; it returns the viewers' URL and a
// channel that is told each time a viewer joins.
func startRelay(t *testing.T) (*ingest.Relay, string, chan struct{}) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	relay := ingest.NewRelay()
	joined := make(chan struct{}, 8)
	relay.Logf = func(format string, args ...any) {
		if strings.Contains(format, " joined") {
			joined <- struct{}{}
		}
	}
	go relay.Serve(l)
	return relay, "tcp://" + l.Addr().String(), joined
}

// TestLiveReplayThroughSocket replays a recorded GHC 9.0.2 log through a Unix
// socket in uneven chunks with pauses, relays it, and watches it over TCP:
// the viewer's model grows and ends equal to the file's, and its recording
// is the file. Then the socket is cut at random bytes: the viewer keeps the
// events before the cut and its recording decodes to them.
func TestLiveReplayThroughSocket(t *testing.T) {
	data, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	var ends []int64
	var want [][]byte
	testlog.ReadAll(bytes.NewReader(data), func(ev *ingest.Event) error {
		ends = append(ends, ev.Offset+int64(len(ev.Raw)))
		want = append(want, append([]byte(nil), ev.Raw...))
		return nil
	})
	rng := rand.New(rand.NewSource(3))
	for run := 0; run < 6; run++ {
		cut := int64(len(data))
		if run > 0 {
			cut = ends[0] + rng.Int63n(int64(len(data))-ends[0])
		}
		t.Run(fmt.Sprintf("cut-%d", cut), func(t *testing.T) {
			dir := t.TempDir()
			sock := filepath.Join(dir, "eventlog.sock")
			l, err := net.Listen("unix", sock)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			relay, url, joined := startRelay(t)
			wrng := rand.New(rand.NewSource(cut))
			go func() {
				c, err := l.Accept()
				if err != nil {
					return
				}
				defer c.Close()
				<-joined // the viewer is there before the program starts
				for off, i := int64(0), 0; off < cut; i++ {
					n := min(cut-off, int64(1+wrng.Intn(6000)))
					if _, err := c.Write(data[off : off+n]); err != nil {
						return
					}
					off += n
					if i%5 == 0 {
						time.Sleep(2 * time.Millisecond)
					}
				}
			}()
			relayed := relayFrom(t, relay, "unix://"+sock, filepath.Join(dir, "relay.eventlog"))
			w := watch(t, url, filepath.Join(dir, "viewer.eventlog"))
			rst := <-relayed
			relay.Close()
			var before int
			for _, e := range ends {
				if e <= cut {
					before++
				}
			}
			got, vst := rawEvents(t, filepath.Join(dir, "viewer.eventlog"))
			relayGot, _ := rawEvents(t, filepath.Join(dir, "relay.eventlog"))
			sameRaw(t, "viewer's recording", got, want[:before])
			sameRaw(t, "relay's recording", relayGot, want[:before])
			if want := ingest.StateTruncated; cut == int64(len(data)) && vst.State != ingest.StateComplete || cut < int64(len(data)) && vst.State != want {
				t.Fatalf("viewer's recording of the stream cut at %d is %s", cut, vst)
			}
			if w.events != int64(before) || w.model.Events != int64(before) {
				t.Fatalf("viewer decoded %d events (model %d), want %d", w.events, w.model.Events, before)
			}
			if cut == int64(len(data)) {
				if rst.State != ingest.StateComplete || w.status.State != ingest.StateComplete {
					t.Fatalf("relay %s, viewer %s", rst, w.status)
				}
				rec, _ := os.ReadFile(filepath.Join(dir, "viewer.eventlog"))
				if !bytes.Equal(rec, data) {
					t.Fatal("viewer's recording differs from the file")
				}
				if len(w.growth) < 3 {
					t.Fatalf("the viewer's model did not grow in steps: %v", w.growth)
				}
			} else if w.status.State != ingest.StateTruncated {
				t.Fatalf("viewer's stream after a cut: %s", w.status)
			}
		})
	}
}

// TestLiveGHCProgramThroughFIFO runs a real GHC program that writes its
// eventlog into a FIFO, relays the FIFO, and watches the relay over TCP: the
// viewer's model grows while the program runs, and its recording decodes to
// exactly the events the relay read. Skipped where ghc is not installed.
func TestLiveGHCProgramThroughFIFO(t *testing.T) {
	ghc, err := exec.LookPath("ghc")
	if err != nil {
		t.Skip("ghc not installed")
	}
	if testing.Short() {
		t.Skip("builds a Haskell program")
	}
	dir := t.TempDir()
	src, _ := filepath.Abs("../testdata/haskell/ParWork.hs")
	prog := filepath.Join(dir, "parwork")
	build := exec.Command(ghc, "-O1", "-threaded", "-rtsopts", "-eventlog", "-outputdir", filepath.Join(dir, "build"), src, "-o", prog)
	if out, err := build.CombinedOutput(); err != nil {
		t.Skipf("building ParWork.hs: %v\n%s", err, out)
	}
	fifo := filepath.Join(dir, "prog.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	relay, url, joined := startRelay(t)
	relayed := relayFrom(t, relay, "fifo://"+fifo, filepath.Join(dir, "relay.eventlog"))
	var started time.Time
	// GHC 9.0's RTS writes a capability's events out when its 2 MB buffer
	// fills (and at exit): 400 rounds make ~5 MB, so that buffers fill and
	// reach the viewer while the program still runs (at 150, everything
	// came in the last few ms before exit).
	cmd := exec.Command(prog, "400", "+RTS", "-N2", "-l", "-A256k", "-ol"+fifo, "-RTS")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	var exited time.Time
	done := make(chan error, 1)
	go func() {
		<-joined
		started = time.Now()
		if err := cmd.Start(); err != nil {
			done <- err
			return
		}
		err := cmd.Wait()
		exited = time.Now()
		done <- err
	}()
	w := watch(t, url, filepath.Join(dir, "viewer.eventlog"))
	if err := <-done; err != nil {
		t.Fatalf("running ParWork: %v", err)
	}
	rst := <-relayed
	relay.Close()
	if rst.State != ingest.StateComplete || w.status.State != ingest.StateComplete {
		t.Fatalf("relay %s, viewer %s", rst, w.status)
	}
	got, _ := rawEvents(t, filepath.Join(dir, "viewer.eventlog"))
	relayGot, _ := rawEvents(t, filepath.Join(dir, "relay.eventlog"))
	sameRaw(t, "viewer's recording against the relay's", got, relayGot)
	if w.model.Events != int64(len(got)) || len(w.model.HECs) != 2 {
		t.Fatalf("viewer's model: %d events on %d HECs, want %d on 2", w.model.Events, len(w.model.HECs), len(got))
	}
	t.Logf("ParWork ran %v; first events reached the viewer %v after start; snapshots grew %d times (%v…); %d events",
		exited.Sub(started).Round(time.Millisecond), w.firstAt.Sub(started).Round(time.Millisecond), len(w.growth), w.growth[:min(5, len(w.growth))], len(got))
	if len(w.growth) < 2 || !w.firstAt.Before(exited) {
		t.Fatalf("the viewer did not see the run grow before the program exited: first events at %v, exit at %v, growth %v",
			w.firstAt.Sub(started), exited.Sub(started), w.growth)
	}
}

// relayFrom has relay relay the source at url, recording it at record, in
// a goroutine; the channel gets how the source ended.
func relayFrom(t *testing.T, relay *ingest.Relay, url, record string) <-chan ingest.Status {
	relayed := make(chan ingest.Status, 1)
	go func() {
		src, err := ingest.OpenSource(context.Background(), url)
		if err != nil {
			t.Error(err)
			relayed <- ingest.Status{}
			return
		}
		defer src.Close()
		rec, _ := ingest.NewRecorder(record)
		st, _ := relay.Run(src, rec)
		relayed <- st
	}()
	return relayed
}
