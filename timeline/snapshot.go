package timeline

import (
	"cmp"
	"math"
	"slices"
)

// Model is an immutable snapshot of everything the builder has seen: safe to
// read from any number of goroutines while the builder goes on adding events.
// Times are ns since the RTS started.
type Model struct {
	// Start and End are the times of the first and last events. End is the
	// run's end as far as the model knows it ("now" for a log still being
	// read); each HEC is known up to its frontier (HEC.Frontier), which
	// for a complete log is End.
	Start, End uint64
	// Growing says the log is still being read (a live stream, a followed
	// file, a load under way): a HEC's frontier short of End is data not
	// received yet. Cut says the log was cut short (truncated or damaged):
	// a HEC's frontier short of End is where its data ends.
	Growing, Cut bool
	// Events is the number of events added.
	Events int64
	// Anomalies counts events that contradicted the state of their HEC (a
	// stop of a thread that was not running, a GC end outside a GC).
	Anomalies int64
	// HECs are the capabilities that occur, in order of number: HECs[c]
	// is capability c in a sound log, whose capabilities are numbered
	// densely from 0, but a corrupt block marker's capability (4095 in a
	// log of 2) comes after them (see HEC.Cap and Model.HEC).
	HECs []HEC
	// Labels sums the user spans per label, in order of first appearance.
	Labels []LabelStats
	// Grid is the resolution of an overview model: its tracks summarise the
	// buckets of Grid in which they change state often (no grid: the model
	// is exact).
	Grid Grid

	strs      []string
	global    chunkView[Instant]
	markers   chunkView[Instant]
	userSpans spanView
	openSpans []UserSpan
	// threads are the Haskell threads in order of first appearance
	// (NumThreads, Thread, Threads).
	threads threadTable
	// partial says some capability is not known to the run's end
	// (Partial), nor then the threads last on it.
	partial bool
	tidx    *threadIndex
	alive   *aliveIndex
}

// HEC is one capability's rows: its track of states (idle, running thread
// Mark.Arg, GC phases), its instant events and its sparks.
type HEC struct {
	// Cap is the capability's number.
	Cap      int32
	Track    Track
	instants chunkView[Instant] // thread, GC-request and shutdown instants
	msgs     msgView            // messages and markers
	sparks   [NumSparkKinds]sparkView
	samples  chunkView[SparkSample]
	used     bool
}

// HEC returns capability c, nil if the model has none of that number.
func (m *Model) HEC(c int32) *HEC {
	if i := m.HECIndex(c); i >= 0 {
		return &m.HECs[i]
	}
	return nil
}

// HECIndex returns the index in HECs of capability c, -1 if the model has
// none of that number.
func (m *Model) HECIndex(c int32) int {
	if c >= 0 && int(c) < len(m.HECs) && m.HECs[c].Cap == c {
		return int(c)
	}
	i, ok := slices.BinarySearchFunc(m.HECs, c, func(h HEC, c int32) int { return int(h.Cap) - int(c) })
	if !ok {
		return -1
	}
	return i
}

// Frontier returns the time up to which the capability's events are known:
// received so far (a log still being read), or written before the log was
// cut; the run's end (Model.End) for a complete log. Past it, until
// Model.End, its state is not known (Track.Unknown).
func (h *HEC) Frontier() uint64 { return h.Track.End() }

// Lead returns the index in HECs of the capability known furthest, and its
// frontier: the one the others are behind (-1 and 0 without HECs).
func (m *Model) Lead() (int, uint64) {
	lead, at := -1, uint64(0)
	for i := range m.HECs {
		if f := m.HECs[i].Frontier(); lead < 0 || f > at {
			lead, at = i, f
		}
	}
	return lead, at
}

// Partial reports whether some capability is not known up to the run's
// end (its frontier is short of End).
func (m *Model) Partial() bool {
	for i := range m.HECs {
		if m.HECs[i].Frontier() < m.End {
			return true
		}
	}
	return false
}

// Used reports whether the capability logged any event of its own (a
// capability only named by the RTS's startup has none).
func (h *HEC) Used() bool { return h.used }

// Thread is one Haskell thread: its record (id, label, lifetime) and its
// track of states (runnable, running on a HEC, blocked, finished).
type Thread struct {
	ThreadRecord
	Track Track
}

// String returns the i-th string of the model's string table ("" if out of
// range).
func (m *Model) String(i int32) string {
	if i < 0 || int(i) >= len(m.strs) {
		return ""
	}
	return m.strs[i]
}

// NumInstants returns the number of instant events of the HEC (a summary
// instant of an overview counts once).
func (h *HEC) NumInstants() int { return h.instants.Len() + h.msgs.Len() }

// Instant returns the HEC's i-th instant event: its thread, GC-request and
// shutdown instants in time order, then its messages and markers in time
// order.
func (h *HEC) Instant(i int) Instant {
	if n := h.instants.Len(); i >= n {
		return h.msgs.At(i - n)
	}
	return h.instants.At(i)
}

// Sparks returns how many spark events of kind k the HEC logged in [from,
// to) (in proportion for the busy buckets of an overview that the range
// cuts).
func (h *HEC) Sparks(k SparkKind, from, to uint64) int {
	if k >= NumSparkKinds {
		return 0
	}
	return h.sparks[k].count(from, to)
}

// HasSparkEvents reports whether the HEC logged individual spark events
// (GHC logs them with +RTS -lf); without them only the SparkCounters
// samples tell about sparks.
func (h *HEC) HasSparkEvents() bool {
	for k := range h.sparks {
		if !h.sparks[k].empty() {
			return true
		}
	}
	return false
}

// NumSparkSamples returns the number of SparkCounters samples of the HEC.
func (h *HEC) NumSparkSamples() int { return h.samples.Len() }

// SparkSample returns the HEC's i-th SparkCounters sample.
func (h *HEC) SparkSample(i int) SparkSample { return h.samples.At(i) }

// NumGlobalInstants returns the number of instant events that belong to no HEC.
func (m *Model) NumGlobalInstants() int { return m.global.Len() }

// GlobalInstant returns the i-th instant event of no HEC, in file order.
func (m *Model) GlobalInstant(i int) Instant { return m.global.At(i) }

// NumMarkers returns the number of user markers (traceMarker) in the run.
func (m *Model) NumMarkers() int { return m.markers.Len() }

// Marker returns the i-th user marker in time order: an Instant of kind
// InstantUserMarker whose Arg is its text (Model.String) and Arg2 its
// capability (0xFFFF for none).
func (m *Model) Marker(i int) Instant { return m.markers.At(i) }

// SearchMarkers returns the index of the first marker at or after t.
func (m *Model) SearchMarkers(t uint64) int {
	return m.markers.search(0, func(in *Instant) bool { return in.Time >= t })
}

// NumUserSpans returns the number of START/STOP user spans.
func (m *Model) NumUserSpans() int { return m.userSpans.Len() }

// UserSpan returns the i-th user span, in order of their STOP messages.
func (m *Model) UserSpan(i int) UserSpan { return m.userSpans.At(i) }

// StoppedSpans returns the model's stopped user spans (UserSpan), to be
// walked a block at a time.
func (m *Model) StoppedSpans() StoppedSpans { return StoppedSpans{m.userSpans} }

// UserSpanEnd returns the end of the i-th user span (UserSpan(i).End),
// without the rest of it.
func (m *Model) UserSpanEnd(i int) uint64 { return m.userSpans.End(i) }

// NumOpenSpans returns the number of user spans whose START has no STOP
// in a log cut short or still being read (a complete log's have none: its
// STARTs without STOP are counted in LabelStats.Open only).
func (m *Model) NumOpenSpans() int { return len(m.openSpans) }

// OpenSpan returns the i-th open user span, in order of start, with Open
// set. Its End is as far as it is known to last: its capability's frontier
// (the earliest frontier if it has none), or the frontier or finish of the
// thread that ran there at its START if earlier (the STOP comes from that
// thread, wherever it runs then).
func (m *Model) OpenSpan(i int) UserSpan { return m.openSpans[i] }

// Snapshot returns the model of the events added so far. It costs time in
// the number of HECs and of threads new or changed since the last
// snapshot (their blocks, see threads.go), not of events: the snapshot
// shares the builder's storage, which the builder only ever appends to (or
// copies before changing, for the marks of a thread whose events came out
// of time order), and the last snapshot's blocks of threads that did not
// change.
// With a grid, a bucket still being filled is left out until time has moved
// past it (Finish puts everything in).
func (b *Builder) Snapshot() *Model { return b.snapshot(true) }

// Preview returns a model of the events added so far without its threads
// (Model.NumThreads is 0): the HECs, activity, sparks, user spans and
// markers, as a picture of a load in progress draws them. It costs time in
// the number of HECs only, and leaves the threads' blocks to the next
// Snapshot, so that a load of many threads does not make them again and
// again while the picture of its progress is shown.
func (b *Builder) Preview() *Model { return b.snapshot(false) }

// Final returns the model of a finished builder (Finish) like Snapshot,
// and uses the builder up: the builders of a block of threads are let go
// as soon as the block is made, so that a run of millions of threads never
// holds both at once (the peak of a load). The builder must not be used
// afterwards.
func (b *Builder) Final() *Model {
	b.consume = true
	m := b.snapshot(true)
	b.tb, b.threadIdx, b.threadDense, b.freeThreads, b.prevBlocks, b.arena, b.packed, b.spare, b.storedMore = nil, nil, denseIDs{}, nil, nil, trackArena{}, packedArena{}, nil, nil
	return m
}

func (b *Builder) snapshot(threads bool) *Model {
	m := &Model{
		Start:     b.start,
		End:       b.end,
		Growing:   b.growing || !b.finished,
		Cut:       b.cut,
		Events:    b.events,
		Anomalies: b.anomalies,
		Grid:      b.g,
		strs:      b.strs[:len(b.strs):len(b.strs)],
		global:    b.global.view(),
		markers:   sliceView(slices.Clone(b.markers)),
		userSpans: b.userSpans.view(),
		Labels:    append([]LabelStats(nil), b.labels...),
		tidx:      &threadIndex{},
		alive:     &aliveIndex{},
	}
	slots := b.slots()
	m.HECs = make([]HEC, len(slots))
	for i, sl := range slots {
		h := sl.h
		var hv HEC
		if b.parallel {
			if p := h.pub.Load(); p != nil {
				hv = *p
			}
		} else {
			// A capability's events come in order: what ended before its
			// latest is complete.
			h.settle(h.last, false)
			hv = h.view(b.end)
		}
		m.Anomalies += h.anomalies
		hv.Track.end = b.frontier(sl.cap, h, hv.Track.end)
		hv.Track.horizon = b.end
		sl.msgs.settle(b.msgGrid(), b.now, false)
		hv.msgs = sl.msgs.view()
		hv.Cap = sl.cap
		m.HECs[i] = hv
	}
	b.settleThreads(false)
	if !threads {
		m.openSpans = b.openSpans(m)
		return m
	}
	// The blocks of threads are taken from the last snapshot, and only
	// those with a thread that changed since are made again: most threads
	// of a long run have ended.
	m.partial = m.Partial()
	n := b.nthreads
	tt := threadTable{n: n, blocks: make([]*threadBlock, len(b.tb)), arena: b.packed.view(),
		wide: wideViews{marks: b.arena.marks.view(), sums: b.arena.sums.view(), cps: b.arena.cps.view()}}
	copy(tt.blocks, b.prevBlocks)
	// The block of the first thread new since is made again whole.
	fresh := b.prevN >> threadBlockShift
	for _, i := range b.dirty {
		if k := int(i) >> threadBlockShift; k < fresh && tt.blocks[k] == b.prevBlocks[k] {
			tt.blocks[k] = b.block(k)
		}
	}
	consume := b.consume && b.finished
	for k := fresh; k < len(tt.blocks); k++ {
		tt.blocks[k] = b.block(k)
		if consume {
			b.tb[k].threads = nil
		}
	}
	tt.shapes = b.shapes.view() // with those the blocks just made added
	tt.settled = b.settled
	m.threads = tt
	b.dirty, b.prevBlocks, b.prevN = b.dirty[:0], tt.blocks, n
	m.openSpans = b.openSpans(m)
	return m
}

// Settle commits the buckets of thread tracks that time has moved past,
// and moves the tracks of finished threads to the arena: a loader calls it
// now and then, so that what it holds does not wait for a snapshot.
func (b *Builder) Settle() { b.settleThreads(false) }

// settleThreads commits the open buckets of thread tracks that time has
// moved past (final: all of them).
func (b *Builder) settleThreads(final bool) {
	if !b.g.On() {
		return
	}
	keep := b.pending[:0]
	for _, i := range b.pending {
		bb := &b.tb[i>>threadBlockShift]
		if bb.threads == nil || bb.threads[i&(threadsPerBlock-1)].retired {
			continue // retired by retireFinished since it was noted
		}
		t := b.threadAt(i)
		b.touch(t)
		t.ml.settle(b.g, b.now, final)
		switch {
		case t.ml.open:
			keep = append(keep, i)
		case t.finished != 0:
			b.retire(t)
		default:
			t.busy = false
		}
	}
	b.pending = keep
	if final {
		for k := range b.tb {
			ts := b.tb[k].threads
			for j := 0; ts != nil && j < threadsPerBlock && k<<threadBlockShift+j < b.nthreads; j++ {
				if t := &ts[j]; t.ml != nil {
					t.ml.settle(b.g, b.now, true)
					b.retire(t)
				}
			}
		}
	}
}

// retireAfter is how many buckets from the start of the bucket of its
// finish a finished thread is retired (retireFinished): the bucket, and
// one more for the events GHC logs of a thread just after it finished (its
// label), which then find it not yet packed.
const retireAfter = 2

// finishing is a thread that finished, its track's bucket still open
// then: due is when it is retired (retireAfter).
type finishing struct {
	idx int32
	due uint64
}

// retireFinished retires, as Settle would, the threads whose time to
// retire (retireAfter) has come: a thread-heavy run's threads are retired
// a bucket or two after they finish, while their builders are still in
// the cache, rather than ten thousand at a time when the loader settles
// (every 65,536 events).
func (b *Builder) retireFinished() {
	q, i := b.finishing, b.finHead
	for i < len(q) && q[i].due <= b.now {
		i++
	}
	// Those of one bucket are due at once, and retire in order of first
	// appearance: a block's records hold the offsets of their packed
	// marks as deltas, small when the marks lie in the blocks' order.
	due := q[b.finHead:i]
	slices.SortFunc(due, func(x, y finishing) int { return cmp.Compare(x.idx, y.idx) })
	for _, f := range due {
		bb := &b.tb[f.idx>>threadBlockShift]
		if bb.threads == nil {
			continue
		}
		t := &bb.threads[f.idx&(threadsPerBlock-1)]
		if t.retired || t.ml == nil || t.ml.open && t.ml.collapsed {
			// A summarised bucket ends where it ends, or at its last
			// change if the data ends first (Finish): left to Settle, so
			// that which of the two a thread's last one gets does not
			// depend on this.
			continue
		}
		if t.ml.settle(b.g, b.now, false); !t.ml.open {
			b.retire(t)
		}
	}
	b.finHead = i
	if i == len(q) {
		b.finishing, b.finHead = q[:0], 0
	} else if i > len(q)/2 && i >= 1024 {
		b.finishing, b.finHead = q[:copy(q, q[i:])], 0
	}
}

// touch notes that thread t changed since the last snapshot. A thread new
// since needs no note: the next snapshot makes its block anyway (a load
// that takes no snapshot of its threads before its end noted every one of
// its millions of threads).
func (b *Builder) touch(t *threadBuilder) {
	if !t.dirty && int(t.idx) < b.prevN {
		t.dirty = true
		b.dirty = append(b.dirty, t.idx)
	}
}

// retire moves a finished thread's settled track into the arena: no mark
// can come after its finish (threadMark drops them).
func (b *Builder) retire(t *threadBuilder) {
	t.ml.payOwed()
	b.touch(t)
	t.retired = true
	if view := t.ml.marks.peek(); b.packs(view, t.ml.sums.len()) {
		marks := view.slice()
		t.stored, t.packed = packedStored(b.packed.add(&b.shapes, t.first, t.finished, marks)), true
		if t.finished != 0 {
			b.settled.add(marks)
		}
	} else {
		var x storedExtra
		t.stored, x = b.arena.store(t.ml)
		if x != (storedExtra{}) {
			if b.storedMore == nil {
				b.storedMore = map[int32]storedExtra{}
			}
			b.storedMore[t.idx] = x
		}
	}
	t.ml.reset()
	b.spare = append(b.spare, t.ml)
	t.ml, t.busy = nil, false
	if bb := &b.tb[t.idx>>threadBlockShift]; !b.unpacked {
		if bb.retired++; bb.retired == threadsPerBlock {
			b.seal(int(t.idx >> threadBlockShift))
		}
	}
}

// seal makes block k, all of whose threads have retired, as models keep
// it, and lets its threads' builders go.
func (b *Builder) seal(k int) {
	bb := &b.tb[k]
	bb.sealed = b.makeBlock(k)
	if len(b.storedMore) > 0 {
		for j := range threadsPerBlock {
			delete(b.storedMore, int32(k<<threadBlockShift+j))
		}
	}
	b.freeThreads = append(b.freeThreads, bb.threads)
	bb.threads = nil
}

// block returns block k of threads as a model keeps it: sealed, or made
// from its threads' builders.
func (b *Builder) block(k int) *threadBlock {
	if s := b.tb[k].sealed; s != nil {
		return s
	}
	return b.makeBlock(k)
}

// EndCapabilities says that the log was cut short (truncated or damaged)
// and is known for capability c only up to ends[c], its frontier (0: not
// at all; a capability beyond ends is known to the run's end): each
// capability's events stop where its last block was cut, and past them
// its state is not known. The models it makes then end capability c's
// track at ends[c] instead of at the run's end, and the track of a thread
// last on c there too, so that nothing is drawn or counted past what the
// log says (Model.Cut).
func (b *Builder) EndCapabilities(ends []uint64) { b.capEnds, b.cut = slices.Clone(ends), true }

// FrontiersFrom gives the models it makes the frontiers of m's
// capabilities (a model of a range of m's run knows each capability as far
// as m does), and m's Growing and Cut.
func (b *Builder) FrontiersFrom(m *Model) {
	b.capEnds, b.cut, b.growing = nil, m.Cut, m.Growing
	if !m.Partial() {
		return
	}
	for i := range m.HECs {
		h := &m.HECs[i]
		if h.Cap < 0 || h.Cap >= maxCaps {
			continue
		}
		for int(h.Cap) >= len(b.capEnds) {
			b.capEnds = append(b.capEnds, math.MaxUint64)
		}
		b.capEnds[h.Cap] = h.Frontier()
	}
}

// Frontiers returns each capability's frontier so far, by number: its
// latest event, or the end its last block read whole declares if later
// (HECBuilder.Reach); 0 for a capability without events. EndCapabilities
// takes them when a log read in one pass turns out to be cut short.
func (b *Builder) Frontiers() []uint64 {
	var out []uint64
	for _, sl := range b.slots() {
		if sl == nil || sl.h == nil {
			continue
		}
		for int(sl.cap) >= len(out) {
			out = append(out, 0)
		}
		out[sl.cap] = sl.h.known()
	}
	return out
}

// capEnd returns where the log's knowledge of capability c ends, if
// EndCapabilities or FrontiersFrom said so.
func (b *Builder) capEnd(c int) (uint64, bool) {
	if c < 0 || c >= len(b.capEnds) || b.capEnds[c] == math.MaxUint64 {
		return 0, false
	}
	return max(b.capEnds[c], b.start), true
}

// frontier returns where the model's knowledge of capability c (built by
// h) ends, given the end of its track as built (its last publication's,
// for a parallel load): never past the run's end; where EndCapabilities or
// FrontiersFrom says; while events still come, at the capability's latest
// (or at the end its last block read whole declares, HECBuilder.Reach),
// or, with a grid, where the bucket still being filled begins (its marks
// are not in the snapshot); the run's end once the builder has finished.
func (b *Builder) frontier(c int32, h *HECBuilder, built uint64) uint64 {
	if e, ok := b.capEnd(int(c)); ok {
		return min(b.end, e)
	}
	switch {
	case b.finished:
		return b.end
	case b.parallel:
		// Read in its own goroutine, the capability has got as far as
		// its last publication.
		return min(built, b.end)
	}
	fr := max(h.known(), b.start)
	if h.marks.open {
		fr = min(fr, max(h.g.start(h.marks.b), b.start))
	}
	return min(b.end, fr)
}

// known returns the time up to which the capability's events have all been
// added: its latest event, or what Reach said if later.
func (h *HECBuilder) known() uint64 { return max(h.last, h.reached) }

// LastCap returns the capability a thread's track was last on: that of
// its last mark if it is running or runnable, else that of the last run
// before it, among its last 32 marks (false if none, and for a finished
// thread, which is known to stay so). Past that capability's frontier the
// thread's state is not known.
func (t *Track) LastCap() (int32, bool) {
	for i := t.Len() - 1; i >= 0 && i >= t.Len()-checkpointEvery; i-- {
		switch m := t.Mark(i); m.State {
		case StateFinished:
			return 0, false
		case StateRunning, StateRunnable:
			if !m.Summary() {
				return int32(m.Arg), true
			}
		}
	}
	return 0, false
}

// openSpans returns the user spans whose STOP has not come, in a model
// whose capabilities are not all known to the run's end (see OpenSpan).
func (b *Builder) openSpans(m *Model) []UserSpan {
	if b.nopen == 0 || !m.Partial() {
		return nil
	}
	earliest := m.End
	for i := range m.HECs {
		earliest = min(earliest, m.HECs[i].Frontier())
	}
	var out []UserSpan
	for i := range b.opens {
		k := b.opens[i].key
		for _, o := range b.opens[i].spans {
			end := earliest
			if h := m.HEC(o.cap); h != nil {
				end = h.Frontier()
			}
			if th := m.ThreadByID(o.thread); o.thread != 0 && th != nil {
				end = min(end, th.Track.End())
				if th.Finished != 0 {
					end = min(end, th.Finished)
				}
			}
			out = append(out, UserSpan{Start: o.start, End: max(end, o.start), Label: k.label, ID: k.id, Cap: o.cap, Thread: o.thread, Open: true})
		}
	}
	slices.SortFunc(out, func(a, b UserSpan) int {
		if a.Start != b.Start {
			return cmp.Compare(a.Start, b.Start)
		}
		return cmp.Compare(a.Label, b.Label)
	})
	return out
}

// Finish says that no more events will come: the next Snapshot holds every
// bucket, the last ones ended at their last change. (With Parallel, each
// HECBuilder is finished by its own Publish(t, true).)
func (b *Builder) Finish() {
	b.finished = true
	for _, sl := range b.slots() {
		sl.msgs.settle(b.msgGrid(), b.now, true)
	}
	if !b.parallel {
		for _, sl := range b.slots() {
			h := sl.h
			h.settle(h.last, true)
		}
	}
	b.settleThreads(true)
}
