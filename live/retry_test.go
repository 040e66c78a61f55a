package live

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hecscope/hecscope/internal/socktest"
)

// garbage is what a server that does not serve an eventlog sends.
const garbage = "SSH-2.0-OpenSSH_9.6\r\n"

// noRecordings fails if dir holds a recording.
func noRecordings(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".eventlog") {
			t.Errorf("a recording was left: %s", e.Name())
		}
	}
}

// TestSessionStopsHammering: a socket that accepts, sends garbage and holds
// the connection open (as GHC's eventlog-socket library holds the clients
// it does not close) gets five connections, paced 0.1 s, 0.2 s, 1 s and
// 1 s apart, each closed by the session; then the session stops, says why
// and that Reconnect tries again, and leaves no recording. Reconnect makes
// one more connection.
func TestSessionStopsHammering(t *testing.T) {
	t.Parallel()
	srv := socktest.Serve(t, "unix", socktest.Conn{Send: []byte(garbage)})
	dir := t.TempDir()
	start := time.Now()
	s := Start(srv.URL, Options{RecordDir: dir, AutoReconnect: true})
	defer s.Close()
	if st := s.Status(); st.Phase != PhaseConnecting && st.Phase != PhaseHeader {
		t.Fatalf("at the start: %v %q", st.Phase, st.Text)
	}
	st := waitText(t, s, "stopped after 5 attempts that each ended the same way: corrupt at byte 0: header begin marker not found (not an eventlog); the program is not serving an eventlog there, or serves it to another client — press Reconnect to try again")
	elapsed := time.Since(start)
	if st.Phase != PhaseFailed {
		t.Fatalf("stopped: %v %q", st.Phase, st.Text)
	}
	// The pauses add up to 2.3 s; a busy machine only makes it longer.
	if n := srv.Accepts(); n != 5 || elapsed < 2300*time.Millisecond {
		t.Fatalf("%d connections in %v, want 5 in at least 2.3 s", n, elapsed)
	}
	waitUntil(t, "the session to close every connection", func() bool { return srv.Open() == 0 })
	time.Sleep(noMoreWait)
	if n := srv.Accepts(); n != 5 {
		t.Fatalf("%d connections after stopping", n)
	}
	noRecordings(t, dir)

	s.Reconnect()
	waitUntil(t, "Reconnect to connect again", func() bool { return srv.Accepts() == 6 })
}

// noMoreWait is how long a test waits to see that no further connection
// comes: longer than the 1 s pause the policy would take next.
const noMoreWait = 1200 * time.Millisecond

// fakeClock is a clock whose timers fire at once; it notes the pauses
// asked for.
type fakeClock struct {
	mu     sync.Mutex
	pauses []time.Duration
}

func (c *fakeClock) after(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.pauses = append(c.pauses, d)
	c.mu.Unlock()
	ch := make(chan time.Time, 1)
	ch <- time.Time{}
	return ch
}

func (c *fakeClock) asked() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.pauses...)
}

// TestSessionPausesOnItsClock: against a TCP server that accepts and closes
// at once, the session waits 0.1 s, 0.2 s, 1 s and 1 s between its five
// connections (on a clock that does not make the test wait), then stops;
// so it does after five attempts that could not open the source.
func TestSessionPausesOnItsClock(t *testing.T) {
	t.Parallel()
	want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, time.Second, time.Second}
	samePauses := func(what string, got []time.Duration) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: pauses %v, want %v", what, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: pauses %v, want %v", what, got, want)
			}
		}
	}
	srv := socktest.Serve(t, "tcp", socktest.Conn{Close: true})
	clock := &fakeClock{}
	s := Start(srv.URL, Options{RecordDir: t.TempDir(), AutoReconnect: true, after: clock.after})
	defer s.Close()
	waitText(t, s, "stopped after 5 attempts that each ended the same way: the connection closed before anything arrived")
	samePauses("closed at once", clock.asked())
	if n := srv.Accepts(); n != 5 {
		t.Fatalf("%d connections, want 5", n)
	}

	notFIFO := filepath.Join(t.TempDir(), "plain")
	os.WriteFile(notFIFO, nil, 0o644)
	clock = &fakeClock{}
	f := Start("fifo://"+notFIFO, Options{RecordDir: t.TempDir(), AutoReconnect: true, after: clock.after})
	defer f.Close()
	waitText(t, f, "stopped after 5 attempts that each ended the same way: live source \"fifo://"+notFIFO+"\": "+notFIFO+" is not a FIFO (make one with mkfifo)")
	samePauses("not a FIFO", clock.asked())
}

// TestSessionSilentSocketExplained: a socket that accepts and says nothing
// (the eventlog-socket library serving another client) is explained in the
// status within 2 s, with the relay command that lets viewers share the
// program; the session holds its one connection and makes no other.
func TestSessionSilentSocketExplained(t *testing.T) {
	t.Parallel()
	for _, network := range []string{"unix", "tcp"} {
		t.Run(network, func(t *testing.T) {
			t.Parallel()
			srv := socktest.Serve(t, network, socktest.Conn{})
			s := Start(srv.URL, Options{RecordDir: t.TempDir(), AutoReconnect: true})
			st := waitText(t, s, "is connected but sends nothing")
			for _, want := range []string{
				"the program's eventlog-socket library serves one client at a time, so another client probably holds its connection (this one gets the stream once that one leaves), or a GHC 9.0 RTS is still filling its first 2 MiB block",
				"Several viewers can share one program through a relay that is its one client: hecscope relay --from " + srv.URL + ", then hecscope --attach tcp://127.0.0.1:4242 in each viewer",
			} {
				if !strings.Contains(st.Text, want) {
					t.Errorf("status %q lacks %q", st.Text, want)
				}
			}
			if st.Phase != PhaseHeader || srv.Accepts() != 1 {
				t.Errorf("silent: %v after %d connections", st.Phase, srv.Accepts())
			}
			s.Close()
			waitUntil(t, "the session to close its connection", func() bool { return srv.Open() == 0 })
		})
	}
}
