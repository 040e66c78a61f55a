package timeline

// Model is an immutable snapshot of everything the builder has seen: safe to
// read from any number of goroutines while the builder goes on adding events.
// Times are ns since the RTS started.
type Model struct {
	// Start and End are the times of the first and last events.
	Start, End uint64
	// Events is the number of events added.
	Events int64
	// Anomalies counts events that contradicted the state of their HEC (a
	// stop of a thread that was not running, a GC end outside a GC).
	Anomalies int64
	// HECs are the capabilities, indexed by number.
	HECs []HEC
	// Threads are the Haskell threads in order of first appearance.
	Threads []Thread
	// Labels sums the user spans per label, in order of first appearance.
	Labels []LabelStats

	strs      []string
	global    chunkView[Instant]
	userSpans chunkView[UserSpan]
	tidx      *threadIndex
}

// HEC is one capability's rows: its track of states (idle, running thread
// Mark.Arg, GC phases), its instant events and its sparks.
type HEC struct {
	Track    Track
	instants chunkView[Instant]
	sparks   [NumSparkKinds]timeView
	samples  chunkView[SparkSample]
}

// Thread is one Haskell thread: its track of states (runnable, running on a
// HEC, blocked, finished), label and lifetime.
type Thread struct {
	ID uint32
	// Label is the ThreadLabel string (Model.String), -1 if none.
	Label int32
	// Created is the time of CreateThread (0 if the log does not have it);
	// Finished the time it finished (0 if it did not).
	Created, Finished uint64
	// First is the time of the thread's first mark (its first event).
	First uint64
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

// ThreadName returns the thread's label, or "thread N" without one.
func (m *Model) ThreadName(t *Thread) string {
	if t.Label >= 0 {
		return m.String(t.Label)
	}
	return "thread " + uitoa(uint64(t.ID))
}

func uitoa(v uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return string(b[i:])
}

// NumInstants returns the number of instant events of the HEC.
func (h *HEC) NumInstants() int { return h.instants.Len() }

// Instant returns the HEC's i-th instant event, in time order.
func (h *HEC) Instant(i int) Instant { return h.instants.At(i) }

// SearchInstants returns the index of the first instant at or after t.
func (h *HEC) SearchInstants(t uint64) int {
	return h.instants.search(0, func(in *Instant) bool { return in.Time >= t })
}

// Sparks returns how many spark events of kind k the HEC logged in [from, to).
func (h *HEC) Sparks(k SparkKind, from, to uint64) int {
	if to <= from || k >= NumSparkKinds {
		return 0
	}
	v := h.sparks[k]
	a := countBefore(v, 0, from)
	return countBefore(v, a, to) - a
}

// NumSparkSamples returns the number of SparkCounters samples of the HEC.
func (h *HEC) NumSparkSamples() int { return h.samples.Len() }

// SparkSample returns the HEC's i-th SparkCounters sample.
func (h *HEC) SparkSample(i int) SparkSample { return h.samples.At(i) }

// NumGlobalInstants returns the number of instant events that belong to no HEC.
func (m *Model) NumGlobalInstants() int { return m.global.Len() }

// GlobalInstant returns the i-th instant event of no HEC, in file order.
func (m *Model) GlobalInstant(i int) Instant { return m.global.At(i) }

// NumUserSpans returns the number of START/STOP user spans.
func (m *Model) NumUserSpans() int { return m.userSpans.Len() }

// UserSpan returns the i-th user span, in order of their STOP messages.
func (m *Model) UserSpan(i int) UserSpan { return m.userSpans.At(i) }

// Snapshot returns the model of the events added so far. It costs time in
// the number of threads and HECs, not of events: the snapshot shares the
// builder's storage, which the builder only ever appends to (or copies before
// changing, for the marks of a thread whose events came out of time order).
func (b *Builder) Snapshot() *Model {
	m := &Model{
		Start:     b.start,
		End:       b.end,
		Events:    b.events,
		Anomalies: b.anomalies,
		strs:      b.strs[:len(b.strs):len(b.strs)],
		global:    b.global.view(),
		userSpans: b.userSpans.view(),
		Labels:    append([]LabelStats(nil), b.labels...),
		tidx:      &threadIndex{},
	}
	m.HECs = make([]HEC, len(b.hecs))
	for i := range b.hecs {
		h := &b.hecs[i]
		mv := h.marks.view()
		h.cps = extendCheckpoints(mv, h.cps)
		out := &m.HECs[i]
		out.Track = Track{marks: mv, cps: h.cps[:len(h.cps):len(h.cps)], end: b.end}
		out.instants = h.instants.view()
		for k := range h.sparks {
			out.sparks[k] = h.sparks[k].view()
		}
		out.samples = h.samples.view()
	}
	m.Threads = make([]Thread, len(b.threads))
	for i := range b.threads {
		t := &b.threads[i]
		mv := sliceView(t.marks)
		t.cps = extendCheckpoints(mv, t.cps)
		t.shared = true
		m.Threads[i] = Thread{ID: t.id, Label: t.label, Created: t.created, Finished: t.finished,
			Track: Track{marks: mv, cps: t.cps[:len(t.cps):len(t.cps)], end: b.end}}
		if len(t.marks) > 0 {
			m.Threads[i].First = t.marks[0].Time
		}
	}
	return m
}
