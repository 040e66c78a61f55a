package main

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRelayAndAttachUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		have string
	}{
		{[]string{"relay"}, 2, "usage: hecscope relay"},
		{[]string{"relay", "--from", "gopher://x", "--listen", "127.0.0.1:0"}, 1, "scheme must be"},
		{[]string{"--attach"}, 2, "usage: hecscope --attach URL"},
		{[]string{"--attach", "tcp://a", "extra"}, 2, "usage: hecscope --attach URL"},
	} {
		code, _, stderr := hecscope(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.have) {
			t.Errorf("hecscope %v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.have)
		}
	}
}

// TestRelayCommand runs hecscope relay on a FIFO, attaches a viewer over
// TCP, writes a GHC 9.0.2 log into the FIFO and checks that the viewer gets
// it byte for byte and the relay exits 0.
func TestRelayCommand(t *testing.T) {
	data, err := os.ReadFile("../../testdata/ghc-9.0.2/parwork-N1.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "prog.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	cmd := exec.Command(os.Args[0], "relay", "--from", "fifo://"+fifo, "--listen", "127.0.0.1:0", "--record", filepath.Join(dir, "rec.eventlog"))
	cmd.Env = append(os.Environ(), "HECSCOPE_TEST_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stderr)
	var addr string
	var log strings.Builder
	for lines.Scan() {
		log.WriteString(lines.Text() + "\n")
		if _, rest, ok := strings.Cut(lines.Text(), "serving viewers on tcp://"); ok {
			addr, _, _ = strings.Cut(rest, ";")
			break
		}
	}
	if addr == "" {
		t.Fatalf("relay did not say where it serves: %q", log.String())
	}
	go func() {
		for lines.Scan() {
			log.WriteString(lines.Text() + "\n")
		}
	}()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	time.Sleep(100 * time.Millisecond) // let the relay accept the viewer before the stream starts
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	w.Close()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, err := io.ReadAll(conn)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("relay: %v\n%s", err, log.String())
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("viewer got %d bytes that differ from the %d-byte log", len(got), len(data))
	}
	rec, _ := os.ReadFile(filepath.Join(dir, "rec.eventlog"))
	if !bytes.Equal(rec, data) {
		t.Fatal("the relay's recording differs from the log")
	}
}
