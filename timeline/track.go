package timeline

import "github.com/hecscope/hecscope/ingest"

// State is what a HEC or a thread is doing during a span of time.
type State uint8

// States. A HEC is idle, runs a thread, or is in one phase of a garbage
// collection; a thread is runnable, running, blocked or finished.
const (
	StateIdle     State = iota // HEC: idle; thread: not yet created
	StateRunning               // HEC: running a thread (Mark.Arg); thread: running on HEC Mark.Arg
	StateGCSync                // HEC: GC started, not yet working (all of the GC in logs without phases)
	StateGCWork                // HEC: a GC thread working
	StateGCIdle                // HEC: a GC thread idle, looking for work
	StateGCDone                // HEC: a GC thread done, waiting for the GC to end
	StateRunnable              // thread: ready to run, waiting for a HEC
	StateBlocked               // thread: blocked (Mark.Reason says on what)
	StateFinished              // thread: finished
	NumStates                  // number of states
)

// GC reports whether the state is a phase of garbage collection.
func (s State) GC() bool { return s >= StateGCSync && s <= StateGCDone }

// Mark is a change of state: from Time on, until the next mark, its track is
// in State. Marks are 16 bytes and hold no pointers.
type Mark struct {
	Time uint64
	// Arg is the running thread on a HEC track, the HEC on a thread track
	// (for StateRunning and StateRunnable), or the owner thread of a black
	// hole for a thread blocked on one.
	Arg uint32
	// State is the state entered.
	State State
	// Reason is the ingest.StopStatus of the StopThread that caused the mark:
	// on a HEC track, why the thread that ran until this mark stopped; on a
	// thread track, why it blocked. 0 otherwise.
	Reason uint8
	// woken marks a thread's Runnable mark made by another thread (wakeup,
	// runnable, create): it never interrupts the thread while it runs.
	woken bool
	// summary marks a summarised stretch of an overview track: until the
	// next mark the track changed state Arg times, and only the time spent
	// in each state is kept (Columns and Durations are exact at the
	// stretch's ends); State is the state at its end.
	summary bool
}

// Stop returns Reason as a stop status.
func (m Mark) Stop() ingest.StopStatus { return ingest.StopStatus(m.Reason) }

// Summary reports whether the mark stands for a summarised stretch of an
// overview track rather than one change of state: the track changed state
// Arg times until the next mark, and the time per state there is known but
// not the order. Zoomed in, Source.Detail gives the exact marks.
func (m Mark) Summary() bool { return m.summary }

// Durations holds the time in ns spent in each state.
type Durations [NumStates]uint64

// add adds d to the durations.
func (d *Durations) add(o *Durations) {
	for i := range d {
		d[i] += o[i]
	}
}

// sub returns d - o.
func (d Durations) sub(o *Durations) Durations {
	for i := range d {
		d[i] -= o[i]
	}
	return d
}

// GC returns the time spent in all GC phases.
func (d *Durations) GC() uint64 {
	return d[StateGCSync] + d[StateGCWork] + d[StateGCIdle] + d[StateGCDone]
}

// Total returns the sum of all durations.
func (d *Durations) Total() uint64 {
	var t uint64
	for _, v := range d {
		t += v
	}
	return t
}

// Dominant returns the state with the most time, and its share of the total
// (0 for an empty total, in which case the state is StateIdle).
func (d *Durations) Dominant() (State, float64) {
	best, bs := uint64(0), StateIdle
	for s, v := range d {
		if v > best {
			best, bs = v, State(s)
		}
	}
	t := d.Total()
	if t == 0 {
		return StateIdle, 0
	}
	return bs, float64(best) / float64(t)
}

// checkpointEvery is how many marks lie between two checkpoints.
const checkpointEvery = 32

// stretch is what an overview model keeps of a bucket in which a track
// changed state at least collapseAt times: the time in each state, not the
// order. A summary mark (Mark.summary, its Arg the stretch's index) stands
// for it.
type stretch struct {
	d         [NumStates]uint32 // ns in each state
	span      uint32            // ns covered: the sum of d
	n         uint32            // marks summarised
	endArg    uint32            // Arg, State and Reason of the mark in force at the end
	endState  State
	endReason uint8
}

// durations returns the stretch's time per state, scaled to the first
// part ns of it when part < span.
func (s *stretch) durations(part uint64) Durations {
	var d Durations
	if part >= uint64(s.span) {
		for i, v := range s.d {
			d[i] = uint64(v)
		}
		return d
	}
	for i, v := range s.d {
		d[i] = uint64(v) * part / uint64(s.span)
	}
	return d
}

// endMark returns the mark in force at the stretch's end, stamped t.
func (s *stretch) endMark(t uint64) Mark {
	return Mark{Time: t, Arg: s.endArg, State: s.endState, Reason: s.endReason}
}

// Stretch is what an overview keeps of a summarised stretch of a track.
type Stretch struct {
	// Time is the time spent in each state; its total is how long the
	// stretch lasts.
	Time Durations
	// Changes is how many changes of state the stretch summarises.
	Changes int
	// End is the mark in force at the stretch's end (stamped with the
	// end's time).
	End Mark
}

// Track is an immutable sequence of marks in time order, with the cumulative
// time per state stored at every 32nd mark. The time spent in each state
// between any two instants is found with one binary search and at most 32
// steps, whatever the number of marks between them. An overview's track may
// hold summary marks (Mark.Summary) for its busy stretches; times are exact
// at a stretch's ends and shared out in proportion inside it.
//
// A track is known up to its End, its frontier: a capability's events, or
// those of the capability a thread was last on, have been received (or,
// in a log cut short, were written) up to there and no further. From End
// to Horizon, the run's end as its model knows it, the track's state is
// not known: Durations count no time there, and Columns count it as
// Column.Unknown.
type Track struct {
	marks chunkView[Mark]
	// x holds the summaries and checkpoints, nil when the track has
	// neither: most threads of a thread-heavy run have a handful of marks,
	// and a Track is then 40 bytes, not 72 (a run of 9.6 M threads keeps
	// 300 MB less).
	x       *trackExtra
	end     uint64 // the last mark's state lasts until end: the frontier
	horizon uint64 // from end to horizon the state is not known
}

// trackExtra is what a Track with summarised stretches or more than
// checkpointEvery marks holds besides its marks.
type trackExtra struct {
	sums stretchView
	// cps holds checkpoint k ≥ 1 at k-1 (see checkpoints.go).
	cps checkpointView
}

// newTrack returns a track of marks, their summaries and checkpoints.
func newTrack(marks chunkView[Mark], sums stretchView, cps checkpointView) Track {
	t := Track{marks: marks}
	if sums.Len() > 0 || cps.Len() > 0 {
		t.x = &trackExtra{sums: sums, cps: cps}
	}
	return t
}

// sums returns the track's summarised stretches.
func (t *Track) sums() stretchView {
	if t.x == nil {
		return stretchView{}
	}
	return t.x.sums
}

// cps returns the track's checkpoints.
func (t *Track) cps() checkpointView {
	if t.x == nil {
		return checkpointView{}
	}
	return t.x.cps
}

// checkpoint returns the time per state from 0 to marks[k*32].Time.
func (t *Track) checkpoint(k int) Durations {
	if k == 0 {
		var d Durations
		d[StateIdle] = t.marks.ptr(0).Time
		return d
	}
	return *t.cps().durations(k - 1)
}

// checkpointAt returns marks[k*32].Time.
func (t *Track) checkpointAt(k int) uint64 {
	if k == 0 {
		return t.marks.ptr(0).Time
	}
	return t.cps().time(k - 1)
}

// Len returns the number of marks.
func (t *Track) Len() int { return t.marks.Len() }

// Mark returns the i-th mark.
func (t *Track) Mark(i int) Mark { return t.marks.At(i) }

// End returns the time until which the last mark's state lasts: the
// track's frontier, up to which it is known.
func (t *Track) End() uint64 { return t.end }

// Horizon returns the run's end as the track's model knows it: from End to
// Horizon the track's state is not known (End = Horizon for a track known
// to the end, as every track of a complete log is).
func (t *Track) Horizon() uint64 { return max(t.horizon, t.end) }

// Unknown returns how many ns of [from, to) lie between the track's
// frontier and its horizon, where its state is not known.
func (t *Track) Unknown(from, to uint64) uint64 {
	lo, hi := max(from, t.end), min(to, t.horizon)
	if hi <= lo {
		return 0
	}
	return hi - lo
}

// Stretch returns what the summary mark m of this track summarises (the zero
// Stretch for a mark that is not a summary).
func (t *Track) Stretch(m Mark) Stretch {
	if !m.summary || int(m.Arg) >= t.sums().Len() {
		return Stretch{}
	}
	s := t.sums().at(int(m.Arg))
	return Stretch{Time: s.durations(uint64(s.span)), Changes: int(s.n), End: s.endMark(m.Time + uint64(s.span))}
}

// Search returns the number of marks at or before time tm: the index of the
// mark in force at tm plus one (0 if tm precedes every mark).
func (t *Track) Search(tm uint64) int {
	return t.marks.search(0, func(m *Mark) bool { return m.Time > tm })
}

// StateAt returns the mark in force at time tm (a zero mark, StateIdle,
// before the first one). Inside a summarised stretch it is the summary mark;
// at or after a stretch's end, the mark in force there.
func (t *Track) StateAt(tm uint64) Mark {
	i := t.Search(tm)
	if i == 0 {
		return Mark{}
	}
	m := t.marks.At(i - 1)
	if m.summary {
		s := t.sums().at(int(m.Arg))
		if e := m.Time + uint64(s.span); tm >= e {
			return s.endMark(e)
		}
	}
	return m
}

// StateBefore returns the mark in force just before tm: the state a track
// enters tm in (a zero mark if none). A summarised stretch that ends at or
// before tm gives the mark in force at its end; one that tm cuts, itself.
// At a boundary of its grid's buckets an overview knows it exactly.
func (t *Track) StateBefore(tm uint64) Mark {
	j := t.marks.search(0, func(m *Mark) bool { return m.Time >= tm })
	if j == 0 {
		return Mark{}
	}
	m := t.marks.At(j - 1)
	if m.summary {
		s := t.sums().at(int(m.Arg))
		if e := m.Time + uint64(s.span); e <= tm {
			return s.endMark(e)
		}
	}
	return m
}

// spanOf adds to d the time mark m (followed by the mark at next, or
// lasting until next if it is the last) holds up to tm, which must not be
// before m.Time.
func (t *Track) spanOf(d *Durations, m *Mark, tm uint64) {
	if !m.summary {
		d[m.State] += tm - m.Time
		return
	}
	// Past the stretch (only the last mark of a snapshot is followed by no
	// mark at the stretch's end), the state in force at its end.
	t.sums().addTimes(int(m.Arg), tm-m.Time, d)
}

// extendCheckpoints computes the checkpoints of marks not yet in cps
// (checkpoint k ≥ 1 is cps's (k-1)-th); the ones cps has are never changed.
func extendCheckpoints(marks chunkView[Mark], sums stretchView, cps *checkpointList) {
	t := newTrack(marks, sums, checkpointView{})
	n := marks.Len()
	for k := cps.len() + 1; k*checkpointEvery < n; k++ {
		var d Durations
		if k == 1 {
			d = t.checkpoint(0)
		} else {
			d = cps.d[k-2]
		}
		for i := (k - 1) * checkpointEvery; i < k*checkpointEvery; i++ {
			t.spanOf(&d, marks.ptr(i), marks.ptr(i+1).Time)
		}
		cps.add(marks.ptr(k*checkpointEvery).Time, d)
	}
}

// cumulative returns the time per state from 0 to tm, given that i marks lie
// at or before tm (as Search returns). Times past the end count in the last
// state only up to End.
func (t *Track) cumulative(tm uint64, i int) Durations {
	if tm > t.end {
		tm = t.end
	}
	if i == 0 {
		var d Durations
		d[StateIdle] = tm
		return d
	}
	last := i - 1
	k := last / checkpointEvery
	d := t.checkpoint(k)
	for j := k * checkpointEvery; j < last; j++ {
		t.spanOf(&d, t.marks.ptr(j), t.marks.ptr(j+1).Time)
	}
	if m := t.marks.ptr(last); tm > m.Time {
		t.spanOf(&d, m, tm)
	}
	return d
}

// cumulativeFrom returns the time per state from 0 to tm and how many marks
// lie at or before tm, given that the first lo marks do (lo ≤ that count):
// the walk (walkFrom) from the last checkpoint at or before tm
// (checkpointBefore). A dense track is so searched in a few probes of the
// checkpoints' times and one short run of consecutive marks, not in a
// binary search over the marks whose every probe is a cache miss.
func (t *Track) cumulativeFrom(lo int, tm uint64) (Durations, int) {
	if t.marks.Len() == 0 || t.marks.ptr(0).Time > tm {
		return t.cumulative(tm, 0), 0
	}
	return t.walkFrom(t.checkpointBefore(lo, tm), tm)
}

// checkpointBefore returns the last checkpoint at or before tm (k: the
// one at mark k*32), given that the first lo marks, and the first mark,
// lie at or before tm. It gallops over the checkpoints' times from the one
// before mark lo.
func (t *Track) checkpointBefore(lo int, tm uint64) int {
	k0 := max(lo-1, 0) / checkpointEvery
	last := t.cps().Len() // checkpoints are stored for k*32 < n, k ≥ 1
	at := t.checkpointAt
	hi, step := k0+1, 1
	for hi <= last && at(hi) <= tm {
		k0 = hi
		hi += step
		step <<= 1
	}
	hi = min(hi, last+1)
	for k0+1 < hi {
		m := int(uint(k0+hi) >> 1)
		if at(m) <= tm {
			k0 = m
		} else {
			hi = m
		}
	}
	return k0
}

// walkFrom returns the time per state from 0 to tm and how many marks lie
// at or before tm, walking the marks from checkpoint k0, which lies at or
// before tm.
func (t *Track) walkFrom(k0 int, tm uint64) (Durations, int) {
	n := t.marks.Len()
	d := t.checkpoint(k0)
	j := k0 * checkpointEvery
	for j+1 < n {
		next := t.marks.ptr(j + 1).Time
		if next > tm {
			break
		}
		t.spanOf(&d, t.marks.ptr(j), next)
		j++
	}
	if tm > t.end {
		tm = t.end
	}
	if m := t.marks.ptr(j); tm > m.Time {
		t.spanOf(&d, m, tm)
	}
	return d, j + 1
}

// Durations returns the time spent in each state during [from, to).
func (t *Track) Durations(from, to uint64) Durations {
	if to <= from {
		return Durations{}
	}
	a := t.cumulative(from, t.Search(from))
	b := t.cumulative(to, t.Search(to))
	return b.sub(&a)
}

// Count returns how many marks entering state s lie in [from, to). It visits
// every mark in the range; use it for tests and small ranges. Summary marks
// count as none.
func (t *Track) Count(s State, from, to uint64) int {
	n := 0
	for i := t.marks.search(0, func(m *Mark) bool { return m.Time >= from }); i < t.Len(); i++ {
		m := t.marks.ptr(i)
		if m.Time >= to {
			break
		}
		if m.Time >= from && m.State == s && !m.summary {
			n++
		}
	}
	return n
}
