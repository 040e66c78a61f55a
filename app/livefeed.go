package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// liveBatch is how many events go into the live model under one lock.
const liveBatch = 4096

// liveReadSize is how much a live feed asks its source for at a time.
const liveReadSize = 256 << 10

// connState is where a live feed's connection stands.
type connState int32

// Connection states, in the order a feed goes through them.
const (
	connConnecting connState = iota // opening the source (a FIFO waits for its writer)
	connLive                        // reading
	connEnded                       // the stream ended with its end marker
	connLost                        // the stream stopped without it (cut, error, closed)
	connFailed                      // the source could not be opened
)

// String names the state as the status line shows it.
func (s connState) String() string {
	switch s {
	case connConnecting:
		return "connecting"
	case connLive:
		return "live"
	case connEnded:
		return "ended"
	case connLost:
		return "disconnected"
	}
	return "failed"
}

// liveFeed reads one live stream into models that grow as events arrive: a
// timeline.Live that any goroutine can take snapshots of, and the heap
// counters and profile. It records the stream as it goes, if asked to.
type liveFeed struct {
	url  string
	live *timeline.Live

	mu      sync.Mutex // guards heap, status, err, desc, recPath
	heap    *heapview.Collector
	status  ingest.Status
	err     error
	desc    string
	recPath string

	state  atomic.Int32
	bytes  atomic.Int64
	events atomic.Int64
	// newest is the time of the newest event decoded; addedAt is when the
	// newest bytes went into the live model (UnixNano).
	newest  atomic.Uint64
	addedAt atomic.Int64

	// record returns the recorder for a new stream, or nil not to record.
	record func() (*ingest.Recorder, error)
}

// newLiveFeed returns a feed for url that records each stream with record
// (nil: do not record).
func newLiveFeed(url string, record func() (*ingest.Recorder, error)) *liveFeed {
	return &liveFeed{url: url, live: timeline.NewLive(), heap: heapview.NewCollector(), record: record}
}

// defaultRecorder records into the user's recordings directory.
func defaultRecorder() (*ingest.Recorder, error) {
	dir, err := ingest.RecordingsDir()
	if err != nil {
		return nil, err
	}
	return ingest.NewAutoRecorder(dir, time.Now())
}

// liveStats is what the status line shows.
type liveStats struct {
	State    connState
	Desc     string // the source in words
	Bytes    int64
	Events   int64
	Newest   uint64 // time of the newest event decoded (ns since the RTS started)
	AddedAt  time.Time
	Status   ingest.Status
	Err      error
	RecPath  string
	RecError error
}

func (f *liveFeed) stats() liveStats {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := liveStats{
		State: connState(f.state.Load()), Desc: f.desc,
		Bytes: f.bytes.Load(), Events: f.events.Load(), Newest: f.newest.Load(),
		Status: f.status, Err: f.err, RecPath: f.recPath,
	}
	if t := f.addedAt.Load(); t != 0 {
		s.AddedAt = time.Unix(0, t)
	}
	return s
}

// heapResult returns the heap counters and profile so far.
func (f *liveFeed) heapResult() (*heapview.Heap, *heapview.Profile) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.heap.Result()
}

// run opens the source and reads it until it ends, fails or ctx is done.
// Whatever was read stays in the models. It returns the error that stopped
// it, nil if the stream ended with its end marker.
func (f *liveFeed) run(ctx context.Context) error {
	f.state.Store(int32(connConnecting))
	src, err := ingest.OpenSource(ctx, f.url)
	if err != nil {
		f.finish(connFailed, ingest.Status{}, err)
		return err
	}
	f.mu.Lock()
	f.desc = src.Desc
	f.mu.Unlock()
	stop := context.AfterFunc(ctx, func() { src.Close() })
	defer stop()
	defer src.Close()

	var rec *ingest.Recorder
	if f.record != nil {
		var rerr error
		if rec, rerr = f.record(); rerr != nil {
			f.mu.Lock()
			f.err = fmt.Errorf("not recording: %w", rerr)
			f.mu.Unlock()
		} else {
			f.mu.Lock()
			f.recPath = rec.Path()
			f.mu.Unlock()
		}
	}
	f.state.Store(int32(connLive))
	st, err := f.read(ctx, src, rec)
	if rec != nil {
		if cerr := rec.Close(); cerr != nil && err == nil {
			err = cerr
		}
		f.mu.Lock()
		f.recPath = rec.Path()
		f.mu.Unlock()
	}
	state := connLost
	if st.State == ingest.StateComplete {
		state = connEnded
	}
	if err == nil && st.State == ingest.StateCorrupt {
		err = st.Err()
	}
	f.finish(state, st, err)
	return err
}

func (f *liveFeed) finish(state connState, st ingest.Status, err error) {
	f.mu.Lock()
	f.status = st
	if err != nil {
		f.err = err
	}
	f.mu.Unlock()
	f.state.Store(int32(state))
}

// read decodes src into the models, feeding rec too; it returns how the
// stream ended and the read error that ended it, if any.
func (f *liveFeed) read(ctx context.Context, src io.Reader, rec *ingest.Recorder) (ingest.Status, error) {
	d := ingest.NewDecoder()
	buf := make([]byte, liveReadSize)
	batch := make([]ingest.Event, 0, liveBatch)
	var ev ingest.Event
	var readErr error
	drain := func() {
		f.mu.Lock()
		for d.Next(&ev) {
			f.heap.Add(&ev)
			batch = append(batch, ev)
			if len(batch) == liveBatch {
				f.flush(batch)
				batch = batch[:0]
			}
		}
		f.mu.Unlock()
		f.flush(batch)
		batch = batch[:0]
	}
	for {
		n, err := src.Read(buf)
		if n > 0 {
			f.bytes.Add(int64(n))
			if rec != nil {
				if _, werr := rec.Write(buf[:n]); werr != nil {
					f.mu.Lock()
					f.err = fmt.Errorf("recording stopped: %w", werr)
					f.mu.Unlock()
					rec.Close()
					rec = nil
				}
			}
			d.Feed(buf[:n])
			drain()
		}
		if d.Status().State != ingest.StateDecoding {
			break
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && ctx.Err() == nil {
				readErr = fmt.Errorf("reading %s: %w", f.url, err)
			}
			d.End()
			drain()
			break
		}
	}
	return d.Status(), readErr
}

// flush adds a batch of events to the live model.
func (f *liveFeed) flush(batch []ingest.Event) {
	if len(batch) == 0 {
		return
	}
	f.live.Add(batch)
	f.events.Add(int64(len(batch)))
	newest := f.newest.Load()
	for i := range batch {
		newest = max(newest, batch[i].Time)
	}
	f.newest.Store(newest)
	f.addedAt.Store(time.Now().UnixNano())
}
