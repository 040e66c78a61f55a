package live

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/internal/testlog"
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
// not installed (but fails in CI, where make test installs it) or in
// -short mode.
func buildLiveWork(t testing.TB) string {
	t.Helper()
	ghc, err := exec.LookPath("ghc")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("ghc not installed: in CI the live tests must watch a real GHC program (make test installs TEST_PKGS)")
		}
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

// program is a LiveWork run serving its eventlog on a Unix socket, as
// eventlog_socket.c imitates Well-Typed's eventlog-socket library: one
// client at a time, logging restarted for each without pausing the RTS,
// descriptors never closed, control commands read from the client, the end
// of the stream lost at exit when the client has not taken it.
type program struct {
	cmd   *exec.Cmd
	dir   string // its working directory, where a heap profile goes
	stdin io.WriteCloser
	out   lockedBuffer
	done  chan struct{}
	err   error
}

// lockedBuffer is the program's stdout and stderr, read while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// runLiveWork starts LiveWork in a mode ("busy": both cores, ~10 MB/s of
// eventlog; "quiet": a user event every 100 ms) until end is called,
// serving its eventlog on sock (waiting for the first client if wait is
// set), with the socket's debug lines on its stderr, and returns once the
// program listens.
func runLiveWork(t *testing.T, prog, sock string, wait bool, mode string, rts ...string) *program {
	t.Helper()
	args := append([]string{mode, "stdin", "+RTS", "-N2", "-l", "-ol/dev/null"}, rts...)
	p := &program{cmd: exec.Command(prog, append(args, "-RTS")...), dir: t.TempDir(), done: make(chan struct{})}
	p.cmd.Dir = p.dir
	p.cmd.Env = append(os.Environ(), "HECSCOPE_EVENTLOG_SOCKET="+sock, "HECSCOPE_EVENTLOG_SOCKET_DEBUG=1")
	if wait {
		p.cmd.Env = append(p.cmd.Env, "HECSCOPE_EVENTLOG_SOCKET_WAIT=1")
	}
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("LiveWork's output:\n%s", p.out.String())
		}
	})
	// The library binds the socket, then its worker thread listens: a
	// client that came between would be refused. Wait for the listening
	// socket without connecting, since a connection is a client.
	waitUntil(t, "the program to listen on its socket", func() bool { return listening(sock) })
	return p
}

// listening reports whether a Unix socket is bound at path and listening
// (/proc/net/unix: flags __SO_ACCEPTCON).
func listening(path string) bool {
	b, err := os.ReadFile("/proc/net/unix")
	if err != nil {
		_, err := os.Stat(path)
		return err == nil
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 8 && f[7] == path && f[3] == "00010000" {
			return true
		}
	}
	return false
}

// end closes the program's standard input, which ends its work, and waits
// for it to exit (the RTS flushes the eventlog then: the client gets the
// rest and the end marker, unless the library drops what it had queued).
func (p *program) end(t *testing.T) {
	t.Helper()
	p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(60 * time.Second):
		t.Fatalf("LiveWork did not exit 60 s after its input closed")
	}
	if p.err != nil {
		// A crash is what users meet too (the unpaused restart races the
		// capabilities); the streams are still judged below.
		t.Logf("LiveWork exited: %v", p.err)
	}
}

// echo has the program read a line, and waits until it says so. The
// thread that read it then returns to the scheduler, which takes a heap
// census requested before.
func (p *program) echo(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		t.Fatal(err)
	}
	p.said(t, "livework read "+line)
}

// reads waits until the program says it ran a command (said), and
// returns true; or until the session's stream has ended (the unpaused
// restart can corrupt it, and the connection then ends: the program may
// not read a command that came with the hang-up, nor a relay pass on one
// that came after its stream ended), and returns false.
func (p *program) reads(t *testing.T, s *Session, said string) bool {
	t.Helper()
	var st Status
	waitUntil(t, fmt.Sprintf("the program to say %q", said), func() bool {
		st = s.Status()
		return strings.Contains(p.out.String(), said) || st.Phase == PhaseEnded
	})
	if strings.Contains(p.out.String(), said) {
		return true
	}
	t.Logf("the stream ended before the program read the command: %s", st.Text)
	return false
}

// said waits until the program's output has s.
func (p *program) said(t *testing.T, s string) {
	t.Helper()
	waitUntil(t, fmt.Sprintf("the program to say %q", s), func() bool { return strings.Contains(p.out.String(), s) })
}

// heapSamples is how many censuses the program's heap profile
// (livework.hp, with +RTS -hT) holds: one at the start, one at exit, and
// one for each requested.
func (p *program) heapSamples() int {
	b, _ := os.ReadFile(filepath.Join(p.dir, "livework.hp"))
	return bytes.Count(b, []byte("BEGIN_SAMPLE"))
}

// sockets counts the socket descriptors the program holds.
func (p *program) sockets() int {
	dir := fmt.Sprintf("/proc/%d/fd", p.cmd.Process.Pid)
	ents, _ := os.ReadDir(dir)
	n := 0
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil && strings.HasPrefix(l, "socket:") {
			n++
		}
	}
	return n
}

// tap passes connections from its own Unix socket to the program's,
// keeping the bytes each got from the program, so that a test can judge
// hecscope's account of a stream against the bytes themselves. A side
// that closes ends both: the program sees its client hang up.
type tap struct {
	url   string
	mu    sync.Mutex
	conns []*tapConn
}

type tapConn struct {
	mu   sync.Mutex
	got  []byte
	done chan struct{}
}

func (c *tapConn) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]byte(nil), c.got...)
}

func startTap(t *testing.T, upstream string) *tap {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tap.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	tp := &tap{url: "unix://" + path}
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			down, err := l.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("unix", upstream)
			if err != nil {
				down.Close()
				continue
			}
			c := &tapConn{done: make(chan struct{})}
			tp.mu.Lock()
			tp.conns = append(tp.conns, c)
			tp.mu.Unlock()
			var once sync.Once
			both := func() { once.Do(func() { down.Close(); up.Close() }) }
			wg.Add(2)
			go func() {
				defer wg.Done()
				defer close(c.done)
				defer both()
				buf := make([]byte, 256<<10)
				for {
					n, err := up.Read(buf)
					c.mu.Lock()
					c.got = append(c.got, buf[:n]...)
					c.mu.Unlock()
					if n > 0 {
						if _, werr := down.Write(buf[:n]); werr != nil {
							return
						}
					}
					if err != nil {
						return
					}
				}
			}()
			go func() {
				defer wg.Done()
				defer both()
				io.Copy(up, down) // control commands
			}()
		}
	}()
	return tp
}

// conn returns the tap's ith connection, waiting for it.
func (tp *tap) conn(t *testing.T, i int) *tapConn {
	t.Helper()
	var c *tapConn
	waitUntil(t, fmt.Sprintf("connection %d through the tap", i+1), func() bool {
		tp.mu.Lock()
		defer tp.mu.Unlock()
		if len(tp.conns) > i {
			c = tp.conns[i]
		}
		return c != nil
	})
	return c
}

// TestGHCSocket attaches to a real GHC 9.0.2 program (LiveWork) that
// serves its eventlog as Well-Typed's eventlog-socket library does, rudely
// (see eventlog_socket.c): every stream begins with the block marker GHC
// writes before a restarted header; a second client waits, connected and
// sent nothing, while the first is served, and the session says why; a
// client that leaves lets the waiting one, and then a new one, have a
// fresh stream; control commands sent with Session.Send, directly or
// through a relay, reach the program; and the end of a stream, which the
// library loses at exit when the client has not taken it, is reported as
// it is. Whatever the RTS's timing does to the bytes, hecscope must say
// how each stream ended as the bytes themselves say: complete only with
// the end marker, else cut or corrupt with the events before kept.
// Skipped where ghc is not installed.
func TestGHCSocket(t *testing.T) {
	if raceOn {
		// Real streams of tens of MB each hold hundreds of MB resident
		// without the race detector, and its shadow memory multiplies
		// that past what these machines have (CI's test binary was once
		// killed out of memory at 24 GB). The live code's races are
		// checked by the other tests on recorded streams; `make test`
		// runs this one again without -race.
		t.Skip("too big for the race detector's memory; make test runs it without -race")
	}
	prog := buildLiveWork(t)
	census, _ := ingest.ParseCommand("requestHeapCensus")

	t.Run("quiet from the start, a census requested", func(t *testing.T) {
		dir := t.TempDir()
		sock := filepath.Join(dir, "start.sock")
		// -hT: a heap profile by closure type, which GHC 9.0.2 takes
		// without a profiling build; -i60: no census by the timer in this
		// run, so that the ones between start and exit are requested.
		// Quiet: its buffers hold little at exit, so that the last flush
		// fits the socket's buffer and the end usually arrives.
		p := runLiveWork(t, prog, sock, true, "quiet", "-hT", "-i60")
		tp := startTap(t, sock)
		s := Start(tp.url, Options{RecordDir: filepath.Join(dir, "rec")})
		defer s.Close()
		waitText(t, s, "from ") // header received, or receiving
		c := tp.conn(t, 0)
		checkStray(t, c)
		// Commands the program does not know are ignored, as the
		// library ignores them.
		sent := true
		for _, cmd := range []ingest.Command{{Namespace: "my-app", ID: 3}, {Namespace: ingest.BuiltinNamespace, ID: 99}, census} {
			if err := s.Send(cmd); err != nil {
				sent = false
				brokeOff(t, s, err)
				break
			}
		}
		if sent && p.reads(t, s, "command eventlog-socket:5 run") {
			p.said(t, "unknown namespace my-app ignored")
			p.said(t, "unknown command eventlog-socket:99 ignored")
			p.echo(t, "after the census request")
		} else {
			sent = false
		}
		p.end(t)
		st := waitEnded(t, s)
		<-c.done
		if st.Stats.Joined {
			// Logging restarts for the first client too, after the
			// program has started: how late is the machine's doing.
			t.Logf("the first client's stream counts as joined at %d ns", st.Stats.JoinedAt)
		}
		raw := checkEnd(t, st, c.bytes())
		if sent {
			checkCensus(t, p, st.Stream, raw, 1)
		}
	})

	t.Run("one client at a time", func(t *testing.T) {
		dir := t.TempDir()
		sock := filepath.Join(dir, "busy.sock")
		p := runLiveWork(t, prog, sock, false, "busy")
		tp := startTap(t, sock)
		time.Sleep(1200 * time.Millisecond) // the first client comes more than a second into the run
		first := Start(tp.url, Options{RecordDir: filepath.Join(dir, "first")})
		defer first.Close()
		st := waitData(t, first)
		checkJoined(t, st)
		checkStray(t, tp.conn(t, 0))
		fds := p.sockets()

		// A second client while the first is served: connected, sent
		// nothing, and told why.
		second := Start(tp.url, Options{RecordDir: filepath.Join(dir, "second")})
		defer second.Close()
		waitUntil(t, "the second client's connection", func() bool { return second.Status().Phase != PhaseConnecting })
		time.Sleep(ingest.SilentAfter + 500*time.Millisecond)
		sst, got := second.Status(), len(tp.conn(t, 1).bytes())
		if fst := first.Status(); fst.Phase == PhaseEnded {
			// The first stream broke off (corrupt), which ends its
			// connection: then the second client may be served already.
			t.Logf("the first stream ended before the second client's check: %s", fst.Text)
		} else {
			if !strings.Contains(sst.Text, "is connected but sends nothing") || !strings.Contains(sst.Text, "one client at a time") || sst.Stream != nil {
				t.Errorf("the second client, waiting while the first is served: %q", sst.Text)
			}
			if got != 0 {
				t.Errorf("the second client got %d bytes while the first was served", got)
			}
		}

		// The first leaves: the program forgets it (its descriptor stays
		// open) and serves the second a fresh stream.
		first.Close()
		if st := first.Streams()[0].Stats().Status; st.State == ingest.StateComplete {
			t.Errorf("the first client's stream, closed mid-run: %s", st)
		}
		p.said(t, "hung up; the descriptor stays open")
		checkJoined(t, waitData(t, second))
		checkStray(t, tp.conn(t, 1))
		if n := p.sockets(); n < fds+1 {
			t.Errorf("the program holds %d socket descriptors after the first client left (%d while it was served), want the first's kept open", n, fds)
		}

		// The second leaves too, and a new client comes: a fresh stream.
		second.Close()
		if st := second.Streams()[0].Stats().Status; st.State == ingest.StateComplete {
			t.Errorf("the second client's stream, closed mid-run: %s", st)
		}
		third := Start(tp.url, Options{RecordDir: filepath.Join(dir, "third")})
		defer third.Close()
		waitData(t, third)
		c := tp.conn(t, 2)
		checkStray(t, c)
		t.Logf("the program's socket descriptors: %d while the first client was served, %d with the third", fds, p.sockets())
		p.end(t)
		st = waitEnded(t, third)
		<-c.done
		checkEnd(t, st, c.bytes())
	})

	t.Run("busy, a census requested through a relay", func(t *testing.T) {
		dir := t.TempDir()
		sock := filepath.Join(dir, "relayed.sock")
		// Busy: megabytes in the buffers at exit, so that the library
		// usually drops the last flush.
		p := runLiveWork(t, prog, sock, true, "busy", "-hT", "-i60")
		tp := startTap(t, sock)
		relay := ingest.NewRelay()
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go relay.Serve(l)
		defer relay.Close()
		relayed := make(chan ingest.Status, 1)
		go func() {
			src, err := ingest.OpenSource(context.Background(), tp.url)
			if err != nil {
				t.Error(err)
				relayed <- ingest.Status{}
				return
			}
			defer src.Close()
			st, _ := relay.Run(ingest.NewWatcher(src), nil)
			relayed <- st
		}()
		viewer := Start("tcp://"+l.Addr().String(), Options{RecordDir: filepath.Join(dir, "viewer")})
		defer viewer.Close()
		waitData(t, viewer) // a first block: the program has run a while
		if err := viewer.Send(census); err != nil {
			t.Fatal(err)
		}
		sent := p.reads(t, viewer, "command eventlog-socket:5 run")
		if sent {
			p.echo(t, "after the census request")
		}
		p.end(t)
		rst := <-relayed
		st := waitEnded(t, viewer)
		c := tp.conn(t, 0)
		<-c.done
		checkStray(t, c)
		raw := c.bytes()
		if why := misjudged(rst, walkRaw(raw)); why != "" {
			t.Errorf("the relay read the program's stream: %s", why)
		}
		if (st.Stats.Status.State == ingest.StateComplete) != (rst.State == ingest.StateComplete) {
			t.Errorf("the viewer's stream ended %s, the relay's %s", st.Stats.Status, rst)
		}
		if sent {
			checkCensus(t, p, st.Stream, walkRaw(raw), 1)
		}
		t.Logf("relay: %s; viewer: %s", rst, st.Text)
	})
}

// brokeOff checks that a command could not be sent because the stream
// broke off (corrupt) and its connection ended.
func brokeOff(t *testing.T, s *Session, err error) {
	t.Helper()
	st := waitText(t, s, "ended: ")
	if !errors.Is(err, ErrNotConnected) || st.Stats.Status.State != ingest.StateCorrupt {
		t.Fatalf("sending a command: %v; the status is %q", err, st.Text)
	}
	t.Logf("the stream broke off before the commands were sent: %s", st.Text)
}

// checkJoined checks that a stream joined more than a second into the run
// says so, unless it broke off before its first block.
func checkJoined(t *testing.T, st Status) {
	t.Helper()
	if at, ok := st.Stream.JoinedAt(); ok && at >= 1e9 {
		return
	} else if ok || st.Stats.Status.State != ingest.StateCorrupt {
		t.Errorf("joined at %d ns (%v), want after 1 s: %s", at, ok, st.Text)
	}
}

// waitData waits until the session's stream has brought events (or has
// ended: the unpaused restart can corrupt a stream before its first block).
func waitData(t *testing.T, s *Session) Status {
	t.Helper()
	var st Status
	waitUntil(t, "the stream's first events", func() bool {
		st = s.Status()
		return st.Phase == PhaseReceiving || st.Phase == PhaseEnded && st.Stream != nil
	})
	return st
}

// waitEnded waits until the session's stream has ended and its model has
// had every event.
func waitEnded(t *testing.T, s *Session) Status {
	t.Helper()
	st := waitText(t, s, "ended: ")
	select {
	case <-st.Stream.Done():
	case <-time.After(60 * time.Second):
		t.Fatalf("the model did not take the ended stream in 60 s: %s", st.Text)
	}
	return s.Status()
}

// checkStray checks that a client's stream begins as GHC 9.0.2 begins a
// restarted eventlog: an empty block marker of the global buffer
// (capability 0xFFFF), then the header.
func checkStray(t *testing.T, c *tapConn) {
	t.Helper()
	var got []byte
	waitUntil(t, "the stream's first bytes", func() bool { got = c.bytes(); return len(got) >= 28 })
	got = got[:28]
	if binary.BigEndian.Uint16(got) != uint16(ingest.KindBlockMarker) || binary.BigEndian.Uint16(got[22:]) != 0xFFFF || string(got[24:28]) != "hdrb" {
		t.Errorf("the stream begins % x, want a block marker of capability 0xFFFF, then hdrb", got)
	}
}

// rawEnd is how a stream's bytes end, walked without hecscope's decoder.
type rawEnd struct {
	complete bool
	state    string // "complete", "cut", "corrupt", or "no header"
	at       int    // the byte after the last whole event
	events   int    // whole events after the header, block markers counted, not the end marker
	samples  int    // heap census samples (event 162)
}

func (r rawEnd) String() string {
	return fmt.Sprintf("%s after byte %d, %d events, %d censuses", r.state, r.at, r.events, r.samples)
}

// walkRaw walks a GHC eventlog stream as its format says (the event types
// and sizes its header declares), skipping the block markers before the
// header: complete only if its end marker is the stream's last 2 bytes.
func walkRaw(b []byte) rawEnd {
	off := 0
	for off+24 <= len(b) && binary.BigEndian.Uint16(b[off:]) == uint16(ingest.KindBlockMarker) {
		off += 24
	}
	u16 := func(o int) int { return int(binary.BigEndian.Uint16(b[o:])) }
	u32 := func(o int) int { return int(binary.BigEndian.Uint32(b[o:])) }
	tag := func(o int, s string) bool { return o+len(s) <= len(b) && string(b[o:o+len(s)]) == s }
	bad := rawEnd{state: "no header"}
	if !tag(off, "hdrb") || !tag(off+4, "hetb") {
		return bad
	}
	off += 8
	sizes := map[int]int{}
	for tag(off, "etb\x00") {
		if off+16 > len(b) {
			return bad
		}
		num, size, desc := u16(off+4), int(int16(u16(off+6))), u32(off+8)
		o := off + 12 + desc
		if o+4 > len(b) {
			return bad
		}
		o += 4 + u32(o)
		if !tag(o, "ete\x00") {
			return bad
		}
		sizes[num] = size
		off = o + 4
	}
	if !tag(off, "hetehdredatb") {
		return bad
	}
	r := rawEnd{at: off + 12}
	for off = r.at; off+2 <= len(b); {
		ty := u16(off)
		if ty == 0xFFFF {
			r.at = off + 2
			if r.at == len(b) {
				r.complete, r.state = true, "complete"
			} else {
				r.state = "corrupt"
			}
			return r
		}
		size, ok := sizes[ty]
		if !ok {
			r.state = "corrupt"
			return r
		}
		o := off + 10
		if size < 0 {
			if o+2 > len(b) {
				break
			}
			size, o = u16(o), o+2
		}
		if o+size > len(b) {
			break
		}
		r.events++
		if ty == int(ingest.KindHeapProfSampleBegin) {
			r.samples++
		}
		off = o + size
		r.at = off
	}
	r.state = "cut"
	return r
}

// checkEnd judges how hecscope says a stream ended against its bytes: it
// must say complete exactly when the bytes end with the end marker, and
// otherwise keep the events before the cut or the corruption; its
// recording must say the same. It returns the bytes' account.
func checkEnd(t *testing.T, st Status, raw []byte) rawEnd {
	t.Helper()
	want := walkRaw(raw)
	got := st.Stats.Status
	t.Logf("%d bytes from the program: %s; hecscope: %s", len(raw), want, st.Text)
	joinMark := int64(0)
	if st.Stats.Joined {
		joinMark = 1 // the recorder's, counted as an event
	}
	if why := misjudged(got, want); why != "" {
		t.Error(why)
	}
	switch got.State {
	case ingest.StateComplete:
		if !strings.Contains(st.Text, "ended: complete") || st.Stats.Events != int64(want.events)+joinMark {
			t.Errorf("a complete stream of %d events: %d events, %q", want.events, st.Stats.Events, st.Text)
		}
	case ingest.StateTruncated:
		if !strings.Contains(st.Text, "ended: cut at byte") {
			t.Errorf("a cut stream: %q", st.Text)
		}
		if want.state == "cut" && st.Stats.Events != int64(want.events)+joinMark {
			t.Errorf("the bytes hold %d whole events before the cut; hecscope kept %d", want.events, st.Stats.Events)
		}
	case ingest.StateCorrupt:
		if !strings.Contains(st.Text, "ended: corrupt at byte") {
			t.Errorf("a corrupt stream: %q", st.Text)
		}
		t.Logf("corrupt: %s, %d events kept", got, st.Stats.Events)
	default:
		t.Errorf("the stream ended %s: %q", got, st.Text)
	}
	if want.events > 0 && st.Stats.Events == 0 {
		t.Errorf("the bytes hold %d events; hecscope kept none", want.events)
	}
	checkRecording(t, st.Stream, got)
	return want
}

// misjudged says how hecscope's account of how a stream ended strays from
// what its bytes say, or "": complete exactly when the bytes end with the
// end marker; bytes that are whole may still be found corrupt (the
// unpaused restart can write well-formed nonsense), never cut.
func misjudged(got ingest.Status, want rawEnd) string {
	switch {
	case got.State == ingest.StateComplete && !want.complete:
		return fmt.Sprintf("hecscope says complete; the bytes say %s", want)
	case got.State != ingest.StateComplete && want.complete && got.State != ingest.StateCorrupt:
		return fmt.Sprintf("the bytes are complete (%s); hecscope says %s", want, got)
	}
	return ""
}

// checkCensus checks that the requested censuses reached the program (its
// heap profile has them, besides the first and the last), and says whether
// the stream carries them: GHC 9.0.2 posts a census's events to its global
// buffer, which it writes out only when 2 MiB fill or at exit, so they come
// with the stream's end, and are lost with it when the library drops the
// last flush; a complete stream must have them.
func checkCensus(t *testing.T, p *program, s *Stream, raw rawEnd, requested int) {
	t.Helper()
	if n := p.heapSamples(); n < requested+2 {
		t.Errorf("the program's heap profile has %d censuses, want %d requested besides the first and the last", n, requested)
	}
	if raw.complete && raw.samples < requested {
		t.Errorf("a complete stream with %d censuses, want the %d requested", raw.samples, requested)
	}
	t.Logf("censuses: %d in the program's heap profile, %d in the stream (%s)", p.heapSamples(), raw.samples, s.Stats().Status)
}

// checkRecording decodes a stream's recording: it begins with the header
// (the stray block marker dropped), ends as the stream did, and holds as
// many events as the model had. Whether the events all belong to the
// client's session (sessionCheck) is logged: the unpaused restart can leave
// events from before it in the capabilities' buffers.
func checkRecording(t *testing.T, s *Stream, want ingest.Status) {
	t.Helper()
	f, err := os.Open(s.RecordingPath())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	magic := make([]byte, 4)
	if _, err := io.ReadFull(f, magic); err != nil || string(magic) != "hdrb" {
		t.Errorf("the recording begins % x (%v), want the header", magic, err)
	}
	f.Seek(0, io.SeekStart)
	var n int64
	session := newSessionCheck()
	_, st, err := testlog.ReadAll(f, func(ev *ingest.Event) error {
		if _, mark := ingest.JoinMark(ev); !mark {
			session.add(ev)
		}
		n++
		return nil
	})
	if (st.State == ingest.StateComplete) != (want.State == ingest.StateComplete) {
		t.Errorf("recording %s: %s (%v), the stream %s", s.RecordingPath(), st, err, want)
	}
	if got := s.Stats().Events; got != n {
		t.Errorf("the model had %d events, the recording holds %d", got, n)
	}
	if problem := session.problem(); problem != "" {
		t.Logf("recording %s: %s", s.RecordingPath(), problem)
	}
	if !strings.HasSuffix(s.RecordingPath(), ".eventlog") {
		t.Errorf("recording named %s", s.RecordingPath())
	}
}

// sessionCheck tells whether a GHC 9.0 stream's events all belong to the
// event-logging session the stream's header began. The RTS writes every
// event it posts inside a block, so an event outside one was left in a
// buffer from before the session (posted while logging was stopped, when a
// full buffer is emptied without a new block marker); and the RTS opens the
// global buffer's first block just after writing the header, before it
// opens the capabilities' ones, so a capability's first block that began
// earlier was left over from before the session too.
type sessionCheck struct {
	blockEnd     int64            // offset where the current block ends
	outside      int              // events outside any block
	firstOutside int64            // offset of the first of them
	globalFirst  uint64           // when the global buffer's first block began
	globalSeen   bool             // whether there was one
	capFirst     map[int32]uint64 // when each capability's first block began
}

func newSessionCheck() *sessionCheck {
	return &sessionCheck{capFirst: make(map[int32]uint64)}
}

// add looks at the stream's next event.
func (c *sessionCheck) add(ev *ingest.Event) {
	if ev.Kind != ingest.KindBlockMarker {
		if ev.Offset >= c.blockEnd {
			if c.outside == 0 {
				c.firstOutside = ev.Offset
			}
			c.outside++
		}
		return
	}
	c.blockEnd = ev.Offset + int64(ev.Args[0]) // the size counts the marker
	switch _, seen := c.capFirst[ev.Cap]; {
	case ev.Cap == ingest.NoCap && !c.globalSeen:
		c.globalFirst, c.globalSeen = ev.Time, true
	case ev.Cap != ingest.NoCap && !seen:
		c.capFirst[ev.Cap] = ev.Time
	}
}

// problem describes how the stream strays from its session, or is "".
func (c *sessionCheck) problem() string {
	if c.outside > 0 {
		return fmt.Sprintf("%d events outside any block, the first at byte %d", c.outside, c.firstOutside)
	}
	if !c.globalSeen {
		return "no block of the global buffer"
	}
	for cp, at := range c.capFirst {
		if at < c.globalFirst {
			return fmt.Sprintf("capability %d's first block began at %d ns, before the session's first global block (%d ns)", cp, at, c.globalFirst)
		}
	}
	return ""
}
