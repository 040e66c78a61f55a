package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/hecscope/hecscope/ingest"
)

// readSize is how much a session asks its source for at a time.
const readSize = 256 << 10

// keepSinks is how many of the newest streams keep their sinks (models);
// older streams keep only their recordings.
const keepSinks = 2

// Options say how a Session records and models its streams.
type Options struct {
	// RecordDir is where streams are recorded, each as an automatically
	// named file (see ingest.NewAutoRecorder); "" is the user's recordings
	// directory (ingest.RecordingsDir).
	RecordDir string
	// NewSink makes the sink of a new stream; nil makes Models.
	NewSink func(*Stream) Sink
	// AutoReconnect makes the session connect again whenever a connection
	// fails or ends: it then waits for the program's next run (a FIFO's
	// next writer, a followed file written again, a socket that accepts),
	// pausing between attempts as ingest.Retry says, and stops after five
	// attempts in a row that failed the same way (Status says why;
	// Reconnect starts again).
	AutoReconnect bool

	// after makes the timers of the pauses between attempts (nil:
	// time.After); tests give a fake clock.
	after func(time.Duration) <-chan time.Time
}

// Session watches the live eventlog streams at one URL (see the package
// documentation).
type Session struct {
	url  string
	opts Options

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	changed chan struct{}

	mu       sync.Mutex
	auto     bool
	kick     bool               // Reconnect was asked for
	attempt  context.CancelFunc // cancels the attempt or connection under way
	conn     connState
	connText string // what the connection does, in words
	connErr  error  // why the last attempt or connection failed
	retryAt  time.Time
	openedAt time.Time       // when the connection under way opened
	watch    *ingest.Watcher // what the connection under way brought
	silent   string          // what it means when it brings nothing (see silentWords)
	desc     string          // the source in words, once open
	src      *ingest.Source  // the connection being read, nil between them
	streams  []*Stream       // those whose header arrived
	all      []*Stream       // every stream started and not dropped, to close
	current  *Stream
	numbered int
	closed   bool
}

// connState is where a session's connection stands.
type connState int

const (
	connIdle       connState = iota // nothing under way (ended or failed, no auto-reconnect)
	connConnecting                  // opening the source, or waiting for the program
	connOpen                        // reading
	connRetrying                    // waiting before the next automatic attempt
)

// Start starts watching url (see ingest.OpenSource for the kinds of URL).
// Close stops it.
func Start(url string, opts Options) *Session {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Session{url: url, opts: opts, ctx: ctx, cancel: cancel, changed: make(chan struct{}, 1), auto: opts.AutoReconnect,
		conn: connConnecting, connText: "connecting to " + url}
	s.wg.Add(1)
	go s.run()
	return s
}

// URL returns the URL the session watches.
func (s *Session) URL() string { return s.url }

// Changed returns a channel that is told (without blocking, so at most one
// notice waits) whenever the connection's state or the current stream
// changes. Stream statistics change all the time and are not told.
func (s *Session) Changed() <-chan struct{} { return s.changed }

func (s *Session) notify() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// Streams returns every stream whose header has arrived, oldest first.
func (s *Session) Streams() []*Stream {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Stream(nil), s.streams...)
}

// Reconnect opens a new connection now, ending the one under way if any
// (its stream then ends as cut). What is shown stays until the new
// connection's stream has sent its header; if the attempt fails, Status
// says why.
func (s *Session) Reconnect() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.kick = true
	if s.attempt != nil {
		s.attempt()
	}
}

// SetAutoReconnect turns automatic reconnection on or off. Turned on while
// nothing is under way, it starts an attempt at once.
func (s *Session) SetAutoReconnect(on bool) {
	s.mu.Lock()
	s.auto = on
	idle := s.conn == connIdle || s.conn == connRetrying
	s.mu.Unlock()
	if on && idle {
		s.Reconnect()
	}
	s.notify()
}

// AutoReconnect reports whether the session reconnects by itself.
func (s *Session) AutoReconnect() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.auto
}

// Close stops the session: the connection is closed, every stream's sink
// gets what was recorded up to then, and the recordings are closed. It
// returns the first error closing a recording.
func (s *Session) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	var err error
	s.mu.Lock()
	streams := s.all
	s.mu.Unlock()
	for _, st := range streams {
		if cerr := st.close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	return err
}

func (s *Session) setConn(c connState, text string, err error) {
	s.mu.Lock()
	s.conn, s.connText = c, text
	if err != nil || c == connOpen {
		s.connErr = err
	}
	s.mu.Unlock()
	s.notify()
}

// run makes connections, one after another, until Close.
func (s *Session) run() {
	defer s.wg.Done()
	var prev *ingest.Source // the last source opened, once its connection ended
	retry := &ingest.Retry{After: s.opts.after}
	for first := true; ; first = false {
		if !first && !s.waitForAttempt(retry) {
			return
		}
		ctx, cancel := context.WithCancel(s.ctx)
		s.mu.Lock()
		s.attempt, s.kick = cancel, false
		auto := s.auto
		s.mu.Unlock()
		s.setConn(connConnecting, "connecting to "+s.url, nil)
		waiting := func(what string) {
			if path, ok := strings.CutPrefix(what, "waiting for a writer on "); ok {
				what += " (a program started with +RTS -l -ol" + path + ")"
			}
			s.setConn(connConnecting, what, nil)
		}
		var src *ingest.Source
		var err error
		if auto {
			src, err = ingest.Reopen(ctx, s.url, prev, retry, waiting)
		} else {
			src, err = ingest.OpenSourceNotify(ctx, s.url, waiting)
		}
		if err != nil {
			kicked := ctx.Err() != nil // by Reconnect, which starts afresh
			cancel()
			if s.ctx.Err() != nil {
				return
			}
			if kicked {
				err = nil
			} else if stop := retry.Failed(err.Error()); stop != nil {
				err = stop
			}
			s.setConn(connIdle, "", err)
			continue
		}
		w := ingest.NewWatcher(src)
		s.mu.Lock()
		s.desc, s.src, s.silent, s.watch, s.openedAt = src.Desc, src, silentWords(src), w, time.Now()
		s.mu.Unlock()
		s.setConn(connOpen, "reading "+src.Desc, nil)
		// Say why, once a socket has sent nothing for a while.
		silent := time.AfterFunc(ingest.SilentAfter, s.notify)
		stop := context.AfterFunc(ctx, func() { src.Close() })
		err = s.read(ctx, src, w)
		stop()
		silent.Stop()
		s.mu.Lock()
		s.src = nil
		s.mu.Unlock()
		src.Close()
		kicked := ctx.Err() != nil // by Reconnect, which starts afresh
		cancel()
		prev = src
		if s.ctx.Err() != nil {
			return
		}
		if !kicked {
			a := w.Attempt()
			if why := a.Failure(); why != "" && err == nil {
				err = errors.New(why)
			}
			if stop := retry.Ended(a); stop != nil {
				err = stop
			}
		}
		s.mu.Lock()
		s.watch = nil
		s.mu.Unlock()
		s.setConn(connIdle, "", err)
	}
}

// waitForAttempt waits until the next attempt should start: at once after
// Reconnect (which starts the retry policy afresh), after retry's pause
// with auto-reconnect, else (or once retry says to stop) until Reconnect.
// It returns false when the session is closed.
func (s *Session) waitForAttempt(retry *ingest.Retry) bool {
	for {
		s.mu.Lock()
		kick, auto := s.kick, s.auto
		s.mu.Unlock()
		if s.ctx.Err() != nil {
			return false
		}
		if kick {
			retry.Reset()
			return true
		}
		ctx, cancel := context.WithCancel(s.ctx)
		s.mu.Lock()
		s.attempt = cancel
		if s.kick { // asked for while the lock was free
			cancel()
		}
		s.mu.Unlock()
		if auto && !retry.Stopped() {
			s.mu.Lock()
			s.conn, s.retryAt = connRetrying, time.Now().Add(retry.Pause())
			s.mu.Unlock()
			s.notify()
			if retry.Wait(ctx) == nil {
				cancel()
				return true
			}
		}
		<-ctx.Done()
		cancel()
	}
}

// read reads one connection through its watcher until it ends: each stream
// it carries is recorded and fed to its sink.
func (s *Session) read(ctx context.Context, src *ingest.Source, w *ingest.Watcher) error {
	buf := make([]byte, readSize)
	var cur *Stream
	defer func() {
		if cur != nil {
			cur.endInput(errors.New("the connection ended"))
			s.settle(cur)
		}
	}()
	for {
		n, err := w.Read(buf)
		for data := buf[:n]; len(data) > 0; {
			if cur == nil {
				cur = s.newStream(ctx, src.Desc)
			}
			used := cur.take(data)
			data = data[used:]
			if cur.Header() != nil {
				s.promote(cur)
			}
			if cur.rec.Ended() {
				st := cur.rec.Status()
				cur.endInput(nil)
				s.settle(cur)
				cur = nil
				if st.State == ingest.StateCorrupt {
					return fmt.Errorf("the stream is corrupt at byte %d (%s); the rest of the connection cannot be read", st.Offset, st.Reason)
				}
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				if cur != nil {
					cur.endInput(nil)
					s.settle(cur)
					cur = nil
				}
				return nil
			}
			if cur != nil {
				cur.endInput(err)
				s.settle(cur)
				cur = nil
			}
			return fmt.Errorf("reading %s: %w", src.Desc, err)
		}
	}
}

// newStream starts the next stream of the session.
func (s *Session) newStream(ctx context.Context, desc string) *Stream {
	s.mu.Lock()
	s.numbered++
	n := s.numbered
	s.mu.Unlock()
	record := func() (*ingest.Recorder, error) {
		dir := s.opts.RecordDir
		if dir == "" {
			var err error
			if dir, err = ingest.RecordingsDir(); err != nil {
				return nil, err
			}
		}
		return ingest.NewAutoRecorder(dir, time.Now())
	}
	// The feeder lives as long as the session, not the connection: what
	// was recorded is fed even after the connection ends.
	st := newStream(s.ctx, n, desc, record, s.opts.NewSink)
	s.mu.Lock()
	s.all = append(s.all, st)
	s.mu.Unlock()
	return st
}

// promote makes st the current stream once its header has arrived.
func (s *Session) promote(st *Stream) {
	s.mu.Lock()
	if s.current == st {
		s.mu.Unlock()
		return
	}
	s.current = st
	s.streams = append(s.streams, st)
	if n := len(s.streams) - keepSinks; n > 0 {
		old := s.streams[n-1]
		old.sinkMu.Lock()
		if c, ok := old.sink.(io.Closer); ok {
			go c.Close()
		}
		old.sink = nil
		old.sinkMu.Unlock()
	}
	s.mu.Unlock()
	s.notify()
}

// settle is called when st's input is over: a stream that never sent its
// header is dropped (its recording is removed as it closes).
func (s *Session) settle(st *Stream) {
	if st.Header() != nil {
		s.notify()
		return
	}
	s.mu.Lock()
	for i, o := range s.all {
		if o == st {
			s.all = append(s.all[:i], s.all[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	go st.close()
}
