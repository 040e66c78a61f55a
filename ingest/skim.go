package ingest

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
)

// Tally counts the events a skim passed over without handing them out,
// and bounds the times and capabilities of all it passed over.
type Tally struct {
	// Types holds, per event type id, how many events of that type were
	// tallied and the kind the last of them decoded as.
	Types []TypeTally
	// Events is the number of tallied events other than block markers.
	Events uint64
	// FirstNS and LastNS are the smallest and largest timestamps of all
	// the events passed over, handed out or not, block markers aside;
	// FirstNS > LastNS if there were none.
	FirstNS, LastNS uint64
	// MaxCap is the highest capability among those events (NoCap if none
	// had one).
	MaxCap int32
}

// TypeTally is the Tally of one event type.
type TypeTally struct {
	// Count is how many events of the type were tallied, block markers
	// included.
	Count uint64
	// Kind is what the last of them decoded as.
	Kind Kind
}

// SkimResult is what a skim found besides the events it handed out.
type SkimResult struct {
	// Header is the log's header; nil if it could not be read.
	Header *Header
	// Status is how decoding ended, exactly as a Decoder would report it.
	Status Status
	// Tally counts the events that were not handed out.
	Tally Tally
}

// A Selection says which events a skim hands out. A type is selected by
// the kind its declaration decodes as; an event of such a type with a
// malformed payload is handed out as KindUnknown.
type Selection struct {
	// Kinds are handed out, every event of them.
	Kinds []Kind
	// Ends are kinds of which only the first and the last event of each
	// capability (NoCap included) are needed, as of cumulative counters:
	// at least those are handed out, in their places among the others;
	// the events between them may be only counted.
	Ends []Kind
}

// Skim decodes the eventlog held in data as a Decoder fed all of it and then
// End would, but faster, for a consumer that needs only some kinds of event
// in full: fn receives the events sel selects, in file order and never two
// at once; every other event is only counted, in the result's Tally. Events
// stop where a Decoder's would, and the result's Status is the Decoder's.
//
// Skim splits the data section at block markers and spreads the work over
// up to GOMAXPROCS goroutines; fn may be called from any of them. The
// events' Data and Raw alias data, which must not change while Skim runs.
func Skim(data []byte, sel Selection, fn func(*Event)) SkimResult {
	r, _ := skim(data, sel, fn, nil)
	return r
}

// SkimFile is Skim over the eventlog file at path, which it maps into
// memory (on systems without mmap, reads). It returns an error if the file
// cannot be opened or mapped, or shrinks while it is read. The events' Data
// and Raw are valid only during the call of fn.
func SkimFile(path string, sel Selection, fn func(*Event)) (SkimResult, error) {
	// Opening a FIFO would wait for its writer: look first.
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return SkimResult{}, fmt.Errorf("skimming %s: not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return SkimResult{}, fmt.Errorf("opening eventlog: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return SkimResult{}, fmt.Errorf("opening eventlog: %w", err)
	}
	if !st.Mode().IsRegular() {
		return SkimResult{}, fmt.Errorf("skimming %s: not a regular file", path)
	}
	data, unmap, err := mapFile(f, st.Size())
	if err != nil {
		return SkimResult{}, err
	}
	// Pages the skim does not need (pieces already handed out, mostly) are
	// let go soon, so that the mapping never holds much more than the
	// pieces in work: a span of consecutive pieces at a time, since each
	// release interrupts every core the process runs on (to flush its TLB).
	var lo, hi int64 // pending: pages of [lo, hi)
	release := func(start, end int64) {
		if start != hi {
			dropPages(data, lo, hi)
			lo = start
		}
		hi = end
		if hi-lo >= releaseBytes {
			dropPages(data, lo, hi)
			lo = hi
		}
	}
	res, err := skim(data, sel, fn, release)
	if uerr := unmap(); err == nil && uerr != nil {
		err = fmt.Errorf("unmapping %s: %w", path, uerr)
	}
	if err != nil {
		return res, fmt.Errorf("skimming %s: %w", path, err)
	}
	return res, nil
}

// errFault reports that reading mapped memory failed, as it does when a
// mapped file shrinks underneath.
var errFault = errors.New("the file could not be read to its end (did it shrink?)")

// fetchBatch is how many wanted events deliver fetches into the cache at
// a time.
const fetchBatch = 32

// releaseBytes is how much of a mapped file SkimFile lets go at a time.
const releaseBytes = 8 << 20

// rangeBytes is the smallest piece of the data section a skim goroutine
// scans on its own: small enough to be still in the cache of the core that
// scanned it when its events are handed out, large enough to keep the
// goroutines' coordination cheap. (A variable so that tests can cut small
// logs into many pieces.)
var rangeBytes int64 = 1 << 20

// skimmer is what the goroutines of one skim share.
type skimmer struct {
	data   []byte
	size   int64
	header Header
	plans  []plan
	want   []bool   // by event type id: hand the events out
	fast   []uint32 // by id: see fastWant and fastSize; 0 for events that need the Decoder
	kinds  []Kind   // by id: the kind of fast-tallied events
	fn     func(*Event)
	idle   func(start, end int64)

	ranges   []*skimRange
	nextScan atomic.Int64       // index of the next range to scan
	spare    chan []wantedEvent // emptied wants lists of handed-out ranges, for reuse
	stopped  atomic.Bool        // the stream has ended, or reading failed: scan no more

	// Ranges are handed out in file order, each by whichever goroutine
	// finds it due, often the one that has just scanned it.
	mu         sync.Mutex
	turn       sync.Cond // on mu: due has moved on, or the skim has stopped
	delivering bool      // a goroutine is handing out events
	due        int       // the first range not yet handed out
	ev         Event
	touched    byte // what deliver read ahead, kept so that the reads are made
	tally      rangeTally
	status     Status
	err        error
}

// An entry of skimmer.fast is non-zero for events whose framing and kind
// follow from their type id alone (for variable-size ones, from their
// length field too): the whole size of a fixed-size event, or the smallest
// payload a variable-size one must have to decode as its kind (fastVar);
// and whether (and how) it is wanted.
const (
	fastSize = 1<<24 - 1
	fastEnds = 1 << 29 // with fastWant: only the first and last of each capability are needed
	fastVar  = 1 << 30
	fastWant = 1 << 31
)

// fastLen returns the size of the event at buf[pos:] (at least 10 bytes
// long) whose type has the entry f in skimmer.fast, or 0 if the event is
// not fast (or not whole).
func fastLen(buf []byte, pos int, f uint32) int {
	n := int(f & fastSize)
	if f&fastVar != 0 {
		if len(buf)-pos < 12 {
			return 0
		}
		m := int(binary.BigEndian.Uint16(buf[pos+10:]))
		if m < n {
			return 0 // too short for its kind: the Decoder makes it unknown
		}
		n = 12 + m
	}
	if len(buf)-pos < n {
		return 0
	}
	return n
}

// skimRange is one piece of the data section and what scanning it found.
type skimRange struct {
	start, end int64
	last       bool // runs to the end of the log: may end in any status

	// Decoder state at start (a range cut at a block marker starts clean).
	blockCap  int32
	remaining int64

	buf     []byte // the range's bytes, while it is scanned and handed out
	tally   rangeTally
	wants   []wantedEvent
	ends    []rangeEnd // while scanning: see Selection.Ends
	scanned bool       // guarded by skimmer.mu

	// How the scan stopped: at end (not last); overran end, because an
	// event crosses it, so the cut was not an event boundary (not last);
	// or at the end of the stream, with status (final).
	overran bool
	final   bool
	status  Status
	stopPos int64
	stopCap int32
	stopRem int64
}

// wantedEvent locates an event to hand out: where it starts in its range's
// buf and the capability its block gives it.
type wantedEvent struct {
	pos int
	cap int32
}

// rangeTally is a skimRange's Tally while it is built.
type rangeTally struct {
	counts      []uint64
	kinds       []Kind
	slowAt      []uint64 // by id, for fast types: counts[id] after its last event that went the Decoder's way
	events      uint64
	first, last uint64
	maxCap      int32
}

// skim is Skim; idle, if not nil, is told about pieces [start, end) of data
// the skim does not need for the time being.
func skim(data []byte, sel Selection, fn func(*Event), idle func(start, end int64)) (res SkimResult, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if e := recover(); e != nil {
			if !isFault(e) {
				panic(e)
			}
			res, err = SkimResult{}, errFault
		}
	}()
	d := sliceDecoder(data)
	if !d.readHeader() {
		return SkimResult{Header: d.Header(), Status: d.status, Tally: Tally{FirstNS: math.MaxUint64, MaxCap: NoCap}}, nil
	}
	s := newSkimmer(data, d, sel, fn)
	s.idle = idle
	s.ranges = s.split(int64(d.pos))
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(s.ranges)) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.work()
		}()
	}
	s.work()
	// No goroutine may outlive the call: the data may be unmapped as soon
	// as it returns.
	wg.Wait()
	if s.err != nil {
		return SkimResult{Header: d.Header()}, s.err
	}
	return SkimResult{Header: d.Header(), Status: s.status, Tally: s.tally.result()}, nil
}

// isFault reports whether a recovered panic is a memory fault turned into a
// panic by debug.SetPanicOnFault.
func isFault(e any) bool {
	re, ok := e.(runtime.Error)
	if !ok {
		return false
	}
	_, ok = re.(interface{ Addr() uintptr })
	return ok
}

// sliceDecoder returns a Decoder over data as its whole input, without
// copying it. Such a decoder must never be fed: it would write into data.
func sliceDecoder(data []byte) *Decoder {
	return &Decoder{buf: data[:len(data):len(data)], ended: true, blockCap: NoCap}
}

// rangeDecoder returns a Decoder of the data section over b, the bytes of
// the log from byte base on.
func (s *skimmer) rangeDecoder(b []byte, base int64) *Decoder {
	d := sliceDecoder(b)
	d.base = base
	d.header = s.header
	d.plans = s.plans
	d.phase = phaseData
	return d
}

func newSkimmer(data []byte, d *Decoder, sel Selection, fn func(*Event)) *skimmer {
	wanted := make(map[Kind]bool, len(sel.Kinds)+len(sel.Ends))
	ends := make(map[Kind]bool, len(sel.Ends))
	for _, k := range sel.Ends {
		wanted[k], ends[k] = true, true
	}
	for _, k := range sel.Kinds {
		wanted[k], ends[k] = true, false
	}
	// The tables cover ids 0–255 at least, so that the fast paths can
	// index them by a byte without bounds checks.
	n := max(len(d.plans), 256)
	s := &skimmer{data: data, size: int64(len(data)), header: d.header, plans: d.plans, fn: fn,
		want: make([]bool, n), fast: make([]uint32, n), kinds: make([]Kind, n), tally: newRangeTally(n),
		spare: make(chan []wantedEvent, 4*runtime.GOMAXPROCS(0))}
	s.turn.L = &s.mu
	for id, p := range d.plans {
		if !p.declared {
			continue
		}
		s.want[id] = wanted[p.kind]
		s.kinds[id] = p.kind
		// Events whose framing or kind depends on more than their type id
		// and length go the Decoder's way, and so do wanted variable-size
		// ones; the rest are handled on the spot.
		switch {
		case p.kind == KindBlockMarker, p.kind == KindNonmovingHeapCensus:
		case p.size != VariableSize:
			s.fast[id] = uint32(10 + p.size)
			if s.want[id] {
				s.fast[id] |= fastWant
			}
			if ends[p.kind] {
				s.fast[id] |= fastEnds
			}
		case s.want[id]:
		case p.lay == nil:
			s.fast[id] = fastVar // always unknown
		case p.lay.tail == tailRest:
			s.fast[id] = fastVar | uint32(p.lay.size)
		}
	}
	return s
}

// split cuts the data section starting at byte start into ranges that begin
// at block markers, following the chain of block sizes from the first one.
// Each range is at least rangeBytes long.
func (s *skimmer) split(start int64) []*skimRange {
	var ranges []*skimRange
	prev := start
	if s.size-start >= 2*rangeBytes {
		for _, b := range s.blockStarts(start) {
			if b-prev >= rangeBytes && s.size-b >= rangeBytes {
				ranges = append(ranges, &skimRange{start: prev, end: b, blockCap: NoCap})
				prev = b
			}
		}
	}
	return append(ranges, &skimRange{start: prev, end: s.size, last: true, blockCap: NoCap})
}

// blockStarts returns the offsets of the block markers reached by jumping
// from the one at start by their declared block sizes, up to the first
// place that holds no block marker.
func (s *skimmer) blockStarts(start int64) []int64 {
	const id = uint16(KindBlockMarker)
	if int(id) >= len(s.plans) || s.plans[id].kind != KindBlockMarker || s.plans[id].size == VariableSize {
		return nil
	}
	head := int64(10 + s.plans[id].size)
	var out []int64
	for pos := start; s.size-pos >= head; {
		m := s.data[pos:]
		if binary.BigEndian.Uint16(m) != id {
			break
		}
		out = append(out, pos)
		size := int64(binary.BigEndian.Uint32(m[10:]))
		if s.idle != nil {
			// Reading a marker of a mapped file can map up to 2 MiB
			// around it (a large folio of the page cache): let it go
			// now, or the chase alone maps most of the file.
			s.idle(pos, pos+head)
		}
		if size < head {
			break
		}
		pos += size
	}
	return out
}

// work scans ranges, two at a time, until none are left, handing out the
// events of those that are due.
func (s *skimmer) work() {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if e := recover(); e != nil {
			if !isFault(e) {
				panic(e)
			}
			s.fail(errFault)
		}
	}()
	for !s.stopped.Load() {
		i := int(s.nextScan.Add(2)) - 2
		if i >= len(s.ranges) || !s.waitTurn(i) {
			return
		}
		a := s.ranges[i]
		var b *skimRange
		if i+1 < len(s.ranges) {
			b = s.ranges[i+1]
		}
		s.scan(a, b)
		s.commit(i)
		if b != nil {
			s.commit(i + 1)
		}
	}
}

// aheadBytes bounds how far past the first range not yet handed out a
// goroutine may start scanning. Were one goroutine to stall (its core
// taken by another program), the others would otherwise go on through the
// file, and of a mapped file keep all they scanned resident until the
// stalled range is handed out. (A variable so that tests can make small
// logs wait.)
var aheadBytes int64 = 32 << 20

// waitTurn waits until range i may be scanned; it reports false if the
// skim has stopped meanwhile. The ranges before i have all been taken, so
// the wait ends.
func (s *skimmer) waitTurn(i int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for !s.stopped.Load() && s.due < i && s.ranges[i].start-s.ranges[s.due].start > aheadBytes {
		s.turn.Wait()
	}
	return !s.stopped.Load()
}

// fail stops the skim with err.
func (s *skimmer) fail(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.stopped.Store(true)
	s.turn.Broadcast()
	s.mu.Unlock()
}

// commit records that range i is scanned and, if it is due and nobody is
// handing out events, hands out its events and those of the scanned ranges
// after it.
func (s *skimmer) commit(i int) {
	s.mu.Lock()
	s.ranges[i].scanned = true
	if s.delivering || s.due != i || s.stopped.Load() {
		s.mu.Unlock()
		return
	}
	s.delivering = true
	for s.due < len(s.ranges) && s.ranges[s.due].scanned && !s.stopped.Load() {
		r := s.ranges[s.due]
		s.mu.Unlock()
		s.finish(r)
		s.mu.Lock()
		s.due++
	}
	s.delivering = false
	s.turn.Broadcast()
	s.mu.Unlock()
}

// finish hands out r's events and adds its tally; if r ends the stream, it
// records how, and stops the skim.
func (s *skimmer) finish(r *skimRange) {
	s.deliver(r)
	if r.overran {
		// The cut was not an event boundary (a block marker gave a size
		// its block does not have): go on from the last whole event to
		// the end, here.
		r = &skimRange{start: r.stopPos, end: s.size, last: true, blockCap: r.stopCap, remaining: r.stopRem}
		s.scan(r, nil)
		s.deliver(r)
	}
	if r.final {
		s.status = r.status
		if s.status.State == StateComplete {
			s.status.Trailing = s.size - s.status.Offset
		}
		s.stopped.Store(true)
	}
}

// cursor is the scan of one range in progress.
type cursor struct {
	r         *skimRange
	d         *Decoder // over the range's bytes
	pos       int      // in r.buf
	blockCap  int32
	remaining int64
	t         *rangeTally
	ev        Event
	done      bool
}

func (s *skimmer) newCursor(r *skimRange) *cursor {
	r.buf = s.data[r.start:r.end:r.end]
	select {
	case r.wants = <-s.spare:
	default:
	}
	r.tally = newRangeTally(len(s.want))
	return &cursor{r: r, d: s.rangeDecoder(r.buf, r.start), blockCap: r.blockCap, remaining: r.remaining, t: &r.tally}
}

// scan walks the events of ra and, if rb is not nil, those of rb too:
// wanted ones are noted for delivery, the others tallied. Events of the
// fast kinds are handled inline (two ranges at once, so that the processor
// can follow both chains of event sizes in parallel); all others go
// through the Decoder's own readEvent, so their framing, kind and
// capability are exactly the Decoder's.
func (s *skimmer) scan(ra, rb *skimRange) {
	a := s.newCursor(ra)
	if rb != nil {
		b := s.newCursor(rb)
		for !a.done && !b.done {
			if s.fastPair(a, b) == 0 {
				s.slowStep(a)
			} else {
				s.slowStep(b)
			}
		}
		if a.done {
			a = b
		}
	}
	for !a.done {
		s.fastOne(a)
		s.slowStep(a)
	}
}

// fastPair advances a and b in step over fast events; it returns 0 when a
// has come to an event that is not fast (or to its end), 1 when b has.
//
// The loop keeps as little as it can in registers: per cursor its position
// and the latest timestamp so far (an event earlier than that is rare, and
// only then can it be the earliest, so only then is the tally's first
// time touched). Capabilities need no work per event: within a stretch
// of fast events, those before the block's end have the block's and the
// rest none (see capEnd and leave).
func (s *skimmer) fastPair(a, b *cursor) int {
	fast := (*[256]uint32)(s.fast)
	bufA, bufB := a.r.buf, b.r.buf
	ca, cb := (*[256]uint64)(a.t.counts), (*[256]uint64)(b.t.counts)
	pa, pb := a.pos, b.pos
	endA, endB := a.capEnd(), b.capEnd()
	var lastA, lastB uint64
	stop := 0
	for {
		if len(bufA)-pa < 10 {
			break
		}
		e := bufA[pa : pa+10 : pa+10]
		id := e[1]
		if e[0] != 0 {
			break
		}
		f := fast[id]
		n := fastLen(bufA, pa, f)
		if n == 0 {
			break
		}
		if tm := binary.BigEndian.Uint64(e[2:]); tm >= lastA {
			lastA = tm
		} else {
			a.t.first = min(a.t.first, tm)
		}
		if f&fastWant != 0 {
			if f&fastEnds != 0 {
				a.end(pa, endA, uint16(id))
			} else {
				a.want(pa, endA)
			}
		} else {
			ca[id]++
		}
		pa += n

		if len(bufB)-pb < 10 {
			stop = 1
			break
		}
		e = bufB[pb : pb+10 : pb+10]
		id = e[1]
		if e[0] != 0 {
			stop = 1
			break
		}
		f = fast[id]
		n = fastLen(bufB, pb, f)
		if n == 0 {
			stop = 1
			break
		}
		if tm := binary.BigEndian.Uint64(e[2:]); tm >= lastB {
			lastB = tm
		} else {
			b.t.first = min(b.t.first, tm)
		}
		if f&fastWant != 0 {
			if f&fastEnds != 0 {
				b.end(pb, endB, uint16(id))
			} else {
				b.want(pb, endB)
			}
		} else {
			cb[id]++
		}
		pb += n
	}
	a.leave(pa, lastA)
	b.leave(pb, lastB)
	return stop
}

// fastOne advances c over fast events until it comes to one that is not
// fast, or to its end. It is fastPair for one cursor.
func (s *skimmer) fastOne(c *cursor) {
	fast := (*[256]uint32)(s.fast)
	buf := c.r.buf
	counts := (*[256]uint64)(c.t.counts)
	pos, end := c.pos, c.capEnd()
	var last uint64
	for len(buf)-pos >= 10 {
		e := buf[pos : pos+10 : pos+10]
		id := e[1]
		if e[0] != 0 {
			break
		}
		f := fast[id]
		n := fastLen(buf, pos, f)
		if n == 0 {
			break
		}
		if tm := binary.BigEndian.Uint64(e[2:]); tm >= last {
			last = tm
		} else {
			c.t.first = min(c.t.first, tm)
		}
		if f&fastWant != 0 {
			if f&fastEnds != 0 {
				c.end(pos, end, uint16(id))
			} else {
				c.want(pos, end)
			}
		} else {
			counts[id]++
		}
		pos += n
	}
	c.leave(pos, last)
}

// capEnd returns the position in c's range from which events stop getting
// c.blockCap: an event gets the block's capability unless one before it
// (since the block marker) used up the block's remaining bytes.
func (c *cursor) capEnd() int {
	if c.blockCap == NoCap {
		return c.pos
	}
	return c.pos + int(min(max(c.remaining, 1), int64(len(c.r.buf)-c.pos)+1))
}

// want notes the fast event at pos for delivery, with its capability.
func (c *cursor) want(pos, capEnd int) {
	cp := c.blockCap
	if pos >= capEnd {
		cp = NoCap
	}
	c.r.wants = append(c.r.wants, wantedEvent{pos: pos, cap: cp})
}

// end notes an event of which only the first and last of each capability
// are wanted (a fast event whose entry has fastEnds): it is counted, and
// may become its range's first or last of its capability.
func (c *cursor) end(pos, capEnd int, id uint16) {
	cp := c.blockCap
	if pos >= capEnd {
		cp = NoCap
	}
	c.t.counts[id]++
	for i := range c.r.ends {
		if e := &c.r.ends[i]; e.id == id && e.cap == cp {
			e.last = pos
			return
		}
	}
	c.r.ends = append(c.r.ends, rangeEnd{id: id, cap: cp, first: pos, last: pos})
}

// rangeEnd is the first and last event of a type and capability in a
// range, for Selection.Ends.
type rangeEnd struct {
	id          uint16
	cap         int32
	first, last int
}

// leave records that a fast loop took c from c.pos to pos, over events
// whose latest timestamp is last: the time range and capability of the
// events passed, and the block state after them.
func (c *cursor) leave(pos int, last uint64) {
	if pos == c.pos {
		return
	}
	t := c.t
	t.first = min(t.first, binary.BigEndian.Uint64(c.r.buf[c.pos+2:]))
	t.last = max(t.last, last)
	t.maxCap = max(t.maxCap, c.blockCap) // the first event passed had it
	c.remaining -= int64(pos - c.pos)
	if c.remaining <= 0 {
		c.blockCap = NoCap
	}
	c.pos = pos
}

// slowStep takes the event at c through the Decoder, or ends c at the end
// of its range.
func (s *skimmer) slowStep(c *cursor) {
	r, d, ev := c.r, c.d, &c.ev
	if c.pos == len(r.buf) && !r.last {
		s.endCursor(c)
		return
	}
	d.pos, d.blockCap, d.remaining = c.pos, c.blockCap, c.remaining
	if !d.readEvent(ev) {
		if d.status.State == StateTruncated && !r.last {
			r.overran = true
		} else {
			r.final = true
			r.status = d.status
		}
		s.endCursor(c)
		return
	}
	c.pos, c.blockCap, c.remaining = d.pos, d.blockCap, d.remaining
	t := c.t
	if ev.Kind != KindBlockMarker {
		t.first = min(t.first, ev.Time)
		t.last = max(t.last, ev.Time)
		t.maxCap = max(t.maxCap, ev.Cap)
	}
	if s.want[ev.Type] {
		r.wants = append(r.wants, wantedEvent{pos: int(ev.Offset - r.start), cap: ev.Cap})
		return
	}
	t.counts[ev.Type]++
	t.kinds[ev.Type] = ev.Kind
	if s.fast[ev.Type] != 0 {
		// A variable-size event of a fast type, too short for its kind.
		if t.slowAt == nil {
			t.slowAt = make([]uint64, len(t.counts))
		}
		t.slowAt[ev.Type] = t.counts[ev.Type]
	}
}

// endCursor completes c's range: where it stopped, and its tally.
func (s *skimmer) endCursor(c *cursor) {
	c.done = true
	r, t := c.r, c.t
	r.stopPos, r.stopCap, r.stopRem = r.start+int64(c.pos), c.blockCap, c.remaining
	// The first and last events of the ends kinds are handed out after
	// all, in their places, rather than counted.
	for _, e := range r.ends {
		r.wantAt(e.first, e.cap)
		t.counts[e.id]--
		if e.last != e.first {
			r.wantAt(e.last, e.cap)
			t.counts[e.id]--
		}
	}
	r.ends = r.ends[:0]
	t.events = 0
	for id, n := range t.counts {
		if n == 0 {
			continue
		}
		// The kind of the type's last event: its plan's if that event
		// went the fast way.
		if s.fast[id] != 0 && (t.slowAt == nil || t.slowAt[id] != n) {
			t.kinds[id] = s.kinds[id]
		}
		if t.kinds[id] != KindBlockMarker {
			t.events += n
		}
	}
}

// wantAt adds the event at pos, with capability cp, to r's wanted events,
// in its place.
func (r *skimRange) wantAt(pos int, cp int32) {
	i, _ := slices.BinarySearchFunc(r.wants, pos, func(w wantedEvent, pos int) int { return cmp.Compare(w.pos, pos) })
	r.wants = slices.Insert(r.wants, i, wantedEvent{pos: pos, cap: cp})
}

// deliver decodes r's wanted events again, in order, hands them out, and
// adds r's tally.
func (s *skimmer) deliver(r *skimRange) {
	d := s.rangeDecoder(r.buf, r.start)
	var touched byte
	for i := 0; i < len(r.wants); i += fetchBatch {
		batch := r.wants[i:min(i+fetchBatch, len(r.wants))]
		// The range was scanned a while ago; its bytes have left the
		// caches near this core. Reading a byte of each event of a batch
		// first, in a loop of independent loads, has the processor fetch
		// them all at once instead of waiting for one after another.
		for _, w := range batch {
			touched += r.buf[w.pos]
		}
		for _, w := range batch {
			d.pos, d.blockCap, d.remaining = w.pos, w.cap, math.MaxInt64
			if !d.readEvent(&s.ev) {
				// scan read this very event: it cannot fail here.
				panic(fmt.Sprintf("ingest: skim cannot re-read the event at byte %d", d.Offset()))
			}
			s.fn(&s.ev)
		}
	}
	s.touched += touched
	s.ev = Event{} // drop the references into r.buf
	// Only a few ranges are in work at a time: their lists of wanted
	// events can be used again rather than grown anew for every range.
	select {
	case s.spare <- r.wants[:0]:
	default:
	}
	r.wants = nil
	r.buf = nil
	if s.idle != nil {
		s.idle(r.start, r.end)
	}
	s.tally.merge(&r.tally)
}

func newRangeTally(n int) rangeTally {
	return rangeTally{counts: make([]uint64, n), kinds: make([]Kind, n), first: math.MaxUint64, maxCap: NoCap}
}

// merge adds the tally of the range that follows t's in the file.
func (t *rangeTally) merge(o *rangeTally) {
	for id, n := range o.counts {
		if n != 0 {
			t.counts[id] += n
			t.kinds[id] = o.kinds[id]
		}
	}
	t.events += o.events
	t.first = min(t.first, o.first)
	t.last = max(t.last, o.last)
	t.maxCap = max(t.maxCap, o.maxCap)
}

func (t *rangeTally) result() Tally {
	out := Tally{Types: make([]TypeTally, len(t.counts)), Events: t.events, MaxCap: t.maxCap}
	for id, n := range t.counts {
		out.Types[id] = TypeTally{Count: n, Kind: t.kinds[id]}
	}
	out.FirstNS, out.LastNS = t.first, t.last
	return out
}
