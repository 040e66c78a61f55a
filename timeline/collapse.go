package timeline

// The builders of an overview model take a track's marks, instants and
// spark times in time order and keep a bucket of the grid as it is while it
// holds fewer than collapseAt of them; a busier bucket is summarised. A
// bucket is committed (made visible to snapshots) once time has moved past
// it, so a snapshot never sees a summary that could still change.

// markList builds a track's marks from changes of state that arrive in
// time order. Without a grid every mark is kept. With one, a bucket in which
// the track changes state collapseAt times or more becomes a summary mark
// and its stretch, followed (unless the next bucket is summarised too) by
// the mark in force at the bucket's end.
type markList struct {
	// The fields a mark added reads and writes come first, in the cache
	// lines a short thread's track (most of a thread-heavy run's) is
	// built in; a run of thousands of threads alive at once does not hold
	// them all in the cache.

	// last is the last mark added: the state in force (zero before any).
	last Mark
	// before is the mark in force when the open bucket began.
	before Mark

	// The bucket being filled: its marks pend[:npend] while they are
	// fewer than collapseAt, then its stretch (st) with stLast the mark
	// in force.
	b         uint64
	open      bool
	collapsed bool // st holds the bucket
	// hasOwed: owed is the end mark of the last stretch committed, not
	// yet added (a stretch starting where it ends needs none).
	hasOwed bool
	npend   uint8
	marks   chunkList[Mark]
	pend    [collapseAt]Mark

	st     stretch
	stLast Mark
	owed   Mark
	sums   stretchList
	cps    checkpointList
}

// add appends m, which must not be earlier than the last mark added.
func (l *markList) add(g Grid, m Mark) {
	if !g.On() {
		l.marks.add(m)
		l.last = m
		return
	}
	b := g.bucket(m.Time)
	if l.open && b != l.b {
		l.commit(g, false)
	}
	if !l.open {
		l.open, l.b, l.before, l.npend = true, b, l.last, 0
	}
	if !l.collapsed {
		l.pend[l.npend] = m
		if l.npend++; l.npend >= collapseAt {
			l.collapse(g)
		}
	} else {
		l.st.d[l.stLast.State] += uint32(m.Time - l.stLast.Time)
		l.st.n++
		l.stLast = m
	}
	l.last = m
}

// collapse turns the open bucket's pending marks into its stretch.
func (l *markList) collapse(g Grid) {
	l.st = stretch{n: uint32(l.npend)}
	at, state := g.start(l.b), l.before.State
	for _, p := range l.pend[:l.npend] {
		l.st.d[state] += uint32(p.Time - at)
		at, state = p.Time, p.State
	}
	l.collapsed, l.stLast = true, l.pend[l.npend-1]
	l.npend = 0
}

// commit makes the open bucket part of the track. A final commit (the end
// of the data) ends a stretch at its last change instead of the bucket's
// end.
func (l *markList) commit(g Grid, final bool) {
	if !l.open {
		return
	}
	l.open = false
	if !l.collapsed {
		l.payOwed()
		l.marks.addSlice(l.pend[:l.npend])
		l.npend = 0
		return
	}
	start := g.start(l.b)
	end := start + g.Width()
	if final {
		end = l.stLast.Time
	}
	st := &l.st
	st.d[l.stLast.State] += uint32(end - l.stLast.Time)
	st.span = uint32(end - start)
	st.endArg, st.endState, st.endReason = l.stLast.Arg, l.stLast.State, l.stLast.Reason
	if l.hasOwed && l.owed.Time != start {
		l.payOwed()
	}
	var d Durations
	for i, v := range st.d {
		d[i] = uint64(v)
	}
	dom, _ := d.Dominant()
	l.marks.add(Mark{Time: start, Arg: uint32(l.sums.len()), State: dom, summary: true})
	l.sums.add(st)
	l.owed = l.stLast
	l.owed.Time, l.owed.woken = end, false
	l.hasOwed = true
	l.collapsed = false
}

// reset empties the list for another track, keeping what storage no
// snapshot shares. (Field by field: a list is hundreds of bytes, which a
// thread-heavy run resets millions of times.)
func (l *markList) reset() {
	l.marks.reset()
	l.sums.reset()
	l.cps.reset()
	l.last, l.before, l.stLast, l.owed = Mark{}, Mark{}, Mark{}, Mark{}
	l.b, l.open, l.collapsed, l.hasOwed, l.npend = 0, false, false, false, 0
	l.st = stretch{}
}

// payOwed adds the end mark of the last stretch, if one is owed.
func (l *markList) payOwed() {
	if l.hasOwed {
		l.marks.add(l.owed)
		l.hasOwed = false
	}
}

// settle commits the open bucket if it ended by time t (or, final, in any
// case, and pays the owed end mark).
func (l *markList) settle(g Grid, t uint64, final bool) {
	if final {
		l.commit(g, true)
		l.payOwed()
		return
	}
	if l.open && g.start(l.b)+g.Width() <= t {
		l.commit(g, false)
	}
}

// track returns the marks committed so far as a Track lasting until end,
// extending the checkpoints first.
func (l *markList) track(end uint64) Track {
	mv, sv := l.marks.view(), l.sums.view()
	extendCheckpoints(mv, sv, &l.cps)
	cps := l.cps.clone()
	t := newTrack(mv, sv, cps.view())
	t.end = end
	return t
}

// instantList builds a HEC's instant events in time order; with a grid, a
// bucket with collapseAt instants or more becomes one summary instant
// (Arg: how many, Arg2: a bit per kind).
type instantList struct {
	list  chunkList[Instant]
	last  uint64
	open  bool
	b     uint64
	pend  []Instant
	count uint32
	kinds uint16
	first InstantKind
}

// add appends in, moved up to the last time if it is earlier.
func (l *instantList) add(g Grid, in Instant) {
	if in.Time < l.last {
		in.Time = l.last
	}
	l.last = in.Time
	if !g.On() {
		l.list.add(in)
		return
	}
	b := g.bucket(in.Time)
	if l.open && b != l.b {
		l.commit(g)
	}
	if !l.open {
		l.open, l.b, l.count, l.kinds, l.first = true, b, 0, 0, in.Kind
		l.pend = l.pend[:0]
	}
	l.count++
	l.kinds |= 1 << in.Kind
	if l.count < collapseAt {
		l.pend = append(l.pend, in)
	} else {
		l.pend = l.pend[:0]
	}
}

// commit makes the open bucket part of the list.
func (l *instantList) commit(g Grid) {
	if !l.open {
		return
	}
	l.open = false
	if l.count < collapseAt {
		for _, in := range l.pend {
			l.list.add(in)
		}
		return
	}
	l.list.add(Instant{Time: g.start(l.b), Arg: l.count, Arg2: l.kinds, Kind: l.first, summary: true})
}

// settle commits the open bucket if it ended by t (final: in any case).
func (l *instantList) settle(g Grid, t uint64, final bool) {
	if l.open && (final || g.start(l.b)+g.Width() <= t) {
		l.commit(g)
	}
}

// sparkList builds the times of one kind of spark event on one HEC; with a
// grid, a bucket with collapseAt sparks or more is kept as a count.
type sparkList struct {
	exact timeList
	busy  chunkList[bucketCount]
	last  uint64
	open  bool
	b     uint64
	pend  [collapseAt]uint64
	n     uint32
}

// bucketCount is how many events fell in bucket B.
type bucketCount struct {
	B uint64
	N uint32
}

// addOpen is add for a spark that falls in the open bucket, as most do:
// it reports false, having done nothing, for any other. (Short enough to
// be inlined in HECBuilder.Add, where add is not.)
func (l *sparkList) addOpen(g Grid, t uint64) bool {
	t = max(t, l.last)
	// Only a grid opens a bucket.
	if !l.open || g.bucket(t) != l.b {
		return false
	}
	l.last = t
	if l.n < collapseAt {
		l.pend[l.n] = t
	}
	l.n++
	return true
}

// add records a spark at t, moved up to the last time if earlier.
func (l *sparkList) add(g Grid, t uint64) {
	if t < l.last {
		t = l.last
	}
	l.last = t
	if !g.On() {
		l.exact.add(t)
		return
	}
	b := g.bucket(t)
	if l.open && b != l.b {
		l.commit()
	}
	if !l.open {
		l.open, l.b, l.n = true, b, 0
	}
	if l.n < collapseAt {
		l.pend[l.n] = t
	}
	l.n++
}

// commit makes the open bucket part of the list.
func (l *sparkList) commit() {
	if !l.open {
		return
	}
	l.open = false
	if l.n < collapseAt {
		for _, t := range l.pend[:l.n] {
			l.exact.add(t)
		}
		return
	}
	l.busy.add(bucketCount{B: l.b, N: l.n})
}

// settle commits the open bucket if it ended by t (final: in any case).
func (l *sparkList) settle(g Grid, t uint64, final bool) {
	if l.open && (final || g.start(l.b)+g.Width() <= t) {
		l.commit()
	}
}

// view returns the sparks committed so far.
func (l *sparkList) view(g Grid) sparkView {
	return sparkView{exact: l.exact.view(), busy: l.busy.view(), shift: g.Shift}
}

// sparkView is an immutable list of spark times: exact times where they are
// sparse, counts per bucket where they are dense.
type sparkView struct {
	exact timeView
	busy  chunkView[bucketCount]
	shift uint8
}

// count returns how many sparks fall in [from, to); a busy bucket cut by
// the range counts in proportion.
func (v sparkView) count(from, to uint64) int {
	if to <= from {
		return 0
	}
	n := countBefore(v.exact, 0, to) - countBefore(v.exact, 0, from)
	if v.busy.Len() == 0 {
		return n
	}
	w := uint64(1) << v.shift
	lo := v.busy.search(0, func(c *bucketCount) bool { return (c.B+1)<<v.shift > from })
	var part uint64
	for i := lo; i < v.busy.Len(); i++ {
		c := v.busy.ptr(i)
		s := c.B << v.shift
		if s >= to {
			break
		}
		a, b := max(s, from), min(s+w, to)
		part += uint64(c.N) * (b - a)
	}
	return n + int((part+w/2)/w)
}

// empty reports whether the list holds no spark.
func (v sparkView) empty() bool { return v.exact.Len() == 0 && v.busy.Len() == 0 }
