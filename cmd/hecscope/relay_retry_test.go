package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hecscope/hecscope/internal/socktest"
)

// exitCode waits (30 s at most) for the relay to exit and returns its code.
func (p *relayProcess) exitCode(t *testing.T) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(30 * time.Second):
		t.Fatalf("the relay did not exit:\n%s", p.logged())
	}
	return -1
}

// allClosed waits (10 s at most) until the server has seen the relay close
// every connection it accepted.
func allClosed(t *testing.T, srv *socktest.Server) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); srv.Open() != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the relay left %d connections open", srv.Open())
		}
	}
}

// recordings returns the names of the eventlog files in dir.
func recordings(dir string) []string {
	var out []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".eventlog") {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestRelayStopsHammering: against a Unix socket that accepts, sends
// garbage and holds each connection open (as GHC's eventlog-socket library
// holds the clients it does not close), the relay makes five connections
// in no less than the 2.3 s its pauses add up to, closes each, leaves no
// recording, says why it stops and exits 1.
func TestRelayStopsHammering(t *testing.T) {
	t.Parallel()
	srv := socktest.Serve(t, "unix", socktest.Conn{Send: []byte("SSH-2.0-OpenSSH_9.6\r\n")})
	dir := t.TempDir()
	start := time.Now()
	p := startRelayProcess(t, "--from", srv.URL, "--record", filepath.Join(dir, "rec.eventlog"))
	if code := p.exitCode(t); code != 1 {
		t.Fatalf("exit %d, want 1:\n%s", code, p.logged())
	}
	elapsed := time.Since(start)
	const sentence = "hecscope relay: stopped after 5 attempts that each ended the same way: corrupt at byte 0: header begin marker not found (not an eventlog); the program is not serving an eventlog there, or serves it to another client; exiting (--keep-trying would keep trying)"
	if !strings.Contains(p.logged(), sentence+"\n") {
		t.Fatalf("the relay did not say %q:\n%s", sentence, p.logged())
	}
	if n := srv.Accepts(); n != 5 || elapsed < 2300*time.Millisecond {
		t.Fatalf("%d connections in %v, want 5 in at least 2.3 s:\n%s", n, elapsed, p.logged())
	}
	allClosed(t, srv)
	if recs := recordings(dir); len(recs) != 0 {
		t.Fatalf("recordings left: %v", recs)
	}
}

// TestRelayKeepTrying: with --keep-trying, against a TCP server that
// accepts and closes at once, the relay says once that it would have
// stopped, keeps trying at no more than one connection a second, and takes
// the program's stream when it comes, as stream 1 recorded to FILE itself.
func TestRelayKeepTrying(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../testdata/ghc-9.0.2/parwork-N1.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	closeAtOnce := socktest.Conn{Close: true}
	srv := socktest.Serve(t, "tcp", closeAtOnce, closeAtOnce, closeAtOnce, closeAtOnce, closeAtOnce, socktest.Conn{Send: data, Close: true}, socktest.Conn{})
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.eventlog")
	p := startRelayProcess(t, "--from", srv.URL, "--record", rec, "--keep-trying")
	p.waitFor(t, "stopped after 5 attempts that each ended the same way: the connection closed before anything arrived")
	p.waitFor(t, "stream 1 complete")
	p.cmd.Process.Signal(os.Interrupt)
	if code := p.exitCode(t); code != 0 {
		t.Fatalf("exit %d after Ctrl+C:\n%s", code, p.logged())
	}
	// Pauses of 0.1, 0.2, 1, 1 and 1.6 s: 5 connections in the first 3 s
	// at most, whatever the load.
	if n := srv.AcceptedWithin(3 * time.Second); n > 5 {
		t.Fatalf("%d connections within 3 s", n)
	}
	if got, _ := os.ReadFile(rec); !bytes.Equal(got, data) {
		t.Fatalf("the stream was recorded as %d bytes, want %d", len(got), len(data))
	}
	if recs := recordings(dir); len(recs) != 1 {
		t.Fatalf("recordings %v, want rec.eventlog alone:\n%s", recs, p.logged())
	}
	if n := strings.Count(p.logged(), "stopped after"); n != 1 {
		t.Fatalf("said %d times that it would have stopped:\n%s", n, p.logged())
	}
	allClosed(t, srv)
}

// TestRelaySilentSocketExplained: a socket that accepts and says nothing
// (the eventlog-socket library serving another client) is explained in the
// relay's log within 2 s; the relay holds its one connection.
func TestRelaySilentSocketExplained(t *testing.T) {
	t.Parallel()
	srv := socktest.Serve(t, "unix", socktest.Conn{})
	p := startRelayProcess(t, "--from", srv.URL)
	line := p.waitFor(t, "is connected but sends nothing")
	for _, want := range []string{
		"the program's eventlog-socket library serves one client at a time, so another client probably holds its connection (this one gets the stream once that one leaves), or a GHC 9.0 RTS is still filling its first 2 MiB block",
		"Let this relay be the program's one client, and attach every viewer to it: hecscope --attach tcp://" + p.addr,
	} {
		if !strings.Contains(line, want) {
			t.Errorf("%q lacks %q", line, want)
		}
	}
	if n := srv.Accepts(); n != 1 {
		t.Errorf("%d connections", n)
	}
	p.cmd.Process.Signal(os.Interrupt)
	if code := p.exitCode(t); code != 0 {
		t.Fatalf("exit %d after Ctrl+C:\n%s", code, p.logged())
	}
	allClosed(t, srv)
}
