package live

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hecscope/hecscope/ingest"
)

// feedBatch is how many events a stream gives its sink at a time.
const feedBatch = 4096

// feedRead is how much of the recording the feeder decodes at a time.
const feedRead = 1 << 20

// Stream is one stream of a live session: one run of the program, as one
// connection (or part of one) brought it. It is recorded as it arrives and
// fed to its Sink from the recording.
type Stream struct {
	// N numbers the session's streams from 1, in the order their bytes
	// began to arrive.
	N int
	// Source says in words where the stream comes from ("FIFO /tmp/p.fifo").
	Source string

	rec      *ingest.Recorder
	tempPath string // a recording made only to feed the model, removed at Close
	recErr   error  // why the stream is not recorded where recordings go
	sink     Sink
	sinkMu   sync.Mutex

	wake chan struct{} // tells the feeder that more is recorded
	done chan struct{} // closed once the sink has had everything

	// Set by the reading goroutine.
	bytes    atomic.Int64
	lastData atomic.Int64 // UnixNano of the last bytes
	inputMu  sync.Mutex
	inputEnd bool
	readErr  error

	// Set by the feeder. dataEvents counts the events that are not block
	// markers or a join mark: those that say a block of data arrived.
	events     atomic.Int64
	dataEvents atomic.Int64
	newest     atomic.Uint64
	fedTo      atomic.Int64 // recording bytes decoded
	rateMu     sync.Mutex
	rate       rateMeter
	rts        atomic.Pointer[string]
}

// newStream starts recording and feeding a stream. record makes its
// recorder; if it fails, the stream is recorded to a temporary file (the
// model is fed from the recording) and RecordingError says why.
func newStream(ctx context.Context, n int, source string, record func() (*ingest.Recorder, error), newSink func(*Stream) Sink) *Stream {
	s := &Stream{N: n, Source: source, wake: make(chan struct{}, 1), done: make(chan struct{})}
	rec, err := record()
	if err != nil {
		s.recErr = err
		f, terr := os.CreateTemp("", "hecscope-live-*.eventlog")
		if terr == nil {
			s.tempPath = f.Name()
			f.Close()
			rec, terr = ingest.NewRecorder(s.tempPath)
		}
		if terr != nil {
			rec, s.tempPath = ingest.NewMemoryRecorder(), "" // no file at all
		}
	}
	s.rec = rec
	if newSink == nil {
		newSink = func(s *Stream) Sink { return NewModels(s) }
	}
	s.sink = newSink(s)
	go s.feed(ctx)
	return s
}

// take records p, the next bytes of the connection, and returns how many
// of them belong to this stream (the rest begin the next one).
func (s *Stream) take(p []byte) int {
	used, err := s.rec.Feed(p)
	if err != nil {
		return len(p) // finished: nothing more belongs to it
	}
	if used > 0 {
		s.bytes.Add(int64(used))
		s.lastData.Store(time.Now().UnixNano())
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return used
}

// endInput says that no more bytes will come (err says why, if not the
// stream's end).
func (s *Stream) endInput(err error) {
	s.inputMu.Lock()
	if !s.inputEnd {
		s.inputEnd, s.readErr = true, err
		s.rec.Finish()
	}
	s.inputMu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *Stream) inputOver() (bool, error) {
	s.inputMu.Lock()
	defer s.inputMu.Unlock()
	return s.inputEnd, s.readErr
}

// feed reads the recording back as it grows and gives its events to the
// sink, until the input is over and everything recorded has been fed, or
// ctx ends.
func (s *Stream) feed(ctx context.Context) {
	defer close(s.done)
	d := ingest.NewDecoder()
	buf := make([]byte, feedRead)
	batch := make([]ingest.Event, 0, feedBatch)
	var ev ingest.Event
	var off int64
	sink := s.Sink()
	flush := func() {
		if len(batch) == 0 {
			return
		}
		sink.Add(batch)
		newest, data := s.newest.Load(), int64(0)
		for i := range batch {
			if batch[i].Kind == ingest.KindBlockMarker {
				continue
			}
			if _, mark := ingest.JoinMark(&batch[i]); !mark {
				newest = max(newest, batch[i].Time)
				data++
			}
		}
		s.newest.Store(newest)
		s.dataEvents.Add(data)
		n := s.events.Add(int64(len(batch)))
		s.rateMu.Lock()
		s.rate.note(time.Now(), n)
		s.rateMu.Unlock()
		batch = batch[:0]
	}
	drain := func() {
		for d.Next(&ev) {
			if ev.Kind == ingest.KindRTSIdentifier && s.rts.Load() == nil {
				id := string(ev.Data)
				s.rts.Store(&id)
			}
			batch = append(batch, ev)
			if len(batch) == feedBatch {
				flush()
			}
		}
		flush() // before the next Feed, which invalidates the events' bytes
	}
	for {
		over, _ := s.inputOver()
		size := s.rec.Size()
		for off < size {
			n, err := s.rec.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
			if n > 0 {
				d.Feed(buf[:n])
				off += int64(n)
				s.fedTo.Store(off)
				drain()
			}
			if err != nil || n == 0 {
				break
			}
			if ctx.Err() != nil {
				break
			}
		}
		if ctx.Err() != nil || (over && off >= s.rec.Size()) {
			d.End()
			drain()
			sink.End(s.rec.Status())
			return
		}
		select {
		case <-s.wake:
		case <-ctx.Done():
		}
	}
}

// Sink returns the stream's sink (by default a *Models).
func (s *Stream) Sink() Sink {
	s.sinkMu.Lock()
	defer s.sinkMu.Unlock()
	return s.sink
}

// Models returns the stream's sink if it is the default Models, else nil.
func (s *Stream) Models() *Models {
	m, _ := s.Sink().(*Models)
	return m
}

// Header returns the stream's header (nil until it has arrived).
func (s *Stream) Header() *ingest.Header { return s.rec.Header() }

// RecordingPath returns the file the stream is recorded to, "" if it is
// recorded only to feed the model (see RecordingError). An automatic
// recording is renamed once the program's name arrives (GHC 9.0 sends it at
// the end of the run): a reader should open the file once and keep it, or
// use ReaderAt.
func (s *Stream) RecordingPath() string {
	if s.tempPath != "" || s.recErr != nil {
		return ""
	}
	return s.rec.Path()
}

// RecordingError says why the stream is not recorded where recordings go,
// or why its recording stopped being written to disk (it then goes on in
// memory); nil if all is well.
func (s *Stream) RecordingError() error {
	if s.recErr != nil {
		return fmt.Errorf("not recording: %w", s.recErr)
	}
	return s.rec.Err()
}

// ReaderAt returns the recording as it stands, for reading detail from it
// while it grows: bytes below Recorded are whole events and never change.
func (s *Stream) ReaderAt() io.ReaderAt { return s.rec }

// Recorded returns how many bytes of the recording can be read.
func (s *Stream) Recorded() int64 { return s.rec.Size() }

// JoinedAt returns the time (ns since the program started) from which the
// stream's figures hold, if the stream was joined while the program ran.
func (s *Stream) JoinedAt() (uint64, bool) { return s.rec.JoinedAt() }

// Done returns a channel closed once the stream is over and its sink has
// had every event.
func (s *Stream) Done() <-chan struct{} { return s.done }

// close waits for the feeder and closes the recording.
func (s *Stream) close() error {
	// A sink that reads the recording itself (Models) stops first, so
	// that the feeder's End does not wait for it to read on.
	if c, ok := s.Sink().(io.Closer); ok {
		c.Close()
	}
	<-s.done
	err := s.rec.Close()
	if s.tempPath != "" {
		os.Remove(s.tempPath)
	}
	return err
}

// StreamStats is where a stream stands.
type StreamStats struct {
	// Bytes is how many stream bytes arrived; Recorded how many are in the
	// recording (whole events); Behind how many of those the model has yet
	// to take.
	Bytes, Recorded, Behind int64
	// Events is how many events the sink has had; Rate how many per second
	// over about the last second.
	Events int64
	Rate   float64
	// Newest is the time of the newest event (ns since the program
	// started); LastData is when bytes last arrived (zero before any).
	Newest   uint64
	LastData time.Time
	// HeaderDone is set once the header has arrived.
	HeaderDone bool
	// BlockBuffered is set when the header is a GHC ≤ 9.0 one: its RTS
	// writes events only in full 2 MiB blocks per capability, or at exit.
	BlockBuffered bool
	// RTS is the RTS identifier ("GHC-9.0.2 rts_thr_l") once it came.
	RTS string
	// JoinedAt is the time from which the figures hold, if Joined (the
	// stream was joined while the program ran).
	JoinedAt uint64
	Joined   bool
	// InputOver is set once no more bytes will come, Done once the sink
	// has had them all; Status is then how the stream ended.
	InputOver, Done bool
	Status          ingest.Status
	// ReadError is why reading stopped, if not at the stream's end.
	ReadError error
}

// Stats returns where the stream stands.
func (s *Stream) Stats() StreamStats {
	st := StreamStats{
		Bytes: s.bytes.Load(), Recorded: s.rec.Size(),
		Events: s.events.Load(), Newest: s.newest.Load(),
	}
	st.Behind = max(0, st.Recorded-s.fedTo.Load())
	if t := s.lastData.Load(); t != 0 {
		st.LastData = time.Unix(0, t)
	}
	if h := s.rec.Header(); h != nil {
		st.HeaderDone = true
		st.BlockBuffered = blockBuffered(h)
	}
	if id := s.rts.Load(); id != nil {
		st.RTS = *id
	}
	st.JoinedAt, st.Joined = s.rec.JoinedAt()
	st.InputOver, st.ReadError = s.inputOver()
	select {
	case <-s.done:
		st.Done = true
	default:
	}
	st.Status = s.rec.Status()
	s.rateMu.Lock()
	st.Rate = s.rate.perSecond(time.Now(), st.Events)
	s.rateMu.Unlock()
	return st
}

// blockBuffered reports whether a header is that of a GHC 9.0 (or older)
// RTS, which writes a capability's events only when its 2 MiB buffer is
// full, or at exit: such headers do not declare MEM_RETURN and BLOCKS_SIZE
// (event types 90 and 91), which GHC 9.2 added with
// --eventlog-flush-interval.
func blockBuffered(h *ingest.Header) bool {
	_, mem := h.Lookup(90)
	_, blocks := h.Lookup(91)
	return !mem && !blocks
}

// rateMeter measures events per second over about the last second.
type rateMeter struct {
	samples []rateSample
}

type rateSample struct {
	at     time.Time
	events int64
}

// note records that events had been fed by time at.
func (m *rateMeter) note(at time.Time, events int64) {
	if n := len(m.samples); n > 0 && at.Sub(m.samples[n-1].at) < 100*time.Millisecond {
		m.samples[n-1] = rateSample{at, events}
		return
	}
	m.samples = append(m.samples, rateSample{at, events})
	for len(m.samples) > 2 && at.Sub(m.samples[1].at) > 1500*time.Millisecond {
		m.samples = m.samples[1:]
	}
}

// perSecond returns the rate from the oldest kept sample to now, with
// events fed so far: 0 when nothing came for more than two seconds.
func (m *rateMeter) perSecond(now time.Time, events int64) float64 {
	if len(m.samples) == 0 {
		return 0
	}
	first := m.samples[0]
	if now.Sub(m.samples[len(m.samples)-1].at) > 2*time.Second {
		return 0
	}
	dt := now.Sub(first.at).Seconds()
	if dt < 0.2 {
		return 0
	}
	return float64(events-first.events) / dt
}
