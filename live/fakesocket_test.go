package live

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/internal/fakesocket"
)

// TestSessionAgainstFakeLibrary watches a program that serves its eventlog
// as eventlog-socket does (a block marker before the header, blocks
// written as they fill, the last flush lost at exit in some runs): the
// window's session reads it whole, records a well-formed eventlog, sends
// control commands on its connection, and says "cut" of a stream whose end
// marker never came, never "complete".
func TestSessionAgainstFakeLibrary(t *testing.T) {
	data := readLog(t, "parwork-N2.eventlog")
	for _, drop := range []bool{false, true} {
		dir := t.TempDir()
		p, err := fakesocket.ListenUnix(dir, fakesocket.Options{Log: data, Chunk: 32 << 10, Pause: 2 * time.Millisecond, DropLastFlush: drop})
		if err != nil {
			t.Fatal(err)
		}
		s := Start(p.URL(), Options{RecordDir: dir})
		waitText(t, s, "events/s")
		if why := s.ControlRefusal(); why != "" {
			t.Fatalf("a socket source refuses commands: %s", why)
		}
		census, _ := ingest.ParseCommand("requestHeapCensus")
		if err := s.Send(census); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, "the program to read the command", func() bool { return len(p.Commands()) == 1 })
		p.Exit()
		if drop {
			st := waitText(t, s, "ended: cut at byte")
			if strings.Contains(st.Text, "complete") {
				t.Errorf("a stream without its end marker: %q", st.Text)
			}
		} else {
			waitText(t, s, "ended: complete")
			rec, err := os.ReadFile(s.Status().Stream.RecordingPath())
			if err != nil || !bytes.Equal(rec, data) {
				t.Errorf("the recording is %d bytes (%v), want the %d of the log without the block marker", len(rec), err, len(data))
			}
		}
		if c := p.Commands(); c[0] != (fakesocket.Command{Namespace: "eventlog-socket", ID: 5}) {
			t.Errorf("the program read %+v", c)
		}
		// The program has gone: the write fails (broken pipe) until the
		// session has let the connection go, then ErrNotConnected.
		if err := s.Send(census); err == nil {
			t.Error("sending after the program exited succeeded")
		}
		s.Close()
	}
}

// TestSessionFIFORefusesCommands: a FIFO carries the eventlog one way, so
// the session says why it cannot send a command.
func TestSessionFIFORefusesCommands(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "prog.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	s := Start("fifo://"+fifo, Options{RecordDir: t.TempDir()})
	defer s.Close()
	census, _ := ingest.ParseCommand("requestHeapCensus")
	if why := s.ControlRefusal(); !strings.Contains(why, "FIFO") {
		t.Errorf("refusal %q", why)
	}
	if err := s.Send(census); err == nil || !strings.Contains(err.Error(), "FIFO") {
		t.Errorf("Send: %v", err)
	}
}

// TestReconnectsNeverKillTheProgram: a program like eventlog-socket's,
// which keeps every client's descriptor and dies past 16, sending garbage
// (not an eventlog) to each client: a session that reconnects by itself
// stops after a few attempts with the reason, and the program lives. The
// reconnect storm of an earlier hecscope killed such a program.
func TestReconnectsNeverKillTheProgram(t *testing.T) {
	p, err := fakesocket.ListenUnix(t.TempDir(), fakesocket.Options{Garbage: []byte("HTTP/1.1 400 Bad Request\r\n\r\n"), MaxFDs: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Exit()
	s := Start(p.URL(), Options{RecordDir: t.TempDir(), AutoReconnect: true})
	defer s.Close()
	waitText(t, s, "stopped after")
	time.Sleep(1500 * time.Millisecond) // nothing more comes after the stop
	if err := p.Died(); err != nil {
		t.Fatalf("the program died: %v", err)
	}
	if n, leaked := p.Accepted(), p.Leaked(); n > 6 || leaked > 6 {
		t.Errorf("%d connections, %d descriptors kept by the program; want at most 6", n, leaked)
	}
}
