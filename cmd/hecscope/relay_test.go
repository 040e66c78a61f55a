package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hecscope/hecscope/internal/childtest"
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

// TestRelayCommand runs hecscope relay --exit-at-end on a FIFO, attaches a
// viewer over TCP, writes a GHC 9.0.2 log into the FIFO and checks that the
// viewer gets it byte for byte and the relay exits 0.
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
	cmd := childtest.Command(context.Background(), []string{"relay", "--from", "fifo://" + fifo, "--listen", "127.0.0.1:0", "--record", filepath.Join(dir, "rec.eventlog"), "--exit-at-end"})
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

// relayProcess is a hecscope relay running in a child process.
type relayProcess struct {
	cmd  *exec.Cmd
	addr string
	mu   sync.Mutex
	log  strings.Builder
	// lines gets each line of the relay's stderr.
	lines chan string
}

func startRelayProcess(t *testing.T, args ...string) *relayProcess {
	t.Helper()
	p := &relayProcess{cmd: childtest.Command(context.Background(), append([]string{"relay", "--listen", "127.0.0.1:0"}, args...)), lines: make(chan string, 100)}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill() })
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.log.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			select {
			case p.lines <- sc.Text():
			default:
			}
		}
		close(p.lines)
	}()
	line := p.waitFor(t, "serving viewers on tcp://")
	_, rest, _ := strings.Cut(line, "serving viewers on tcp://")
	p.addr, _, _ = strings.Cut(rest, ";")
	return p
}

// waitFor waits for a line of the relay's stderr that contains s.
func (p *relayProcess) waitFor(t *testing.T, s string) string {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				t.Fatalf("the relay ended before saying %q:\n%s", s, p.logged())
			}
			if strings.Contains(line, s) {
				return line
			}
		case <-timeout:
			t.Fatalf("the relay did not say %q:\n%s", s, p.logged())
		}
	}
}

func (p *relayProcess) logged() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// viewer connects to the relay and reads until the relay closes.
func (p *relayProcess) viewer(t *testing.T) chan []byte {
	t.Helper()
	conn, err := net.Dial("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan []byte, 1)
	go func() {
		defer conn.Close()
		conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		b, _ := io.ReadAll(conn)
		out <- b
	}()
	p.waitFor(t, " joined")
	return out
}

// writeFIFO writes data into the FIFO as a program would, one run.
func writeFIFO(t *testing.T, fifo string, data []byte) {
	t.Helper()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	w.Close()
}

// TestRelayCommandOutlivesProgram: the relay says it waits for a writer,
// stays up after the program's stream ends, gives the whole stream to a
// viewer that joins after the end, takes the program's next run on the
// same FIFO as a new stream with a new recording that its viewers follow,
// and exits 0 on Ctrl+C.
func TestRelayCommandOutlivesProgram(t *testing.T) {
	one, err := os.ReadFile("../../testdata/ghc-9.0.2/parwork-N1.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	two, _ := os.ReadFile("../../testdata/ghc-9.0.2/parwork-N2.eventlog")
	dir := t.TempDir()
	fifo := filepath.Join(dir, "prog.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	rec := filepath.Join(dir, "rec.eventlog")
	p := startRelayProcess(t, "--from", "fifo://"+fifo, "--record", rec)
	p.waitFor(t, "waiting for a writer on "+fifo)
	early := p.viewer(t)
	writeFIFO(t, fifo, one)
	p.waitFor(t, "stream 1 complete")
	late := p.viewer(t)
	writeFIFO(t, fifo, two)
	p.waitFor(t, "stream 2 complete")
	afterTwo := p.viewer(t)
	p.cmd.Process.Signal(os.Interrupt)
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("relay after Ctrl+C: %v\n%s", err, p.logged())
	}
	both := append(append([]byte(nil), one...), two...)
	for name, c := range map[string]struct {
		got, want []byte
	}{"early viewer": {<-early, both}, "viewer after the first run": {<-late, both}, "viewer after the second run": {<-afterTwo, two}} {
		if !bytes.Equal(c.got, c.want) {
			t.Errorf("%s got %d bytes, want the %d of its streams", name, len(c.got), len(c.want))
		}
	}
	for file, want := range map[string][]byte{rec: one, filepath.Join(dir, "rec-2.eventlog"): two} {
		if got, _ := os.ReadFile(file); !bytes.Equal(got, want) {
			t.Errorf("recording %s: %d bytes, want %d", file, len(got), len(want))
		}
	}
}
