package ingest

import (
	"fmt"
	"io"
	"runtime/debug"
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
	// Sorted hands out the events sorted by time, ties in file order — a
	// stable sort by time, as ghc-events show prints them — as long as no
	// event of a stream is earlier than one sortWindow events before it
	// (GHC back-dates some GC ends a little); Merge.Unsorted reports if one
	// was.
	Sorted bool
	// Learn records in the index each piece's event count and time range
	// (Piece.Events, First, Last, Known) and a block's stretches
	// (Piece.Stretches) when the merge has read all of them. Read the
	// index's pieces only after Next has returned nil. A merge with bounds
	// decodes of a block with stretches only those that may hold events
	// within them.
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
	status   Status
	err      error
	stats    []pieceStat
	unsorted bool
	faults   TimeFaults // events outside their block's time range
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
	// merge: enough that the streams of a load seldom wait for it, nor it
	// for them (with 16, the merge of a 170 MB log waited 0.37 s for its
	// streams). They are made as the stream needs them: a merge of a
	// short range makes a few.
	batchesAhead = 64
)

// sortWindow is how many events a Sorted merge holds back per stream to put
// them in time order.
const sortWindow = 1 << 12

// reorder holds a stream's last sortWindow events in time order (ties in
// offset order), with copies of their bytes: a ring in which an event that
// comes late is moved back past the later ones (GHC's streams are nearly in
// order, so that is rare and short).
type reorder struct {
	evs  []Event
	raw  [][]byte
	head int // the earliest held event
	n    int
	// last is the time and offset of the last event let out.
	last    uint64
	lastOff int64
	out     bool
}

func before(x, y *Event) bool {
	return x.Time < y.Time || (x.Time == y.Time && x.Offset < y.Offset)
}

// push keeps a copy of ev, which must come when the window is not full; it
// reports false if ev is earlier than an event already let out.
func (q *reorder) push(ev *Event) bool {
	if q.evs == nil {
		q.evs, q.raw = make([]Event, sortWindow), make([][]byte, sortWindow)
	}
	ok := !q.out || before(&Event{Time: q.last, Offset: q.lastOff}, ev)
	i := (q.head + q.n) % sortWindow
	c := *ev
	q.raw[i] = append(q.raw[i][:0], ev.Raw...)
	c.Raw = q.raw[i]
	if ev.Data != nil {
		d := cap(ev.Raw) - cap(ev.Data)
		if d >= 0 && d+len(ev.Data) <= len(ev.Raw) {
			c.Data = c.Raw[d : d+len(ev.Data)]
		} else {
			c.Data = append([]byte(nil), ev.Data...)
		}
	}
	q.evs[i] = c
	q.n++
	// Move it back past the later events held.
	for k := q.n - 1; k > 0; k-- {
		cur, prev := (q.head+k)%sortWindow, (q.head+k-1)%sortWindow
		if !before(&q.evs[cur], &q.evs[prev]) {
			break
		}
		q.evs[cur], q.evs[prev] = q.evs[prev], q.evs[cur]
		q.raw[cur], q.raw[prev] = q.raw[prev], q.raw[cur]
	}
	return ok
}

// full reports whether the window holds sortWindow events.
func (q *reorder) full() bool { return q.n == sortWindow }

// pop lets out the earliest event held; it stays valid until the next push.
func (q *reorder) pop() *Event {
	e := &q.evs[q.head]
	q.head = (q.head + 1) % sortWindow
	q.n--
	q.last, q.lastOff, q.out = e.Time, e.Offset, true
	return e
}

// NewMerge starts reading the streams of ix from r. Call Next until it
// returns nil, or Close to stop early.
func NewMerge(r io.ReaderAt, ix *Index, opt MergeOptions) *Merge {
	m := &Merge{r: r, ix: ix, opt: opt, stop: make(chan struct{})}
	for _, s := range ix.Streams() {
		ms := &mergeStream{cap: s.Cap, pieces: s.Pieces, out: make(chan *batch, batchesAhead), free: make(chan *batch, batchesAhead+1)}
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
	if mm, ok := m.r.(*Mapped); ok {
		// Decoded in place; a fault (the file cut shorter meanwhile) is
		// the stream's error.
		var fault error
		defer func() {
			if fault != nil {
				s.err = fmt.Errorf("reading eventlog: %w", fault)
			}
		}()
		defer mm.guard(&fault)
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		pr.direct = mm
	}
	var b *batch
	made := 0 // batches made: at most batchesAhead+1 circulate
	get := func() bool {
		select {
		case b = <-s.free:
			b.evs, b.arena = b.evs[:0], b.arena[:0]
			return true
		default:
		}
		if made <= batchesAhead {
			made++
			b = &batch{evs: make([]Event, 0, batchEvents), arena: make([]byte, 0, batchArena)}
			return true
		}
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
	// keep makes the batch's last event its own, sends the batch on when
	// full, and opens the next slot.
	keep := func() bool {
		b.keep(&b.evs[len(b.evs)-1])
		if len(b.evs) == cap(b.evs) || len(b.arena) > cap(b.arena)-1024 {
			if !put() || !get() {
				return false
			}
		}
		b.evs = b.evs[:len(b.evs)+1]
		return true
	}
	var q reorder
	bounded := !m.opt.Learn && (m.opt.From > 0 || m.opt.To != 0)
	for _, pi := range s.pieces {
		p := m.ix.Pieces[pi]
		// Of a block cut into stretches, a merge with bounds reads only
		// from the first that may hold an event within them to the end of
		// the last (stop; -1: to the piece's end).
		first, last, stop := 0, len(p.Stretches), int64(-1)
		if bounded && len(p.Stretches) > 0 {
			first, last = p.overlapping(m.opt.From, m.opt.To)
			if last < len(p.Stretches) {
				stop = p.Stretches[last].Offset
			}
		}
		if last == 0 && len(p.Stretches) > 0 || p.Known && (p.Last < m.opt.From || (m.opt.To != 0 && p.First > m.opt.To)) {
			if p.Block {
				// The next block's early events may lie in this one's range.
				pr.d.times.saw(p.Cap, blockRange{p.BlockStart, p.BlockEnd})
			}
			continue
		}
		if first > 0 {
			pr.resume(p, p.Stretches[first])
		} else {
			pr.reset(p)
		}
		st := Piece{Known: true}
		var n int64
		// Learning a block's stretches: the one being read, and, once it
		// holds stretchEvents, the decoder's state for the next.
		var stretch *Stretch
		var cut bool
		var remaining int64
		var good uint64
		// toCut counts down the events until the stretch holds
		// stretchEvents.
		toCut := stretchEvents
		if m.opt.Learn && p.Block {
			st.Stretches = []Stretch{{Offset: p.Offset, First: ^uint64(0)}}
			stretch = &st.Stretches[0]
		}
		// Events are decoded straight into the batch's next slot, which
		// is kept only if the event is in bounds and the tap lets it pass.
		b.evs = b.evs[:len(b.evs)+1]
		ev := &b.evs[len(b.evs)-1]
		// pr.next(ev), spelt out to save a call per event.
		d := pr.d
		for d.phase == phaseData && d.readEvent(ev) || pr.more(ev) {
			if stop >= 0 && ev.Offset >= stop {
				break
			}
			n++
			if stretch != nil {
				if cut {
					st.Stretches = append(st.Stretches, Stretch{Offset: ev.Offset, Remaining: remaining, First: ^uint64(0), good: good})
					stretch, cut = &st.Stretches[len(st.Stretches)-1], false
				}
				stretch.First, stretch.Last = min(stretch.First, ev.Time), max(stretch.Last, ev.Time)
				if toCut--; toCut == 0 {
					cut, remaining, good, toCut = true, pr.d.remaining, pr.d.times.last, stretchEvents
				}
			}
			if SpansRun(ev) {
				if !st.Timed || ev.Time < st.First {
					st.First = ev.Time
				}
				st.Last = max(st.Last, ev.Time)
				st.Timed = true
			}
			if n&1023 == 0 {
				m.events.Add(1024)
			}
			if ev.Time < m.opt.From || (m.opt.To != 0 && ev.Time > m.opt.To) {
				continue
			}
			if tap != nil && !tap(ev) {
				continue
			}
			if m.opt.Sorted {
				if !q.push(ev) {
					s.unsorted = true
				}
				if !q.full() {
					continue
				}
				*ev = *q.pop()
			}
			if !keep() {
				return
			}
			ev = &b.evs[len(b.evs)-1]
		}
		b.evs = b.evs[:len(b.evs)-1]
		st.Events = n
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
	s.faults = pr.d.TimeFaults()
	for m.opt.Sorted && q.n > 0 {
		b.evs = b.evs[:len(b.evs)+1]
		b.evs[len(b.evs)-1] = *q.pop()
		if !keep() {
			return
		}
		b.evs = b.evs[:len(b.evs)-1]
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
			p.Events, p.First, p.Last, p.Known, p.Timed = st.Events, st.First, st.Last, true, st.Timed
			p.Stretches = nil
			if len(st.Stretches) > 1 {
				p.Stretches = st.Stretches
			}
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

// Unsorted reports whether a Sorted merge met an event too far out of time
// order to put in its place: the events were handed out in time order only
// up to it. Call it after Next has returned nil.
func (m *Merge) Unsorted() bool {
	for _, s := range m.streams {
		if s.unsorted {
			return true
		}
	}
	return false
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
