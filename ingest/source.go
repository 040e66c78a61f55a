package ingest

import (
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
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("live source %q: %w", rawURL, err)
	}
	path := u.Path
	if u.Opaque != "" {
		path = u.Opaque
	}
	var rc io.ReadCloser
	var desc string
	switch u.Scheme {
	case "tcp":
		if u.Host == "" {
			return nil, fmt.Errorf("live source %q: no host:port", rawURL)
		}
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", u.Host)
		if err != nil {
			return nil, fmt.Errorf("live source %q: %w", rawURL, err)
		}
		rc, desc = c, "TCP "+u.Host
	case "unix":
		if path == "" {
			return nil, fmt.Errorf("live source %q: no socket path", rawURL)
		}
		var d net.Dialer
		c, err := d.DialContext(ctx, "unix", path)
		if err != nil {
			return nil, fmt.Errorf("live source %q: %w", rawURL, err)
		}
		rc, desc = c, "Unix socket "+path
	case "fifo":
		f, err := openFIFO(ctx, path)
		if err != nil {
			return nil, fmt.Errorf("live source %q: %w", rawURL, err)
		}
		rc, desc = f, "FIFO "+path
	case "follow":
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("live source %q: %w", rawURL, err)
		}
		rc, desc = newFollower(f), "growing file "+path
	default:
		return nil, fmt.Errorf("live source %q: scheme must be tcp, unix, fifo or follow", rawURL)
	}
	return &Source{ReadCloser: rc, URL: rawURL, Desc: desc}, nil
}

// openFIFO opens a named pipe for reading. The open blocks until a writer
// opens the pipe; if ctx ends first, opening the pipe for writing ourselves
// releases the blocked open, whose result is then dropped.
func openFIFO(ctx context.Context, path string) (*os.File, error) {
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
	select {
	case r := <-done:
		return r.f, r.err
	case <-ctx.Done():
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

// follower reads a file that another process is still appending to: at the
// end of the file it waits (5 ms, doubling up to 200 ms) and tries again,
// until Close. The reader above it stops asking once it has decoded the end
// marker.
type follower struct {
	f      *os.File
	once   sync.Once
	closed chan struct{}
}

func newFollower(f *os.File) *follower {
	return &follower{f: f, closed: make(chan struct{})}
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
		n, err := fl.f.Read(p)
		if n > 0 {
			return n, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			select {
			case <-fl.closed:
				return 0, io.EOF
			default:
			}
			return 0, fmt.Errorf("following %s: %w", fl.f.Name(), err)
		}
		if len(p) == 0 {
			return 0, nil
		}
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

// Close stops following; a Read waiting for data returns io.EOF.
func (fl *follower) Close() error {
	var err error
	fl.once.Do(func() {
		close(fl.closed)
		err = fl.f.Close()
	})
	return err
}
