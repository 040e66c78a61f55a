package main

import (
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hecscope/hecscope/internal/fakesocket"
)

// TestControlCommand sends commands as a user would: to the program
// directly, through a relay (which holds the program's one connection and
// passes them on), and to a program whose one connection another client
// holds, which is refused with the way out. FIFOs take no commands.
func TestControlCommand(t *testing.T) {
	data, err := os.ReadFile("../../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	p, err := fakesocket.ListenUnix(t.TempDir(), fakesocket.Options{Log: data, Chunk: 8 << 10, Pause: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Exit()

	code, out, stderr := hecscope(t, "control", "--watch", "0", p.URL(), "requestHeapCensus")
	if code != 0 || !strings.Contains(out, "sent requestHeapCensus to Unix socket") {
		t.Fatalf("direct: exit %d, %q %q", code, out, stderr)
	}
	waitCommands(t, p, 1)

	r := startRelayProcess(t, "--from", p.URL())
	r.waitFor(t, "recording stream 1")
	code, out, stderr = hecscope(t, "control", "--watch", "0", "tcp://"+r.addr, "my-app:9")
	if code != 0 || !strings.Contains(out, "sent my-app:9") {
		t.Fatalf("through the relay: exit %d, %q %q", code, out, stderr)
	}
	waitCommands(t, p, 2)
	if c := p.Commands()[1]; c != (fakesocket.Command{Namespace: "my-app", ID: 9}) {
		t.Errorf("through the relay the program read %+v", c)
	}
	r.waitFor(t, "sent my-app:9 to the program")

	// The relay holds the program's one connection: a second client is
	// left waiting, and told why.
	code, _, stderr = hecscope(t, "control", "--wait", "1s", p.URL(), "requestHeapCensus")
	if code != 1 || !strings.Contains(stderr, "another one holds it") || !strings.Contains(stderr, "hecscope relay") {
		t.Errorf("while the relay holds the program: exit %d, %q", code, stderr)
	}
	if n := len(p.Commands()); n != 2 {
		t.Errorf("the program read %d commands, want 2", n)
	}

	for _, c := range []struct {
		args []string
		code int
		have string
	}{
		{[]string{"control", "fifo:///tmp/x", "requestHeapCensus"}, 1, "a FIFO carries the eventlog one way"},
		{[]string{"control", p.URL(), "censusPlease"}, 2, "not a built-in command"},
		{[]string{"control", p.URL(), "app:256"}, 2, "from 0 to 255"},
		{[]string{"control", p.URL()}, 2, "usage: hecscope control"},
	} {
		code, _, stderr := hecscope(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.have) {
			t.Errorf("hecscope %v: exit %d, %q; want %d and %q", c.args, code, stderr, c.code, c.have)
		}
	}
}

// TestControlWatchesForTheCensus: after a census request, control reads
// the stream for --watch and reports the censuses it shows (the fake
// program's log has a census every few ms, whatever is asked).
func TestControlWatchesForTheCensus(t *testing.T) {
	data, err := os.ReadFile("../../testdata/ghc-9.0.2/heap-hT.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	p, err := fakesocket.ListenTCP(fakesocket.Options{Log: data, Chunk: 16 << 10, Pause: 30 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Exit()
	code, out, stderr := hecscope(t, "control", "--watch", "2s", p.URL(), "requestHeapCensus")
	if code != 0 || !strings.Contains(out, "heap census(es) arrived") {
		t.Errorf("exit %d, %q %q", code, out, stderr)
	}
}

func waitCommands(t *testing.T, p *fakesocket.Program, n int) {
	t.Helper()
	for i := 0; len(p.Commands()) < n; i++ {
		if i == 2000 {
			t.Fatalf("the program read %d commands, want %d", len(p.Commands()), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestAllowControlFrom: --allow-control-from lets loopback viewers and the
// addresses and ranges it names send commands, and no others; a bad entry
// is refused.
func TestAllowControlFrom(t *testing.T) {
	allow, err := controlAllowed("10.1.2.3, 192.168.0.0/16,fd00::/8")
	if err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[string]bool{
		"127.0.0.1": true, "::1": true, "10.1.2.3": true, "10.1.2.4": false,
		"192.168.7.9": true, "172.16.0.1": false, "fd12::1": true, "2001:db8::1": false,
	} {
		if got := allow(&net.TCPAddr{IP: net.ParseIP(addr), Port: 5000}); got != want {
			t.Errorf("%s: allowed %v, want %v", addr, got, want)
		}
	}
	if none, _ := controlAllowed(""); none(&net.TCPAddr{IP: net.ParseIP("10.1.2.3")}) {
		t.Error("with no list, a non-loopback viewer may send commands")
	}
	if _, err := controlAllowed("my-laptop"); err == nil {
		t.Error("a host name was taken")
	}
}
