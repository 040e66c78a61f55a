package live

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hecscope/hecscope/ingest"
)

// liveWork is the LiveWork test program (testdata/haskell/LiveWork.hs with
// the socket EventLogWriter of eventlog_socket.c), built once per test
// binary.
var liveWork struct {
	once sync.Once
	path string
	err  error
	dir  string
}

// buildLiveWork builds LiveWork with GHC, or skips the test where GHC is
// not installed (CI) or in -short mode.
func buildLiveWork(t testing.TB) string {
	t.Helper()
	ghc, err := exec.LookPath("ghc")
	if err != nil {
		t.Skip("ghc not installed")
	}
	if testing.Short() {
		t.Skip("builds a Haskell program")
	}
	liveWork.once.Do(func() {
		liveWork.dir, liveWork.err = os.MkdirTemp("", "hecscope-livework-")
		if liveWork.err != nil {
			return
		}
		src, _ := filepath.Abs("../testdata/haskell")
		liveWork.path = filepath.Join(liveWork.dir, "livework")
		build := exec.Command(ghc, "-O1", "-threaded", "-rtsopts", "-eventlog", "-outputdir", filepath.Join(liveWork.dir, "build"),
			filepath.Join(src, "LiveWork.hs"), filepath.Join(src, "eventlog_socket.c"), "-o", liveWork.path)
		if out, err := build.CombinedOutput(); err != nil {
			liveWork.err = err
			liveWork.path = string(out)
		}
	})
	if liveWork.err != nil {
		t.Fatalf("building LiveWork: %v\n%s", liveWork.err, liveWork.path)
	}
	return liveWork.path
}

// runLiveWork starts LiveWork serving its eventlog on sock, waiting for
// the first client if wait is set.
func runLiveWork(t *testing.T, prog, sock string, wait bool, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(prog, append(args, "+RTS", "-N2", "-l", "-ol/dev/null", "-RTS")...)
	cmd.Env = append(os.Environ(), "HECSCOPE_EVENTLOG_SOCKET="+sock)
	if wait {
		cmd.Env = append(cmd.Env, "HECSCOPE_EVENTLOG_SOCKET_WAIT=1")
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitUntil(t, "the program's socket", func() bool {
		_, err := os.Stat(sock)
		return err == nil
	})
	return cmd
}

// TestGHCSocket attaches to a real GHC 9.0.2 program over unix://, with
// the program serving its own eventlog the way GHC's eventlog-socket
// library does: from its start (the program waits for the viewer), late
// (the stream is labelled with the time it was joined at, and recorded
// with a join mark), and again after a viewer left (the header again to
// the new client); each stream ends complete when the program exits.
// Skipped where ghc is not installed.
func TestGHCSocket(t *testing.T) {
	if raceOn {
		// Three real streams of ~90 MB each hold ~2 GB resident without
		// the race detector, and its shadow memory multiplies that past
		// what these machines have (CI's test binary was once killed out
		// of memory at 24 GB). The live code's races are checked by the
		// other tests on recorded streams; `make test` runs this one again
		// without -race.
		t.Skip("too big for the race detector's memory; make test runs it without -race")
	}
	prog := buildLiveWork(t)
	dir := t.TempDir()

	t.Run("from the start", func(t *testing.T) {
		sock := filepath.Join(dir, "start.sock")
		cmd := runLiveWork(t, prog, sock, true, "busy", "1.5")
		s := Start("unix://"+sock, Options{RecordDir: filepath.Join(dir, "start")})
		defer s.Close()
		waitText(t, s, "receiving from Unix socket "+sock)
		if err := cmd.Wait(); err != nil {
			t.Fatalf("LiveWork: %v", err)
		}
		st := waitText(t, s, "ended: complete")
		<-st.Stream.Done()
		if st.Stats.Joined {
			t.Fatalf("a stream from the program's start counts as joined at %d", st.Stats.JoinedAt)
		}
		checkRecording(t, st.Stream, false)
	})

	t.Run("late", func(t *testing.T) {
		for try := 1; ; try++ {
			sock := filepath.Join(dir, fmt.Sprintf("late%d.sock", try))
			cmd := runLiveWork(t, prog, sock, false, "busy", "6")
			time.Sleep(1500 * time.Millisecond)
			s := Start("unix://"+sock, Options{RecordDir: filepath.Join(dir, fmt.Sprintf("late%d", try))})
			defer s.Close()
			st, ok := waitTextUnlessCorrupt(t, s, "joined at ", try)
			if !ok {
				continue
			}
			if at, ok := st.Stream.JoinedAt(); !ok || at < 1e9 || at > 4.5e9 { // a loaded machine dials late
				t.Fatalf("joined at %d ns (%v), want about 1.5 s", at, ok)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("LiveWork: %v", err)
			}
			if st, ok = waitTextUnlessCorrupt(t, s, "ended: complete", try); !ok {
				continue
			}
			<-st.Stream.Done()
			checkRecording(t, st.Stream, true)
			t.Logf("%s", st.Text)
			return
		}
	})

	t.Run("a second client", func(t *testing.T) {
		for try := 1; ; try++ {
			sock := filepath.Join(dir, fmt.Sprintf("again%d.sock", try))
			// Long enough that the second client still finds the program
			// running when the machine is loaded (the first one's
			// "receiving" can take seconds to come, with GHC 9.0's 2 MiB
			// blocks).
			cmd := runLiveWork(t, prog, sock, false, "busy", "8")
			first := Start("unix://"+sock, Options{RecordDir: filepath.Join(dir, fmt.Sprintf("first%d", try))})
			if _, ok := waitTextUnlessCorrupt(t, first, "receiving", try); !ok {
				first.Close()
				continue
			}
			time.Sleep(1200 * time.Millisecond) // the second client comes more than a second into the run
			first.Close()
			second := Start("unix://"+sock, Options{RecordDir: filepath.Join(dir, fmt.Sprintf("second%d", try))})
			defer second.Close()
			if err := cmd.Wait(); err != nil {
				t.Fatalf("LiveWork: %v", err)
			}
			st, ok := waitTextUnlessCorrupt(t, second, "ended: complete", try)
			if !ok {
				continue
			}
			<-st.Stream.Done()
			checkRecording(t, st.Stream, true)
			if st := first.Streams()[0].Stats().Status; st.State != ingest.StateTruncated {
				t.Fatalf("the first client's stream, closed mid-run: %s", st)
			}
			return
		}
	})
}

// waitTextUnlessCorrupt is waitText, except that a stream that ends corrupt
// meanwhile reports false, for the caller to run the program again (up to
// corruptTries tries in all). The test program's socket writer
// (testdata/haskell/eventlog_socket.c, standing in for GHC's
// eventlog-socket library, beside GHC 9.0.2's restarted event logging)
// often sends a stream that is corrupt when a client joins a running
// program: on this machine about half of such joins, with the code of the
// start of this session as with today's ("undeclared event type 1119" at
// byte 68742, or right after the header). The viewer reports it as corrupt,
// as it must; mending the writer is left to do, and the corruption is not
// what these tests are about.
// corruptTries is how many runs of the test program a subtest tries when
// its streams come corrupt.
const corruptTries = 8

func waitTextUnlessCorrupt(t *testing.T, s *Session, want string, try int) (Status, bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := s.Status()
		if strings.Contains(st.Text, want) {
			return st, true
		}
		if strings.Contains(st.Text, "ended: corrupt") {
			if try >= corruptTries {
				t.Fatalf("a corrupt stream from the test program %d times; the status is %q", try, st.Text)
			}
			t.Logf("try %d: the test program sent a corrupt stream (%q); running it again", try, st.Text)
			return st, false
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 30 s for a status with %q; the status is %q", want, st.Text)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// checkRecording decodes a stream's recording: complete, beginning with a
// join mark if late, with as many events as the model had.
func checkRecording(t *testing.T, s *Stream, late bool) {
	t.Helper()
	f, err := os.Open(s.RecordingPath())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var n int64
	first := true
	_, st, err := ingest.ReadAll(f, func(ev *ingest.Event) error {
		if first {
			if _, ok := ingest.JoinMark(ev); ok != late {
				t.Errorf("the recording's first event is a join mark: %v, want %v", ok, late)
			}
			first = false
		}
		n++
		return nil
	})
	if err != nil || st.State != ingest.StateComplete {
		t.Fatalf("recording %s: %s (%v)", s.RecordingPath(), st, err)
	}
	if got := s.Stats().Events; got != n {
		t.Fatalf("the model had %d events, the recording holds %d", got, n)
	}
	if !strings.HasSuffix(s.RecordingPath(), ".eventlog") {
		t.Fatalf("recording named %s", s.RecordingPath())
	}
}
