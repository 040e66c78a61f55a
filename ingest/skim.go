package ingest

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
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
	// Caps are the capabilities among those events, in increasing order.
	Caps []int32
}

// capSet is a set of capability numbers (0–65534), one bit each.
type capSet []uint64

// add puts c in the set; NoCap is left out.
func (s *capSet) add(c int32) {
	if c < 0 {
		return
	}
	w := int(c) / 64
	if w >= len(*s) {
		*s = append(*s, make([]uint64, w+1-len(*s))...)
	}
	(*s)[w] |= 1 << (uint(c) % 64)
}

// merge puts the capabilities of o in s.
func (s *capSet) merge(o capSet) {
	if len(o) > len(*s) {
		*s = append(*s, make([]uint64, len(o)-len(*s))...)
	}
	for i, w := range o {
		(*s)[i] |= w
	}
}

// list returns the capabilities in the set in increasing order.
func (s capSet) list() []int32 {
	var out []int32
	for i, w := range s {
		for b := 0; b < 64; b++ {
			if w&(1<<uint(b)) != 0 {
				out = append(out, int32(i*64+b))
			}
		}
	}
	return out
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
	// TimeFaults are the events found outside their block's declared time
	// range (handed out, and tallied, with a time inside it).
	TimeFaults TimeFaults
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

// SkimFile decodes the eventlog file at path as a Decoder fed all of it
// and then End would, but faster, for a consumer that needs only some
// kinds of event in full: fn receives the events sel selects, in file
// order and never two at once; every other event is only counted, in the
// result's Tally. Events stop where a Decoder's would, and the result's
// Status is the Decoder's. It splits the data section at block markers
// and spreads the work over up to GOMAXPROCS goroutines; fn may be called
// from any of them. It reads the file in
// windows of a few hundred KiB per goroutine, which it scans while they are
// in the processor's cache, and copies the events to hand out as it passes
// them; its memory stays small whatever the file's size. It returns an
// error if the file cannot be opened or read, as when it shrinks while it
// is read. The events' Data and Raw are valid only during the call of fn.
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
	res, err := skim(source{file: f, size: st.Size()}, sel, fn)
	if err != nil {
		return res, fmt.Errorf("skimming %s: %w", path, err)
	}
	return res, nil
}

// errShrunk reports that the file ended before the size it had when the
// skim began.
var errShrunk = errors.New("the file could not be read to its end (did it shrink?)")

// source is the log a skim reads: data in memory, or a file (or a part of
// one, see SkimAt) of size bytes.
type source struct {
	data []byte
	file io.ReaderAt
	size int64
}

// read fills b with the log's bytes from off on.
func (src source) read(b []byte, off int64) error {
	if src.file == nil {
		copy(b, src.data[off:])
		return nil
	}
	if _, err := src.file.ReadAt(b, off); err != nil {
		if errors.Is(err, io.EOF) {
			return errShrunk
		}
		return err
	}
	return nil
}

// windowBytes is the size of the window a cursor reads a file through:
// small enough to stay in a core's own cache while it is scanned, large
// enough to hold most events many times over (a larger event grows the
// window). (A variable so that tests can make it smaller.)
var windowBytes = 256 << 10

// fetchBatch is how many wanted events deliver fetches into the cache at
// a time.
const fetchBatch = 32

// rangeBytes is the smallest piece of the data section a skim goroutine
// scans on its own (pieces begin at block markers, so most are a block:
// GHC writes 2 MiB ones): large enough to keep the goroutines'
// coordination cheap, small enough to spread a log over the cores. (A
// variable so that tests can cut small logs into many pieces.)
var rangeBytes int64 = 1 << 20

// skimmer is what the goroutines of one skim share.
type skimmer struct {
	src    source
	header Header
	plans  []plan
	want   []bool   // by event type id: hand the events out
	fast   []uint32 // by id: see fastWant and fastSize; 0 for events that need the Decoder
	kinds  []Kind   // by id: the kind of fast-tallied events
	fn     func(*Event)

	windows chan []byte // window buffers of a file's cursors, for reuse

	ranges   []*skimRange
	nextScan atomic.Int64  // index of the next range to scan
	spare    chan wantList // emptied want lists of handed-out ranges, for reuse
	stopped  atomic.Bool   // the stream has ended, or reading failed: scan no more

	// Ranges are handed out in file order, each by whichever goroutine
	// finds it due, often the one that has just scanned it.
	mu         sync.Mutex
	turn       sync.Cond // on mu: due has moved on, or the skim has stopped
	delivering bool      // a goroutine is handing out events
	due        int       // the first range not yet handed out
	ev         Event
	touched    byte // what deliver read ahead, kept so that the reads are made
	tally      rangeTally
	faults     TimeFaults
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
	blockCap   int32
	remaining  int64
	startTimes blockTimes

	buf   []byte // the range's bytes, if the log is in memory
	tally rangeTally
	wantList
	ends    []rangeEnd // while scanning: see Selection.Ends
	scanned bool       // guarded by skimmer.mu

	// How the scan stopped: at end (not last); overran end, because an
	// event crosses it, so the cut was not an event boundary (not last);
	// or at the end of the stream, with status (final).
	overran   bool
	final     bool
	status    Status
	stopPos   int64
	stopCap   int32
	stopRem   int64
	stopTimes blockTimes

	// faults are the events found outside their block's time range, and
	// fixes the times the wanted ones among them are handed out with, in
	// file order.
	faults TimeFaults
	fixes  []timeFix
}

// timeFix is the time a wanted event with an impossible timestamp is
// handed out with (see blocktime.go); pos is where it starts in its range.
type timeFix struct {
	pos  int
	time uint64
}

// wantList lists the events of a range to hand out. When the range is
// read through a window, the events are copied as they are passed.
type wantList struct {
	wants  []wantedEvent
	copies []byte
}

// wantedEvent locates an event to hand out: where it starts in its range,
// where its copy starts (-1: it has none; it is in the range's buf), and
// the capability its block gives it.
type wantedEvent struct {
	pos, at int
	cap     int32
}

// rangeTally is a skimRange's Tally while it is built.
type rangeTally struct {
	counts      []uint64
	kinds       []Kind
	slowAt      []uint64 // by id, for fast types: counts[id] after its last event that went the Decoder's way
	events      uint64
	first, last uint64
	maxCap      int32
	caps        capSet // every capability among the events
}

// skim is SkimFile over src; the error is non-nil only if reading a file
// failed.
func skim(src source, sel Selection, fn func(*Event)) (SkimResult, error) {
	d, err := headDecoder(src)
	if err != nil {
		return SkimResult{}, err
	}
	if !d.readHeader() {
		return SkimResult{Header: d.Header(), Status: d.status, Tally: Tally{FirstNS: math.MaxUint64, MaxCap: NoCap}}, nil
	}
	s := newSkimmer(src, d, sel, fn)
	if s.ranges, err = s.split(int64(d.pos)); err != nil {
		return SkimResult{}, err
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(s.ranges)) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.work()
		}()
	}
	s.work()
	wg.Wait()
	if s.err != nil {
		return SkimResult{Header: d.Header()}, s.err
	}
	return SkimResult{Header: d.Header(), Status: s.status, Tally: s.tally.result(), TimeFaults: s.faults}, nil
}

// headDecoder returns a Decoder over the start of src, enough of it to
// hold the header (or all of it).
func headDecoder(src source) (*Decoder, error) {
	if src.file == nil {
		return sliceDecoder(src.data), nil
	}
	for n := int64(64 << 10); ; n *= 4 {
		b := make([]byte, min(n, src.size))
		if err := src.read(b, 0); err != nil {
			return nil, err
		}
		d := sliceDecoder(b)
		if d.readHeader() || d.status.State != StateTruncated || int64(len(b)) == src.size {
			return sliceDecoder(b), nil
		}
	}
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

func newSkimmer(src source, d *Decoder, sel Selection, fn func(*Event)) *skimmer {
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
	s := &skimmer{src: src, header: d.header, plans: d.plans, fn: fn,
		windows: make(chan []byte, 2*runtime.GOMAXPROCS(0)),
		want:    make([]bool, n), fast: make([]uint32, n), kinds: make([]Kind, n), tally: newRangeTally(n),
		spare: make(chan wantList, 4*runtime.GOMAXPROCS(0))}
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
// Each range is at least rangeBytes long, and starts knowing the latest
// block of each capability before it (see blocktime.go).
func (s *skimmer) split(start int64) ([]*skimRange, error) {
	var ranges []*skimRange
	prev := start
	var seen, times blockTimes
	if s.src.size-start >= 2*rangeBytes {
		markers, err := s.blockStarts(start)
		if err != nil {
			return nil, err
		}
		for _, b := range markers {
			if b.pos-prev >= rangeBytes && s.src.size-b.pos >= rangeBytes {
				ranges = append(ranges, &skimRange{start: prev, end: b.pos, blockCap: NoCap, startTimes: times})
				prev, times = b.pos, seen.clone()
			}
			if b.ranged {
				seen.saw(b.cap, b.blockRange)
			}
		}
	}
	return append(ranges, &skimRange{start: prev, end: s.src.size, last: true, blockCap: NoCap, startTimes: times}), nil
}

// blockAt is a block marker found by blockStarts: where it is, and, if the
// marker's layout holds them (ranged), its capability and time range.
type blockAt struct {
	pos    int64
	cap    int32
	ranged bool
	blockRange
}

// blockStarts returns the block markers reached by jumping from the one at
// start by their declared block sizes, up to the first place that holds no
// block marker.
func (s *skimmer) blockStarts(start int64) ([]blockAt, error) {
	const id = uint16(KindBlockMarker)
	if int(id) >= len(s.plans) || s.plans[id].kind != KindBlockMarker || s.plans[id].size == VariableSize || s.plans[id].size < 4 {
		return nil, nil
	}
	head := int64(10 + s.plans[id].size)
	// id, time, size, end time, capability
	m := make([]byte, min(head, 24))
	var out []blockAt
	for pos := start; s.src.size-pos >= head; {
		if err := s.src.read(m, pos); err != nil {
			return nil, err
		}
		if binary.BigEndian.Uint16(m) != id {
			break
		}
		b := blockAt{pos: pos, cap: NoCap}
		if len(m) == 24 {
			b.ranged, b.lo, b.hi = true, binary.BigEndian.Uint64(m[2:]), binary.BigEndian.Uint64(m[14:])
			if c := binary.BigEndian.Uint16(m[22:]); c != 0xFFFF {
				b.cap = int32(c)
			}
		}
		out = append(out, b)
		size := int64(binary.BigEndian.Uint32(m[10:]))
		if size < head {
			break
		}
		pos += size
	}
	return out, nil
}

// work scans ranges until none are left, handing out the events of those
// that are due.
func (s *skimmer) work() {
	for !s.stopped.Load() {
		i := int(s.nextScan.Add(1)) - 1
		if i >= len(s.ranges) || !s.waitTurn(i) {
			return
		}
		s.scan(s.ranges[i])
		s.commit(i)
	}
}

// aheadBytes bounds how far past the first range not yet handed out a
// goroutine may start scanning. Were one goroutine to stall (its core
// taken by another program), the others would otherwise go on through the
// log, keeping what each scanned range found (its wanted events, copied
// from a file) until the stalled range is handed out. (A variable so that
// tests can make small logs wait.)
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
		r = &skimRange{start: r.stopPos, end: s.src.size, last: true, blockCap: r.stopCap, remaining: r.stopRem, startTimes: r.stopTimes}
		r.startTimes.faults = TimeFaults{}
		s.scan(r)
		s.deliver(r)
	}
	if r.final {
		s.status = r.status
		if s.status.State == StateComplete {
			s.status.Trailing = s.src.size - s.status.Offset
		}
		s.stopped.Store(true)
	}
}

// cursor is the scan of one range in progress. It reads the range through
// win: all of it when the log is in memory; a window onto a file.
type cursor struct {
	r         *skimRange
	win       []byte   // the range's bytes from base on
	base      int64    // where win starts in the log
	store     []byte   // a file's window buffer (nil in memory)
	d         *Decoder // over win
	pos       int      // in win
	blockCap  int32
	remaining int64
	times     blockTimes // the block's declared time range (blocktime.go)
	t         *rangeTally
	ev        Event
	done      bool
}

// newCursor starts the scan of r. If reading a file fails, the skim stops
// and the cursor is done.
func (s *skimmer) newCursor(r *skimRange) *cursor {
	select {
	case r.wantList = <-s.spare:
	default:
	}
	r.tally = newRangeTally(len(s.want))
	c := &cursor{r: r, base: r.start, blockCap: r.blockCap, remaining: r.remaining, times: r.startTimes.clone(), t: &r.tally}
	if s.src.file == nil {
		r.buf = s.src.data[r.start:r.end:r.end]
		c.win = r.buf
	} else {
		select {
		case c.store = <-s.windows:
		default:
			c.store = make([]byte, windowBytes)
		}
		c.win = c.store[:min(int64(len(c.store)), r.end-r.start)]
		if err := s.src.read(c.win, r.start); err != nil {
			s.fail(err)
			c.done = true
		}
	}
	c.d = s.rangeDecoder(c.win, c.base)
	return c
}

// refill moves c's window on to the event at c.pos, which the window does
// not hold whole, reading the file on as far as the window and the range
// go. It reports false if reading failed (the skim is then stopped).
func (s *skimmer) refill(c *cursor) bool {
	if c.pos == 0 && len(c.win) == len(c.store) {
		// One event fills the window: make room for it.
		c.store = append(c.store, make([]byte, len(c.store))...)
	}
	keep := copy(c.store, c.win[c.pos:])
	c.base += int64(c.pos)
	n := min(int64(len(c.store)-keep), c.r.end-c.base-int64(keep))
	if err := s.src.read(c.store[keep:keep+int(n)], c.base+int64(keep)); err != nil {
		s.fail(err)
		return false
	}
	c.win, c.pos = c.store[:keep+int(n)], 0
	c.d = s.rangeDecoder(c.win, c.base)
	return true
}

// inRange returns where position pos of c's window is in its range.
func (c *cursor) inRange(pos int) int { return int(c.base-c.r.start) + pos }

// scan walks the events of r: wanted ones are noted for delivery, the
// others tallied. Events of the fast kinds are handled inline (runFast);
// all others go through the Decoder's own readEvent, so their framing,
// kind and capability are exactly the Decoder's.
func (s *skimmer) scan(r *skimRange) {
	c := s.newCursor(r)
	for !c.done {
		s.runFast(c)
		s.slowStep(c)
	}
}

// runFast advances c over fast events until it comes to one that is not
// fast, or to the end of its window.
//
// Walking events is a chain: where one event ends depends on its type,
// loaded from where the previous one ended. Most events are unwanted and
// of a fixed size (plain: their entry in skimmer.fast is just that size),
// and the inner loop takes those with a branch on the size, which the
// processor predicts, so it goes on to the next event without waiting for
// this one's type to load. That loop keeps only the position and the
// latest timestamp in registers: an event earlier than that is rare, and
// only then can it be the earliest, so only then is the tally's first time
// touched. Capabilities need no work per event: within a stretch of fast
// events, those before the block's end have the block's and the rest none
// (see capEnd and leave).
func (s *skimmer) runFast(c *cursor) {
	fast := (*[256]uint32)(s.fast)
	buf := c.win
	counts := (*[256]uint64)(c.t.counts)
	pos, end := c.pos, c.capEnd()
	var last uint64
	// An event outside its block's declared time range goes the Decoder's
	// way, which reports it (blocktime.go).
	lo, span := uint64(0), ^uint64(0)
	if c.times.in {
		lo, span = c.times.lo, c.times.hi-c.times.lo
	}
	for {
		// Plain events, while a whole one of any plain size fits.
		for len(buf)-pos >= maxPlain {
			e := buf[pos:]
			id := e[1]
			f := fast[id]
			if e[0] != 0 || f-1 >= maxPlain { // f is not 1..maxPlain
				break
			}
			tm := binary.BigEndian.Uint64(e[2:])
			if tm-lo > span {
				break
			}
			if tm >= last {
				last = tm
			} else {
				c.t.first = min(c.t.first, tm)
			}
			counts[id]++
			switch f {
			case 10:
				pos += 10
			case 12:
				pos += 12
			case 14:
				pos += 14
			case 16:
				pos += 16
			case 20:
				pos += 20
			default:
				pos += int(f)
			}
		}
		// Any fast event: wanted, variable-size, or near the window's end.
		if len(buf)-pos < 10 {
			break
		}
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
		tm := binary.BigEndian.Uint64(e[2:])
		if tm-lo > span {
			break
		}
		if tm >= last {
			last = tm
		} else {
			c.t.first = min(c.t.first, tm)
		}
		if f&fastWant != 0 {
			if f&fastEnds != 0 {
				c.end(pos, n, end, uint16(id))
			} else {
				c.want(pos, n, end)
			}
		} else {
			counts[id]++
		}
		pos += n
	}
	c.leave(pos, last)
}

// maxPlain bounds the sizes of the events runFast's inner loop takes.
const maxPlain = 64

// capEnd returns the position in c's range from which events stop getting
// c.blockCap: an event gets the block's capability unless one before it
// (since the block marker) used up the block's remaining bytes.
func (c *cursor) capEnd() int {
	if c.blockCap == NoCap {
		return c.pos
	}
	return c.pos + int(min(max(c.remaining, 1), c.r.end-c.base-int64(c.pos)+1))
}

// want notes the fast event at pos, n bytes long, for delivery, with its
// capability (and a copy of it, if the window will move on).
func (c *cursor) want(pos, n, capEnd int) {
	cp := c.blockCap
	if pos >= capEnd {
		cp = NoCap
	}
	c.r.keep(c.inRange(pos), cp, c.copyOf(pos, n))
}

// copyOf returns the bytes [pos, pos+n) of c's window if the window is
// reused (a file's), nil otherwise.
func (c *cursor) copyOf(pos, n int) []byte {
	if c.store == nil {
		return nil
	}
	return c.win[pos : pos+n]
}

// keep lists the event at pos in r (with a copy of its bytes raw, unless
// raw is nil) to be handed out.
func (r *skimRange) keep(pos int, cp int32, raw []byte) {
	at := -1
	if raw != nil {
		at = len(r.copies)
		r.copies = append(r.copies, raw...)
	}
	r.wants = append(r.wants, wantedEvent{pos: pos, at: at, cap: cp})
}

// end notes an event of which only the first and last of each capability
// are wanted (a fast event whose entry has fastEnds): it is counted, and
// may become its range's first or last of its capability.
func (c *cursor) end(pos, n, capEnd int, id uint16) {
	cp := c.blockCap
	if pos >= capEnd {
		cp = NoCap
	}
	c.t.counts[id]++
	raw := c.copyOf(pos, n)
	for i := range c.r.ends {
		if e := &c.r.ends[i]; e.id == id && e.cap == cp {
			e.last = c.inRange(pos)
			if raw != nil {
				e.lastRaw = append(e.lastRaw[:0], raw...)
			}
			return
		}
	}
	e := rangeEnd{id: id, cap: cp, first: c.inRange(pos), last: c.inRange(pos)}
	if raw != nil {
		e.firstRaw = append([]byte(nil), raw...)
		e.lastRaw = append([]byte(nil), raw...)
	}
	c.r.ends = append(c.r.ends, e)
}

// rangeEnd is the first and last event of a type and capability in a
// range, for Selection.Ends (with copies of them, from a file).
type rangeEnd struct {
	id                uint16
	cap               int32
	first, last       int
	firstRaw, lastRaw []byte
}

// leave records that a fast loop took c from c.pos to pos, over events
// whose latest timestamp is last: the time range and capability of the
// events passed, and the block state after them.
func (c *cursor) leave(pos int, last uint64) {
	if pos == c.pos {
		return
	}
	t := c.t
	t.first = min(t.first, binary.BigEndian.Uint64(c.win[c.pos+2:]))
	t.last = max(t.last, last)
	t.maxCap = max(t.maxCap, c.blockCap) // the first event passed had it
	t.caps.add(c.blockCap)
	c.times.last = max(c.times.last, last)
	c.remaining -= int64(pos - c.pos)
	if c.remaining <= 0 {
		c.blockCap = NoCap
		c.times.leave()
	}
	c.pos = pos
}

// slowStep takes the event at c through the Decoder, or ends c at the end
// of its range.
func (s *skimmer) slowStep(c *cursor) {
	r, d, ev := c.r, c.d, &c.ev
	if c.base+int64(c.pos) == r.end && !r.last {
		s.endCursor(c)
		return
	}
	start := c.pos
	d.pos, d.blockCap, d.remaining, d.times = c.pos, c.blockCap, c.remaining, c.times
	if !d.readEvent(ev) {
		if d.status.State == StateTruncated && c.store != nil && c.base+int64(len(c.win)) < r.end {
			// The window ends inside the event: move it on.
			if !s.refill(c) {
				c.done = true
			}
			return
		}
		if d.status.State == StateTruncated && !r.last {
			r.overran = true
		} else {
			r.final = true
			r.status = d.status
		}
		s.endCursor(c)
		return
	}
	c.pos, c.blockCap, c.remaining, c.times = d.pos, d.blockCap, d.remaining, d.times
	if d.times.faulty && s.want[ev.Type] {
		// Delivery decodes the event again: it must get the same time.
		r.fixes = append(r.fixes, timeFix{pos: int(ev.Offset - r.start), time: ev.Time})
	}
	t := c.t
	if ev.Kind != KindBlockMarker {
		t.first = min(t.first, ev.Time)
		t.last = max(t.last, ev.Time)
		t.maxCap = max(t.maxCap, ev.Cap)
		t.caps.add(ev.Cap)
	}
	if s.want[ev.Type] {
		var raw []byte
		if c.store != nil {
			// All the bytes the Decoder needed, which can be more than
			// the event took (see decodePayload).
			raw = c.win[start:min(len(c.win), start+s.frameLen(c.win[start:]))]
		}
		r.keep(int(ev.Offset-r.start), ev.Cap, raw)
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

// frameLen returns how many bytes the Decoder reads for the event at the
// start of b (its declared size, which can exceed what it occupies).
func (s *skimmer) frameLen(b []byte) int {
	p := &s.plans[binary.BigEndian.Uint16(b)]
	if p.size == VariableSize {
		return 12 + int(binary.BigEndian.Uint16(b[10:]))
	}
	return 10 + p.size
}

// endCursor completes c's range: where it stopped, and its tally.
func (s *skimmer) endCursor(c *cursor) {
	c.done = true
	r, t := c.r, c.t
	r.stopPos, r.stopCap, r.stopRem, r.stopTimes = c.base+int64(c.pos), c.blockCap, c.remaining, c.times
	r.faults = c.times.faults
	if c.store != nil {
		select {
		case s.windows <- c.store:
		default:
		}
		c.store, c.win = nil, nil
	}
	// The first and last events of the ends kinds are handed out after
	// all, in their places, rather than counted.
	for _, e := range r.ends {
		r.wantAt(e.first, e.cap, e.firstRaw)
		t.counts[e.id]--
		if e.last != e.first {
			r.wantAt(e.last, e.cap, e.lastRaw)
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

// wantAt adds the event at pos, with capability cp (and a copy of its
// bytes raw, if not nil), to r's wanted events, in its place.
func (r *skimRange) wantAt(pos int, cp int32, raw []byte) {
	r.keep(pos, cp, raw)
	w := r.wants[len(r.wants)-1]
	i, _ := slices.BinarySearchFunc(r.wants[:len(r.wants)-1], pos, func(w wantedEvent, pos int) int { return cmp.Compare(w.pos, pos) })
	copy(r.wants[i+1:], r.wants[i:len(r.wants)-1])
	r.wants[i] = w
}

// deliver decodes r's wanted events again, in order, hands them out, and
// adds r's tally.
func (s *skimmer) deliver(r *skimRange) {
	inBuf := s.rangeDecoder(r.buf, r.start)
	inCopies := s.rangeDecoder(r.copies, 0)
	fixes := r.fixes
	var touched byte
	for i := 0; i < len(r.wants); i += fetchBatch {
		batch := r.wants[i:min(i+fetchBatch, len(r.wants))]
		// A range in memory was scanned a while ago; its bytes have left
		// the caches near this core. Reading a byte of each event of a
		// batch first, in a loop of independent loads, has the processor
		// fetch them all at once instead of waiting for one after another.
		for _, w := range batch {
			if w.at < 0 {
				touched += r.buf[w.pos]
			}
		}
		for _, w := range batch {
			d := inBuf
			d.pos = w.pos
			if w.at >= 0 {
				d = inCopies
				d.pos, d.base = w.at, r.start+int64(w.pos-w.at)
			}
			// The scan checked the event's time (fixes).
			d.blockCap, d.remaining, d.times = w.cap, math.MaxInt64, blockTimes{}
			if !d.readEvent(&s.ev) {
				// scan read this very event: it cannot fail here.
				panic(fmt.Sprintf("ingest: skim cannot re-read the event at byte %d", d.Offset()))
			}
			for len(fixes) > 0 && fixes[0].pos < w.pos {
				fixes = fixes[1:]
			}
			if len(fixes) > 0 && fixes[0].pos == w.pos {
				s.ev.Time = fixes[0].time
			}
			s.fn(&s.ev)
		}
	}
	s.touched += touched
	s.ev = Event{} // drop the references into r.buf and r.copies
	// Only a few ranges are in work at a time: their want lists can be
	// used again rather than grown anew for every range.
	select {
	case s.spare <- wantList{wants: r.wants[:0], copies: r.copies[:0]}:
	default:
	}
	r.wantList = wantList{}
	r.buf = nil
	r.fixes = nil
	s.tally.merge(&r.tally)
	s.faults.Merge(r.faults)
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
	t.caps.merge(o.caps)
}

func (t *rangeTally) result() Tally {
	out := Tally{Types: make([]TypeTally, len(t.counts)), Events: t.events, MaxCap: t.maxCap, Caps: t.caps.list()}
	for id, n := range t.counts {
		out.Types[id] = TypeTally{Count: n, Kind: t.kinds[id]}
	}
	out.FirstNS, out.LastNS = t.first, t.last
	return out
}
