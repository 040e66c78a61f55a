package ingest

import (
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"
)

// DefaultViewerBuffer is how many bytes a Relay queues for one viewer before
// it gives up on it, and how much state it keeps for viewers that join late.
const DefaultViewerBuffer = 32 << 20

// DefaultQuietTimeout is how long a viewer may take no bytes at all while
// the relay has some for it before it is taken for gone.
const DefaultQuietTimeout = 30 * time.Second

// closeGrace is how long Close lets viewers take what is queued for them.
const closeGrace = 5 * time.Second

// writePiece is the most a relay writes to a viewer in one call: each
// piece has QuietTimeout to go through.
const writePiece = 64 << 10

// Relay serves a program's live eventlog streams, one after another, to any
// number of viewers.
//
// Run reads one stream (one run of the program). A viewer that joins while
// it runs first receives the header and the events that define the state
// so far, after a join mark saying from when its figures hold (see Replay
// and JoinMark), then the stream from where it stands. A viewer that joins
// after the stream ended receives the whole stream from its recording.
// Viewers stay connected when a stream ends: the next Run's stream follows
// on the same connection, header first (a stream that was cut is ended on
// the wire with a cut mark and an end marker, see IsCutMark).
//
// Each viewer has its own bounded queue, written by its own goroutine, so a
// slow viewer never stalls the source or the others: when its queue is
// full it is dropped after the write in progress, so that what it received
// ends on an event boundary. A viewer that closes its connection, or takes
// no bytes for QuietTimeout, is dropped too.
//
// The program serves one client, the relay; viewers send control commands
// (see Command) to the relay, which passes each whole command on to the
// program while a stream is read from its socket, from loopback viewers
// only unless ControlFrom says otherwise.
type Relay struct {
	// ViewerBuffer bounds the bytes queued for one viewer, and the state
	// kept for late joiners (0: DefaultViewerBuffer).
	ViewerBuffer int
	// QuietTimeout is how long a viewer may take no bytes while some wait
	// for it (0: DefaultQuietTimeout).
	QuietTimeout time.Duration
	// Logf, if set, is told about viewers joining, leaving and being
	// dropped, about accept errors, and about the control commands viewers
	// send.
	Logf func(format string, args ...any)
	// ControlFrom says whether a viewer at addr may send control commands
	// on to the program (see Command). nil: loopback viewers only.
	ControlFrom func(addr net.Addr) bool

	mu sync.Mutex
	// cur is the stream a viewer joining now gets: the one being read once
	// its header is whole, else the last one. reading is the one being read.
	cur, reading *relayStream
	streams      []*relayStream // all so far, to close their recordings
	numbered     int
	viewers      map[*viewer]struct{}
	// upstream takes control commands to the program while a stream is
	// read from a source that can (a socket Source); nil otherwise.
	upstream commandSender
	closed   bool
	wg       sync.WaitGroup
}

// relayStream is one stream the relay read or is reading.
type relayStream struct {
	n      int
	c      *cutter
	replay *Replay
	rec    *Recorder
	budget int
	ended  bool
	status Status
	events int64
	// tail is what ends the stream on the wire after its own bytes: a cut
	// mark and an end marker if it was cut.
	tail []byte
	// header is the stream's header ("datb" included), kept from the first
	// bytes handed on: a GHC 9.0 RTS writes it long before the first event,
	// in a read of its own.
	header []byte
}

// viewer is one connection the relay serves.
type viewer struct {
	conn net.Conn
	name string

	mu     sync.Mutex
	cond   *sync.Cond
	queue  []relayItem
	queued int64 // bytes in queue (recordings not counted: they are on disk)
	quit   bool  // send nothing more after the item in progress
	done   bool  // the relay closes: send what is queued, then stop
}

// relayItem is something queued for a viewer: bytes, or the first size
// bytes of a recording.
type relayItem struct {
	b    []byte
	rec  *Recorder
	size int64
}

// NewRelay returns a relay with no stream and no viewers yet.
func NewRelay() *Relay {
	return &Relay{viewers: map[*viewer]struct{}{}}
}

func (r *Relay) logf(format string, args ...any) {
	if r.Logf != nil {
		r.Logf(format, args...)
	}
}

func (r *Relay) limit() int64 {
	if r.ViewerBuffer > 0 {
		return int64(r.ViewerBuffer)
	}
	return DefaultViewerBuffer
}

func (r *Relay) quiet() time.Duration {
	if r.QuietTimeout > 0 {
		return r.QuietTimeout
	}
	return DefaultQuietTimeout
}

// Run reads one stream from src until it ends and passes it on to the
// viewers, recording it with rec (nil: not recorded; viewers that join
// after its end then wait for the next stream). The relay owns rec from
// then on, and closes it in Close. Run returns how the stream ended, and an
// error if reading src failed. A source that ended before a whole header
// (it closed, or sent no eventlog) leaves no trace: it takes no stream
// number, and rec is closed at once, which removes its empty file. Calls to
// Run must not overlap.
func (r *Relay) Run(src io.Reader, rec *Recorder) (Status, error) {
	s := &relayStream{c: newCutter(), rec: rec, budget: int(r.limit())}
	r.mu.Lock()
	r.numbered++
	s.n = r.numbered
	r.reading = s
	r.streams = append(r.streams, s)
	if up, ok := src.(commandSender); ok {
		r.upstream = up
	}
	r.mu.Unlock()

	buf := make([]byte, 256<<10)
	var rerr error
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if rec != nil {
				rec.Feed(buf[:n])
			}
			r.mu.Lock()
			first := s.c.done == 0
			b := s.c.feed(buf[:n], s.add)
			if first && len(b) > 0 && s.header == nil {
				s.header = append([]byte(nil), b[:min(int(s.c.headerLen-s.c.d.Stray()), len(b))]...)
			}
			if s.c.data && r.cur != s {
				r.cur = s
			}
			r.broadcast(b)
			stop := s.c.d.phase == phaseDone
			r.mu.Unlock()
			if stop {
				break
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				rerr = fmt.Errorf("relay: reading the source: %w", err)
			}
			break
		}
	}
	if rec != nil {
		rec.Finish()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.broadcast(s.c.end(s.add))
	s.ended = true
	s.status = s.c.d.Status()
	if rec != nil {
		s.status = rec.Status() // it knows a cut mark
	}
	if !s.c.data {
		// No viewer got anything of it, and it is not r.cur.
		r.streams = r.streams[:len(r.streams)-1]
		r.numbered--
		r.reading = nil
		if rec != nil {
			if err := rec.Close(); err != nil && rerr == nil {
				rerr = fmt.Errorf("relay: %w", err)
			}
		}
		return s.status, rerr
	}
	if s.c.data && s.c.d.Status().State != StateComplete {
		if canMark(s.c.d.Header()) {
			var last uint64
			if s.replay != nil {
				last, _ = s.replay.JoinedAt()
			}
			s.tail = appendCutEnd(nil, last)
			r.broadcast(s.tail)
		} else {
			// Nothing can tell the viewers that the stream was cut and
			// another may follow: end their connections.
			for v := range r.viewers {
				r.drop(v, "the stream was cut")
			}
		}
	}
	r.reading, r.upstream = nil, nil
	return s.status, rerr
}

// commandSender is a source that takes control commands (*Source).
type commandSender interface {
	Send(Command) error
}

// control passes a command a viewer sent on to the program, if the viewer
// may send commands and a program is connected.
func (r *Relay) control(v *viewer, cmd Command) {
	allowed := isLoopback(v.conn.RemoteAddr())
	if r.ControlFrom != nil {
		allowed = r.ControlFrom(v.conn.RemoteAddr())
	}
	if !allowed {
		r.logf("relay: refused %s from viewer %s: only loopback viewers may send commands unless --allow-control-from names them", cmd, v.name)
		return
	}
	r.mu.Lock()
	up := r.upstream
	r.mu.Unlock()
	if up == nil {
		r.logf("relay: %s from viewer %s not sent: no program is connected, or its source takes no commands", cmd, v.name)
		return
	}
	if err := up.Send(cmd); err != nil {
		r.logf("relay: %s from viewer %s: %v", cmd, v.name, err)
		return
	}
	r.logf("relay: viewer %s sent %s to the program", v.name, cmd)
}

// isLoopback reports whether addr is a loopback TCP address.
func isLoopback(addr net.Addr) bool {
	a, ok := addr.(*net.TCPAddr)
	return ok && a.IP.IsLoopback()
}

// add is called for each decoded event of s, with r.mu held.
func (s *relayStream) add(ev *Event) {
	s.events++
	if s.replay == nil {
		h := s.header
		if h == nil { // the header and this event came in one read
			from := max(0, s.c.d.Stray()-s.c.done) // markers before the header are not handed on
			h = s.c.buf[s.c.start+int(from) : s.c.start+int(s.c.headerLen-s.c.done)]
		}
		s.replay = NewReplay(s.c.d.Header(), h)
		s.replay.Budget = s.budget
	}
	s.replay.Add(ev)
}

// prefix returns what a viewer joining s now receives before the stream.
func (s *relayStream) prefix() []byte {
	if s.replay == nil {
		// No event yet: the header if it has been handed on, else nothing
		// (the stream has not begun: the viewer gets it whole).
		return s.header
	}
	return s.replay.Prefix(s.c.done)
}

// broadcast queues b (whole events) for every viewer, with r.mu held.
func (r *Relay) broadcast(b []byte) {
	if len(b) == 0 || len(r.viewers) == 0 {
		return
	}
	chunk := append([]byte(nil), b...)
	for v := range r.viewers {
		v.mu.Lock()
		over := v.queued+int64(len(chunk)) > r.limit()
		if !over {
			v.queue = append(v.queue, relayItem{b: chunk})
			v.queued += int64(len(chunk))
			v.cond.Signal()
		}
		v.mu.Unlock()
		if over {
			r.drop(v, fmt.Sprintf("more than %d bytes behind", r.limit()))
		}
	}
}

// drop stops sending to v after the write in progress, with r.mu held.
func (r *Relay) drop(v *viewer, why string) {
	if _, ok := r.viewers[v]; !ok {
		return
	}
	delete(r.viewers, v)
	v.mu.Lock()
	v.quit = true
	v.cond.Signal()
	v.mu.Unlock()
	r.logf("relay: dropped viewer %s: %s", v.name, why)
}

// Add starts serving the streams to conn, from where they stand now; the
// relay closes conn when the viewer goes or the relay closes.
func (r *Relay) Add(conn net.Conn) {
	v := &viewer{conn: conn, name: conn.RemoteAddr().String()}
	v.cond = sync.NewCond(&v.mu)
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		conn.Close()
		return
	}
	what := "waiting for a stream"
	if s := r.cur; s != nil {
		switch {
		case !s.ended:
			if p := s.prefix(); len(p) > 0 {
				v.queue = append(v.queue, relayItem{b: p})
				v.queued += int64(len(p))
				what = fmt.Sprintf("joined stream %d while it runs", s.n)
			}
		case s.rec != nil:
			v.queue = append(v.queue, relayItem{rec: s.rec, size: s.rec.Size()})
			if len(s.tail) > 0 {
				v.queue = append(v.queue, relayItem{b: s.tail})
			}
			what = fmt.Sprintf("gets stream %d, which has ended, from its recording", s.n)
		}
	}
	r.viewers[v] = struct{}{}
	r.wg.Add(2)
	r.mu.Unlock()
	r.logf("relay: viewer %s joined (%s)", v.name, what)
	go r.write(v)
	go r.watch(v)
}

// write sends v's queue to its connection until v is dropped or leaves,
// or the relay closes and the queue is empty.
func (r *Relay) write(v *viewer) {
	defer r.wg.Done()
	defer v.conn.Close()
	for {
		v.mu.Lock()
		for len(v.queue) == 0 && !v.quit && !v.done {
			v.cond.Wait()
		}
		if v.quit || len(v.queue) == 0 {
			v.mu.Unlock()
			return
		}
		it := v.queue[0]
		v.queue[0] = relayItem{}
		v.queue = v.queue[1:]
		v.mu.Unlock()
		err := r.send(v, it)
		v.mu.Lock()
		v.queued -= int64(len(it.b))
		v.mu.Unlock()
		if err != nil {
			r.mu.Lock()
			if _, still := r.viewers[v]; still {
				delete(r.viewers, v)
				r.logf("relay: viewer %s left: %v", v.name, err)
			}
			r.mu.Unlock()
			return
		}
	}
}

// send writes one item to v in pieces, each of which must go through
// within the quiet timeout.
func (r *Relay) send(v *viewer, it relayItem) error {
	put := func(b []byte) error {
		for len(b) > 0 {
			n := min(len(b), writePiece)
			v.conn.SetWriteDeadline(time.Now().Add(r.quiet()))
			if _, err := v.conn.Write(b[:n]); err != nil {
				if isTimeout(err) {
					return fmt.Errorf("took no bytes for %v", r.quiet())
				}
				return err
			}
			b = b[n:]
		}
		return nil
	}
	if it.rec == nil {
		return put(it.b)
	}
	buf := make([]byte, 256<<10)
	for off := int64(0); off < it.size; {
		n, err := it.rec.ReadAt(buf[:min(int64(len(buf)), it.size-off)], off)
		if n == 0 && err != nil {
			return fmt.Errorf("reading the recording: %w", err)
		}
		if err := put(buf[:n]); err != nil {
			return err
		}
		off += int64(n)
	}
	return nil
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// watch reads v's connection, on which a viewer sends nothing but control
// commands (passed on to the program, see control): when it ends, the
// viewer has gone, and is dropped even if nothing was being sent to it.
func (r *Relay) watch(v *viewer) {
	defer r.wg.Done()
	buf := make([]byte, 512)
	var p controlParser
	for {
		n, err := v.conn.Read(buf)
		p.feed(buf[:n], func(cmd Command) { r.control(v, cmd) })
		if err != nil {
			break
		}
	}
	r.mu.Lock()
	closing := r.closed
	if _, still := r.viewers[v]; still && !closing {
		delete(r.viewers, v)
		r.logf("relay: viewer %s left", v.name)
	}
	r.mu.Unlock()
	if closing {
		return // Close stopped the reading; the writer finishes the queue
	}
	v.mu.Lock()
	v.quit = true
	v.cond.Signal()
	v.mu.Unlock()
	v.conn.Close()
}

// Serve accepts viewers on l until l is closed. An accept that fails (too
// many open files, a connection reset before it was accepted) is reported
// and retried after a pause that grows to a second; it never stops the
// relay from accepting.
func (r *Relay) Serve(l net.Listener) error {
	pause := time.Duration(0)
	for {
		conn, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			pause = min(max(2*pause, 5*time.Millisecond), time.Second)
			r.logf("relay: accepting viewers: %v (trying again in %v)", err, pause)
			time.Sleep(pause)
			continue
		}
		pause = 0
		r.Add(conn)
	}
}

// Close ends the relay: it lets each viewer take what is queued for it
// (for up to 5 s), closes their connections and the recordings, and waits
// for its goroutines. Call it after Run has returned.
func (r *Relay) Close() error {
	r.mu.Lock()
	r.closed = true
	viewers := make([]*viewer, 0, len(r.viewers))
	for v := range r.viewers {
		viewers = append(viewers, v)
	}
	r.mu.Unlock()
	for _, v := range viewers {
		v.mu.Lock()
		v.done = true
		v.cond.Signal()
		v.mu.Unlock()
		v.conn.SetWriteDeadline(time.Now().Add(closeGrace))
		if c, ok := v.conn.(interface{ CloseRead() error }); ok {
			c.CloseRead()
		}
	}
	done := make(chan struct{})
	go func() {
		r.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(closeGrace + time.Second):
		for _, v := range viewers {
			v.conn.Close()
		}
		<-done
	}
	var err error
	r.mu.Lock()
	for _, s := range r.streams {
		if s.rec != nil {
			if cerr := s.rec.Close(); cerr != nil && err == nil {
				err = cerr
			}
		}
	}
	r.mu.Unlock()
	return err
}

// Stats returns how many bytes and events the relay has passed on in the
// current stream (the one being read, else the last), how many streams it
// has read, and how many viewers it has.
func (r *Relay) Stats() (bytes, events int64, streams, viewers int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.reading
	if s == nil {
		s = r.cur
	}
	if s != nil {
		bytes, events = s.c.done, s.events
	}
	return bytes, events, r.numbered, len(r.viewers)
}
