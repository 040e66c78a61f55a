package live

import (
	"bytes"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/internal/testlog"
	"github.com/hecscope/hecscope/timeline"

	"github.com/hecscope/hecscope/internal/testfile"
)

// readLog returns the test log called name.
func readLog(t testing.TB, name string) []byte {
	t.Helper()
	return testfile.Read(t, "../testdata/ghc-9.0.2/"+name)
}

// writeSlowly writes data in uneven chunks with short pauses.
func writeSlowly(w io.Writer, data []byte) error { return testfile.WriteSlowly(w, data, 5) }

// serveUnix serves each connection to a Unix socket with the next of
// conns (a connection with nil data is accepted and closed at once).
func serveUnix(t *testing.T, sock string, conns ...[]byte) {
	t.Helper()
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for _, data := range conns {
			c, err := l.Accept()
			if err != nil {
				return
			}
			writeSlowly(c, data)
			c.Close()
		}
		l.Close()
	}()
}

// waitUntil polls cond until it holds, failing after 10 s with what.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	// Generous: CI machines are shared and the race detector is slow; a
	// wait only ends early when the condition holds.
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30 s for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitText waits until the session's status line contains want.
func waitText(t *testing.T, s *Session, want string) Status {
	t.Helper()
	var st Status
	deadline := time.Now().Add(30 * time.Second)
	for st = s.Status(); !strings.Contains(st.Text, want); st = s.Status() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30 s for a status with %q; the status is %q", want, st.Text)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return st
}

// fileModel builds the timeline model of a whole log.
func fileModel(t *testing.T, data []byte) *timeline.Model {
	t.Helper()
	b := timeline.NewOverviewBuilder(timeline.Grid{})
	if _, _, err := testlog.ReadAll(bytes.NewReader(data), func(ev *ingest.Event) error {
		b.Add(ev)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	b.Finish()
	return b.Snapshot()
}

func summarize(t *testing.T, data []byte) timeline.Summary {
	t.Helper()
	s, err := timeline.Summarize(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSessionMatchesFile: a stream sent over a Unix socket in uneven chunks
// ends as a model equal to the file's, recorded byte for byte, with the
// status saying so.
func TestSessionMatchesFile(t *testing.T) {
	data := readLog(t, "parwork-N2.eventlog")
	dir := t.TempDir()
	sock := filepath.Join(dir, "prog.sock")
	serveUnix(t, sock, data)
	s := Start("unix://"+sock, Options{RecordDir: dir})
	defer s.Close()
	st := waitText(t, s, "ended: complete")
	cur := s.Status().Stream
	<-cur.Done()
	st = s.Status()
	if st.Phase != PhaseEnded || st.Stream != cur {
		t.Fatalf("status %v %q", st.Phase, st.Text)
	}
	want := fileModel(t, data)
	got := cur.Models().Timeline()
	if got.Events != want.Events || len(got.HECs) != len(want.HECs) || got.NumThreads() != want.NumThreads() || got.End != want.End {
		t.Fatalf("model: %d events, %d HECs, %d threads, end %d; file: %d, %d, %d, %d",
			got.Events, len(got.HECs), got.NumThreads(), got.End, want.Events, len(want.HECs), want.NumThreads(), want.End)
	}
	rec, err := os.ReadFile(cur.RecordingPath())
	if err != nil || !bytes.Equal(rec, data) {
		t.Fatalf("recording %s: %d bytes (%v), want the %d of the stream", cur.RecordingPath(), len(rec), err, len(data))
	}
	if !strings.HasPrefix(filepath.Base(cur.RecordingPath()), "parwork-") || !strings.Contains(st.Text, "recorded to "+cur.RecordingPath()) {
		t.Fatalf("recording named %s; status %q", cur.RecordingPath(), st.Text)
	}
	sum, wantSum := cur.Models().Summary(), summarize(t, data)
	if sum.Events != wantSum.Events || sum.TotalNS != wantSum.TotalNS || sum.GC.Total.Collections != wantSum.GC.Total.Collections || sum.Status.State != ingest.StateComplete {
		t.Fatalf("summary: %d events over %d ns, %d collections, %s; file: %d, %d, %d",
			sum.Events, sum.TotalNS, sum.GC.Total.Collections, sum.Status, wantSum.Events, wantSum.TotalNS, wantSum.GC.Total.Collections)
	}
}

// TestSessionStatusWords follows a FIFO stream through its phases: waiting
// for a writer, header received and waiting for the first block (with the
// reason for a GHC 9.0 RTS), receiving, ended.
func TestSessionStatusWords(t *testing.T) {
	data := readLog(t, "parwork-N1.eventlog")
	all := decodeAll(t, data)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "prog.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	s := Start("fifo://"+fifo, Options{RecordDir: dir})
	defer s.Close()
	st := waitText(t, s, "waiting for a writer on "+fifo+" (a program started with +RTS -l -ol"+fifo+")")
	if st.Phase != PhaseConnecting || st.Stream != nil {
		t.Fatalf("before the writer: %v, stream %v", st.Phase, st.Stream)
	}
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	header := all[0].Offset
	w.Write(data[:header])
	st = waitText(t, s, "a GHC 9.0 RTS writes its events in 2 MiB blocks per capability, so nothing arrives until a block fills or the program exits")
	if st.Phase != PhaseWaitingData || !st.Stats.BlockBuffered || !strings.HasPrefix(st.Text, "header received from FIFO "+fifo) {
		t.Fatalf("after the header: %v %q", st.Phase, st.Text)
	}
	w.Write(data[header : len(data)/2])
	st = waitText(t, s, "events/s")
	if st.Phase != PhaseReceiving || !strings.Contains(st.Text, "newest data") || !strings.Contains(st.Text, "recording to ") {
		t.Fatalf("receiving: %v %q", st.Phase, st.Text)
	}
	w.Write(data[len(data)/2:])
	w.Close()
	st = waitText(t, s, "ended: complete")
	if st.Phase != PhaseEnded {
		t.Fatalf("ended: %v %q", st.Phase, st.Text)
	}
}

func decodeAll(t *testing.T, data []byte) []ingest.Event {
	t.Helper()
	var out []ingest.Event
	testlog.ReadAll(bytes.NewReader(data), func(ev *ingest.Event) error {
		out = append(out, ev.Clone())
		return nil
	})
	return out
}

// TestSessionReconnectKeepsData: after a stream ended, a reconnection that
// fails says why and a connection that closes inside its header brings
// nothing (and says so, a failed attempt); the ended stream stays shown,
// with its model, until a new stream's header has arrived.
func TestSessionReconnectKeepsData(t *testing.T) {
	one := readLog(t, "parwork-N1.eventlog")
	two := readLog(t, "parwork-N2.eventlog")
	dir := t.TempDir()
	sock := filepath.Join(dir, "prog.sock")
	serveUnix(t, sock, one)
	s := Start("unix://"+sock, Options{RecordDir: dir})
	defer s.Close()
	waitText(t, s, "ended: complete")
	first := s.Status().Stream
	<-first.Done()
	events := first.Models().Timeline().Events

	// Nothing listens now (the listener closed after its connection).
	waitUntil(t, "the listener to go", func() bool {
		c, err := net.Dial("unix", sock)
		if err == nil {
			c.Close()
		}
		return err != nil
	})
	s.Reconnect()
	st := waitText(t, s, "connection failed: ")
	if st.Stream != first || st.Phase != PhaseEnded || st.Err == nil || !strings.HasPrefix(st.Text, "ended: complete") {
		t.Fatalf("after a failed reconnect: stream %v, %v, %q", st.Stream == first, st.Phase, st.Text)
	}
	if first.Models().Timeline().Events != events {
		t.Fatal("a failed reconnect changed the model")
	}

	// A program that closes the connection inside its header.
	os.Remove(sock)
	serveUnix(t, sock, two[:100], two)
	s.Reconnect()
	waitUntil(t, "the half header to be read and dropped", func() bool {
		st := s.Status()
		s.mu.Lock()
		started := len(s.all)
		s.mu.Unlock()
		return st.Phase == PhaseEnded && strings.HasSuffix(st.Text, "connection failed: the connection closed inside the eventlog header") && st.Stream == first && started == 1
	})
	if n := len(s.Streams()); n != 1 {
		t.Fatalf("%d streams after a connection that brought only part of a header", n)
	}
	s.Reconnect()
	waitUntil(t, "the second stream", func() bool { return s.Status().Stream != first })
	second := s.Status().Stream
	<-second.Done()
	if got := second.Models().Timeline().Events; got != fileModel(t, two).Events {
		t.Fatalf("second stream: %d events", got)
	}
	if streams := s.Streams(); len(streams) != 2 || streams[0] != first || first.Models() == nil {
		t.Fatalf("streams after the reconnect: %d", len(streams))
	}
	entries, _ := os.ReadDir(dir)
	var recs []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".eventlog") {
			recs = append(recs, e.Name())
		}
	}
	if len(recs) != 2 {
		t.Fatalf("recordings %v, want one per stream that sent its header", recs)
	}
}

// TestSessionAutoReconnect: with auto-reconnect, a session on a FIFO takes
// the program's next run by itself, and one on a socket retries until the
// program listens.
func TestSessionAutoReconnect(t *testing.T) {
	one := readLog(t, "parwork-N1.eventlog")
	two := readLog(t, "parwork-N2.eventlog")
	dir := t.TempDir()
	fifo := filepath.Join(dir, "prog.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	s := Start("fifo://"+fifo, Options{RecordDir: dir, AutoReconnect: true})
	defer s.Close()
	for i, data := range [][]byte{one, two} {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		writeSlowly(w, data)
		w.Close()
		waitUntil(t, "the run to be read", func() bool { return len(s.Streams()) == i+1 })
		cur := s.Status().Stream
		<-cur.Done()
		if rec, _ := os.ReadFile(cur.RecordingPath()); !bytes.Equal(rec, data) {
			t.Fatalf("run %d recorded as %d bytes, want %d", i+1, len(rec), len(data))
		}
	}
	st := waitText(t, s, "reconnecting: waiting for a writer on "+fifo)
	if st.Phase != PhaseConnecting {
		t.Fatalf("between runs: %v %q", st.Phase, st.Text)
	}

	sock := filepath.Join(dir, "prog.sock")
	u := Start("unix://"+sock, Options{RecordDir: dir, AutoReconnect: true})
	defer u.Close()
	waitText(t, u, "waiting for the program to listen")
	serveUnix(t, sock, one)
	waitText(t, u, "ended: complete")
}

// TestSessionRelayedStreams: through a relay, a session takes each run of
// the program as a new stream on the same connection, a cut one recorded as
// truncated, and a session that joins a running stream says from when its
// figures hold.
func TestSessionRelayedStreams(t *testing.T) {
	one := readLog(t, "parwork-N1.eventlog")
	two := readLog(t, "parwork-N2.eventlog")
	all := decodeAll(t, one)
	cut := all[len(all)*3/4].Offset + 3
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	relay := ingest.NewRelay()
	go relay.Serve(l)
	defer relay.Close()
	s := Start("tcp://"+l.Addr().String(), Options{RecordDir: filepath.Join(dir, "viewer")})
	defer s.Close()
	waitUntil(t, "the viewer to join", func() bool { _, _, _, v := relay.Stats(); return v == 1 })

	pr, pw := io.Pipe()
	relayed := make(chan ingest.Status, 1)
	go func() {
		rec, _ := ingest.NewRecorder(filepath.Join(dir, "relay1.eventlog"))
		st, _ := relay.Run(pr, rec)
		relayed <- st
	}()
	writeSlowly(pw, one[:len(one)/2])
	// A second viewer joins while the program runs.
	late := Start("tcp://"+l.Addr().String(), Options{RecordDir: filepath.Join(dir, "late")})
	defer late.Close()
	waitUntil(t, "the late viewer to join", func() bool { _, _, _, v := relay.Stats(); return v == 2 })
	st := waitText(t, late, "joined at ")
	if at, ok := st.Stream.JoinedAt(); !ok || at == 0 {
		t.Fatalf("late viewer: joined %v at %d", ok, at)
	}
	writeSlowly(pw, one[len(one)/2:cut])
	pw.Close()
	<-relayed
	waitText(t, s, "ended: cut at byte")

	go relay.Run(bytes.NewReader(two), nil)
	waitUntil(t, "the second stream", func() bool { return len(s.Streams()) == 2 })
	st = waitText(t, s, "ended: complete")
	if st.Stream.N != 2 {
		t.Fatalf("status of stream %d", st.Stream.N)
	}
	streams := s.Streams()
	<-streams[1].Done()
	rec1, _ := os.ReadFile(streams[0].RecordingPath())
	rec2, _ := os.ReadFile(streams[1].RecordingPath())
	if !bytes.Equal(rec1, one[:all[len(all)*3/4].Offset]) || !bytes.Equal(rec2, two) {
		t.Fatalf("recordings of %d and %d bytes", len(rec1), len(rec2))
	}
	if st := streams[0].Stats().Status; st.State != ingest.StateTruncated {
		t.Fatalf("the cut stream: %s", st)
	}
}

// blockingSink holds up its first batch until released.
type blockingSink struct {
	release chan struct{}
	once    sync.Once
	events  int
}

func (b *blockingSink) Add(evs []ingest.Event) {
	b.once.Do(func() { <-b.release })
	b.events += len(evs)
}

func (b *blockingSink) End(ingest.Status) {}

// TestSessionNeverSlowsProgram: while the model takes nothing, a program
// writing into the FIFO is never held up: everything it writes is read and
// recorded at once; the model catches up when it can.
func TestSessionNeverSlowsProgram(t *testing.T) {
	data := readLog(t, "parwork-N2.eventlog")
	// One long stream: the log's blocks over and over, then its end marker.
	hdr := decodeAll(t, data)[0].Offset
	stream := append([]byte(nil), data[:hdr]...)
	for len(stream) < 4<<20 {
		stream = append(stream, data[hdr:len(data)-2]...)
	}
	stream = append(stream, 0xFF, 0xFF)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "prog.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	sink := &blockingSink{release: make(chan struct{})}
	s := Start("fifo://"+fifo, Options{RecordDir: dir, NewSink: func(*Stream) Sink { return sink }})
	defer s.Close()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	wrote := make(chan struct{})
	go func() {
		w.Write(stream)
		w.Close()
		close(wrote)
	}()
	select {
	case <-wrote:
	case <-time.After(10 * time.Second):
		close(sink.release)
		t.Fatal("the program was held up while the model took nothing")
	}
	waitUntil(t, "the stream to be recorded", func() bool {
		cur := s.Status().Stream
		return cur != nil && cur.Stats().InputOver
	})
	cur := s.Status().Stream
	if got := cur.Recorded(); got != int64(len(stream)) {
		t.Fatalf("recorded %d bytes of %d", got, len(stream))
	}
	if st := cur.Stats(); st.Behind == 0 || st.Done {
		t.Fatalf("the model was not behind: %+v", st)
	}
	close(sink.release)
	<-cur.Done()
	want := 0
	testlog.ReadAll(bytes.NewReader(stream), func(*ingest.Event) error { want++; return nil })
	if sink.events != want {
		t.Fatalf("the model got %d events, want %d", sink.events, want)
	}
}

// TestSessionCutStreamEndsAtItsFrontiers: a stream that ends before its end
// marker (parwork-N2's first 100,000 bytes, then the connection closes)
// leaves a model of a cut log, HEC 1 known up to 25.3 ms of 112.9 ms, not
// one still waiting for HEC 1's events ("not received yet" for ever).
func TestSessionCutStreamEndsAtItsFrontiers(t *testing.T) {
	data := readLog(t, "parwork-N2.eventlog")[:100_000]
	dir := t.TempDir()
	sock := filepath.Join(dir, "prog.sock")
	serveUnix(t, sock, data)
	s := Start("unix://"+sock, Options{RecordDir: dir})
	defer s.Close()
	waitText(t, s, "ended")
	cur := s.Status().Stream
	<-cur.Done()
	m := cur.Models().Timeline()
	if m == nil || m.Growing || !m.Cut || len(m.HECs) != 2 {
		t.Fatalf("model of the cut stream: %+v", m)
	}
	if fr := m.HECs[1].Frontier(); fr+50_000_000 > m.End || m.HECs[0].Frontier() != m.End {
		t.Errorf("frontiers %d and %d of %d", m.HECs[0].Frontier(), fr, m.End)
	}
}
