package app

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"

	"github.com/hecscope/hecscope/ingest"
)

// This file holds the event list's index: every event of a log (block
// markers included), in the order `ghc-events show` prints them (by time,
// ties in file order), as 4-byte file offsets. A row is decoded from the file
// (memory-mapped where the system allows) only when it is shown or searched,
// so the index costs 4 bytes an event once built.

// maxIndexedSize is the largest file the event list indexes: offsets are
// stored in 32 bits.
const maxIndexedSize = 1<<32 - 1

// eventBlock is one event block of the file: the events starting at offsets
// in [start, end) belong to capability cap, as the decoder assigns them.
type eventBlock struct {
	start, end int64
	cap        int32
}

// bookmarkMark is a USER_MARKER of the log: its time and text.
type bookmarkMark struct {
	time uint64
	text string
}

// eventIndexBuilder collects the offsets of a log's events during the load
// pass; finish sorts them by time.
type eventIndexBuilder struct {
	offs    []uint32
	blocks  []eventBlock
	first   int64 // offset of the first event: the header ends there
	kinds   map[ingest.Kind]bool
	markers []bookmarkMark
	tooBig  bool
}

// newEventIndexBuilder returns an empty builder.
func newEventIndexBuilder() *eventIndexBuilder {
	return &eventIndexBuilder{first: -1, kinds: map[ingest.Kind]bool{}}
}

// add records ev, the next event of the file.
func (b *eventIndexBuilder) add(ev *ingest.Event) {
	if b.tooBig {
		return
	}
	if ev.Offset > maxIndexedSize {
		b.tooBig, b.offs = true, nil
		return
	}
	if b.first < 0 {
		b.first = ev.Offset
	}
	b.offs = append(b.offs, uint32(ev.Offset))
	b.kinds[ev.Kind] = true
	switch ev.Kind {
	case ingest.KindBlockMarker:
		if ev.Cap != ingest.NoCap {
			b.blocks = append(b.blocks, eventBlock{start: ev.Offset, end: ev.Offset + int64(ev.Args[0]), cap: ev.Cap})
		}
	case ingest.KindUserMarker:
		b.markers = append(b.markers, bookmarkMark{time: ev.Time, text: string(ev.Data)})
	}
}

// finish maps the file and sorts the offsets by event time, ties in file
// order. It returns nil and an error if the log cannot be indexed.
func (b *eventIndexBuilder) finish(path string, h *ingest.Header) (*eventIndex, error) {
	if b.tooBig {
		return nil, fmt.Errorf("indexing %s: files over 4 GiB are not listed", path)
	}
	if h == nil || b.first < 0 {
		return nil, fmt.Errorf("indexing %s: no events", path)
	}
	data, err := mapEventFile(path)
	if err != nil {
		return nil, fmt.Errorf("indexing %s: %w", path, err)
	}
	x := &eventIndex{path: path, data: data, header: h, blocks: b.blocks, markers: b.markers}
	x.mem = mappedBytes(data)
	x.prefix = make([]byte, b.first)
	if _, err := data.ReadAt(x.prefix, 0); err != nil {
		return nil, fmt.Errorf("indexing %s: reading the header: %w", path, err)
	}
	for k := range b.kinds {
		x.kinds = append(x.kinds, k)
	}
	slices.SortFunc(x.kinds, func(a, c ingest.Kind) int { return cmpString(a.String(), c.String()) })
	x.sizes = map[uint16]int{}
	for _, t := range h.Types {
		x.sizes[t.ID] = t.Size
	}
	err = x.safely(func() { x.offs = x.sortByTime(b.offs) })
	b.offs = nil
	if err != nil {
		return nil, fmt.Errorf("indexing: %w", err)
	}
	return x, nil
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// eventIndex is a log's events in time order, decoded on demand.
type eventIndex struct {
	path    string
	data    eventFile
	mem     []byte // the mapped file, nil if it is read with ReadAt
	header  *ingest.Header
	prefix  []byte         // the file's header bytes, fed to each row decoder
	sizes   map[uint16]int // declared payload size per event type id
	offs    []uint32       // file offset of each event, in time order
	blocks  []eventBlock   // in file order
	kinds   []ingest.Kind  // the kinds present, by name
	markers []bookmarkMark // USER_MARKER events, in file order
}

// Len returns the number of events, block markers included.
func (x *eventIndex) Len() int { return len(x.offs) }

// Bytes returns the memory the index holds, the file mapping aside.
func (x *eventIndex) Bytes() int {
	return 4*cap(x.offs) + len(x.prefix) + 24*cap(x.blocks)
}

// timeAt returns the timestamp of the event at file offset off (0 if the
// file is too short there).
func (x *eventIndex) timeAt(off int64) uint64 {
	if x.mem != nil {
		if off < 0 || off+10 > int64(len(x.mem)) {
			return 0
		}
		return binary.BigEndian.Uint64(x.mem[off+2:])
	}
	var b [8]byte
	if _, err := x.data.ReadAt(b[:], off+2); err != nil {
		return 0
	}
	return binary.BigEndian.Uint64(b[:])
}

// Time returns the timestamp of row i.
// It is 0 if the file has been cut short since it was indexed.
func (x *eventIndex) Time(i int) (t uint64) {
	x.safely(func() { t = x.timeAt(int64(x.offs[i])) })
	return t
}

// safely runs f, which reads the mapped file, and returns an error instead
// of crashing if the file has been cut short on disk since it was mapped
// (the program rewriting its eventlog, say): reading a mapped page past the
// file's new end faults.
func (x *eventIndex) safely(f func()) (err error) {
	if x.mem == nil {
		f()
		return nil
	}
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			err = fmt.Errorf("reading %s: the file has changed on disk since it was loaded", x.path)
		}
	}()
	f()
	return nil
}

// capAt returns the capability of the event at file offset off.
func (x *eventIndex) capAt(off int64) int32 {
	i, _ := slices.BinarySearchFunc(x.blocks, off, func(b eventBlock, o int64) int {
		switch {
		case b.start < o:
			return -1
		case b.start > o:
			return 1
		}
		return 0
	})
	if i < len(x.blocks) && x.blocks[i].start == off {
		return x.blocks[i].cap
	}
	if i > 0 && off < x.blocks[i-1].end {
		return x.blocks[i-1].cap
	}
	return ingest.NoCap
}

// Search returns the first row whose time is at least t.
func (x *eventIndex) Search(t uint64) (i int) {
	x.safely(func() { i = x.search(t) })
	return i
}

func (x *eventIndex) search(t uint64) int {
	i, _ := slices.BinarySearchFunc(x.offs, t, func(off uint32, t uint64) int {
		if x.timeAt(int64(off)) < t {
			return -1
		}
		return 1
	})
	return i
}

// sortByTime merges the runs of ascending time in offs (file order) into
// one sequence in time order, ties in file order.
func (x *eventIndex) sortByTime(offs []uint32) []uint32 {
	var runs []mergeRun
	start := 0
	prev := uint64(0)
	for i, off := range offs {
		t := x.timeAt(int64(off))
		if i > 0 && t < prev {
			runs = append(runs, mergeRun{pos: start, end: i})
			start = i
		}
		prev = t
	}
	runs = append(runs, mergeRun{pos: start, end: len(offs)})
	if len(runs) == 1 {
		return offs
	}
	out := make([]uint32, 0, len(offs))
	h := mergeHeap{runs: runs, x: x, offs: offs}
	for i := range h.runs {
		h.runs[i].t = x.timeAt(int64(offs[h.runs[i].pos]))
	}
	for i := len(h.runs)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
	for len(h.runs) > 0 {
		r := &h.runs[0]
		out = append(out, offs[r.pos])
		r.pos++
		if r.pos == r.end {
			last := len(h.runs) - 1
			h.runs[0] = h.runs[last]
			h.runs = h.runs[:last]
		} else {
			r.t = x.timeAt(int64(offs[r.pos]))
		}
		h.down(0)
	}
	return out
}

// mergeRun is an ascending run of offsets being merged: its next element
// is at pos (time t), and it ends before end.
type mergeRun struct {
	pos, end int
	t        uint64
}

// mergeHeap is a min-heap of runs by (time, position): position breaks
// ties, keeping file order.
type mergeHeap struct {
	runs []mergeRun
	x    *eventIndex
	offs []uint32
}

func (h *mergeHeap) less(i, j int) bool {
	a, b := &h.runs[i], &h.runs[j]
	return a.t < b.t || (a.t == b.t && a.pos < b.pos)
}

func (h *mergeHeap) down(i int) {
	n := len(h.runs)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h.runs[i], h.runs[m] = h.runs[m], h.runs[i]
		i = m
	}
}

// eventFile is the bytes of an eventlog file, random access.
type eventFile interface {
	io.ReaderAt
	// Size is the file's length.
	Size() int64
}

// fileReaderAt reads an eventlog with ReadAt calls, where it cannot be
// mapped.
type fileReaderAt struct {
	f    *os.File
	size int64
}

// newFileReaderAt returns a reader of f, which it closes once no longer
// used.
func newFileReaderAt(f *os.File, size int64) *fileReaderAt {
	r := &fileReaderAt{f: f, size: size}
	runtime.AddCleanup(r, func(f *os.File) { f.Close() }, f)
	return r
}

func (r *fileReaderAt) ReadAt(p []byte, off int64) (int, error) { return r.f.ReadAt(p, off) }
func (r *fileReaderAt) Size() int64                             { return r.size }

// bytesReaderAt reads an eventlog held in memory (or mapped).
type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off >= int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
func (b bytesReaderAt) Size() int64 { return int64(len(b)) }

// eventRowDecoder decodes single rows of an index. It is not safe for
// concurrent use: each goroutine takes its own.
type eventRowDecoder struct {
	x   *eventIndex
	d   *ingest.Decoder
	buf []byte
	hdr [12]byte
}

// newRowDecoder returns a decoder of x's rows.
func (x *eventIndex) newRowDecoder() *eventRowDecoder { return &eventRowDecoder{x: x} }

// reset starts a fresh decoder past the file's header.
func (r *eventRowDecoder) reset() {
	r.d = ingest.NewDecoder()
	r.d.Feed(r.x.prefix)
	var ev ingest.Event
	r.d.Next(&ev)
}

// eventLen returns the encoded length of the event at off, or 0 if the
// header cannot tell (GHC 6.12's wrong sizes) or the file is cut short.
func (r *eventRowDecoder) eventLen(off int64) int {
	if r.x.header.GHC612 {
		return 0
	}
	var b []byte
	if r.x.mem != nil {
		if off < 0 || off >= int64(len(r.x.mem)) {
			return 0
		}
		b = r.x.mem[off:min(off+12, int64(len(r.x.mem)))]
	} else {
		b = r.hdr[:]
		k, _ := r.x.data.ReadAt(b, off)
		b = b[:k]
	}
	n := len(b)
	if n < 10 {
		return 0
	}
	size, ok := r.x.sizes[binary.BigEndian.Uint16(b[:])]
	if !ok {
		return 0
	}
	if size == ingest.VariableSize {
		if n < 12 {
			return 0
		}
		return 12 + int(binary.BigEndian.Uint16(b[10:]))
	}
	return 10 + size
}

// event decodes row i into ev; ev's Data and Raw are valid until the next
// call.
func (r *eventRowDecoder) event(i int, ev *ingest.Event) (err error) {
	if e := r.x.safely(func() { err = r.row(i, ev) }); e != nil {
		r.d = nil
		return fmt.Errorf("event %d: %w", i, e)
	}
	return err
}

// row is event without the guard against a file cut short.
func (r *eventRowDecoder) row(i int, ev *ingest.Event) error {
	off := int64(r.x.offs[i])
	n := r.eventLen(off)
	if n > 0 {
		return r.decode(i, off, n, true, ev)
	}
	// The header cannot tell the length: feed a fresh decoder a window
	// that holds most events, then one that holds any.
	if err := r.decode(i, off, 1<<10, false, ev); err == nil {
		return nil
	}
	return r.decode(i, off, 1<<16+12, false, ev)
}

// decode decodes the event at off, of n bytes if exact, else within the
// next n bytes.
func (r *eventRowDecoder) decode(i int, off int64, n int, exact bool, ev *ingest.Event) error {
	if !exact {
		n = int(min(r.x.data.Size()-off, int64(n)))
		r.d = nil
	}
	if n <= 0 {
		return fmt.Errorf("event %d at byte %d: past the end of the file", i, off)
	}
	var buf []byte
	if r.x.mem != nil && off+int64(n) <= int64(len(r.x.mem)) {
		buf = r.x.mem[off : off+int64(n)]
	} else {
		if cap(r.buf) < n {
			r.buf = make([]byte, n)
		}
		buf = r.buf[:n]
		if m, err := r.x.data.ReadAt(buf, off); m < n {
			return fmt.Errorf("event %d at byte %d: %w", i, off, err)
		}
	}
	if r.d == nil {
		r.reset()
	}
	r.d.Feed(buf)
	if !r.d.Next(ev) {
		r.d = nil
		return fmt.Errorf("event %d at byte %d: does not decode", i, off)
	}
	if !exact || r.d.Buffered() != 0 {
		r.d = nil // leftover bytes: start afresh next time
	}
	ev.Offset = off
	ev.Cap = r.x.capAt(off)
	return nil
}
