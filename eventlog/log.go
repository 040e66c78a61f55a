// Package eventlog is hecscope's one loader: it turns an eventlog file into the
// models the views and commands need — the timeline's overview, the heap and
// heap profile, the run's summary — and keeps a way back to the file's bytes
// for the detail of any stretch of time.
//
// Loading indexes the file (the pieces of its data section: see
// ingest.Index), then reads every capability's blocks in its own goroutine
// (ingest.Merge), decoding them in place from the file mapped into memory
// where the system allows (ingest.MapSection): each goroutine builds its
// capability's rows of the
// timeline (timeline.HECBuilder), and hands the events that concern more
// than one capability — threads, messages, the heap — in time order to one
// goroutine that builds the rest. Meanwhile the summary is skimmed from the
// file on its own (timeline.SummarizeFile), so that the app shows the same
// figures as `hecscope summary`.
//
// A large log's timeline is an overview (timeline.Grid): a track's busy
// stretches keep only the time per state, so memory follows the number of
// buckets, not of events. Zoomed in past what the overview resolves, Detail
// decodes the range on screen from the file again, seeded with the state of
// every track at the range's start.
package eventlog

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// Options says how to load a log.
type Options struct {
	// Buckets is the overview's resolution: how many grid buckets the run's
	// span is cut into (0: DefaultBuckets).
	Buckets int
	// ExactBelow is the file size under which the timeline keeps every
	// mark instead of an overview (0: DefaultExactBelow; negative: never).
	ExactBelow int64
	// NoThreads leaves the threads out of the timeline (a command that
	// draws only the HECs).
	NoThreads bool
	// KeepThread, if set, keeps only the threads it says yes to (a
	// command that draws a few thread rows).
	KeepThread func(id uint32) bool
	// NoSummary skips the summary, NoHeap the heap and heap profile,
	// NoEventList the event list, and NoTimeline the timeline (a command
	// that draws the heap: the overview then has no rows).
	NoSummary, NoHeap, NoEventList, NoTimeline bool
	// Segment is which eventlog of a file holding several one after
	// another to load (0-based; 0, the first, is the only one of an
	// ordinary file). One out of range is an error.
	Segment int
	// Progress, if set, is called from the loading goroutine at most every
	// progressEvery, with a new overview at most every snapshotEvery, and
	// once at the end.
	Progress func(Progress)
}

// DefaultBuckets is the overview's default resolution: at 1920 pixels, a
// view must be zoomed in 34× before a bucket is wider than a pixel.
const DefaultBuckets = 1 << 16

// DefaultExactBelow is the file size below which the timeline is exact: its
// model costs a few times the file, a few tens of MB at most.
const DefaultExactBelow = 8 << 20

const (
	progressEvery = 50 * time.Millisecond
	snapshotEvery = 250 * time.Millisecond
	// publishEvery is how many events a capability's goroutine takes
	// between two looks at whether a snapshot wants its rows.
	publishEvery = 1 << 14
)

// Progress is how far loading has got.
type Progress struct {
	// Bytes is how many bytes of the file have been read, of Total.
	Bytes, Total int64
	// Events is how many events have been decoded.
	Events int64
	// Elapsed is the time since loading began.
	Elapsed time.Duration
	// Model is the overview of what has been read, when a new one was taken
	// since the last report (nil otherwise): a preview of the HECs, activity
	// and user events, without the threads (timeline.Builder.Preview), which
	// come with the loaded Log.
	Model *timeline.Model
	// Span is the run's expected time span, from the block markers (zero
	// if unknown), so that a view can show the whole run from the start.
	From, To uint64
}

// Fraction returns the share of the file read so far, from 0 to 1.
func (p Progress) Fraction() float64 {
	if p.Total <= 0 {
		return 0
	}
	return min(1, float64(p.Bytes)/float64(p.Total))
}

// Log is a loaded eventlog. Its fields are set once Open returns; the
// overview and detail come through its timeline.Source methods.
type Log struct {
	// Path is the file, and Size the length in bytes of what was loaded:
	// the file, or the segment (Segment).
	Path string
	Size int64
	// Segments are the eventlogs of a file holding several one after
	// another (see ingest.FindSegments), nil (or one) for an ordinary file;
	// Segment is the one loaded (0-based), from byte Segments[Segment].Offset
	// of the file to .End. Every byte offset the Log reports (Status,
	// TimeFaults, the Summary's, Each's status) counts from the start of
	// the file; the Index's and Progress's count from the segment's.
	Segments []Segment
	Segment  int
	// Header is the log's header.
	Header *ingest.Header
	// Status says whether the log was complete, truncated or corrupt, and
	// where.
	Status ingest.Status
	// Events is the number of events decoded.
	Events int64
	// TimeFaults are the events whose timestamps lay outside their block's
	// declared range; the models take them at a time inside it.
	TimeFaults ingest.TimeFaults
	// CapFaults are the blocks whose marker claims a capability the log
	// never created; the models keep their events on that capability.
	CapFaults ingest.CapFaults
	// Summary is the run's statistics (as `hecscope summary` gives them);
	// SummaryErr says why there is none.
	Summary    timeline.Summary
	SummaryErr error
	// Heap is the RTS's heap counters and GCs; Profile the heap-profile
	// samples, nil if the log has none.
	Heap    *heapview.Heap
	Profile *heapview.Profile
	// LoadTime is how long loading took.
	LoadTime time.Duration

	file *os.File
	// data is where events are read from: the file, or the section of it
	// that holds the segment loaded, which begins at byte base.
	data      io.ReaderAt
	base      int64
	index     atomic.Pointer[ingest.Index]
	overview  atomic.Pointer[timeline.Model]
	loaded    atomic.Bool
	closed    atomic.Bool
	events    *Events
	following *follower // set for a followed log (Follow)
	detail    detailCache
}

// loading is the size of the files whose Open is under way (see Loading).
var loading atomic.Int64

// Loading returns the total size in bytes of the files being opened (by
// Open) at this moment, 0 when none is. A program that limits its heap can
// let it grow in proportion while they load, because the models being built
// will need it at the end anyway: collecting early only repeats work.
func Loading() int64 { return loading.Load() }

// Open loads the eventlog at path. A log that is truncated or corrupt is not
// an error: what could be read is loaded and Status says where and why. An
// error is returned if the file cannot be read, is not an eventlog, or ctx is
// cancelled. Close the Log when done with it.
func Open(ctx context.Context, path string, opt Options) (*Log, error) {
	start := time.Now()
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("loading %s: not a regular file", path)
	}
	loading.Add(st.Size())
	defer loading.Add(-st.Size())
	// Not the start of an eventlog's magic: a .hp heap profile, or nothing.
	head := make([]byte, 8)
	n, _ := f.ReadAt(head, 0)
	if n > 0 && !bytes.HasPrefix([]byte("hdrbhetb"), head[:n]) {
		defer f.Close()
		return openHeapProfile(path, f, st.Size(), start)
	}
	ix, err := ingest.NewIndex(f, st.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	r := &Log{Path: path, Size: st.Size(), Header: ix.Header, file: f, data: f}
	what := path
	if opt.Segment != 0 || mayHoldMore(f, ix, st.Size()) {
		// segment.go: find the segments, and keep to the one asked for.
		if ix, err = r.selectSegment(ix, opt.Segment); err != nil {
			f.Close()
			return nil, fmt.Errorf("loading %s: %w", path, err)
		}
		if len(r.Segments) > 1 {
			what = fmt.Sprintf("%s segment %d of %d", path, r.Segment+1, len(r.Segments))
		}
	}
	r.index.Store(ix)

	var sumWG sync.WaitGroup
	if !opt.NoSummary {
		sumWG.Add(1)
		go func() {
			defer sumWG.Done()
			if len(r.Segments) < 2 {
				r.Summary, r.SummaryErr = timeline.SummarizeFile(path)
			} else {
				r.Summary, r.SummaryErr = timeline.SummarizeAt(r.data, r.Size)
				if r.Segment > 0 && r.SummaryErr == nil {
					// A restarted eventlog names its program from the first.
					g := r.Segments[0]
					if first, err := timeline.SummarizeAt(io.NewSectionReader(r.file, g.Offset, g.End-g.Offset), g.End-g.Offset); err == nil {
						r.Summary.Inherit(&first, 1)
					}
				}
			}
		}()
	}
	err = r.load(ctx, opt, start)
	sumWG.Wait()
	if !opt.NoSummary {
		r.CapFaults = r.Summary.CapFaults
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("loading %s: %w", what, err)
	}
	r.toFile()
	r.LoadTime = time.Since(start)
	return r, nil
}

// openHeapProfile loads a textual .hp heap profile: a Log with a Profile and
// no timeline.
func openHeapProfile(path string, f *os.File, size int64, start time.Time) (*Log, error) {
	hp, err := ingest.ParseHeapProfile(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		return nil, fmt.Errorf("loading %s: not an eventlog (no \"hdrb\" header), and as a .hp heap profile: %w", path, err)
	}
	p, err := heapview.FromHeapProfile(hp)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	r := &Log{Path: path, Size: size, Heap: &heapview.Heap{}, Status: ingest.Status{State: ingest.StateComplete, Offset: size},
		SummaryErr: errors.New("a .hp heap profile has no run statistics"), LoadTime: time.Since(start)}
	if hp.Truncated {
		r.Status = ingest.Status{State: ingest.StateTruncated, Offset: size}
	}
	if p.Len() > 0 {
		r.Profile = p
	}
	r.loaded.Store(true)
	r.closed.Store(true)
	return r, nil
}

// HeapProfileOnly reports whether the run is a textual .hp heap profile:
// its Profile and nothing else (no timeline, no heap counters, no summary).
func (r *Log) HeapProfileOnly() bool { return r.index.Load() == nil }

// Close releases the file; Detail gives nothing new afterwards.
func (r *Log) Close() error {
	if r.file == nil {
		return nil
	}
	r.detail.shut(&r.closed)
	return r.file.Close()
}

// Index returns the file's index (its pieces with their event counts and
// time ranges) — the loaded segment's, its offsets counted from the
// segment's start, for a file holding several eventlogs; nil for a .hp
// heap profile.
func (r *Log) Index() *ingest.Index { return r.index.Load() }

// ix returns the index as it stands (a followed log's grows).
func (r *Log) ix() *ingest.Index { return r.index.Load() }

// Overview returns the timeline of the whole run (timeline.Source).
func (r *Log) Overview() *timeline.Model { return r.overview.Load() }

// span returns the run's time span as the block markers declare it.
func span(ix *ingest.Index) (from, to uint64) {
	first := true
	for _, p := range ix.Pieces {
		if !p.Block {
			continue
		}
		if first || p.BlockStart < from {
			from = p.BlockStart
		}
		to = max(to, p.BlockEnd)
		first = false
	}
	return from, to
}

// streamCount is what one stream's goroutine counted.
type streamCount struct {
	events      atomic.Int64
	first, last atomic.Uint64
	timed       atomic.Bool // first and last hold times
	// buckets counts the stream's events per bucket of the event list's
	// grid; read only once the stream has ended.
	buckets []uint32
}

// streamTap is what a capability's goroutine does with each of its
// stream's events (ingest.MergeOptions.Tap).
type streamTap struct {
	h     *timeline.HECBuilder // the capability's rows (nil: none built)
	count *streamCount
	// An event goes in its bucket of the event list's grid, or in the
	// last of count.buckets (none if they are empty), which holds all
	// after it.
	grid timeline.Grid
	// merged are the kinds handed on to the loading goroutine.
	merged *kindSet
	// want counts the snapshots asked for, and published the one the
	// capability's rows were last published for.
	want      *atomic.Int64
	published int64
	// n is the number of events; first and last the times of those
	// that span the run (ingest.SpansRun), if any (timed).
	n           int64
	first, last uint64
	timed       bool
}

// take returns the function that takes each event of the stream, and says
// whether the loading goroutine takes it too. (A function literal: the
// method value t.add would be a call more per event.)
func (t *streamTap) take() func(*ingest.Event) bool {
	return func(e *ingest.Event) bool {
		if b := t.count.buckets; len(b) > 0 {
			b[min(t.grid.Bucket(e.Time), len(b)-1)]++
		}
		// As for the pieces' times (ingest.Merge): a corrupt block marker's
		// time is not the run's.
		if ingest.SpansRun(e) {
			if !t.timed || e.Time < t.first {
				t.first, t.timed = e.Time, true
				t.count.first.Store(t.first)
				t.count.timed.Store(true)
			}
			t.last = max(t.last, e.Time)
		}
		t.n++
		if t.h != nil {
			t.h.Add(e)
		}
		if t.n%publishEvery == 0 {
			t.count.events.Store(t.n)
			t.count.last.Store(t.last)
			// Publishing copies the rows' unfinished chunks: only when a
			// snapshot is wanted.
			if g := t.want.Load(); t.h != nil && g != t.published {
				t.h.Publish(e.Time, false)
				t.published = g
			}
		}
		return t.merged.has(e.Kind)
	}
}

// load builds the models of a whole file.
func (r *Log) load(ctx context.Context, opt Options, start time.Time) error {
	ix := r.ix()
	from, to := span(ix)
	exactBelow := opt.ExactBelow
	if exactBelow == 0 {
		exactBelow = DefaultExactBelow
	}
	var grid timeline.Grid
	if exactBelow < 0 || r.Size >= exactBelow {
		grid = timeline.GridFor(to, opt.buckets())
	}
	listGrid := timeline.GridFor(to, listBuckets)
	bd, err := r.build(ctx, ix, opt, grid, listGrid, from, to, start)
	if err != nil {
		return err
	}
	// The grids are sized by the block markers' end times before any event
	// is read. One marker declaring an absurd end (a corrupt marker: 2^56
	// ns, say) leaves a run of seconds in a handful of the coarsest buckets,
	// and every view then decodes the whole file for what it draws (a
	// snapshot of a 47 MB log took three minutes instead of one second).
	// The events' own times, each checked against its block as it was
	// decoded, say where the run ends: when the grids are more than eight
	// times as coarse as those times ask for, the models are built again on
	// grids sized by them. A healthy log's last marker can end well after
	// its last event (one of the corpus's ends at 4.3× it): a grid up to 8×
	// coarser than it might be still has thousands of buckets over the run,
	// so only a damaged log pays for a second reading.
	if last := bd.last; last > 0 && (tooCoarse(grid, last, opt.buckets()) || tooCoarse(listGrid, last, listBuckets)) {
		to = last
		if grid.On() {
			grid = timeline.GridFor(to, opt.buckets())
		}
		listGrid = timeline.GridFor(to, listBuckets)
		bd = nil // the first reading's models are garbage while the second builds
		if bd, err = r.build(ctx, ix, opt, grid, listGrid, from, to, start); err != nil {
			return err
		}
	}
	// Every stream has ended: its capability's rows are final.
	for _, h := range bd.hecs {
		if h != nil {
			h.Publish(0, true)
		}
	}
	r.Status, r.Events, r.TimeFaults = bd.status, bd.events, bd.faults
	if opt.NoSummary {
		// The summary would have found them (with the capabilities the
		// log creates, which the builder saw unless NoTimeline).
		r.CapFaults = ingest.FindCapFaults(r.data, ix, bd.b.CreatedCaps())
	}
	// The heap's results first, and its collector let go, so that what it
	// gathered is garbage before the final overview is made: the load's
	// peak is at its end, when the builder and that overview both live.
	r.Heap, r.Profile = bd.heap.Result()
	bd.heap = nil
	bd.b.SetExtent(bd.events, bd.first, bd.last)
	if bd.status.State != ingest.StateComplete {
		// Cut short or damaged: each capability is known up to its
		// frontier (its last event, or the end of its last block read
		// whole), and is not drawn running on past it.
		reachBlocks(bd.b, ix.Pieces)
		bd.b.EndCapabilities(bd.b.Frontiers())
	}
	bd.b.Finish()
	if !opt.NoEventList {
		r.events = newEvents(r, bd.listGrid, bd.buckets())
	}
	model := bd.b.Final()
	r.overview.Store(model)
	r.loaded.Store(true)
	bd.report(model)
	return nil
}

// reachBlocks tells b's capabilities the end times the markers of their
// blocks read whole declare (timeline.HECBuilder.Reach): up to there each
// capability's events are known, even past its last event.
func reachBlocks(b *timeline.Builder, pieces []ingest.Piece) {
	for i := range pieces {
		reachBlock(b, &pieces[i])
	}
}

// reachBlock tells b's capability of piece p, if p is a block read whole,
// the end time its marker declares.
func reachBlock(b *timeline.Builder, p *ingest.Piece) {
	if !p.Block || p.Cap == ingest.NoCap || p.End < p.Declared || !p.Known {
		return
	}
	if h := b.HEC(p.Cap); h != nil {
		h.Reach(p.BlockEnd)
	}
}

// tooCoarse reports whether grid g, of buckets buckets, is more than eight
// times as coarse as the grid for a run ending at last.
func tooCoarse(g timeline.Grid, last uint64, buckets int) bool {
	return g.On() && g.Shift > timeline.GridFor(last, buckets).Shift+3
}

// buckets returns the overview's resolution.
func (o Options) buckets() int {
	if o.Buckets <= 0 {
		return DefaultBuckets
	}
	return o.Buckets
}

// building is a load under way: its builders and what its streams counted.
type building struct {
	b        *timeline.Builder
	heap     *heapview.Collector
	hecs     map[int32]*timeline.HECBuilder
	counts   []*streamCount
	listGrid timeline.Grid
	wantHeap func(ingest.Kind) bool
	report   func(*timeline.Model)
	// After the merge: how the data section ended, the events, and the
	// times of the first and last.
	status      ingest.Status
	faults      ingest.TimeFaults
	events      int64
	first, last uint64
	timed       bool // first and last hold times
}

// buckets sums the streams' event counts per bucket of the list grid.
func (bd *building) buckets() []uint32 {
	var out []uint32
	for _, c := range bd.counts {
		if len(c.buckets) > len(out) {
			out = append(out, make([]uint32, len(c.buckets)-len(out))...)
		}
		for i, n := range c.buckets {
			out[i] += n
		}
	}
	return out
}

// build reads the pieces of ix into new builders on grid g: every
// capability's stream in its own goroutine building that capability's rows,
// the rest in time order in this one. [from, to] is the run's span as the
// block markers declare it (for progress reports).
func (r *Log) build(ctx context.Context, ix *ingest.Index, opt Options, grid, listGrid timeline.Grid, from, to uint64, start time.Time) (*building, error) {
	b := timeline.NewOverviewBuilder(grid)
	if opt.KeepThread != nil {
		b.KeepThreads(opt.KeepThread)
	}
	bd := &building{b: b, heap: heapview.NewCollector(), listGrid: listGrid,
		wantHeap: func(k ingest.Kind) bool { return !opt.NoHeap && heapview.Wants(k) }}
	streams := ix.Streams()
	var caps []int32
	for _, s := range streams {
		if s.Cap != ingest.NoCap {
			caps = append(caps, s.Cap)
		}
	}
	bd.hecs = map[int32]*timeline.HECBuilder{}
	for i, h := range b.Parallel(caps) {
		if !opt.NoTimeline {
			bd.hecs[caps[i]] = h
		}
	}
	var countsMu sync.Mutex
	// The kinds the merge hands on to this goroutine: those of the heap,
	// and those the builder's own part takes (AddGlobal).
	merged := newKindSet(func(k ingest.Kind) bool {
		return bd.wantHeap(k) || timeline.GlobalKind(k) && !opt.NoTimeline && (!opt.NoThreads || !threadKind(k))
	})
	global := newKindSet(func(k ingest.Kind) bool { return timeline.GlobalKind(k) && !opt.NoTimeline })
	heap := newKindSet(bd.wantHeap)
	nb := listBucketsTo(listGrid, to)
	if opt.NoEventList {
		nb = 0
	}
	// want counts the snapshots asked for: the streams publish their
	// capabilities' rows when it moves.
	var want atomic.Int64
	tap := func(c int32) func(*ingest.Event) bool {
		t := &streamTap{h: bd.hecs[c], count: &streamCount{buckets: make([]uint32, nb)}, grid: listGrid, merged: merged, want: &want}
		countsMu.Lock()
		bd.counts = append(bd.counts, t.count)
		countsMu.Unlock()
		return t.take()
	}
	src := r.data
	if r.following == nil {
		// Read in place, unmapped once the merge has stopped. (A followed
		// file is read as before: one its program starts again is cut
		// short while it is read, which a mapping makes an error.)
		if mm, err := ingest.MapSection(r.file, r.base, r.Size); err == nil {
			defer mm.Close()
			src = mm
		}
	}
	m := ingest.NewMerge(src, ix, ingest.MergeOptions{Tap: tap, Learn: true})
	defer m.Close()
	extent := func() (int64, uint64, uint64) {
		countsMu.Lock()
		defer countsMu.Unlock()
		var n int64
		var lo, hi uint64
		for _, sc := range bd.counts {
			k := sc.events.Load()
			if k == 0 || !sc.timed.Load() {
				continue
			}
			if f := sc.first.Load(); n == 0 || f < lo {
				lo = f
			}
			hi = max(hi, sc.last.Load())
			n += k
		}
		return n, lo, hi
	}
	var lastReport, lastSnap time.Time
	// Snapshots cost time in the number of threads: the first comes as
	// soon as there is something to show, the next 250 ms later, then
	// twice as far apart each time. A snapshot is asked for one report
	// before it is taken, so that the streams have published their rows
	// by then (the first would otherwise be empty).
	snapGap := time.Duration(0)
	asked := false
	bd.report = func(model *timeline.Model) {
		if opt.Progress == nil {
			return
		}
		opt.Progress(Progress{Bytes: m.Bytes() + ix.Data, Total: r.Size, Events: m.Events(),
			Elapsed: time.Since(start), Model: model, From: from, To: to})
	}
	var k int
	for e := m.Next(); e != nil; e = m.Next() {
		if global.has(e.Kind) {
			b.AddGlobal(e)
		}
		if heap.has(e.Kind) {
			bd.heap.Add(e)
		}
		if k++; k&0xFFF != 0 {
			continue
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if k&0xFFFF == 0 {
			b.Settle()
		}
		if now := time.Now(); opt.Progress != nil && now.Sub(lastReport) >= progressEvery {
			lastReport = now
			var model *timeline.Model
			if now.Sub(lastSnap) >= snapGap {
				if n, lo, hi := extent(); asked && n > 0 {
					lastSnap, snapGap, asked = now, max(snapshotEvery, 2*snapGap), false
					b.SetExtent(n, lo, min(hi, e.Time))
					model = b.Preview()
					r.overview.Store(model)
				} else if !asked {
					want.Add(1)
					asked = true
				}
			}
			bd.report(model)
		}
	}
	if err := m.Err(); err != nil {
		return nil, err
	}
	bd.status, bd.faults = m.Status(), m.TimeFaults()
	for _, p := range ix.Pieces {
		if p.Timed {
			if !bd.timed || p.First < bd.first {
				bd.first = p.First
			}
			bd.last = max(bd.last, p.Last)
			bd.timed = true
		}
		bd.events += p.Events
	}
	return bd, nil
}

// kindSet is a set of event kinds, looked up once per event of a load
// (the kinds GHC writes are all below 256; the others ask the predicate).
type kindSet struct {
	low  [256]bool
	high func(ingest.Kind) bool
}

// newKindSet returns the set of kinds for which in says true.
func newKindSet(in func(ingest.Kind) bool) *kindSet {
	s := &kindSet{high: in}
	for k := range s.low {
		s.low[k] = in(ingest.Kind(k))
	}
	return s
}

// has reports whether k is in the set.
func (s *kindSet) has(k ingest.Kind) bool {
	if int(k) < len(s.low) {
		return s.low[k]
	}
	return s.high(k)
}

// threadKind reports whether events of kind k only concern threads.
func threadKind(k ingest.Kind) bool {
	switch k {
	case ingest.KindCreateThread, ingest.KindCreateSparkThread, ingest.KindRunThread, ingest.KindStopThread,
		ingest.KindThreadRunnable, ingest.KindThreadWakeup, ingest.KindThreadLabel:
		return true
	}
	return false
}
