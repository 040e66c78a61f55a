package advise

import (
	"cmp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// numWindows is how many equal windows the range is cut into. Periods are
// found to a window's precision: a thousandth of the range, finer than the
// smallest period any finding reports (a tenth of the run).
const numWindows = 1000

// wait is what a blocked thread waits for, grouped as the advice differs.
type wait uint8

const (
	waitMVar      wait = iota // MVar (take, put, read); in the threaded RTS also threadDelay and I/O, through the I/O manager
	waitSTM                   // an STM transaction's retry
	waitBlackHole             // a thunk another thread is evaluating
	waitThrowTo               // throwTo / killThread, until the target can take it
	waitIO                    // read, write, or a process (non-threaded RTS)
	waitDelay                 // threadDelay (non-threaded RTS)
	waitForeign               // a foreign call
	waitOther                 // a reason the log does not name (GHC ≤ 7.0), or an unusual one
	waitUnknown               // time an overview summarised without the reason: never reported
	numWaits
)

var waitNames = [numWaits]string{"an MVar", "STM (retry)", "a black hole", "throwTo", "I/O", "threadDelay", "a foreign call",
	"something unnamed", "a reason not kept"}

// waitOf classes a stop status.
func waitOf(st ingest.StopStatus) wait {
	switch st {
	case ingest.StopBlockedMVar, ingest.StopBlockedMVarRead:
		return waitMVar
	case ingest.StopBlockedSTM:
		return waitSTM
	case ingest.StopBlockedBlackHole:
		return waitBlackHole
	case ingest.StopBlockedThrowTo:
		return waitThrowTo
	case ingest.StopBlockedRead, ingest.StopBlockedWrite, ingest.StopBlockedDoProc:
		return waitIO
	case ingest.StopBlockedDelay:
		return waitDelay
	case ingest.StopForeignCall, ingest.StopBlockedCCall, ingest.StopBlockedCCallIntr:
		return waitForeign
	}
	return waitOther
}

// run is a range of a run cut into windows, with what every HEC and the
// threads did in each, and the per-thread figures the findings need.
type run struct {
	m        *timeline.Model
	sum      *timeline.Summary // never nil (empty without one)
	heap     *heapview.Heap    // never nil (empty without one)
	from, to uint64
	// edges are the windows' bounds: window i is [edges[i], edges[i+1]).
	edges []uint64
	// hecs are the capabilities analysed, and hec[k][i] what capability
	// hecs[k] did in window i.
	hecs []int32
	hec  [][]timeline.Durations
	// runnable[i] is the thread-ns spent runnable in window i, and
	// blocked[w][i] those spent blocked on w.
	runnable []uint64
	blocked  [numWaits][]uint64
	// userRunning[i] is the thread-ns the program's own threads (not the
	// RTS's I/O and timer managers) spent running in window i.
	userRunning []uint64
	// threads are the figures of the threads alive in the range.
	threadFigs threadFigures
	// periods are the sequential periods (before the thresholds of the
	// finding), and kinds each window's class.
	periods []period
	kinds   []windowKind
}

// threadFigures sums what the threads did.
type threadFigures struct {
	// alive counts the threads alive in the range; created those created
	// in it, and createdRunning the time those ran.
	alive, created int
	createdRunning uint64
	// blocked are the threads that spent most of their life in the range
	// blocked (system threads left out), by what they waited for most.
	blocked [numWaits]blockedGroup
}

// blockedGroup is the threads that spent most of their life blocked,
// mostly on one wait w: how many, their figures summed, and the MaxThreads
// of them blocked longest on w. A list of every such thread, 104 bytes a
// thread, made parwork170.eventlog's findings allocate 20 MB after the
// load; a finding names at most MaxThreads of them.
type blockedGroup struct {
	n int
	// from and to are the first and last instants any of them was blocked;
	// on the time they were blocked on w, life the time they lived.
	from, to, on, life uint64
	// top holds the threads blocked longest on w, longest first and in
	// index order among equals, once keepTop has sorted it; while it is
	// filled (add) it is in no order and may hold more than MaxThreads.
	top []blockedThread
}

// add counts b, blocked mostly on w.
func (g *blockedGroup) add(b *blockedThread, w wait) {
	g.count(1, b.first, b.last, b.on[w], b.life)
	g.top = append(g.top, *b)
	if len(g.top) == 4*MaxThreads {
		g.keepTop(w)
	}
}

// merge adds to g, the group of wait w, the group o of threads after g's.
func (g *blockedGroup) merge(o *blockedGroup, w wait) {
	if o.n == 0 {
		return
	}
	g.count(o.n, o.from, o.to, o.on, o.life)
	// keepTop keeps the MaxThreads first of a set by one order, whatever
	// it kept of its parts before.
	g.top = append(g.top, o.top...)
	if len(g.top) >= 4*MaxThreads {
		g.keepTop(w)
	}
}

// count adds n threads blocked from from to to, on w for on ns of the life
// ns they lived, to g's figures.
func (g *blockedGroup) count(n int, from, to, on, life uint64) {
	if g.n == 0 {
		g.from, g.to = from, to
	}
	g.n += n
	g.from, g.to = min(g.from, from), max(g.to, to)
	g.on += on
	g.life += life
}

// keepTop sorts top by the time blocked on w, longest first (in index
// order among equals), and keeps the first MaxThreads.
func (g *blockedGroup) keepTop(w wait) {
	slices.SortFunc(g.top, func(a, b blockedThread) int {
		return cmp.Or(cmp.Compare(b.on[w], a.on[w]), cmp.Compare(a.index, b.index))
	})
	g.top = g.top[:min(len(g.top), MaxThreads)]
}

// blockedThread is one thread that spent most of its life blocked.
type blockedThread struct {
	index int // the thread's index in the model (Model.Thread)
	life  uint64
	// time blocked on each wait, and the first and last instants blocked
	on          [numWaits]uint64
	first, last uint64
}

// total returns the time the thread spent blocked.
func (b *blockedThread) total() uint64 {
	var t uint64
	for _, v := range b.on {
		t += v
	}
	return t
}

// main returns what the thread waited for most.
func (b *blockedThread) main() wait {
	best := waitUnknown
	for w := range numWaits {
		if b.on[w] > b.on[best] {
			best = w
		}
	}
	return best
}

// newRun cuts the input's range into windows and measures them; nil when
// there is nothing to analyse (no model, or an empty range).
func newRun(in Input) *run {
	m := in.Model
	if m == nil || m.End <= m.Start {
		return nil
	}
	from, to := max(in.From, m.Start), m.End
	if in.To != 0 {
		to = min(in.To, m.End)
	}
	if to <= from {
		return nil
	}
	r := &run{m: m, sum: in.Summary, heap: in.Heap, from: from}
	if r.sum == nil {
		r.sum = &timeline.Summary{}
	}
	// A log cut short knows each capability up to its last event (the
	// model ends its track there): the range ends where the first of the
	// HECs ends, leaving out a HEC known for less than half of it.
	r.hecs = capabilities(m, r.sum)
	known := r.hecs[:0]
	end := to
	for _, c := range r.hecs {
		if e := m.HEC(c).Track.End(); e >= from+(to-from)/2 {
			known = append(known, c)
			end = min(end, e)
		}
	}
	r.hecs, to = known, end
	if to <= from {
		return nil
	}
	r.to = to
	if r.heap == nil {
		r.heap = &heapview.Heap{}
	}
	n := int(min(uint64(numWindows), to-from))
	ax := timeline.NewAxis(from, to, 0, float64(n))
	r.edges = make([]uint64, n+1)
	for i := range n {
		r.edges[i] = max(ax.ColumnTime(i), from)
	}
	r.edges[n] = to
	var cols []timeline.Column
	for _, c := range r.hecs {
		h := m.HEC(c)
		cols = h.Track.Columns(ax, n, cols)
		d := make([]timeline.Durations, n)
		for i := range cols {
			d[i] = cols[i].Time
		}
		r.hec = append(r.hec, d)
	}
	r.scanThreads()
	r.periods, r.kinds = r.sequentialPeriods()
	return r
}

// capabilities returns the HECs to analyse: those that logged events of
// their own, and, when the log says which capabilities it created, only
// those (a corrupt block marker's capability 4095 is none of them).
func capabilities(m *timeline.Model, s *timeline.Summary) []int32 {
	var out []int32
	for i := range m.HECs {
		h := &m.HECs[i]
		if !h.Used() || h.Track.Len() == 0 {
			continue
		}
		if len(s.CreatedCaps) > 0 && !slices.Contains(s.CreatedCaps, h.Cap) {
			continue
		}
		out = append(out, h.Cap)
	}
	return out
}

// span returns the range's length in ns.
func (r *run) span() uint64 { return r.to - r.from }

// width returns the length of window i.
func (r *run) width(i int) uint64 { return r.edges[i+1] - r.edges[i] }

// windowOf returns the window holding time t (from ≤ t < to).
func (r *run) windowOf(t uint64) int {
	return sort.Search(len(r.edges)-1, func(i int) bool { return r.edges[i+1] > t })
}

// spread adds to bins the share of amount that falls in each window, for an
// amount spread evenly over [a, b) (clipped to the range). hint is a
// window to try first for a, which spread sets to the last one it added
// to: a thread's times come in order, most of them in the window of the
// one before.
func (r *run) spread(bins []uint64, a, b, amount uint64, hint *int) {
	a, b = max(a, r.from), min(b, r.to)
	if b <= a || amount == 0 {
		return
	}
	whole := b - a
	i := *hint
	if i < 0 || i+1 >= len(r.edges) || r.edges[i] > a || a >= r.edges[i+1] {
		i = r.windowOf(a)
	}
	for ; i < len(bins) && a < b; i++ {
		*hint = i
		e := min(b, r.edges[i+1])
		if amount == whole {
			bins[i] += e - a
		} else {
			bins[i] += uint64(float64(amount) * float64(e-a) / float64(whole))
		}
		a = e
	}
}

// systemThread reports whether a thread label names one of the RTS's own
// threads (the I/O and timer managers), which wait by design.
func systemThread(label string) bool {
	return strings.HasPrefix(label, "IOManager") || strings.HasPrefix(label, "TimerManager")
}

// mostlyBlocked is the share of its life in the range a thread must spend
// blocked to be listed among the blocked threads.
const mostlyBlocked = 0.5

// minBlockedLife is how long a thread must live in the range to be listed
// among the blocked threads: shorter ones cannot hold a HEC idle for long.
const minBlockedLife = 1e6

// scanThreads walks every thread's marks once, adding its runnable and
// blocked time to the windows and keeping the figures of the threads that
// were blocked most of their lives. A summarised stretch of an overview
// model (timeline.Mark.Summary) gives its time per state but not why the
// thread blocked: that time counts for the reason the thread blocked for
// last before it (or at its end, if it blocked on nothing before), and for
// no reason (waitUnknown, never reported) if neither is known.
//
// A run of many threads is shared out in ranges of threads, one goroutine
// each (a thread-heavy 172 MB log's 1.6 M threads take a few tenths of a
// second to walk): each adds up its own sums, and these are added in the
// ranges' order, into the same integers as one walk adds up.
func (r *run) scanThreads() {
	parts := 1
	if nt := r.m.NumThreads(); nt >= 2*minThreadsShared {
		parts = min(runtime.GOMAXPROCS(0), maxScanParts, nt/minThreadsShared)
	}
	r.scanShared(parts)
}

// scanShared is scanThreads with the threads shared out in parts ranges.
func (r *run) scanShared(parts int) {
	n := len(r.edges) - 1
	nt := r.m.NumThreads()
	sums := make([]threadSums, parts)
	var wg sync.WaitGroup
	for p := range sums {
		sums[p] = newThreadSums(n)
		lo, hi := nt*p/parts, nt*(p+1)/parts
		if p == parts-1 {
			r.scanRange(lo, hi, &sums[p])
			continue
		}
		wg.Go(func() { r.scanRange(lo, hi, &sums[p]) })
	}
	wg.Wait()
	all := &sums[0]
	for p := 1; p < parts; p++ {
		all.add(&sums[p])
	}
	r.runnable, r.userRunning, r.blocked, r.threadFigs = all.runnable, all.userRunning, all.blocked, all.figs
}

// minThreadsShared is how many threads each goroutine of scanThreads
// walks at least; maxScanParts bounds how many goroutines share them out.
const (
	minThreadsShared = 1 << 15
	maxScanParts     = 8
)

// threadSums is what scanThreads adds up of a range of threads: the
// thread-ns runnable, running (the program's own threads) and blocked on
// each wait in each window, and the threads' figures.
type threadSums struct {
	runnable, userRunning []uint64
	blocked               [numWaits][]uint64
	figs                  threadFigures
}

// newThreadSums returns empty sums over n windows.
func newThreadSums(n int) threadSums {
	s := threadSums{runnable: make([]uint64, n), userRunning: make([]uint64, n)}
	for w := range s.blocked {
		s.blocked[w] = make([]uint64, n)
	}
	return s
}

// add adds to s the sums o of the threads after s's.
func (s *threadSums) add(o *threadSums) {
	addBins(s.runnable, o.runnable)
	addBins(s.userRunning, o.userRunning)
	for w := range s.blocked {
		addBins(s.blocked[w], o.blocked[w])
	}
	f, of := &s.figs, &o.figs
	f.alive += of.alive
	f.created += of.created
	f.createdRunning += of.createdRunning
	for w := range f.blocked {
		f.blocked[w].merge(&of.blocked[w], wait(w))
	}
}

// addBins adds each of o's windows to s's.
func addBins(s, o []uint64) {
	for i, v := range o {
		s[i] += v
	}
}

// scanRange adds up threads lo to hi (not included) into s.
func (r *run) scanRange(lo, hi int, s *threadSums) {
	f := &s.figs
	for k, th := range r.m.ThreadRange(lo, hi) {
		tr := &th.Track
		if tr.Len() == 0 {
			continue
		}
		born := th.First
		if th.Created != 0 {
			born = th.Created
		}
		end := r.to
		if th.Finished != 0 {
			end = min(end, th.Finished)
		}
		if born >= r.to || end <= r.from {
			continue
		}
		f.alive++
		created := th.Created != 0 && th.Created >= r.from && th.Created < r.to
		if created {
			f.created++
		}
		// The RTS's own threads wait by design: their blocked time is not
		// what the program waits for.
		sc := threadScan{r: r, s: s, sys: systemThread(r.m.String(th.Label)), reason: waitUnknown}
		known := false
		for j := 0; j < tr.Len(); j++ {
			mk := tr.Mark(j)
			next := tr.End()
			if j+1 < tr.Len() {
				next = tr.Mark(j + 1).Time
			}
			if !mk.Summary() {
				if mk.State == timeline.StateBlocked {
					sc.reason, known = waitOf(mk.Stop()), true
				}
				if a, e := max(mk.Time, r.from), min(next, r.to); e > a {
					sc.add(mk.State, a, e, e-a)
				}
				continue
			}
			st := tr.Stretch(mk)
			sEnd := mk.Time + st.Time.Total()
			if !known && st.End.State == timeline.StateBlocked {
				sc.reason = waitOf(st.End.Stop())
			}
			if sa, se := max(mk.Time, r.from), min(sEnd, r.to); se > sa {
				share := float64(se-sa) / float64(sEnd-mk.Time)
				for _, s := range []timeline.State{timeline.StateRunning, timeline.StateRunnable, timeline.StateBlocked} {
					sc.add(s, sa, se, uint64(float64(st.Time[s])*share))
				}
			}
			if st.End.State == timeline.StateBlocked {
				sc.reason, known = waitOf(st.End.Stop()), true
			}
			// Past the stretch, until the next mark: the state at its end.
			if a, e := max(sEnd, r.from), min(next, r.to); e > a {
				sc.add(st.End.State, a, e, e-a)
			}
		}
		if created {
			f.createdRunning += sc.running
		}
		b := &sc.b
		b.life = min(end, r.to) - max(born, r.from)
		if b.life >= minBlockedLife && float64(b.total()) >= mostlyBlocked*float64(b.life) {
			b.index = k
			w := b.main()
			f.blocked[w].add(b, w)
		}
	}
}

// threadScan is what scanThreads adds up of one thread.
type threadScan struct {
	r   *run
	s   *threadSums // where its time is added
	sys bool        // one of the RTS's own threads
	// reason is the wait of the thread's blocked time being added.
	reason     wait
	b          blockedThread
	running    uint64
	blockedYet bool
	// window is where its last time was added (run.spread's hint).
	window int
}

// add counts amount ns of state s spread over [a, e).
func (sc *threadScan) add(s timeline.State, a, e, amount uint64) {
	r := sc.r
	a, e = max(a, r.from), min(e, r.to)
	if e <= a || amount == 0 {
		return
	}
	switch s {
	case timeline.StateRunning:
		sc.running += amount
		if !sc.sys {
			r.spread(sc.s.userRunning, a, e, amount, &sc.window)
		}
	case timeline.StateRunnable:
		r.spread(sc.s.runnable, a, e, amount, &sc.window)
	case timeline.StateBlocked:
		if sc.sys {
			return
		}
		r.spread(sc.s.blocked[sc.reason], a, e, amount, &sc.window)
		sc.b.on[sc.reason] += amount
		if !sc.blockedYet {
			sc.b.first, sc.blockedYet = a, true
		}
		sc.b.last = e
	}
}

// idle returns the HEC-ns capability k spent idle in window i: neither
// running a thread nor collecting garbage.
func (r *run) idle(k, i int) uint64 {
	d := &r.hec[k][i]
	busy := d[timeline.StateRunning] + d.GC()
	return r.width(i) - min(busy, r.width(i))
}

// idleUnexplained returns the HEC-ns idle in window i that no runnable
// thread could have filled: the idle time beyond the runnable thread-ns.
func (r *run) idleUnexplained(i int) uint64 {
	var idle uint64
	for k := range r.hecs {
		idle += r.idle(k, i)
	}
	return idle - min(idle, r.runnable[i])
}

// totals returns, per HEC, its time in each state over the range.
func (r *run) totals() []timeline.Durations {
	out := make([]timeline.Durations, len(r.hecs))
	for k := range r.hecs {
		for i := range r.hec[k] {
			for s, v := range r.hec[k][i] {
				out[k][s] += v
			}
		}
	}
	return out
}

// caps returns the HECs analysed, in ascending order (for a finding's
// Tracks).
func (r *run) caps() []int32 {
	out := slices.Clone(r.hecs)
	slices.Sort(out)
	return out
}

// threadName names the thread at index k of the model: its label and id,
// or "thread N".
func (r *run) threadName(k int) string {
	th := r.m.ThreadRecord(k)
	if th.Label >= 0 {
		return r.m.String(th.Label) + " (thread " + itoa(uint64(th.ID)) + ")"
	}
	return "thread " + itoa(uint64(th.ID))
}
