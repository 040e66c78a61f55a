package timeline

import (
	"sort"
	"strconv"
	"strings"

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

var instantNames = [NumInstantKinds]string{"create thread", "create spark thread", "migrate thread", "wake up thread",
	"seq GC request", "par GC request", "shutdown", "user message", "marker", "log message"}

// String returns the kind's name, such as "create thread".
func (k InstantKind) String() string {
	if k < NumInstantKinds {
		return instantNames[k]
	}
	return "invalid"
}

// Instant is an event without duration shown on a HEC row. 16 bytes, no
// pointers.
type Instant struct {
	Time uint64
	Arg  uint32
	Arg2 uint16
	Kind InstantKind
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

// hecBuilder accumulates one HEC's data.
type hecBuilder struct {
	marks    chunkList[Mark]
	cps      []Durations
	state    Mark // the last mark (zero before any)
	instants chunkList[Instant]
	sparks   [NumSparkKinds]timeList
	samples  chunkList[SparkSample]
	seen     bool
}

// threadBuilder accumulates one thread's data.
type threadBuilder struct {
	id       uint32
	label    int32
	created  uint64
	finished uint64
	marks    []Mark
	cps      []Durations
	shared   bool // a snapshot holds marks and cps: copy before changing them
}

type spanKey struct {
	label int32
	id    uint32
}

type openSpan struct {
	start uint64
	cap   int32
}

// Builder builds a Model from events in one pass, in file order. It is not
// safe for concurrent use; Live wraps it for a model that grows while others
// read it. Add never fails: events that make no sense for the model (a stop
// of a thread that never ran, a capability out of range) are counted in
// Anomalies and otherwise ignored.
type Builder struct {
	hecs        []hecBuilder
	threads     []threadBuilder
	threadIdx   map[uint32]int32 // thread id → index in threads, for ids ≥ denseThreads
	threadDense []int32          // thread id → index+1 in threads (0: none), for ids < denseThreads
	strs        []string
	strIdx      map[string]int32
	global      chunkList[Instant] // instants of no HEC
	userSpans   chunkList[UserSpan]
	open        map[spanKey][]openSpan
	labels      []LabelStats
	labelIdx    map[int32]int
	start       uint64
	end         uint64
	events      int64
	anomalies   int64
	any         bool
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder {
	return &Builder{
		threadIdx: make(map[uint32]int32),
		strIdx:    make(map[string]int32),
		open:      make(map[spanKey][]openSpan),
		labelIdx:  make(map[int32]int),
	}
}

// intern returns the index of s in the string table.
func (b *Builder) intern(data []byte) int32 {
	if i, ok := b.strIdx[string(data)]; ok {
		return i
	}
	s := string(data)
	i := int32(len(b.strs))
	b.strs = append(b.strs, s)
	b.strIdx[s] = i
	return i
}

// hec returns the builder of capability c, or nil if c is out of range.
func (b *Builder) hec(c int32) *hecBuilder {
	if c < 0 || c >= maxCaps {
		return nil
	}
	for int(c) >= len(b.hecs) {
		b.hecs = append(b.hecs, hecBuilder{})
	}
	h := &b.hecs[c]
	h.seen = true
	return h
}

// denseThreads bounds the thread ids looked up by slice rather than map (GHC
// numbers threads from 1 upwards).
const denseThreads = 1 << 22

// thread returns the builder of thread id, creating it.
func (b *Builder) thread(id uint32) *threadBuilder {
	if id < denseThreads {
		if int(id) < len(b.threadDense) {
			if i := b.threadDense[id]; i > 0 {
				return &b.threads[i-1]
			}
		} else {
			n := max(int(id)+1, 2*len(b.threadDense))
			b.threadDense = append(b.threadDense, make([]int32, min(n, denseThreads)-len(b.threadDense))...)
		}
		b.threadDense[id] = int32(len(b.threads)) + 1
	} else {
		if i, ok := b.threadIdx[id]; ok {
			return &b.threads[i]
		}
		b.threadIdx[id] = int32(len(b.threads))
	}
	b.threads = append(b.threads, threadBuilder{id: id, label: -1})
	return &b.threads[len(b.threads)-1]
}

// mark appends a mark to a HEC track. Times never go back on a track: a mark
// stamped before the previous one (GC_END is back-dated) is moved to it.
func (h *hecBuilder) mark(m Mark) {
	if h.marks.len() > 0 && m.Time < h.state.Time {
		m.Time = h.state.Time
	}
	h.marks.add(m)
	h.state = m
}

// instant appends an instant, keeping times in order like mark does.
func (h *hecBuilder) instant(in Instant) {
	if n := h.instants.len(); n > 0 && in.Time < h.instants.last().Time {
		in.Time = h.instants.last().Time
	}
	h.instants.add(in)
}

// spark records one spark event.
func (h *hecBuilder) spark(k SparkKind, t uint64) {
	l := &h.sparks[k]
	if l.len() > 0 && t < l.last {
		t = l.last
	}
	l.add(t)
}

// mark inserts a mark into a thread track at its place in time (after marks
// of the same time): a thread's events come from several HECs, whose blocks
// the file interleaves out of time order. A woken mark inside a running span
// is dropped, whichever of the two arrives first: the RTS logs wakeups of
// threads that are already running.
func (t *threadBuilder) mark(m Mark) {
	if t.finished != 0 && m.Time >= t.finished && m.State != StateFinished {
		return // the RTS may wake a thread up just after it finished
	}
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
	keep := (p + checkpointEvery - 1) / checkpointEvery
	size := n + 1 - (q - p)
	if t.shared {
		marks := make([]Mark, size, size+size/4)
		copy(marks, t.marks[:p])
		copy(marks[p+1:], t.marks[q:])
		t.marks = marks
		t.cps = append([]Durations(nil), t.cps[:min(keep, len(t.cps))]...)
		t.shared = false
	} else {
		if size > n {
			t.marks = append(t.marks, Mark{})
		}
		copy(t.marks[p+1:], t.marks[q:n])
		t.marks = t.marks[:size]
		t.cps = t.cps[:min(keep, len(t.cps))]
	}
	t.marks[p] = m
}

// Add adds one event. Its Data is copied where the model keeps it.
func (b *Builder) Add(ev *ingest.Event) {
	b.events++
	t := ev.Time
	if !b.any || t < b.start {
		b.start = t
	}
	b.any = true
	if t > b.end {
		b.end = t
	}
	var h *hecBuilder
	if ev.Cap != ingest.NoCap {
		h = b.hec(ev.Cap)
	}
	capArg := uint32(max(ev.Cap, 0))
	switch ev.Kind {
	case ingest.KindCreateThread, ingest.KindCreateSparkThread:
		th := b.thread(ev.Thread())
		th.created = t
		th.mark(Mark{Time: t, State: StateRunnable, Arg: capArg, woken: true})
		if h != nil {
			k := InstantCreateThread
			if ev.Kind == ingest.KindCreateSparkThread {
				k = InstantCreateSparkThread
			}
			h.instant(Instant{Time: t, Arg: ev.Thread(), Kind: k})
		}
	case ingest.KindRunThread:
		b.thread(ev.Thread()).mark(Mark{Time: t, State: StateRunning, Arg: capArg})
		if h != nil {
			h.mark(Mark{Time: t, State: StateRunning, Arg: ev.Thread()})
		}
	case ingest.KindStopThread:
		st := ev.StopStatus()
		th := b.thread(ev.Thread())
		switch {
		case st == ingest.StopFinished:
			th.finished = t
			th.mark(Mark{Time: t, State: StateFinished})
		case st.Blocked() || st == ingest.StopForeignCall:
			m := Mark{Time: t, State: StateBlocked, Reason: uint8(st)}
			if st == ingest.StopBlockedBlackHole {
				m.Arg = uint32(ev.Args[2])
			}
			th.mark(m)
		default:
			th.mark(Mark{Time: t, State: StateRunnable, Arg: capArg, Reason: uint8(st)})
		}
		if h != nil {
			if h.state.State == StateRunning {
				h.mark(Mark{Time: t, State: StateIdle, Arg: ev.Thread(), Reason: uint8(st)})
			} else {
				b.anomalies++
			}
		}
	case ingest.KindThreadRunnable:
		b.thread(ev.Thread()).mark(Mark{Time: t, State: StateRunnable, Arg: capArg, woken: true})
	case ingest.KindMigrateThread:
		if h != nil {
			h.instant(Instant{Time: t, Arg: ev.Thread(), Arg2: uint16(ev.Args[1]), Kind: InstantMigrateThread})
		}
	case ingest.KindThreadWakeup:
		b.thread(ev.Thread()).mark(Mark{Time: t, State: StateRunnable, Arg: uint32(ev.Args[1]), woken: true})
		if h != nil {
			h.instant(Instant{Time: t, Arg: ev.Thread(), Arg2: uint16(ev.Args[1]), Kind: InstantWakeupThread})
		}
	case ingest.KindThreadLabel:
		b.thread(ev.Thread()).label = b.intern(ev.Data)
	case ingest.KindGCStart:
		if h != nil {
			h.mark(Mark{Time: t, State: StateGCSync})
		}
	case ingest.KindGCWork, ingest.KindGCIdle, ingest.KindGCDone:
		if h != nil {
			s := StateGCWork
			if ev.Kind == ingest.KindGCIdle {
				s = StateGCIdle
			} else if ev.Kind == ingest.KindGCDone {
				s = StateGCDone
			}
			h.mark(Mark{Time: t, State: s})
		}
	case ingest.KindGCEnd:
		if h != nil {
			if h.state.State.GC() {
				h.mark(Mark{Time: t, State: StateIdle})
			} else {
				b.anomalies++
			}
		}
	case ingest.KindRequestSeqGC, ingest.KindRequestParGC:
		if h != nil {
			k := InstantRequestSeqGC
			if ev.Kind == ingest.KindRequestParGC {
				k = InstantRequestParGC
			}
			h.instant(Instant{Time: t, Kind: k})
		}
	case ingest.KindShutdown, ingest.KindCapDelete:
		if h != nil {
			if h.state.State == StateRunning {
				b.thread(h.state.Arg).mark(Mark{Time: t, State: StateRunnable, Arg: capArg})
			}
			if h.state.State != StateIdle {
				h.mark(Mark{Time: t, State: StateIdle})
			}
			if ev.Kind == ingest.KindShutdown {
				h.instant(Instant{Time: t, Kind: InstantShutdown})
			}
		}
	case ingest.KindUserMsg, ingest.KindUserMarker, ingest.KindLogMsg:
		k := InstantUserMessage
		if ev.Kind == ingest.KindUserMarker {
			k = InstantUserMarker
		} else if ev.Kind == ingest.KindLogMsg {
			k = InstantLogMessage
		}
		in := Instant{Time: t, Arg: uint32(b.intern(ev.Data)), Kind: k}
		if h != nil {
			h.instant(in)
		} else {
			b.global.add(in)
		}
		if ev.Kind == ingest.KindUserMsg {
			b.userMessage(t, ev.Cap, ev.Data)
		}
	case ingest.KindSparkCounters:
		if h != nil {
			a := &ev.Args
			h.samples.add(SparkSample{Time: t, Created: a[0], Dud: a[1], Overflowed: a[2], Converted: a[3], GCd: a[4], Fizzled: a[5], Pool: a[6]})
		}
	case ingest.KindSparkCreate, ingest.KindSparkDud, ingest.KindSparkOverflow, ingest.KindSparkRun,
		ingest.KindSparkSteal, ingest.KindSparkFizzle, ingest.KindSparkGC, ingest.KindRunSpark, ingest.KindStealSpark:
		if h != nil {
			h.spark(sparkKindOf[ev.Kind], t)
		}
	case ingest.KindStartup:
		for c := int32(0); c < int32(min(ev.Args[0], maxCaps)); c++ {
			b.hec(c)
		}
	case ingest.KindCapCreate:
		if ev.Args[0] < maxCaps {
			b.hec(int32(ev.Args[0]))
		}
	}
}

// sparkKindOf maps the spark event kinds to spark kinds.
var sparkKindOf = [...]SparkKind{
	ingest.KindSparkCreate: SparkCreated, ingest.KindSparkDud: SparkDud, ingest.KindSparkOverflow: SparkOverflowed,
	ingest.KindSparkRun: SparkConverted, ingest.KindSparkSteal: SparkStolen, ingest.KindSparkFizzle: SparkFizzled,
	ingest.KindSparkGC: SparkGCd, ingest.KindRunSpark: SparkConverted, ingest.KindStealSpark: SparkStolen,
}

// parseUserSpan splits "START x", "STOP x", "START 3 x" into its parts.
func parseUserSpan(msg string) (start bool, id uint32, label string, ok bool) {
	switch {
	case strings.HasPrefix(msg, "START "):
		start, label = true, msg[len("START "):]
	case strings.HasPrefix(msg, "STOP "):
		label = msg[len("STOP "):]
	default:
		return false, 0, "", false
	}
	label = strings.TrimSpace(label)
	if sp := strings.IndexByte(label, ' '); sp > 0 {
		if n, err := strconv.ParseUint(label[:sp], 10, 32); err == nil {
			id, label = uint32(n), strings.TrimSpace(label[sp+1:])
		}
	}
	return start, id, label, label != ""
}

// userMessage pairs START/STOP messages into user spans.
func (b *Builder) userMessage(t uint64, c int32, data []byte) {
	if len(data) < 5 || (data[1] != 'T') {
		return
	}
	start, id, label, ok := parseUserSpan(string(data))
	if !ok {
		return
	}
	key := spanKey{label: b.intern([]byte(label)), id: id}
	li, ok := b.labelIdx[key.label]
	if !ok {
		li = len(b.labels)
		b.labelIdx[key.label] = li
		b.labels = append(b.labels, LabelStats{Label: key.label})
	}
	st := &b.labels[li]
	if start {
		b.open[key] = append(b.open[key], openSpan{start: t, cap: c})
		st.Open++
		return
	}
	stack := b.open[key]
	if len(stack) == 0 {
		st.Unmatched++
		return
	}
	o := stack[len(stack)-1]
	if len(stack) == 1 {
		delete(b.open, key)
	} else {
		b.open[key] = stack[:len(stack)-1]
	}
	st.Open--
	end := max(t, o.start)
	d := end - o.start
	b.userSpans.add(UserSpan{Start: o.start, End: end, Label: key.label, ID: id, Cap: o.cap})
	if st.Count == 0 || d < st.Min {
		st.Min = d
	}
	if d > st.Max {
		st.Max = d
	}
	st.Count++
	st.Total += d
}
