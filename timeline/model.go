package timeline

import (
	"slices"
	"sort"
	"sync/atomic"

	"github.com/hecscope/hecscope/ingest"
)

// maxCaps bounds the capability numbers the model accepts; events of larger
// capabilities (only corrupt input has them) are kept off the HEC rows.
const maxCaps = 4096

// InstantKind says what an instant event on a HEC row is.
type InstantKind uint8

// Instant kinds. The comment says what Instant.Arg and Instant.Arg2 hold.
const (
	InstantCreateThread      InstantKind = iota // thread created
	InstantCreateSparkThread                    // spark thread created
	InstantMigrateThread                        // thread, new HEC
	InstantWakeupThread                         // thread, HEC it belongs to
	InstantRequestSeqGC                         // —
	InstantRequestParGC                         // —
	InstantShutdown                             // —
	InstantUserMessage                          // string (Model.String)
	InstantUserMarker                           // string (Model.String)
	InstantLogMessage                           // string (Model.String)
	NumInstantKinds                             // number of instant kinds
)

// Instant is an event without duration shown on a HEC row. 16 bytes, no
// pointers.
type Instant struct {
	Time uint64
	Arg  uint32
	Arg2 uint16
	Kind InstantKind
	// summary: the instant stands for Arg instants (of the kinds whose bits
	// Arg2 sets) in the grid bucket holding Time, from Time on (its start,
	// or its first message).
	summary bool
}

// Summary reports whether the instant stands for a busy bucket of an
// overview model: Count instants of the kinds Kinds from Time to the end
// of the bucket.
func (in Instant) Summary() bool { return in.summary }

// Count returns how many instants it stands for (1 unless a summary).
func (in Instant) Count() int {
	if in.summary {
		return int(in.Arg)
	}
	return 1
}

// Kinds returns a bit per kind of the instants it stands for.
func (in Instant) Kinds() uint16 {
	if in.summary {
		return in.Arg2
	}
	return 1 << in.Kind
}

// SparkKind is what happened to a spark, from individual spark events.
type SparkKind uint8

// Spark kinds (GHC's SPARK_* events; RunSpark and StealSpark of GHC ≤ 7.2
// count as converted and stolen).
const (
	SparkCreated    SparkKind = iota // added to the pool
	SparkDud                         // not added: already evaluated
	SparkOverflowed                  // not added: pool full
	SparkConverted                   // taken from the pool and run
	SparkStolen                      // run after being stolen from another HEC
	SparkFizzled                     // evaluated by someone else before it ran
	SparkGCd                         // garbage collected unevaluated
	NumSparkKinds                    // number of spark kinds
)

var sparkNames = [NumSparkKinds]string{"created", "dud", "overflowed", "converted", "stolen", "fizzled", "GC'd"}

// String returns the kind's name, such as "fizzled".
func (k SparkKind) String() string {
	if k < NumSparkKinds {
		return sparkNames[k]
	}
	return "invalid"
}

// SparkSample is one SparkCounters event: a HEC's cumulative spark counts and
// its pool size at Time.
type SparkSample struct {
	Time                                                    uint64
	Created, Dud, Overflowed, Converted, GCd, Fizzled, Pool uint64
}

// UserSpan is a period labelled by a pair of user messages "START x" and
// "STOP x" (the ghc-events-analyze convention; "START 3 x" gives instance 3).
type UserSpan struct {
	Start, End uint64
	Label      int32  // string (Model.String)
	ID         uint32 // numeric instance id, 0 when absent
	Cap        int32  // HEC of the START message, ingest.NoCap if none
	Thread     uint32 // thread running on Cap at the START, 0 if none known
	// Open says no STOP was seen (Model.OpenSpan): End is then where the
	// log's knowledge of the span's capability ends, its frontier.
	Open bool
}

// LabelStats sums the user spans of one label.
type LabelStats struct {
	Label     int32 // string (Model.String)
	Count     int
	Total     uint64 // ns
	Min, Max  uint64 // ns
	Open      int    // STARTs not (yet) stopped
	Unmatched int    // STOPs without a START
}

// Mean returns the mean span duration in ns (0 without spans).
func (s *LabelStats) Mean() uint64 {
	if s.Count == 0 {
		return 0
	}
	return s.Total / uint64(s.Count)
}

// HECBuilder accumulates one capability's rows: its track of states, its
// instant events (other than messages and markers, which the Builder keeps)
// and its sparks. A loader may feed it from the capability's own goroutine
// (see Builder.Parallel); it is not safe for concurrent use.
type HECBuilder struct {
	g         Grid
	marks     markList
	instants  instantList
	sparks    [NumSparkKinds]sparkList
	samples   chunkList[SparkSample]
	sample    SparkSample // the last sample, not yet committed (with a grid)
	hasSample bool
	seen      bool
	anomalies int64
	last      uint64 // the latest time seen
	reached   uint64 // the capability's events are all known up to here (Reach)
	// pub is the HEC as last published, for a parallel loader's snapshots.
	pub atomic.Pointer[HEC]
}

// threadBuilder accumulates one thread's data.
// A thread-heavy run's builder holds millions: the fields are in an order
// that leaves no padding (64 bytes).
type threadBuilder struct {
	id       uint32
	idx      int32 // index in Builder.threads
	label    int32
	busy     bool // in Builder.pending
	dirty    bool // in Builder.dirty: changed since the last snapshot
	retired  bool // stored holds the track
	packed   bool // stored is where its packed marks lie (see threads.go)
	created  uint64
	finished uint64
	first    uint64
	// Without a grid: ex, every mark. With a grid: ml while the thread
	// lives, then stored, where its track lies in the builder's arena.
	ex     *exactMarks
	ml     *markList
	stored storedTrack
}

// exactMarks is a thread's every mark, in time order (events that come out
// of order are inserted); shared says a snapshot holds marks and cps, to be
// copied before they change.
type exactMarks struct {
	marks  []Mark
	cps    checkpointList
	shared bool
}

// storedTrack is where a finished thread's marks lie in the arena, or for
// a packed track (threadBuilder.packed) in the packed arena, at offset
// marks<<32 | nmarks. Its summaries and checkpoints, which only busy or
// long-lived threads have, are placed in the builder's storedMore: a
// thread-heavy run's builder holds millions of these.
type storedTrack struct {
	marks, nmarks int32
}

// packedStored returns where the packed marks at offset at of the packed
// arena lie.
func packedStored(at uint64) storedTrack {
	return storedTrack{marks: int32(uint32(at >> 32)), nmarks: int32(uint32(at))}
}

// packedAt returns the offset in the packed arena of a packed track.
func (s storedTrack) packedAt() uint64 { return uint64(uint32(s.marks))<<32 | uint64(uint32(s.nmarks)) }

// storedExtra is where a finished thread's summaries and checkpoints lie
// in the arena.
type storedExtra struct {
	sums, nsums, cps, ncps int32
}

// trackArena holds the tracks of finished threads back to back, so that a
// thread costs its marks and a few words, not a list of its own.
type trackArena struct {
	marks chunkList[Mark]
	sums  stretchList
	cps   checkpointArena
}

// store moves a settled track into the arena (its checkpoints computed
// first), copying straight from the list's chunks.
func (a *trackArena) store(l *markList) (storedTrack, storedExtra) {
	if l.marks.len() > checkpointEvery {
		extendCheckpoints(l.marks.view(), l.sums.view(), &l.cps)
	}
	st := storedTrack{marks: int32(a.marks.len()), nmarks: int32(l.marks.len())}
	var x storedExtra
	if l.sums.len() > 0 || l.cps.len() > 0 {
		x = storedExtra{sums: int32(a.sums.len()), nsums: int32(l.sums.len()), cps: int32(a.cps.len()), ncps: int32(l.cps.len())}
	}
	a.marks.addAll(&l.marks)
	a.sums.addAll(&l.sums)
	a.cps.addAll(&l.cps)
	return st, x
}

type spanKey struct {
	label int32
	id    uint32
}

type openSpan struct {
	start  uint64
	cap    int32
	thread uint32 // running on cap at the START (0: none known)
}

// openStack is the spans of one label and instance whose STOP has not
// come, on every thread, the latest last.
type openStack struct {
	key   spanKey
	spans []openSpan
}

// closedBy returns the index of the open span that a STOP on thread th
// closes: spans pair per thread, nested, so the latest START on th; if th
// has none open (a span handed over to another thread), the latest START
// on any thread, of two at once the lower thread's. (Package spans pairs
// them so too: two threads in spans of one label at once each close their
// own.)
func (s *openStack) closedBy(th uint32) int {
	for i := len(s.spans) - 1; i >= 0; i-- {
		if s.spans[i].thread == th {
			return i
		}
	}
	best := 0
	for i, o := range s.spans[1:] {
		if b := s.spans[best]; o.start > b.start || o.start == b.start && o.thread <= b.thread {
			best = i + 1
		}
	}
	return best
}

// spanMsg is what one distinct message says of user spans (see
// ingest.ParseUserSpan), worked out the first time it occurs: a log's
// millions of START and STOP messages are a handful of strings.
type spanMsg struct {
	ok    bool // the message starts or stops a span
	start bool
	id    uint32
	li    int32 // the label's statistics in Builder.labels
	stack int32 // the stack in Builder.opens of its label and instance
}

// Builder builds a Model from events in one pass (NewOverviewBuilder).
// Without a grid (the zero Grid) it keeps every mark and takes events in
// file order; with one it summarises busy buckets and needs events in time
// order (ingest.Merge), as it cannot re-open a summarised bucket. It is not
// safe for concurrent use; Live wraps it for a model that grows while others
// read it, and Parallel hands each capability's part to its own goroutine.
// Add never fails: events that make no sense for the model (a stop of a
// thread that never ran, a capability out of range) are counted in
// Anomalies and otherwise ignored.
type Builder struct {
	g           Grid
	hecs        []*hecSlot         // capability c's at c, for the capabilities numbered densely from 0
	far         map[int32]*hecSlot // capabilities numbered far beyond the others (a corrupt block marker)
	parallel    bool
	finished    bool                              // Finish was called
	consume     bool                              // Final: let thread records go as their Threads are made
	tb          []threadsBuilder                  // the threads in order of first appearance, by blocks
	nthreads    int                               // how many
	names       func(uint32) string               // the labels of threads as they occur (NameThreads)
	threadIdx   map[uint32]int32                  // thread id → index in threads, for ids ≥ denseThreads
	threadDense denseIDs                          // thread id → index in threads, for ids < denseThreads
	freeThreads []*[threadsPerBlock]threadBuilder // the builders of sealed blocks, for new threads
	pending     []int32                           // threads with an open bucket (with a grid)
	finishing   []finishing                       // finished threads to retire (retireFinished), in order of finish, from finHead on
	finHead     int                               // the first of finishing not retired
	arena       trackArena                        // the tracks of finished threads (with a grid)
	packed      packedArena                       // the packed marks of finished threads (with a grid)
	shapes      markShapes                        // the shapes of packed tracks
	settled     SettledStates                     // the sum of the finished threads packed when they retired
	unpacked    bool                              // keep every track whole and every thread's builder: the reference the tests of packing compare with
	scratch     [2][]byte                         // where a block of threads is written before it is copied out (makeBlock)
	storedMore  map[int32]storedExtra             // where finished threads' summaries and checkpoints lie, by index in threads
	keep        func(uint32) bool                 // the threads to keep (nil: all)
	spare       []*markList                       // mark lists of retired threads, for new ones
	dirty       []int32                           // threads changed since the last snapshot
	prevBlocks  []*threadBlock                    // the last snapshot's blocks of threads
	prevN       int                               // and how many threads they hold
	declared    int                               // capabilities the RTS declared
	capEnds     []uint64                          // per capability: where the log's knowledge of it ends (EndCapabilities)
	cut         bool                              // capEnds are where a log cut short stops, not data still to come
	growing     bool                              // the models are of a range of a log still being read (FrontiersFrom)
	created     []int32                           // the capabilities the RTS declared, in order
	strs        []string
	strIdx      map[string]interned
	recent      recentStrs         // the entries of the strings interned last, found without strIdx
	global      chunkList[Instant] // instants of no HEC
	markers     []Instant          // every user marker in time order, Arg2 its capability
	userSpans   spanList
	spanMsgs    []spanMsg         // what the distinct START and STOP messages say (see interned)
	openIdx     map[spanKey]int32 // the stack in opens of each label and instance that has had a START
	opens       []openStack       // the spans whose STOP has not come, by label and instance
	nopen       int               // how many spans are open in all
	labels      []LabelStats
	labelIdx    map[int32]int
	start       uint64
	end         uint64
	now         uint64 // the latest time added (events come in time order with a grid)
	events      int64
	anomalies   int64
	any         bool
	allMsgs     bool // KeepMessages
	noSpans     bool // LeaveOutUserSpans
}

// NewOverviewBuilder returns an empty builder that summarises the buckets of
// g in which a track changes state collapseAt times or more (with the
// zero Grid, one that keeps every mark). Its events must
// come in time order.
func NewOverviewBuilder(g Grid) *Builder {
	return &Builder{
		g:         g,
		threadIdx: make(map[uint32]int32),
		strIdx:    make(map[string]interned),
		openIdx:   make(map[spanKey]int32),
		labelIdx:  make(map[int32]int),
	}
}

// Grid returns the builder's grid.
func (b *Builder) Grid() Grid { return b.g }

// KeepMessages makes the builder keep every message of the HECs even with
// a grid, where an overview keeps a busy bucket's as one summary (markers
// are kept whole either way): a window of a range zoomed in on shows each.
// Call it before adding any event.
func (b *Builder) KeepMessages() { b.allMsgs = true }

// LeaveOutUserSpans makes the builder leave out the user spans (the pairs
// of START and STOP messages) and their labels' figures, keeping the
// messages themselves: a window of a range for views, which draw the spans
// from the overview, does without them. Call it before adding any event.
func (b *Builder) LeaveOutUserSpans() { b.noSpans = true }

// msgGrid returns the grid the HECs' messages are summarised on.
func (b *Builder) msgGrid() Grid {
	if b.allMsgs {
		return Grid{}
	}
	return b.g
}

// Parallel prepares the builder for a loader that feeds each of the
// capabilities caps from its own goroutine: it returns their HECBuilders,
// which must then get those capabilities' events (HECBuilder.Add), while
// the builder itself gets, in time order, only the events GlobalKind
// selects (AddGlobal). Call it before adding any event.
func (b *Builder) Parallel(caps []int32) []*HECBuilder {
	b.parallel = true
	out := make([]*HECBuilder, len(caps))
	for i, c := range caps {
		out[i] = b.hec(c)
	}
	return out
}

// EndParallel ends what Parallel began, once the capabilities' goroutines
// are done: from then on the builder takes every part of every event itself
// (a followed log goes on from a parallel load).
func (b *Builder) EndParallel() { b.parallel = false }

// HEC returns the builder of capability c's rows (nil for a capability
// number the model refuses, see capSlack). Feed it a capability's events
// when they do not come through Add.
func (b *Builder) HEC(c int32) *HECBuilder { return b.hec(c) }

// interned is where a string lies in the string table, and for a user
// message what it says of user spans: span is 0 until it has been looked
// at, then -1 if it starts or stops no span, else 1 + its index in
// Builder.spanMsgs. (Kept beside the index, it costs the table nothing:
// an entry takes 24 bytes either way.)
type interned struct {
	idx, span int32
}

// intern returns the index of s in the string table.
func (b *Builder) intern(data []byte) int32 { return b.internEntry(data).idx }

// internEntry returns the string table's entry of data, adding it if new.
func (b *Builder) internEntry(data []byte) interned {
	slot := b.recent.slot(data)
	if r := *slot; r.idx > 0 && int(r.idx) <= len(b.strs) && b.strs[r.idx-1] == string(data) {
		return interned{idx: r.idx - 1, span: r.span}
	}
	e, ok := b.strIdx[string(data)]
	if !ok {
		s := string(data)
		e = interned{idx: int32(len(b.strs))}
		b.strs = append(b.strs, s)
		b.strIdx[s] = e
	}
	*slot = interned{idx: e.idx + 1, span: e.span}
	return e
}

// setInterned records what the table's entry e of data says of user spans.
func (b *Builder) setInterned(data []byte, e interned) {
	b.strIdx[b.strs[e.idx]] = e
	*b.recent.slot(data) = interned{idx: e.idx + 1, span: e.span}
}

// hecSlot is what the builder holds of one capability.
type hecSlot struct {
	cap     int32
	h       *HECBuilder
	running uint32  // the thread it runs, 0 if none
	msgs    msgList // messages and markers
}

// hec returns the builder of capability c, or nil if c is out of range.
func (b *Builder) hec(c int32) *HECBuilder {
	if s := b.slot(c); s != nil {
		return s.h
	}
	return nil
}

// slot returns what the builder holds of capability c, making it if it is
// new; nil if c is no capability number, or one far beyond the others when
// maxFarCaps such are already held.
func (b *Builder) slot(c int32) *hecSlot {
	if int(c) < len(b.hecs) {
		if c < 0 {
			return nil
		}
		return b.hecs[c]
	}
	if s, ok := b.far[c]; ok {
		return s
	}
	if c < 0 || c >= maxCapNumber {
		return nil
	}
	if c >= maxCaps || b.beyondOthers(c) {
		// Far beyond the capabilities seen or declared: a corrupt block
		// marker, most likely. Its events are kept on a capability of that
		// number (which the summary reports), apart from the dense ones so
		// that the cost follows the capabilities that occur, not the
		// number.
		if len(b.far) >= maxFarCaps {
			b.anomalies++
			return nil
		}
		if b.far == nil {
			b.far = map[int32]*hecSlot{}
		}
		s := &hecSlot{cap: c, h: &HECBuilder{g: b.g}}
		b.far[c] = s
		return s
	}
	for int(c) >= len(b.hecs) {
		n := int32(len(b.hecs))
		if s, ok := b.far[n]; ok {
			// The capabilities have grown up to one taken for far.
			delete(b.far, n)
			b.hecs = append(b.hecs, s)
			continue
		}
		b.hecs = append(b.hecs, &hecSlot{cap: n, h: &HECBuilder{g: b.g}})
	}
	return b.hecs[c]
}

// slots returns what the builder holds of every capability, in order of
// number.
func (b *Builder) slots() []*hecSlot {
	if len(b.far) == 0 {
		return b.hecs
	}
	out := slices.Clone(b.hecs)
	for _, s := range b.far {
		out = append(out, s)
	}
	slices.SortFunc(out[len(b.hecs):], func(x, y *hecSlot) int { return int(x.cap) - int(y.cap) })
	return out
}

// beyondOthers reports whether capability c lies further than capSlack
// beyond the capabilities seen or declared: a corrupt number, most likely.
func (b *Builder) beyondOthers(c int32) bool {
	return int(c) >= len(b.hecs)+capSlack && int(c) >= b.declared
}

// capSlack is how far beyond the capabilities seen or declared (by the
// RTS's startup or capability creation) a capability number may be before
// it is taken for a corrupt one: GHC numbers them densely from 0.
const capSlack = 64

// maxFarCaps bounds the capabilities far beyond the others that a builder
// keeps; maxCapNumber is one more than the highest capability number a
// block marker can hold (0xFFFF is no capability).
const (
	maxFarCaps   = 64
	maxCapNumber = 0xFFFF
)

// CreatedCaps returns the capabilities the RTS declared (by its startup or
// capability creation) among the events added so far, in increasing order.
func (b *Builder) CreatedCaps() []int32 { return slices.Clone(b.created) }

// declare records that the RTS declared capability c.
func (b *Builder) declare(c int32) {
	if c < 0 || c >= maxCaps {
		return
	}
	if i, found := slices.BinarySearch(b.created, c); !found {
		b.created = slices.Insert(b.created, i, c)
	}
	if b.beyondOthers(c) {
		// Far beyond the capabilities seen or declared (GHC creates them
		// in order from 0): a corrupt number, most likely, whose events go
		// apart (see slot). Declaring it must not make the thousands of
		// tracks in between: one CAP_CREATE of capability 4095 in a log of
		// two took a render from 25 MB to 554 MB, with 4,096 tracks.
		return
	}
	b.declared = max(b.declared, int(c)+1)
	b.hec(c)
}

// denseThreads bounds the thread ids looked up by slice rather than map (GHC
// numbers threads from 1 upwards).
const denseThreads = 1 << 24

// KeepThreads makes the builder keep only the threads keep says yes to
// (a command that draws a few rows); call it before adding events.
func (b *Builder) KeepThreads(keep func(id uint32) bool) { b.keep = keep }

// NameThreads gives each thread, as it first occurs, the label name
// returns for its id, if not "" (a ThreadLabel event later replaces it): a
// model of a range takes the labels set before it from an overview. Call
// it before adding events.
func (b *Builder) NameThreads(name func(id uint32) string) { b.names = name }

// noMark is the state of an event that marks no thread's track (a label).
const noMark = NumStates

// kept returns the builder of thread id, creating it, for an event at time
// at that marks its track with state s (noMark: none). It returns nil if
// the builder does not keep that thread, or if the thread has finished
// and its track has been retired: nothing marks a retired thread any
// more (labelThread still labels it), and an event that would mark it
// counts as an anomaly, unless it
// comes at or after its finish and does not finish it again (the RTS may
// wake a thread up just after it finished), as for a thread not retired
// (threadMark).
func (b *Builder) kept(id uint32, at uint64, s State) *threadBuilder {
	if b.keep != nil && !b.keep(id) {
		return nil
	}
	i, ok := b.threadIndex(id)
	if !ok {
		return b.newThread(id)
	}
	var finished uint64
	if bb := &b.tb[i>>threadBlockShift]; bb.threads != nil {
		t := &bb.threads[i&(threadsPerBlock-1)]
		if !t.retired {
			return t
		}
		finished = t.finished
	} else {
		finished = bb.sealed.record(int(i) & (threadsPerBlock - 1)).Finished
	}
	if s != noMark && (finished == 0 || at < finished || s == StateFinished) {
		b.anomalies++ // an event of a thread after it finished, out of order
	}
	return nil
}

// labelThread gives thread id the label of string label, creating the
// thread if it is new; false if the builder does not keep that thread. A
// label is not a mark: GHC logs it when the thread is labelled, often just
// after it finished, and a thread retired meanwhile takes it too (its
// block, if sealed, is made again with it).
func (b *Builder) labelThread(id uint32, label int32) bool {
	if b.keep != nil && !b.keep(id) {
		return false
	}
	i, ok := b.threadIndex(id)
	if !ok {
		b.newThread(id).label = label
		return true
	}
	bb := &b.tb[i>>threadBlockShift]
	if bb.threads == nil {
		bb.sealed = bb.sealed.relabel(int(i)&(threadsPerBlock-1), label)
		b.dirty = append(b.dirty, i)
		return true
	}
	t := &bb.threads[i&(threadsPerBlock-1)]
	t.label = label
	b.touch(t)
	return true
}

// thread returns the builder of thread id, creating it; id must not be
// that of a retired thread.
func (b *Builder) thread(id uint32) *threadBuilder {
	if i, ok := b.threadIndex(id); ok {
		return b.threadAt(i)
	}
	return b.newThread(id)
}

// threadIndex returns the index of thread id in order of first
// appearance, false if the builder has not seen it.
func (b *Builder) threadIndex(id uint32) (int32, bool) {
	if i, ok := b.threadDense.get(id); ok {
		return i, true
	}
	if len(b.threadIdx) > 0 {
		if i, ok := b.threadIdx[id]; ok {
			return i, true
		}
	}
	return 0, false
}

// newThread returns the builder of a thread not seen before.
func (b *Builder) newThread(id uint32) *threadBuilder {
	n := int32(b.nthreads)
	// Ids far beyond the dense table (a corrupt id, or GHC's numbering in a
	// long run) go in the map, so that one does not cost a table as long
	// as its value.
	if id < denseThreads && (b.threadDense.covers(id) || int(id) < 4*(int(n)+1024)) {
		b.threadDense.grow(int(id) + 1)
		b.threadDense.set(id, n)
	} else {
		b.threadIdx[id] = n
	}
	if n&(threadsPerBlock-1) == 0 {
		b.tb = append(b.tb, threadsBuilder{threads: b.threadBuilders()})
	}
	b.nthreads++
	t := b.threadAt(n)
	*t = threadBuilder{id: id, idx: n, label: -1}
	if b.names != nil {
		if s := b.names(id); s != "" {
			t.label = b.intern([]byte(s))
		}
	}
	return t
}

// threadBuilders returns room for the builders of a new block of threads:
// that of a sealed block if there is one (storm170's 1.6 M threads
// allocated 117 MB of builders in 25 k blocks while loading, 4 KB at a
// time, though a few hundred blocks live at once).
func (b *Builder) threadBuilders() *[threadsPerBlock]threadBuilder {
	n := len(b.freeThreads)
	if n == 0 {
		return new([threadsPerBlock]threadBuilder)
	}
	ts := b.freeThreads[n-1]
	b.freeThreads = b.freeThreads[:n-1]
	*ts = [threadsPerBlock]threadBuilder{}
	return ts
}

// threadsBuilder is the builders of a block of threadsPerBlock threads in
// order of first appearance. With a grid, once every one of them has
// finished and its track has been retired, the block is made as models
// keep it (sealed) and the builders are let go: a run of millions of
// short-lived threads holds a few bytes for each of them while it loads,
// not 64.
type threadsBuilder struct {
	threads *[threadsPerBlock]threadBuilder // nil once sealed
	sealed  *threadBlock
	retired int // threads retired
}

// threadAt returns the i-th thread's builder, which must not be sealed.
func (b *Builder) threadAt(i int32) *threadBuilder {
	return &b.tb[i>>threadBlockShift].threads[i&(threadsPerBlock-1)]
}

// mark appends a mark to the HEC's track. Times never go back on a track: a
// mark stamped before the previous one (GC_END is back-dated) is moved to
// it.
func (h *HECBuilder) mark(m Mark) {
	if last := h.marks.last; (h.marks.marks.len() > 0 || h.marks.open) && m.Time < last.Time {
		m.Time = last.Time
	}
	h.marks.add(h.g, m)
}

// state returns the mark in force on the HEC.
func (h *HECBuilder) state() Mark { return h.marks.last }

// threadMark adds a mark to thread t's track.
func (b *Builder) threadMark(t *threadBuilder, m Mark) {
	if t.finished != 0 && m.Time >= t.finished && m.State != StateFinished {
		return // the RTS may wake a thread up just after it finished
	}
	b.touch(t)
	if t.first == 0 || m.Time < t.first {
		t.first = m.Time
	}
	if !b.g.On() {
		if t.ex == nil {
			t.ex = &exactMarks{}
		}
		t.ex.mark(m)
		return
	}
	if t.ml == nil {
		if n := len(b.spare); n > 0 {
			t.ml, b.spare = b.spare[n-1], b.spare[:n-1]
		} else {
			t.ml = &markList{}
		}
	}
	last := t.ml.last
	hasLast := t.ml.marks.len() > 0 || t.ml.open
	if hasLast && m.Time < last.Time {
		m.Time = last.Time // out of order by a back-dated event: kept in order
	}
	if m.woken && hasLast && last.State == StateRunning {
		return
	}
	t.ml.add(b.g, m)
	if t.ml.open && !t.busy {
		t.busy = true
		b.pending = append(b.pending, t.idx)
	}
}

// mark inserts a mark into a thread track at its place in time (after marks
// of the same time): a thread's events come from several HECs, whose blocks
// the file interleaves out of time order. A woken mark inside a running span
// is dropped, whichever of the two arrives first: the RTS logs wakeups of
// threads that are already running.
func (t *exactMarks) mark(m Mark) {
	n := len(t.marks)
	if n == 0 || m.Time >= t.marks[n-1].Time {
		if m.woken && n > 0 && t.marks[n-1].State == StateRunning {
			return
		}
		t.marks = append(t.marks, m)
		return
	}
	p := sort.Search(n, func(i int) bool { return t.marks[i].Time > m.Time })
	if m.woken && p > 0 && t.marks[p-1].State == StateRunning {
		return
	}
	// The marks from p on move one place right; when m starts a running
	// span, the woken marks right after it go.
	q := p
	if m.State == StateRunning {
		for q < n && t.marks[q].woken {
			q++
		}
	}
	// Checkpoints k ≥ 1 (stored at k-1) from marks before p stay valid.
	keep := max((p+checkpointEvery-1)/checkpointEvery-1, 0)
	size := n + 1 - (q - p)
	if t.shared {
		marks := make([]Mark, size, size+size/4)
		copy(marks, t.marks[:p])
		copy(marks[p+1:], t.marks[q:])
		t.marks = marks
		t.cps.truncate(keep, true)
		t.shared = false
	} else {
		if size > n {
			t.marks = append(t.marks, Mark{})
		}
		copy(t.marks[p+1:], t.marks[q:n])
		t.marks = t.marks[:size]
		t.cps.truncate(keep, false)
	}
	t.marks[p] = m
}

// GlobalKind reports whether the Builder's own part (AddGlobal) needs events
// of kind k: thread states, labels, messages and markers, the start and
// end of capabilities.
func GlobalKind(k ingest.Kind) bool {
	switch k {
	case ingest.KindCreateThread, ingest.KindCreateSparkThread, ingest.KindRunThread, ingest.KindStopThread,
		ingest.KindThreadRunnable, ingest.KindThreadWakeup, ingest.KindThreadLabel,
		ingest.KindShutdown, ingest.KindCapDelete, ingest.KindStartup, ingest.KindCapCreate,
		ingest.KindUserMsg, ingest.KindUserMarker, ingest.KindLogMsg:
		return true
	}
	return false
}

// Add adds one event. Its Data is copied where the model keeps it.
func (b *Builder) Add(ev *ingest.Event) {
	b.events++
	if t := ev.Time; ingest.SpansRun(ev) {
		if !b.any || t < b.start {
			b.start = t
		}
		b.any = true
		if t > b.end {
			b.end = t
		}
	}
	if ev.Cap != ingest.NoCap && !b.parallel {
		if h := b.hec(ev.Cap); h != nil {
			h.Add(ev)
		}
	}
	b.AddGlobal(ev)
}

// SetExtent sets the run's time span and event count, as a parallel
// loader counts them over all its capabilities' goroutines; a model of a
// range sets the range's bounds.
func (b *Builder) SetExtent(events int64, start, end uint64) {
	b.events, b.start, b.end, b.any = events, start, end, true
}

// SeedHEC starts capability c's track at time t in the state of m (the
// mark in force there): the start of a model of a range, the state taken
// from an overview.
func (b *Builder) SeedHEC(c int32, t uint64, m Mark) {
	if h := b.hec(c); h != nil {
		m.Time, m.summary, m.woken = t, false, false
		h.mark(m)
	}
}

// SeedThread starts thread id's track at time t in the state of m, with its
// label and creation time: the start of a model of a range, taken from an
// overview for a thread alive at t.
func (b *Builder) SeedThread(id uint32, label string, created, t uint64, m Mark) {
	th := b.thread(id)
	if label != "" {
		th.label = b.intern([]byte(label))
	}
	th.created = created
	m.Time, m.summary, m.woken = t, false, false
	b.threadMark(th, m)
}

// SeedSparkSample adds to capability c's SparkCounters samples one taken
// outside the range a model of a range covers: the last before it (from an
// overview) or those of a stretch after it, so that the spark pool and
// rates in the range are drawn between the samples either side of it, as
// in a model of the whole run. It does not extend the capability's rows.
// Samples come in time order: the one before the range's events, those
// after once they are all in.
func (b *Builder) SeedSparkSample(c int32, s SparkSample) {
	if h := b.hec(c); h != nil {
		h.addSample(s)
	}
}

// SparkSampleOf returns the sample a SparkCounters event holds.
func SparkSampleOf(ev *ingest.Event) SparkSample {
	c := ev.SparkCounters()
	return SparkSample{Time: ev.Time, Created: c.Created, Dud: c.Dud, Overflowed: c.Overflowed,
		Converted: c.Converted, GCd: c.GCd, Fizzled: c.Fizzled, Pool: c.Remaining}
}

// Add adds one event of the HEC's capability to its rows.
func (h *HECBuilder) Add(ev *ingest.Event) {
	t := ev.Time
	h.seen = true
	h.last = max(h.last, t)
	switch ev.Kind {
	case ingest.KindCreateThread, ingest.KindCreateSparkThread:
		k := InstantCreateThread
		if ev.Kind == ingest.KindCreateSparkThread {
			k = InstantCreateSparkThread
		}
		h.instants.add(h.g, Instant{Time: t, Arg: ev.Thread(), Kind: k})
	case ingest.KindRunThread:
		h.mark(Mark{Time: t, State: StateRunning, Arg: ev.Thread()})
	case ingest.KindStopThread:
		if h.state().State == StateRunning {
			h.mark(Mark{Time: t, State: StateIdle, Arg: ev.Thread(), Reason: uint8(ev.StopStatus())})
		} else {
			h.anomalies++
		}
	case ingest.KindMigrateThread:
		h.instants.add(h.g, Instant{Time: t, Arg: ev.Thread(), Arg2: uint16(ev.Args[1]), Kind: InstantMigrateThread})
	case ingest.KindThreadWakeup:
		h.instants.add(h.g, Instant{Time: t, Arg: ev.Thread(), Arg2: uint16(ev.Args[1]), Kind: InstantWakeupThread})
	case ingest.KindGCStart:
		h.mark(Mark{Time: t, State: StateGCSync})
	case ingest.KindGCWork, ingest.KindGCIdle, ingest.KindGCDone:
		s := StateGCWork
		if ev.Kind == ingest.KindGCIdle {
			s = StateGCIdle
		} else if ev.Kind == ingest.KindGCDone {
			s = StateGCDone
		}
		h.mark(Mark{Time: t, State: s})
	case ingest.KindGCEnd:
		if h.state().State.GC() {
			h.mark(Mark{Time: t, State: StateIdle})
		} else {
			h.anomalies++
		}
	case ingest.KindRequestSeqGC, ingest.KindRequestParGC:
		k := InstantRequestSeqGC
		if ev.Kind == ingest.KindRequestParGC {
			k = InstantRequestParGC
		}
		h.instants.add(h.g, Instant{Time: t, Kind: k})
	case ingest.KindShutdown, ingest.KindCapDelete:
		if h.state().State != StateIdle {
			h.mark(Mark{Time: t, State: StateIdle})
		}
		if ev.Kind == ingest.KindShutdown {
			h.instants.add(h.g, Instant{Time: t, Kind: InstantShutdown})
		}
	case ingest.KindSparkCounters:
		h.addSample(SparkSampleOf(ev))
	case ingest.KindSparkCreate, ingest.KindSparkDud, ingest.KindSparkOverflow, ingest.KindSparkRun,
		ingest.KindSparkSteal, ingest.KindSparkFizzle, ingest.KindSparkGC, ingest.KindRunSpark, ingest.KindStealSpark:
		if l := &h.sparks[sparkKindOf[ev.Kind]]; !l.addOpen(h.g, t) {
			l.add(h.g, t)
		}
	}
}

// addSample keeps a SparkCounters sample: every one without a grid, the
// last of each bucket with one.
func (h *HECBuilder) addSample(s SparkSample) {
	if !h.g.On() {
		h.samples.add(s)
		return
	}
	if h.hasSample && h.g.bucket(s.Time) != h.g.bucket(h.sample.Time) {
		h.samples.add(h.sample)
	}
	h.sample, h.hasSample = s, true
}

// settle commits what ended by t; final commits everything.
func (h *HECBuilder) settle(t uint64, final bool) {
	h.marks.settle(h.g, t, final)
	h.instants.settle(h.g, t, final)
	for k := range h.sparks {
		h.sparks[k].settle(h.g, t, final)
	}
	if h.hasSample && (final || h.g.start(h.g.bucket(h.sample.Time))+h.g.Width() <= t) {
		h.samples.add(h.sample)
		h.hasSample = false
	}
}

// Reach says that every event of the capability up to time t has been
// added: a block of its events was read whole, and its marker says it
// ends at t. A model still growing knows the capability up to its latest
// event or up to t, whichever is later (and never past the run's end).
func (h *HECBuilder) Reach(t uint64) { h.reached = max(h.reached, t) }

// Publish makes what the HEC has committed by time t visible to the
// builder's snapshots (final: everything). A parallel loader calls it from
// the capability's goroutine now and then, and with final at its end.
func (h *HECBuilder) Publish(t uint64, final bool) {
	h.settle(t, final)
	out := h.view(max(t, h.last))
	h.pub.Store(&out)
}

// view returns the HEC's committed rows as a HEC whose track lasts until end.
func (h *HECBuilder) view(end uint64) HEC {
	out := HEC{Track: h.marks.track(end), instants: h.instants.list.view(), samples: h.samples.view(), used: h.seen}
	for k := range h.sparks {
		out.sparks[k] = h.sparks[k].view(h.g)
	}
	return out
}

// AddGlobal adds the part of an event that is not its capability's alone
// (see GlobalKind): thread states, labels, messages and markers. With
// Parallel, the loader calls it (in time order) for those events only.
func (b *Builder) AddGlobal(ev *ingest.Event) {
	t := ev.Time
	b.now = max(b.now, t)
	if b.finHead < len(b.finishing) && b.finishing[b.finHead].due <= b.now {
		b.retireFinished()
	}
	capArg := uint32(max(ev.Cap, 0))
	switch ev.Kind {
	case ingest.KindCreateThread, ingest.KindCreateSparkThread:
		if th := b.kept(ev.Thread(), t, StateRunnable); th != nil {
			th.created = t
			b.threadMark(th, Mark{Time: t, State: StateRunnable, Arg: capArg, woken: true})
			b.touch(th)
		}
	case ingest.KindRunThread:
		if th := b.kept(ev.Thread(), t, StateRunning); th != nil {
			b.threadMark(th, Mark{Time: t, State: StateRunning, Arg: capArg})
		}
		if s := b.slot(ev.Cap); s != nil {
			s.running = ev.Thread()
		}
	case ingest.KindStopThread:
		st := ev.StopStatus()
		var m Mark
		switch {
		case st == ingest.StopFinished:
			m = Mark{Time: t, State: StateFinished}
		case st.Blocked() || st == ingest.StopForeignCall:
			m = Mark{Time: t, State: StateBlocked, Reason: uint8(st)}
			if st == ingest.StopBlockedBlackHole {
				m.Arg = uint32(ev.Args[2])
			}
		default:
			m = Mark{Time: t, State: StateRunnable, Arg: capArg, Reason: uint8(st)}
		}
		if th := b.kept(ev.Thread(), t, m.State); th != nil {
			b.threadMark(th, m)
			if m.State == StateFinished {
				th.finished = t
				if th.ml != nil && th.ml.open {
					b.finishing = append(b.finishing, finishing{idx: th.idx, due: b.g.start(th.ml.b) + retireAfter*b.g.Width()})
				}
			}
		}
		if s := b.slot(ev.Cap); s != nil {
			s.running = 0
		}
	case ingest.KindThreadRunnable:
		if th := b.kept(ev.Thread(), t, StateRunnable); th != nil {
			b.threadMark(th, Mark{Time: t, State: StateRunnable, Arg: capArg, woken: true})
		}
	case ingest.KindThreadWakeup:
		if th := b.kept(ev.Thread(), t, StateRunnable); th != nil {
			b.threadMark(th, Mark{Time: t, State: StateRunnable, Arg: uint32(ev.Args[1]), woken: true})
		}
	case ingest.KindThreadLabel:
		// Labels are mostly one per thread: kept without looking for an
		// equal string.
		if b.labelThread(ev.Thread(), int32(len(b.strs))) {
			b.strs = append(b.strs, string(ev.Data))
		}
	case ingest.KindShutdown, ingest.KindCapDelete:
		if s := b.slot(ev.Cap); s != nil && s.running != 0 {
			if th := b.kept(s.running, t, StateRunnable); th != nil {
				b.threadMark(th, Mark{Time: t, State: StateRunnable, Arg: capArg})
			}
			s.running = 0
		}
	case ingest.KindUserMsg, ingest.KindUserMarker, ingest.KindLogMsg:
		k := InstantUserMessage
		if ev.Kind == ingest.KindUserMarker {
			k = InstantUserMarker
		} else if ev.Kind == ingest.KindLogMsg {
			k = InstantLogMessage
		}
		msg := b.internEntry(ev.Data)
		in := Instant{Time: t, Arg: uint32(msg.idx), Kind: k}
		if s := b.slot(ev.Cap); s != nil {
			s.msgs.add(b.msgGrid(), in)
		} else {
			b.global.add(in)
		}
		if ev.Kind == ingest.KindUserMsg && !b.noSpans {
			b.userMessage(t, ev.Cap, ev.Data, msg)
		}
		if ev.Kind == ingest.KindUserMarker {
			mk := in
			mk.Arg2 = uint16(ev.Cap)
			// Markers of several capabilities arrive in file order.
			i := sort.Search(len(b.markers), func(i int) bool { return b.markers[i].Time > t })
			b.markers = slices.Insert(b.markers, i, mk)
		}
	case ingest.KindStartup:
		for c := int32(0); c < int32(min(ev.Args[0], maxCaps)); c++ {
			b.declare(c)
		}
	case ingest.KindCapCreate:
		if ev.Args[0] < maxCaps {
			b.declare(int32(ev.Args[0]))
		}
	}
}

// sparkKindOf maps the spark event kinds to spark kinds.
var sparkKindOf = [...]SparkKind{
	ingest.KindSparkCreate: SparkCreated, ingest.KindSparkDud: SparkDud, ingest.KindSparkOverflow: SparkOverflowed,
	ingest.KindSparkRun: SparkConverted, ingest.KindSparkSteal: SparkStolen, ingest.KindSparkFizzle: SparkFizzled,
	ingest.KindSparkGC: SparkGCd, ingest.KindRunSpark: SparkConverted, ingest.KindStealSpark: SparkStolen,
}

// userMessage pairs START/STOP messages into user spans; msg is data's
// entry in the string table.
func (b *Builder) userMessage(t uint64, c int32, data []byte, msg interned) {
	if len(data) < 5 || (data[1] != 'T') {
		return
	}
	if msg.span == 0 {
		// The first of these messages: what it says is kept with it.
		msg.span = -1
		if sm := b.parseSpanMsg(data); sm.ok {
			b.spanMsgs = append(b.spanMsgs, sm)
			msg.span = int32(len(b.spanMsgs))
		}
		b.setInterned(data, msg)
	}
	if msg.span < 0 {
		return
	}
	sm := &b.spanMsgs[msg.span-1]
	st := &b.labels[sm.li]
	os := &b.opens[sm.stack]
	if sm.start {
		o := openSpan{start: t, cap: c}
		if s := b.slot(c); s != nil {
			o.thread = s.running
		}
		os.spans = append(os.spans, o)
		b.nopen++
		st.Open++
		return
	}
	if len(os.spans) == 0 {
		st.Unmatched++
		return
	}
	var th uint32
	if s := b.slot(c); s != nil {
		th = s.running
	}
	i := os.closedBy(th)
	o := os.spans[i]
	os.spans = slices.Delete(os.spans, i, i+1)
	b.nopen--
	st.Open--
	end := max(t, o.start)
	d := end - o.start
	b.userSpans.add(spanRecord{start: o.start, end: end, label: os.key.label, id: sm.id, cap: o.cap, thread: o.thread})
	if st.Count == 0 || d < st.Min {
		st.Min = d
	}
	if d > st.Max {
		st.Max = d
	}
	st.Count++
	st.Total += d
}

// parseSpanMsg works out what a message says of user spans: its label
// interned, with its statistics and its stack of open spans made if new.
func (b *Builder) parseSpanMsg(data []byte) spanMsg {
	start, id, label, ok := ingest.ParseUserSpan(string(data))
	if !ok {
		return spanMsg{}
	}
	key := spanKey{label: b.intern([]byte(label)), id: id}
	li, ok := b.labelIdx[key.label]
	if !ok {
		li = len(b.labels)
		b.labelIdx[key.label] = li
		b.labels = append(b.labels, LabelStats{Label: key.label})
	}
	stack, ok := b.openIdx[key]
	if !ok {
		stack = int32(len(b.opens))
		b.openIdx[key] = stack
		b.opens = append(b.opens, openStack{key: key})
	}
	return spanMsg{ok: true, start: start, id: id, li: int32(li), stack: stack}
}
