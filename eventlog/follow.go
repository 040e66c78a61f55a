package eventlog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// Follow opens a log that is still being written — a live session's
// recording, or a file the RTS is writing (follow://) — loads what it holds
// and reads on as it grows, each time Poll is called. It needs the log's
// header to be there. However long the program runs, memory stays bounded
// by the picture: the overview's grid grows with the run (when the run
// outgrows it, the models are built again from the file on a grid four times
// coarser), and detail is decoded from the file, as for Open.
//
// The RTS writes each capability's events in blocks, so the file's order is
// not time order: events that concern more than one capability (threads,
// messages, the heap) wait for the other capabilities' blocks (up to
// followLag of the run's time, and followHold events) before they go into
// the models; one that comes later than that is placed at the time the
// models have reached, and the models are built again from the file (in
// time order, exactly) when the file has doubled since they were, and when
// it ends.
func Follow(ctx context.Context, path string, opt Options) (*Log, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("following %s: %w", path, err)
	}
	r := &Log{Path: path, file: f, data: f, following: &follower{opt: opt}}
	if err := r.rebuild(ctx); err != nil {
		f.Close()
		return nil, fmt.Errorf("following %s: %w", path, err)
	}
	return r, nil
}

const (
	// followLag is how long, in the run's time, an event that concerns
	// several capabilities waits for the other capabilities' blocks.
	followLag = 2e9
	// followHold bounds the events waiting so (beyond it the earliest go).
	followHold = 1 << 18
	// followRead is how much Poll reads at a time.
	followRead = 4 << 20
)

// followSpan is the least span a followed log's first grid covers (a
// variable so that tests can make logs outgrow their grid).
var followSpan uint64 = 16e9

// follower is what a followed log keeps to read on.
type follower struct {
	opt      Options
	bd       *building
	limit    uint64 // events from this time on outgrow the grid
	buckets  []uint32
	d        *ingest.Decoder
	off      int64 // bytes of the file decoded or buffered in d
	done     bool  // the end marker (or corruption) was reached
	pieces   []ingest.Piece
	cur      int // the piece being read, -1 if none
	hold     holdback
	latest   map[int32]uint64 // per capability, its latest event's time
	maxTime  uint64
	rebuild  bool
	startLen int64 // bytes the last build read
	// released is the time of the last event handed to the models; late
	// says one came after a later one had gone.
	released uint64
	late     bool
}

// rebuild (re)loads all the file holds so far on a grid with room for four
// times the run's span, and makes ready to read on from where it ends.
func (r *Log) rebuild(ctx context.Context) error {
	f := r.following
	st, err := r.file.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	ix, err := ingest.NewIndex(r.file, size)
	if err != nil {
		return err
	}
	from, to := span(ix)
	to = max(to, f.maxTime)
	limit := 4 * max(to, followSpan)
	grid := timeline.GridFor(limit, f.opt.buckets())
	listGrid := timeline.GridFor(limit, listBuckets)
	r.Size, r.Header = size, ix.Header
	// Detail read from here on uses a copy: build learns into ix's pieces.
	pub := *ix
	pub.Pieces = slices.Clone(ix.Pieces)
	r.index.Store(&pub)
	bd, err := r.build(ctx, ix, f.opt, grid, listGrid, from, to, time.Now())
	if err != nil {
		return err
	}
	// As for Open: a block marker declaring an absurd end must not size the
	// grids (see load); the events' own times say how far the run goes.
	if last := max(bd.last, f.maxTime); last > 0 {
		if fit := 4 * max(last, followSpan); tooCoarse(grid, fit, f.opt.buckets()) || tooCoarse(listGrid, fit, listBuckets) {
			to, limit = last, fit
			grid, listGrid = timeline.GridFor(limit, f.opt.buckets()), timeline.GridFor(limit, listBuckets)
			bd = nil // the first reading's models are garbage while the second builds
			if bd, err = r.build(ctx, ix, f.opt, grid, listGrid, from, to, time.Now()); err != nil {
				return err
			}
		}
	}
	bd.b.EndParallel()
	reachBlocks(bd.b, ix.Pieces)
	buckets := bd.buckets()
	buckets = append(buckets, make([]uint32, max(listBucketsTo(listGrid, limit)-len(buckets), 0))...)
	*f = follower{opt: f.opt, bd: bd, limit: limit, buckets: buckets, pieces: slices.Clone(ix.Pieces), cur: -1,
		latest: map[int32]uint64{}, maxTime: max(f.maxTime, bd.last), startLen: size}
	// Read on from the first byte not decoded: the end of the last whole
	// event (a cut block goes on where it was cut).
	switch bd.status.State {
	case ingest.StateComplete, ingest.StateCorrupt:
		f.done = true
	default:
		at := ix.End
		if bd.status.State == ingest.StateTruncated {
			at = bd.status.Offset
		}
		var bcap int32 = ingest.NoCap
		var remaining int64
		for i := len(f.pieces) - 1; i >= 0; i-- {
			p := &f.pieces[i]
			if p.Offset < at {
				if p.Block && at < p.Declared {
					bcap, remaining = p.Cap, p.Declared-at
				}
				p.End = at
				f.cur = i
				f.pieces = f.pieces[:i+1]
				break
			}
			if p.Offset == at {
				f.pieces = f.pieces[:i]
			}
		}
		f.d, f.off = ix.DecoderAt(at, bcap, remaining), at
	}
	r.Status, r.Events = bd.status, bd.events
	if !f.done {
		r.Status = ingest.Status{State: ingest.StateDecoding, Offset: f.off}
	}
	r.publish()
	r.loaded.Store(true)
	return nil
}

// Following reports whether the log is followed and has not ended (an end
// marker or corrupt data stop it).
func (r *Log) Following() bool { return r.following != nil && !r.following.done }

// Poll reads what was appended to a followed log since the last call and
// brings the models up to date; it reports whether they changed. It is not
// safe to call from several goroutines at once; the models it publishes
// are (Overview, Detail, EventList).
func (r *Log) Poll(ctx context.Context) (bool, error) {
	f := r.following
	if f == nil {
		return false, errors.New("polling a log that is not followed")
	}
	if f.done {
		return false, nil
	}
	st, err := r.file.Stat()
	if err != nil {
		return false, fmt.Errorf("following %s: %w", r.Path, err)
	}
	size := st.Size()
	if size < f.off {
		return false, fmt.Errorf("following %s: the file shrank from %d to %d bytes", r.Path, f.off, size)
	}
	grew := false
	buf := make([]byte, 0, min(size-f.off, followRead))
	var ev ingest.Event
	for f.off < size && !f.done {
		n := min(size-f.off, followRead)
		buf = buf[:n]
		k, err := r.file.ReadAt(buf, f.off)
		if err != nil && !errors.Is(err, io.EOF) {
			return grew, fmt.Errorf("following %s: %w", r.Path, err)
		}
		f.d.Feed(buf[:k])
		f.off += int64(k)
		for f.d.Next(&ev) {
			f.event(&ev)
			grew = true
		}
		if st := f.d.Status(); st.State != ingest.StateDecoding {
			f.done = true
			r.Status = st
		}
		if ctx.Err() != nil {
			return grew, ctx.Err()
		}
		if k == 0 {
			break
		}
	}
	f.release(false)
	// Built again: when the run outgrows the grid, and when events came too
	// late for their place, at the end and whenever the file has doubled.
	if f.rebuild || (f.late && (f.done || size >= 2*f.startLen)) {
		return true, r.rebuild(ctx)
	}
	if f.done {
		f.release(true)
	} else {
		r.Status = ingest.Status{State: ingest.StateDecoding, Offset: f.d.Offset()}
	}
	r.Size = size
	if grew || f.done {
		r.publish()
	}
	return grew, nil
}

// EndFollow says that a followed log will not grow any more (its stream
// ended): what Poll has read is all there is. A log that did not reach its
// end marker is then cut short where the last whole event ends (Status
// truncated there), and its models say so: each capability is known up to
// its frontier, past which it is "no data", no longer "not received yet"
// (timeline.Model.Cut). It is not safe to call while Poll runs.
func (r *Log) EndFollow() {
	f := r.following
	if f == nil || f.done {
		return
	}
	f.release(true)
	f.done = true
	r.Status = ingest.Status{State: ingest.StateTruncated, Offset: f.d.Offset()}
	r.publish()
}

// event takes one event read on.
func (f *follower) event(ev *ingest.Event) {
	bd := f.bd
	// A corrupt block marker's time is not the run's (ingest.SpansRun).
	if ingest.SpansRun(ev) {
		if !bd.timed || ev.Time < bd.first {
			bd.first = ev.Time
		}
		bd.last = max(bd.last, ev.Time)
		f.maxTime = max(f.maxTime, ev.Time)
		bd.timed = true
		if ev.Time >= f.limit {
			f.rebuild = true
		}
	}
	bd.events++
	b := bd.listGrid.Bucket(ev.Time)
	f.buckets[min(b, len(f.buckets)-1)]++
	f.piece(ev)
	if c := ev.Cap; c != ingest.NoCap {
		if h := bd.b.HEC(c); h != nil {
			h.Add(ev)
			f.latest[c] = max(f.latest[c], ev.Time)
		}
	}
	k := ev.Kind
	if bd.wantHeap(k) || (timeline.GlobalKind(k) && (!f.opt.NoThreads || !threadKind(k))) {
		f.hold.push(ev)
	}
}

// piece extends the index with ev.
func (f *follower) piece(ev *ingest.Event) {
	n := int64(len(ev.Raw))
	switch {
	case ev.Kind == ingest.KindBlockMarker:
		var c int32 = ingest.NoCap
		if ev.Args[2] != 0xFFFF {
			c = int32(ev.Args[2])
		}
		f.pieces = append(f.pieces, ingest.Piece{Offset: ev.Offset, Declared: ev.Offset + int64(ev.Args[0]), Cap: c,
			Block: true, BlockStart: ev.Time, BlockEnd: ev.Args[1]})
		f.cur = len(f.pieces) - 1
	case f.cur < 0 || (f.pieces[f.cur].Block && ev.Offset >= f.pieces[f.cur].Declared):
		f.pieces = append(f.pieces, ingest.Piece{Offset: ev.Offset, Cap: ingest.NoCap})
		f.cur = len(f.pieces) - 1
	}
	p := &f.pieces[f.cur]
	p.End = ev.Offset + n
	if ingest.SpansRun(ev) {
		if !p.Timed || ev.Time < p.First {
			p.First = ev.Time
		}
		p.Last = max(p.Last, ev.Time)
		p.Timed = true
	}
	p.Events++
	p.Known = true
	if p.Block && p.End >= p.Declared {
		// The block is whole: its capability is known up to its end.
		reachBlock(f.bd.b, p)
	}
}

// release hands the waiting events that no capability can still precede
// (all: every one) to the models, in time order.
func (f *follower) release(all bool) {
	safe := uint64(0)
	if !all {
		// The earliest latest time of the capabilities heard from within
		// followLag of the latest.
		first := true
		for _, t := range f.latest {
			if t+followLag < f.maxTime {
				continue
			}
			if first || t < safe {
				safe, first = t, false
			}
		}
		if first {
			safe = f.maxTime
		}
	}
	for f.hold.len() > 0 {
		e, q := f.hold.peek()
		if !all && e.Time > safe && f.hold.len() <= followHold {
			break
		}
		q.head++
		f.hold.n--
		if e.Time < f.released {
			f.late = true
		}
		f.released = max(f.released, e.Time)
		if timeline.GlobalKind(e.Kind) {
			f.bd.b.AddGlobal(e)
		}
		if f.bd.wantHeap(e.Kind) {
			f.bd.heap.Add(e)
		}
	}
}

// publish makes the models of what has been read visible.
func (r *Log) publish() {
	f := r.following
	bd := f.bd
	ix := *r.ix()
	ix.Pieces = slices.Clone(f.pieces)
	r.index.Store(&ix)
	r.Events = bd.events
	bd.b.SetExtent(bd.events, bd.first, bd.last)
	if f.done {
		if r.Status.State != ingest.StateComplete {
			// The stream was cut: each capability is known up to where
			// its events stop, as for a cut file (load).
			bd.b.EndCapabilities(bd.b.Frontiers())
		}
		bd.b.Finish()
	}
	r.overview.Store(bd.b.Snapshot())
	r.Heap, r.Profile = bd.heap.Result()
	r.events = newEvents(r, bd.listGrid, f.buckets)
}

// holdback keeps the events waiting to go into the models: a queue per
// capability (whose events come in time order) let out in time order across
// them (ties by offset).
type holdback struct {
	queues []eventQueue // by capability + 1 (0: no capability)
	n      int
}

// eventQueue is one capability's waiting events, earliest first.
type eventQueue struct {
	evs  []ingest.Event
	head int
}

func (h *holdback) len() int { return h.n }

// push keeps a copy of e (its Data copied; Raw dropped).
func (h *holdback) push(e *ingest.Event) {
	k := int(e.Cap) + 1
	if k >= len(h.queues) {
		h.queues = append(h.queues, make([]eventQueue, k+1-len(h.queues))...)
	}
	q := &h.queues[k]
	if q.head > 0 && q.head >= len(q.evs)/2 {
		n := copy(q.evs, q.evs[q.head:])
		clear(q.evs[n:])
		q.evs, q.head = q.evs[:n], 0
	}
	c := *e
	c.Raw = nil
	if e.Data != nil {
		c.Data = append([]byte(nil), e.Data...)
	}
	q.evs = append(q.evs, c)
	h.n++
}

// peek returns the earliest waiting event and its queue (h.len() > 0).
func (h *holdback) peek() (*ingest.Event, *eventQueue) {
	var best *ingest.Event
	var bq *eventQueue
	for i := range h.queues {
		q := &h.queues[i]
		if q.head == len(q.evs) {
			continue
		}
		if e := &q.evs[q.head]; best == nil || e.Time < best.Time || (e.Time == best.Time && e.Offset < best.Offset) {
			best, bq = e, q
		}
	}
	return best, bq
}
