package ingest

import (
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultViewerBuffer is how many bytes a Relay queues for one viewer before
// it gives up on it.
const DefaultViewerBuffer = 32 << 20

// dropGrace is how long a dropped viewer's connection may take to finish
// the write it is in before it is cut.
const dropGrace = 5 * time.Second

// Relay reads one live eventlog stream and serves it to any number of
// viewers. A viewer that joins late first receives the header and the
// events that define the state so far (see Replay), then the stream from
// where it stands. Each viewer has its own bounded queue, written by its own
// goroutine, so a slow viewer never stalls the source or the others: when
// its queue is full it is dropped, after the write in progress, so that
// what it received ends on an event boundary.
type Relay struct {
	// ViewerBuffer bounds the bytes queued for one viewer (0: DefaultViewerBuffer).
	ViewerBuffer int
	// Logf, if set, is told about viewers joining, leaving and being dropped.
	Logf func(format string, args ...any)

	mu      sync.Mutex
	c       *cutter
	replay  *Replay
	viewers map[*viewer]struct{}
	ended   bool
	status  Status
	events  int64
	wg      sync.WaitGroup
}

type viewer struct {
	conn   net.Conn
	name   string
	ch     chan []byte
	queued atomic.Int64
	quit   chan struct{}
}

// NewRelay returns a relay with no source and no viewers yet.
func NewRelay() *Relay {
	return &Relay{c: newCutter(), viewers: map[*viewer]struct{}{}}
}

func (r *Relay) logf(format string, args ...any) {
	if r.Logf != nil {
		r.Logf(format, args...)
	}
}

// Run reads src until it ends and passes it on to the viewers; then it lets
// each viewer's queue drain, closes their connections and returns how the
// stream ended. An error is returned if reading src failed.
func (r *Relay) Run(src io.Reader) (Status, error) {
	buf := make([]byte, 256<<10)
	var rerr error
	for {
		n, err := src.Read(buf)
		if n > 0 {
			r.mu.Lock()
			r.broadcast(r.c.feed(buf[:n], r.add))
			stop := r.c.d.phase == phaseDone
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
	r.mu.Lock()
	r.broadcast(r.c.end(r.add))
	r.ended = true
	r.status = r.c.d.Status()
	for v := range r.viewers {
		close(v.ch)
		delete(r.viewers, v)
	}
	st := r.status
	r.mu.Unlock()
	r.wg.Wait()
	return st, rerr
}

// add is called for each decoded event, with r.mu held.
func (r *Relay) add(ev *Event) {
	r.events++
	if r.replay == nil {
		r.replay = NewReplay(r.c.d.Header(), r.c.buf[r.c.start:r.c.start+int(r.c.headerLen-r.c.done)])
	}
	r.replay.Add(ev)
}

// broadcast queues b (whole events) for every viewer, with r.mu held.
func (r *Relay) broadcast(b []byte) {
	if len(b) == 0 {
		return
	}
	if r.replay == nil && r.c.data {
		// The header is whole but no event has come yet.
		r.replay = NewReplay(r.c.d.Header(), b[:r.c.headerLen])
	}
	if len(r.viewers) == 0 {
		return
	}
	chunk := append([]byte(nil), b...)
	limit := int64(r.ViewerBuffer)
	if limit <= 0 {
		limit = DefaultViewerBuffer
	}
	for v := range r.viewers {
		if v.queued.Load()+int64(len(chunk)) > limit {
			r.drop(v, fmt.Sprintf("more than %d bytes behind", limit))
			continue
		}
		select {
		case v.ch <- chunk:
			v.queued.Add(int64(len(chunk)))
		default:
			r.drop(v, "too many chunks behind")
		}
	}
}

// drop stops sending to v, with r.mu held.
func (r *Relay) drop(v *viewer, why string) {
	delete(r.viewers, v)
	close(v.quit)
	v.conn.SetWriteDeadline(time.Now().Add(dropGrace))
	r.logf("relay: dropped viewer %s: %s", v.name, why)
}

// Add starts serving the stream to conn, from where it stands now; the relay
// closes conn when the stream ends or the viewer goes.
func (r *Relay) Add(conn net.Conn) {
	v := &viewer{conn: conn, name: conn.RemoteAddr().String(), ch: make(chan []byte, 4096), quit: make(chan struct{})}
	r.mu.Lock()
	if r.ended {
		r.mu.Unlock()
		r.logf("relay: viewer %s came after the stream ended", v.name)
		conn.Close()
		return
	}
	if r.replay != nil {
		first := r.replay.Prefix(r.c.done)
		v.ch <- first
		v.queued.Add(int64(len(first)))
	}
	r.viewers[v] = struct{}{}
	r.wg.Add(1)
	r.mu.Unlock()
	r.logf("relay: viewer %s joined", v.name)
	go r.write(v)
}

// write sends v's queue to its connection until the queue is closed (the
// stream ended), v is dropped, or a write fails (the viewer left).
func (r *Relay) write(v *viewer) {
	defer r.wg.Done()
	defer v.conn.Close()
	for {
		select {
		case <-v.quit:
			return
		case b, ok := <-v.ch:
			if !ok {
				return
			}
			select {
			case <-v.quit:
				return
			default:
			}
			if _, err := v.conn.Write(b); err != nil {
				r.mu.Lock()
				if _, still := r.viewers[v]; still {
					delete(r.viewers, v)
					close(v.quit)
				}
				r.mu.Unlock()
				r.logf("relay: viewer %s left: %v", v.name, err)
				return
			}
			v.queued.Add(-int64(len(b)))
		}
	}
}

// Serve accepts viewers on l until l is closed.
func (r *Relay) Serve(l net.Listener) error {
	for {
		conn, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("relay: accepting viewers: %w", err)
		}
		r.Add(conn)
	}
}

// Stats returns how many bytes and events the relay has passed on and how
// many viewers it has.
func (r *Relay) Stats() (bytes, events int64, viewers int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.c.done, r.events, len(r.viewers)
}
