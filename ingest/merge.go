package ingest

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

// MergeOptions says what a Merge reads and what it does on the way.
type MergeOptions struct {
	// From and To bound the events merged to those with From ≤ Time ≤ To
	// (To 0: no upper bound). Pieces known to lie outside the bounds are
	// not read.
	From, To uint64
	// Tap, if not nil, is called once per stream, before the stream is
	// read, with the stream's capability (NoCap for the global stream). The
	// function it returns, if not nil, is called in the stream's own
	// goroutine with each of the stream's events within the bounds, in
	// stream order, and says whether the event also goes into the merged
	// sequence. It must not keep the event's Data or Raw.
	Tap func(cap int32) func(*Event) bool
	// Learn records in the index each piece's event count and time range
	// (Piece.Events, First, Last, Known) when the merge has read all of
	// them. Read the index's pieces only after Next has returned nil.
	Learn bool
}

// Merge reads an indexed eventlog's streams (one per capability, see
// Index.Streams) each in its own goroutine, and hands out their events in
// time order: the event with the smallest time among the streams' next
// ones, the earlier in the file on a tie. Within a stream, events keep
// their order (GHC back-dates some GC ends slightly). Its memory is a few
// batches of events per stream, whatever the log's size.
type Merge struct {
	r       io.ReaderAt
	ix      *Index
	opt     MergeOptions
	streams []*mergeStream
	stop    chan struct{}
	once    sync.Once
	wg      sync.WaitGroup

	events, bytes atomic.Int64

	// run is the stream whose events are being handed out while they come
	// before limit (the time and offset of the next event of the others).
	run      *mergeStream
	limit    uint64
	limitOff int64
	done     bool
}

// mergeStream is one stream being read.
type mergeStream struct {
	cap    int32
	pieces []int32
	out    chan *batch
	free   chan *batch
	b      *batch // the batch being merged (consumer side)
	i      int    // next event of b
	ended  bool
	// Set by the stream's goroutine before it closes out.
	status Status
	err    error
	stats  []pieceStat
}

// pieceStat is what a stream learned of one of its pieces.
type pieceStat struct {
	piece int32
	Piece
}

// batch holds decoded events with their bytes copied into its arena.
type batch struct {
	evs   []Event
	arena []byte
}

const (
	batchEvents = 128
	batchArena  = batchEvents * 64
	// batchesAhead is how many batches a stream may decode ahead of the
	// merge.
	batchesAhead = 3
)

// NewMerge starts reading the streams of ix from r. Call Next until it
// returns nil, or Close to stop early.
func NewMerge(r io.ReaderAt, ix *Index, opt MergeOptions) *Merge {
	m := &Merge{r: r, ix: ix, opt: opt, stop: make(chan struct{})}
	for _, s := range ix.Streams() {
		ms := &mergeStream{cap: s.Cap, pieces: s.Pieces, out: make(chan *batch, batchesAhead), free: make(chan *batch, batchesAhead+1)}
		for i := 0; i < batchesAhead+1; i++ {
			ms.free <- &batch{evs: make([]Event, 0, batchEvents), arena: make([]byte, 0, batchArena)}
		}
		m.streams = append(m.streams, ms)
	}
	for _, s := range m.streams {
		m.wg.Add(1)
		go m.read(s)
	}
	return m
}

// Close stops the merge's goroutines; Next then returns nil.
func (m *Merge) Close() {
	m.once.Do(func() { close(m.stop) })
	m.done = true
	m.wg.Wait()
}

// Events returns how many events the streams have decoded so far, and
// Bytes how many bytes of pieces they have finished (for progress reports;
// safe from any goroutine).
func (m *Merge) Events() int64 { return m.events.Load() }

// Bytes returns how many bytes of the data section the streams have read.
func (m *Merge) Bytes() int64 { return m.bytes.Load() }

// read decodes one stream's pieces into batches.
func (m *Merge) read(s *mergeStream) {
	defer m.wg.Done()
	defer close(s.out)
	var tap func(*Event) bool
	if m.opt.Tap != nil {
		tap = m.opt.Tap(s.cap)
	}
	pr := newPieceReader(m.r, m.ix)
	var b *batch
	get := func() bool {
		select {
		case b = <-s.free:
			b.evs, b.arena = b.evs[:0], b.arena[:0]
			return true
		case <-m.stop:
			return false
		}
	}
	put := func() bool {
		select {
		case s.out <- b:
			b = nil
			return true
		case <-m.stop:
			return false
		}
	}
	if !get() {
		return
	}
	for _, pi := range s.pieces {
		p := m.ix.Pieces[pi]
		if p.Known && (p.Last < m.opt.From || (m.opt.To != 0 && p.First > m.opt.To)) {
			continue
		}
		pr.reset(p)
		st := Piece{Known: true}
		var n int64
		// Events are decoded straight into the batch's next slot, which
		// is kept only if the event is in bounds and the tap lets it pass.
		b.evs = b.evs[:len(b.evs)+1]
		ev := &b.evs[len(b.evs)-1]
		for pr.next(ev) {
			n++
			if st.Events == 0 || ev.Time < st.First {
				st.First = ev.Time
			}
			st.Last = max(st.Last, ev.Time)
			st.Events++
			if n&1023 == 0 {
				m.events.Add(1024)
			}
			if ev.Time < m.opt.From || (m.opt.To != 0 && ev.Time > m.opt.To) {
				continue
			}
			if tap != nil && !tap(ev) {
				continue
			}
			b.keep(ev)
			if len(b.evs) == cap(b.evs) || len(b.arena) > cap(b.arena)-1024 {
				if !put() || !get() {
					return
				}
			}
			b.evs = b.evs[:len(b.evs)+1]
			ev = &b.evs[len(b.evs)-1]
		}
		b.evs = b.evs[:len(b.evs)-1]
		m.events.Add(n & 1023)
		m.bytes.Add(pr.fed)
		if m.opt.Learn {
			s.stats = append(s.stats, pieceStat{pi, st})
		}
		if pr.err != nil {
			s.err = pr.err
			break
		}
		if pr.d.status.State != StateDecoding {
			// The piece ended inside an event, at the end marker, or where
			// it could not be decoded.
			s.status = pr.d.status
			if s.status.State == StateComplete && pr.d.Offset() < p.End {
				s.status = Status{State: StateCorrupt, Offset: pr.d.Offset(), Reason: "end marker inside a block"}
			}
			if s.status.State != StateComplete {
				break
			}
		}
	}
	if len(b.evs) > 0 {
		put()
	}
}

// keep copies the Raw and Data of ev, the batch's last event, into the
// batch's arena.
func (b *batch) keep(ev *Event) {
	if ev.Raw != nil {
		at := len(b.arena)
		b.arena = append(b.arena, ev.Raw...)
		raw := b.arena[at:len(b.arena):len(b.arena)]
		if ev.Data != nil {
			// Data lies within Raw: find where from their capacities.
			d := cap(ev.Raw) - cap(ev.Data)
			if d >= 0 && d+len(ev.Data) <= len(ev.Raw) {
				ev.Data = raw[d : d+len(ev.Data)]
			} else {
				ev.Data = append([]byte(nil), ev.Data...)
			}
		}
		ev.Raw = raw
	} else if ev.Data != nil {
		ev.Data = append([]byte(nil), ev.Data...)
	}
}

// Next returns the next event in time order, or nil when every stream has
// ended (or Close was called). The event, its Data and Raw are valid until
// the next call.
func (m *Merge) Next() *Event {
	// While the stream last chosen stays at or before every other stream's
	// next event, its events follow one another without looking at the
	// others.
	if s := m.run; s != nil && s.i < len(s.b.evs) {
		if e := &s.b.evs[s.i]; e.Time < m.limit || (e.Time == m.limit && e.Offset < m.limitOff) {
			s.i++
			return e
		}
	}
	if m.done {
		return nil
	}
	var best *mergeStream
	var be, second *Event
	for _, s := range m.streams {
		for !s.ended && (s.b == nil || s.i == len(s.b.evs)) {
			if s.b != nil {
				s.free <- s.b
				s.b = nil
			}
			b, ok := <-s.out
			if !ok {
				s.ended = true
				break
			}
			s.b, s.i = b, 0
		}
		if s.ended {
			continue
		}
		e := &s.b.evs[s.i]
		if be == nil || e.Time < be.Time || (e.Time == be.Time && e.Offset < be.Offset) {
			best, be, second = s, e, be
		} else if second == nil || e.Time < second.Time || (e.Time == second.Time && e.Offset < second.Offset) {
			second = e
		}
	}
	if best == nil {
		m.finish()
		return nil
	}
	m.run, m.limit, m.limitOff = best, ^uint64(0), int64(^uint64(0)>>1)
	if second != nil {
		m.limit, m.limitOff = second.Time, second.Offset
	}
	best.i++
	return be
}

// finish waits for the goroutines and records what they learned.
func (m *Merge) finish() {
	m.done = true
	m.wg.Wait()
	if !m.opt.Learn {
		return
	}
	for _, s := range m.streams {
		for _, st := range s.stats {
			p := &m.ix.Pieces[st.piece]
			p.Events, p.First, p.Last, p.Known = st.Events, st.First, st.Last, true
		}
	}
}

// Status returns how the data section ends: the index's status, unless a
// stream found the data truncated or corrupt earlier. Call it after Next
// has returned nil.
func (m *Merge) Status() Status {
	st := m.ix.Status
	var bad *Status
	for _, s := range m.streams {
		switch s.status.State {
		case StateTruncated, StateCorrupt:
			if bad == nil || s.status.Offset < bad.Offset {
				bad = &s.status
			}
		case StateComplete:
			// The end marker inside the last block (GHC ≥ 9.2 counts it in
			// the global block's size).
			st = s.status
		}
	}
	if bad != nil {
		return *bad
	}
	return st
}

// Err returns the first error reading the file, if any.
func (m *Merge) Err() error {
	for _, s := range m.streams {
		if s.err != nil {
			return fmt.Errorf("merging eventlog streams: %w", s.err)
		}
	}
	return nil
}
