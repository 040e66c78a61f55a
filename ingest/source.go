package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"sync"
	"syscall"
	"time"
)

// Source is a live eventlog stream: the bytes a running program (or a relay)
// sends, read as they arrive. Close stops it, also from another goroutine
// while a Read is waiting.
type Source struct {
	io.ReadCloser
	// URL is the address the source was opened from.
	URL string
	// Desc says in words what the source is ("TCP 127.0.0.1:4242").
	Desc string

	follow *follower // for follow://, to tell when the file is rewritten
}

// Follow polling: the first wait after reaching the end of a growing file,
// and the longest one the backoff reaches.
const (
	followMinWait = 5 * time.Millisecond
	followMaxWait = 200 * time.Millisecond
)

// OpenSource opens a live source by URL:
//
//	tcp://HOST:PORT    a TCP server that sends the binary eventlog (hecscope relay)
//	unix:///PATH       a Unix socket (GHC's eventlog-socket library)
//	fifo:///PATH       a named pipe the RTS writes to (+RTS -l -ol/PATH)
//	follow:///PATH     a file that is still being written, read like tail -f
//
// Opening a FIFO waits until a writer opens it too; ctx cancels the wait, as
// it does a connection attempt.
func OpenSource(ctx context.Context, rawURL string) (*Source, error) {
	return OpenSourceNotify(ctx, rawURL, nil)
}

// fifoNotice is how long opening a FIFO may take before OpenSourceNotify
// says that it waits for a writer.
const fifoNotice = 50 * time.Millisecond

// OpenSourceNotify is OpenSource that tells waiting (if not nil), once, when
// opening has to wait for the other side: "waiting for a writer on PATH"
// when no program has opened the FIFO yet.
func OpenSourceNotify(ctx context.Context, rawURL string, waiting func(what string)) (*Source, error) {
	addr, err := parseSource(rawURL)
	if err != nil {
		return nil, err
	}
	path := addr.path
	var rc io.ReadCloser
	var desc string
	switch addr.scheme {
	case "tcp":
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", addr.host)
		if err != nil {
			return nil, fmt.Errorf("live source %q: %w", rawURL, err)
		}
		rc, desc = c, "TCP "+addr.host
	case "unix":
		var d net.Dialer
		c, err := d.DialContext(ctx, "unix", path)
		if err != nil {
			return nil, fmt.Errorf("live source %q: %w", rawURL, err)
		}
		rc, desc = c, "Unix socket "+path
	case "fifo":
		f, err := openFIFO(ctx, path, waiting)
		if err != nil {
			return nil, fmt.Errorf("live source %q: %w", rawURL, err)
		}
		rc, desc = f, "FIFO "+path
	case "follow":
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("live source %q: %w", rawURL, err)
		}
		fl, err := newFollower(f, path)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("live source %q: %w", rawURL, err)
		}
		return &Source{ReadCloser: fl, URL: rawURL, Desc: "growing file " + path, follow: fl}, nil
	}
	return &Source{ReadCloser: rc, URL: rawURL, Desc: desc}, nil
}

// CheckSource reports whether rawURL names a live source OpenSource can
// try to open: a known scheme with an address. It does not try it.
func CheckSource(rawURL string) error {
	_, err := parseSource(rawURL)
	return err
}

// sourceAddr is a live source's URL taken apart: its scheme (tcp, unix,
// fifo or follow), and the host:port (tcp) or path (the others) it names.
type sourceAddr struct {
	scheme, host, path string
}

// parseSource takes a live source's URL apart, refusing an unknown scheme
// or a missing address. It is the one reading of a source's URL, for
// opening it, checking it and saying whether it takes commands.
func parseSource(rawURL string) (sourceAddr, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return sourceAddr{}, fmt.Errorf("live source %q: %w", rawURL, err)
	}
	addr := sourceAddr{scheme: u.Scheme, host: u.Host, path: u.Path}
	if u.Opaque != "" {
		addr.path = u.Opaque
	}
	switch addr.scheme {
	case "tcp":
		if addr.host == "" {
			return addr, fmt.Errorf("live source %q: no host:port", rawURL)
		}
	case "unix", "fifo", "follow":
		if addr.path == "" {
			return addr, fmt.Errorf("live source %q: no path", rawURL)
		}
	default:
		return addr, fmt.Errorf("live source %q: scheme must be tcp, unix, fifo or follow", rawURL)
	}
	return addr, nil
}

// Reopen waits for the next stream at rawURL and opens it: the first one if
// prev is nil, else the one after prev's stream, which has ended. A socket
// that refuses the connection or does not exist (the program is not
// running, or not yet listening) is tried again; a FIFO is opened again,
// which waits for the program's next run to open it; a followed file is
// opened again once it has been rewritten (truncated or replaced) by a new
// run. The pauses between tries are retry's (see Retry.NobodyListens; nil:
// a fresh policy). waiting (if not nil) is told in words what Reopen waits
// for, each time that changes. Other errors (a bad URL, a path that is not
// a FIFO, a connection that fails otherwise) are returned at once, for the
// caller to note with retry.Failed; ctx ends the wait.
func Reopen(ctx context.Context, rawURL string, prev *Source, retry *Retry, waiting func(what string)) (*Source, error) {
	if err := CheckSource(rawURL); err != nil {
		return nil, err
	}
	if retry == nil {
		retry = new(Retry)
	}
	said := ""
	say := func(what string) {
		if what != said && waiting != nil {
			waiting(what)
		}
		said = what
	}
	if prev != nil && prev.follow != nil {
		for !prev.follow.rewritten() {
			say("waiting for " + prev.follow.path + " to be written again by the program's next run")
			retry.NobodyListens()
			if err := retry.Wait(ctx); err != nil {
				return nil, fmt.Errorf("live source %q: %w", rawURL, err)
			}
		}
	}
	for {
		src, err := OpenSourceNotify(ctx, rawURL, say)
		if err == nil || ctx.Err() != nil {
			return src, err
		}
		if !errors.Is(err, syscall.ECONNREFUSED) && !errors.Is(err, syscall.ENOENT) {
			return nil, err
		}
		say(fmt.Sprintf("waiting for the program to listen (%v)", errors.Unwrap(err)))
		retry.NobodyListens()
		if err := retry.Wait(ctx); err != nil {
			return nil, fmt.Errorf("live source %q: %w", rawURL, err)
		}
	}
}

// openFIFO opens a named pipe for reading. The open blocks until a writer
// opens the pipe (waiting is told if that takes a while); if ctx ends
// first, opening the pipe for writing ourselves releases the blocked open,
// whose result is then dropped.
func openFIFO(ctx context.Context, path string, waiting func(string)) (*os.File, error) {
	if path == "" {
		return nil, errors.New("no FIFO path")
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode()&os.ModeNamedPipe == 0 {
		return nil, fmt.Errorf("%s is not a FIFO (make one with mkfifo)", path)
	}
	type result struct {
		f   *os.File
		err error
	}
	done := make(chan result, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_RDONLY, 0)
		done <- result{f, err}
	}()
	notice := time.NewTimer(fifoNotice)
	defer notice.Stop()
	for waited := false; ; {
		select {
		case r := <-done:
			return r.f, r.err
		case <-notice.C:
			if waiting != nil && !waited {
				waiting("waiting for a writer on " + path)
			}
			waited = true
			continue
		case <-ctx.Done():
		}
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		go func() {
			if r := <-done; r.f != nil {
				r.f.Close()
			}
		}()
		return nil, fmt.Errorf("waiting for a writer on %s: %w", path, ctx.Err())
	}
}

// ErrRewritten says that a followed file was truncated or replaced while
// it was being read: the program that writes it started again, so the
// stream read so far has ended without its end marker (it is truncated,
// not corrupt) and the file now holds a new one.
var ErrRewritten = errors.New("the file was rewritten (truncated or replaced) while it was followed")

// followTail is how many of the last bytes read a follower keeps, to tell a
// file that grew from one that was rewritten past the point it had read.
const followTail = 64

// follower reads a file that another process is still appending to: at the
// end of the file it waits (5 ms, doubling up to 200 ms) and tries again,
// until Close. The reader above it stops asking once it has decoded the end
// marker. If the file shrinks below what was read, is replaced by another
// file, or no longer holds the bytes last read (rewritten from the start
// while the follower waited), Read returns ErrRewritten.
type follower struct {
	f      *os.File
	path   string
	info   os.FileInfo // the file as it was opened
	off    int64
	tail   []byte // the last bytes read, up to followTail
	waited bool   // the follower reached the end and waited since the last read
	once   sync.Once
	closed chan struct{}
}

func newFollower(f *os.File, path string) (*follower, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return &follower{f: f, path: path, info: info, closed: make(chan struct{})}, nil
}

// rewritten reports whether the file at the follower's path is no longer
// the one it read: another file, shorter than what was read, or with other
// bytes before the point it read to. It works after Close too.
func (fl *follower) rewritten() bool {
	st, err := os.Stat(fl.path)
	if err != nil {
		return false // gone: wait for the next run to make it
	}
	if !os.SameFile(st, fl.info) || st.Size() < fl.off {
		return true
	}
	if len(fl.tail) == 0 {
		return false
	}
	f, err := os.Open(fl.path)
	if err != nil {
		return false
	}
	defer f.Close()
	got := make([]byte, len(fl.tail))
	_, err = f.ReadAt(got, fl.off-int64(len(got)))
	return err == nil && !bytes.Equal(got, fl.tail)
}

// Read returns the next bytes of the file, waiting for the file to grow.
func (fl *follower) Read(p []byte) (int, error) {
	wait := followMinWait
	for {
		select {
		case <-fl.closed:
			return 0, io.EOF
		default:
		}
		if fl.waited {
			if err := fl.check(); err != nil {
				return 0, err
			}
		}
		n, err := fl.f.Read(p)
		if n > 0 {
			fl.waited = false
			fl.off += int64(n)
			fl.tail = append(fl.tail, p[:n]...)
			if len(fl.tail) > followTail {
				fl.tail = append(fl.tail[:0], fl.tail[len(fl.tail)-followTail:]...)
			}
			return n, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			select {
			case <-fl.closed:
				return 0, io.EOF
			default:
			}
			return 0, fmt.Errorf("following %s: %w", fl.path, err)
		}
		if len(p) == 0 {
			return 0, nil
		}
		fl.waited = true
		t := time.NewTimer(wait)
		select {
		case <-fl.closed:
			t.Stop()
			return 0, io.EOF
		case <-t.C:
		}
		wait = min(2*wait, followMaxWait)
	}
}

// check looks, after a wait at the end, whether the file is still the one
// that was being read and still holds what was read.
func (fl *follower) check() error {
	st, err := fl.f.Stat()
	if err != nil {
		return fmt.Errorf("following %s: %w", fl.path, err)
	}
	if st.Size() < fl.off {
		return fmt.Errorf("following %s: %w: it shrank from %d to %d bytes", fl.path, ErrRewritten, fl.off, st.Size())
	}
	if st.Size() == fl.off {
		if now, err := os.Stat(fl.path); err == nil && !os.SameFile(now, st) {
			return fmt.Errorf("following %s: %w: another file took its name", fl.path, ErrRewritten)
		}
		return nil
	}
	if len(fl.tail) > 0 {
		got := make([]byte, len(fl.tail))
		if _, err := fl.f.ReadAt(got, fl.off-int64(len(got))); err != nil || !bytes.Equal(got, fl.tail) {
			return fmt.Errorf("following %s: %w: the bytes before offset %d changed", fl.path, ErrRewritten, fl.off)
		}
	}
	return nil
}

// Close stops following; a Read waiting for data returns io.EOF.
func (fl *follower) Close() error {
	var err error
	fl.once.Do(func() {
		close(fl.closed)
		err = fl.f.Close()
	})
	return err
}
