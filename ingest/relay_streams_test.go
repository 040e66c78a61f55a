package ingest

import (
	"bytes"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// relayFixture is a relay serving on loopback, with its log.
type relayFixture struct {
	t     *testing.T
	relay *Relay
	l     net.Listener
	mu    sync.Mutex
	logs  []string
}

func newRelayFixture(t *testing.T) *relayFixture {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &relayFixture{t: t, relay: NewRelay(), l: l}
	f.relay.Logf = func(format string, args ...any) {
		f.mu.Lock()
		f.logs = append(f.logs, format)
		f.mu.Unlock()
	}
	go f.relay.Serve(l)
	t.Cleanup(func() { l.Close() })
	return f
}

// dial connects a viewer that reads to the end of its connection, and waits
// until the relay has it.
func (f *relayFixture) dial() chan []byte {
	f.t.Helper()
	_, _, _, before := f.relay.Stats()
	c, err := net.Dial("tcp", f.l.Addr().String())
	if err != nil {
		f.t.Fatal(err)
	}
	out := make(chan []byte, 1)
	go func() { out <- readAllFrom(c, 0); c.Close() }()
	f.waitViewers(before + 1)
	return out
}

func (f *relayFixture) waitViewers(n int) {
	f.t.Helper()
	for i := 0; i < 1000; i++ {
		if _, _, _, v := f.relay.Stats(); v == n {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	_, _, _, v := f.relay.Stats()
	f.t.Fatalf("the relay has %d viewers, want %d", v, n)
}

func (f *relayFixture) logged(prefix string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, m := range f.logs {
		if strings.HasPrefix(m, prefix) {
			return true
		}
	}
	return false
}

// run relays data as one stream, recorded into dir.
func (f *relayFixture) run(data []byte, dir, name string) Status {
	f.t.Helper()
	rec, err := NewRecorder(filepath.Join(dir, name))
	if err != nil {
		f.t.Fatal(err)
	}
	st, err := f.relay.Run(bytes.NewReader(data), rec)
	if err != nil {
		f.t.Fatal(err)
	}
	return st
}

// streamsOf splits what a viewer received into its streams, as a viewer
// records them: each stream's recording and status.
func streamsOf(t *testing.T, wire []byte) (recs [][]byte, sts []Status) {
	t.Helper()
	dir := t.TempDir()
	for i := 0; len(wire) > 0; i++ {
		r, err := NewRecorder(filepath.Join(dir, "s.eventlog"))
		if err != nil {
			t.Fatal(err)
		}
		used, _ := r.Feed(wire)
		wire = wire[used:]
		r.Close()
		rec, _ := os.ReadFile(r.Path())
		recs, sts = append(recs, rec), append(sts, r.Status())
	}
	return recs, sts
}

// TestRelayOutlivesStreams: the relay keeps its viewers when a stream ends;
// a viewer that joins after the end gets the whole stream from the
// recording; the next stream follows on the same connections.
func TestRelayOutlivesStreams(t *testing.T) {
	one := readGHC902(t, "parwork-N1.eventlog")
	two := readGHC902(t, "parwork-N2.eventlog")
	dir := t.TempDir()
	f := newRelayFixture(t)
	early := f.dial()
	if st := f.run(one, dir, "one.eventlog"); st.State != StateComplete {
		t.Fatalf("first stream: %s", st)
	}
	if st, ended := f.relay.Ended(); !ended || st.State != StateComplete {
		t.Fatalf("after the first stream: ended %v, %s", ended, st)
	}
	afterOne := f.dial()
	if st := f.run(two, dir, "two.eventlog"); st.State != StateComplete {
		t.Fatalf("second stream: %s", st)
	}
	afterTwo := f.dial()
	if _, _, n, v := f.relay.Stats(); n != 2 || v != 3 {
		t.Fatalf("%d streams, %d viewers; want 2 and 3", n, v)
	}
	if err := f.relay.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		got  []byte
		want []byte
	}{
		{"viewer from the start", <-early, append(append([]byte(nil), one...), two...)},
		{"viewer after the first stream", <-afterOne, append(append([]byte(nil), one...), two...)},
		{"viewer after the second stream", <-afterTwo, two},
	} {
		if !bytes.Equal(c.got, c.want) {
			t.Errorf("%s got %d bytes, want the %d of its streams", c.name, len(c.got), len(c.want))
		}
	}
}

// TestRelayCutStream: a stream that stops without its end marker is ended
// on the wire with a cut mark, so that viewers record it as truncated (and
// a viewer joining later gets the same), and the next stream follows.
func TestRelayCutStream(t *testing.T) {
	one := readGHC902(t, "parwork-N1.eventlog")
	two := readGHC902(t, "parwork-N2.eventlog")
	all, _ := decodeChunks(one, []int{len(one)})
	boundary := all[1000].Offset
	cut := one[:boundary+5] // five bytes into an event
	dir := t.TempDir()
	f := newRelayFixture(t)
	early := f.dial()
	if st := f.run(cut, dir, "one.eventlog"); st.State != StateTruncated || st.Offset != boundary {
		t.Fatalf("cut stream: %s, want truncated at %d", st, boundary)
	}
	late := f.dial()
	f.run(two, dir, "two.eventlog")
	f.relay.Close()
	for name, wire := range map[string][]byte{"early": <-early, "late": <-late} {
		recs, sts := streamsOf(t, wire)
		if len(recs) != 2 {
			t.Fatalf("%s viewer got %d streams, want 2", name, len(recs))
		}
		if !bytes.Equal(recs[0], one[:boundary]) || sts[0].State != StateTruncated {
			t.Errorf("%s viewer: first stream recorded as %d bytes, %s; want the %d before the cut, truncated", name, len(recs[0]), sts[0], boundary)
		}
		if !bytes.Equal(recs[1], two) || sts[1].State != StateComplete {
			t.Errorf("%s viewer: second stream recorded as %d bytes, %s", name, len(recs[1]), sts[1])
		}
	}
	rec, _ := os.ReadFile(filepath.Join(dir, "one.eventlog"))
	if _, st := decodeChunks(rec, []int{len(rec)}); !bytes.Equal(rec, one[:boundary]) || st.State != StateTruncated {
		t.Fatalf("the relay's recording of the cut stream: %d bytes, %s", len(rec), st)
	}
}

// flakyListener fails its first accepts with an error that is not its
// being closed.
type flakyListener struct {
	net.Listener
	fails int
}

func (l *flakyListener) Accept() (net.Conn, error) {
	if l.fails > 0 {
		l.fails--
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: syscall.EMFILE}
	}
	return l.Listener.Accept()
}

// TestRelayServeAfterAcceptErrors: accept errors (too many open files) are
// reported and do not stop the relay from accepting viewers.
func TestRelayServeAfterAcceptErrors(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	relay := NewRelay()
	var mu sync.Mutex
	var logs []string
	relay.Logf = func(format string, args ...any) {
		mu.Lock()
		logs = append(logs, format)
		mu.Unlock()
	}
	served := make(chan error, 1)
	go func() { served <- relay.Serve(&flakyListener{Listener: l, fails: 3}) }()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, _, _, v := relay.Stats(); v == 1 {
			break
		}
		select {
		case err := <-served:
			t.Fatalf("Serve returned %v after an accept error", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the viewer was never accepted")
		}
		time.Sleep(5 * time.Millisecond)
	}
	l.Close()
	if err := <-served; err != nil {
		t.Fatalf("Serve after its listener closed: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logs) == 0 || !strings.Contains(logs[0], "accepting viewers") {
		t.Fatalf("accept errors not reported: %q", logs)
	}
	relay.Close()
}

// TestRelayQuietViewers: a viewer that closes its connection while nothing
// is sent is cleaned up at once, and one that stops reading is dropped
// after the quiet timeout, without holding up the stream.
func TestRelayQuietViewers(t *testing.T) {
	data := readGHC902(t, "parwork-N2.eventlog")
	f := newRelayFixture(t)
	f.relay.QuietTimeout = 200 * time.Millisecond
	c, err := net.Dial("tcp", f.l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	f.waitViewers(1)
	c.Close()
	f.waitViewers(0)
	if !f.logged("relay: viewer %s left") {
		t.Fatal("the viewer's leaving was not reported")
	}

	// A viewer that never reads, through a pipe that buffers nothing.
	server, client := net.Pipe()
	defer client.Close()
	f.relay.Add(server)
	f.waitViewers(1)
	done := make(chan Status, 1)
	go func() { done <- f.run(data, t.TempDir(), "rec.eventlog") }()
	select {
	case st := <-done:
		if st.State != StateComplete {
			t.Fatalf("stream: %s", st)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a viewer that does not read held up the stream")
	}
	f.waitViewers(0)
	if !f.logged("relay: viewer %s left") {
		t.Fatal("the quiet viewer's dropping was not reported")
	}
	f.relay.Close()
	if _, err := client.Read(make([]byte, 1)); !errors.Is(err, net.ErrClosed) && err == nil {
		t.Fatal("the quiet viewer's connection is still open")
	}
}
