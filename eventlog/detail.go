package eventlog

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// A window is a model of a range of the run, decoded from the file: exact,
// or an overview on a grid fine enough for the zoom it was made for, with
// the parts its use needs.
type window struct {
	from, to uint64
	grid     timeline.Grid
	parts    windowParts
	model    *timeline.Model
	// ov is the overview the window was made with, and known the time up
	// to which every capability was known then (the earliest frontier):
	// of a log still being read, a window shows later times only as they
	// were known to ov.
	ov    *timeline.Model
	known uint64
}

// windowParts says what a window holds besides its HECs' rows and
// messages: the threads' tracks (views that show none do without), and
// the user spans (views draw them from the overview; a command drawing a
// range with the window alone needs them).
type windowParts struct{ threads, spans bool }

// covers reports whether the window can draw [from, to) with buckets of at
// most maxShift (and the threads, if threads), the overview now being ov:
// a range past what every capability was known up to when it was made
// needs a window made anew, once more has been read.
func (w *window) covers(from, to uint64, maxShift uint8, threads bool, ov *timeline.Model) bool {
	return w.from <= from && to <= w.to && w.grid.Shift <= maxShift && (w.parts.threads || !threads) &&
		(to <= w.known || w.ov == ov)
}

// detailCache keeps the last windows made and makes at most one at a time:
// a request that comes while one is being made waits as the next, replacing
// any older waiting one, so the views converge on what is on screen.
//
// The window made for a request is a little wider than the view asked for
// (windowMargin), and once the view has stayed put for widenAfter, one
// twice as wide is made in the background, so that panning stays within
// it: a request it does not cover stops it.
type detailCache struct {
	mu       sync.Mutex
	windows  []*window // most recent first
	building bool
	next     *detailRequest
	// making counts the goroutines making a window, from their start
	// (under mu) to after they called ready; idle is signalled, under mu,
	// when it drops to 0. A WaitGroup's Add in the widening's timer could
	// run alongside a WaitDetail's Wait, which a WaitGroup does not allow.
	making int
	idle   sync.Cond
	// widening is the wider window waiting to be made or being made, if
	// any.
	widening *widening
}

// A widening is the making of a wider window in the background: the timer
// that starts it, and once started, what stops it.
type widening struct {
	timer *time.Timer
	stop  context.CancelFunc
}

// Windows made for a request reach windowMargin of the view's width past
// each side of it; one made once the view has stayed put for widenAfter
// reaches widenedMargin (half the view's width: panning by half a screen
// either way stays within it).
const (
	windowMargin  = 1.0 / 8
	widenedMargin = 1.0 / 2
	widenAfter    = 100 * time.Millisecond
)

type detailRequest struct {
	from, to uint64
	shift    uint8
	threads  bool
	ready    func()
}

// keptWindows is how many windows the cache keeps.
const keptWindows = 3

// wait waits for the windows being made.
func (c *detailCache) wait() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waitIdle()
}

// waitIdle waits, under c.mu (let go meanwhile), until no window is being
// made.
func (c *detailCache) waitIdle() {
	if c.idle.L == nil {
		c.idle.L = &c.mu
	}
	for c.making > 0 {
		c.idle.Wait()
	}
}

// enter counts a goroutine that starts making a window (under c.mu), and
// leave counts it out once it is done.
func (c *detailCache) enter() { c.making++ }

func (c *detailCache) leave() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.making--; c.making == 0 && c.idle.L != nil {
		c.idle.Broadcast()
	}
}

// shut marks the log closed, under c.mu so that no window starts after it
// (every start looks at closed under c.mu), stops a wider window waiting
// or being made, and waits for the windows being made.
func (c *detailCache) shut(closed *atomic.Bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	closed.Store(true)
	c.stopWidening()
	c.waitIdle()
}

// WaitDetail waits until the detail being decoded, if any, is ready: a
// picture drawn once (which asked for it) and once more after this shows
// it, as a user sees it after a moment.
func (r *Log) WaitDetail() { r.detail.wait() }

// detailShift returns the grid a range drawn at nsPerPixel needs: buckets
// of at most half a pixel (0: exact).
func detailShift(nsPerPixel float64) uint8 {
	half := nsPerPixel / 2
	if half < 2 {
		return 0
	}
	return uint8(min(bits.Len64(uint64(half))-1, 32))
}

// WantsDetail reports whether drawing at nsPerPixel needs more than the
// overview resolves: Detail then gives (or is making) a window decoded from
// the file, and a frame drawn before it is there shows the overview's
// coarser picture in its place.
func (r *Log) WantsDetail(nsPerPixel float64) bool {
	ov := r.Overview()
	return ov != nil && ov.Grid.On() && nsPerPixel < float64(ov.Grid.Width())/2
}

// Detail returns a model exact enough to draw [from, to) at nsPerPixel, or
// nil if the overview is (timeline.Source). Zoomed in past the overview's
// buckets it gives a window of the run decoded from the file, made in the
// background: until it is there Detail returns nil and ready is called once
// it is. A window made without threads (threads false) holds none; one
// made with them serves both.
func (r *Log) Detail(from, to uint64, nsPerPixel float64, threads bool, ready func()) *timeline.Model {
	ov := r.Overview()
	if !r.loaded.Load() || r.closed.Load() || to <= from || !r.WantsDetail(nsPerPixel) {
		return nil
	}
	shift := detailShift(nsPerPixel)
	c := &r.detail
	c.mu.Lock()
	defer c.mu.Unlock()
	if r.closed.Load() {
		return nil // closed since the look above: no window may start (see shut)
	}
	for i, w := range c.windows {
		if w.covers(from, to, shift, threads, ov) {
			copy(c.windows[1:i+1], c.windows[:i])
			c.windows[0] = w
			return w.model
		}
	}
	req := &detailRequest{from: from, to: to, shift: shift, threads: threads, ready: ready}
	c.stopWidening()
	if c.building {
		c.next = req
		return nil
	}
	c.start(r, req)
	return nil
}

// start makes the window for req in the background (under c.mu).
func (c *detailCache) start(r *Log, req *detailRequest) {
	c.building = true
	c.enter()
	go func() {
		defer c.leave()
		from, to := r.windowFor(req.from, req.to, windowMargin)
		w, err := r.makeWindow(context.Background(), from, to, timeline.Grid{Shift: req.shift}, windowParts{threads: req.threads})
		c.mu.Lock()
		then := c.made(r, w, err)
		if c.next == nil && !c.building && err == nil && !r.closed.Load() {
			c.widenLater(r, req)
		}
		c.mu.Unlock()
		if req.ready != nil {
			req.ready()
		}
		then()
	}()
}

// made keeps the window just made, if it was, and starts the request that
// waited if it needs another (under c.mu); it returns what to call once
// c.mu is let go: the waiting request's ready if the window serves it.
func (c *detailCache) made(r *Log, w *window, err error) (then func()) {
	if err == nil {
		c.windows = append([]*window{w}, c.windows...)
		if len(c.windows) > keptWindows {
			c.windows = c.windows[:keptWindows]
		}
	}
	c.building = false
	next := c.next
	c.next = nil
	if next != nil && (err != nil || !w.covers(next.from, next.to, next.shift, next.threads, r.Overview())) && !r.closed.Load() {
		c.start(r, next)
	} else if next != nil && next.ready != nil {
		return next.ready
	}
	return func() {}
}

// widenLater makes, after widenAfter unless another request comes first,
// a window for req reaching widenedMargin past each side (under c.mu).
func (c *detailCache) widenLater(r *Log, req *detailRequest) {
	wd := &widening{}
	c.widening = wd
	wd.timer = time.AfterFunc(widenAfter, func() {
		c.mu.Lock()
		if c.widening != wd || c.building || r.closed.Load() {
			c.mu.Unlock()
			return
		}
		ctx, stop := context.WithCancel(context.Background())
		wd.stop = stop
		c.building = true
		c.enter()
		c.mu.Unlock()
		defer c.leave()
		from, to := r.windowFor(req.from, req.to, widenedMargin)
		w, err := r.makeWindow(ctx, from, to, timeline.Grid{Shift: req.shift}, windowParts{threads: req.threads})
		stop()
		c.mu.Lock()
		if c.widening == wd {
			c.widening = nil
		}
		then := c.made(r, w, err)
		c.mu.Unlock()
		then()
	})
}

// stopWidening stops the making of a wider window, waiting or under way
// (under c.mu).
func (c *detailCache) stopWidening() {
	if wd := c.widening; wd != nil {
		wd.timer.Stop()
		if wd.stop != nil {
			wd.stop()
		}
		c.widening = nil
	}
}

// windowFor widens [from, to) by margin times its length each side and
// aligns it on the overview's buckets.
func (r *Log) windowFor(from, to uint64, margin float64) (uint64, uint64) {
	g := r.Overview().Grid
	w := g.Width()
	half := uint64(float64(to-from) * margin)
	lo := uint64(0)
	if from > half {
		lo = from - half
	}
	hi := to + half
	if hi < to {
		hi = math.MaxUint64
	}
	lo = lo / w * w
	if rem := hi % w; rem != 0 && hi <= math.MaxUint64-w {
		hi += w - rem
	}
	return lo, hi
}

// Window returns a model of [from, to) on grid g (exact without one),
// decoded from the file: a command draws a range with it. Every track
// starts in the state the overview has at from, which must be a boundary of
// the overview's buckets (or any time if the overview is exact).
func (r *Log) Window(ctx context.Context, from, to uint64, g timeline.Grid) (*timeline.Model, error) {
	if ov := r.Overview(); ov != nil && ov.Grid.On() {
		w := ov.Grid.Width()
		from = from / w * w
	}
	win, err := r.makeWindow(ctx, from, to, g, windowParts{threads: true, spans: true})
	if err != nil {
		return nil, err
	}
	return win.model, nil
}

// makeWindow decodes [from, to] into a model on grid g with parts: without
// the threads, their events are not merged.
func (r *Log) makeWindow(ctx context.Context, from, to uint64, g timeline.Grid, parts windowParts) (*window, error) {
	ov := r.Overview()
	if ov == nil {
		return nil, fmt.Errorf("decoding a range: the run is not loaded")
	}
	b := timeline.NewOverviewBuilder(g)
	b.KeepMessages()
	if !parts.spans {
		b.LeaveOutUserSpans()
	}
	threads := parts.threads
	var caps []int32
	for _, s := range r.ix().Streams() {
		if s.Cap != ingest.NoCap {
			caps = append(caps, s.Cap)
		}
	}
	hecs := map[int32]*timeline.HECBuilder{}
	for i, h := range b.Parallel(caps) {
		hecs[caps[i]] = h
	}
	if threads {
		// Threads are labelled as in the overview, which knows the labels
		// set before the range.
		record := ov.RecordsByID()
		b.NameThreads(func(id uint32) string {
			if rec, ok := record(id); ok {
				return ov.String(rec.Label)
			}
			return ""
		})
	}
	for c := range ov.HECs {
		b.SeedHEC(ov.HECs[c].Cap, from, ov.HECs[c].Track.StateBefore(from))
		// The overview keeps each bucket's last sample, and from is a
		// bucket's start: its last sample before from is the log's.
		h := &ov.HECs[c]
		if i := sort.Search(h.NumSparkSamples(), func(i int) bool { return h.SparkSample(i).Time >= from }); i > 0 {
			b.SeedSparkSample(h.Cap, h.SparkSample(i-1))
		}
	}
	if threads {
		for _, i := range ov.ThreadsAliveAt(from) {
			th := ov.Thread(i)
			b.SeedThread(th.ID, ov.String(th.Label), th.Created, from, th.Track.StateBefore(from))
		}
	}
	// Once ctx is done, every event is passed on to the loop below, which
	// then stops at the next: a window without threads passes on few
	// events, and the loop would otherwise wait for the end of the range.
	var stopped atomic.Bool
	defer context.AfterFunc(ctx, func() { stopped.Store(true) })()
	tap := func(c int32) func(*ingest.Event) bool {
		h := hecs[c]
		return func(e *ingest.Event) bool {
			if h != nil {
				h.Add(e)
			}
			return stopped.Load() || timeline.GlobalKind(e.Kind) && (threads || !threadKind(e.Kind))
		}
	}
	m := ingest.NewMerge(r.data, r.ix(), ingest.MergeOptions{From: from, To: to, Tap: tap})
	defer m.Close()
	for e := m.Next(); e != nil; e = m.Next() {
		if stopped.Load() {
			return nil, ctx.Err()
		}
		b.AddGlobal(e)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := m.Err(); err != nil {
		return nil, fmt.Errorf("decoding [%d, %d]: %w", from, to, err)
	}
	if err := r.seedSamplesAfter(ctx, b, ov, to); err != nil {
		return nil, err
	}
	for _, h := range hecs {
		h.Publish(0, true)
	}
	b.SetExtent(m.Events(), from, min(to, max(ov.End, from)))
	// Each capability is known in the range as far as the overview knows
	// it: a cut log's up to where its data ends, a followed log's up to
	// what has been received.
	b.FrontiersFrom(ov)
	b.Finish()
	known := uint64(math.MaxUint64)
	if ov.Growing {
		for i := range ov.HECs {
			known = min(known, ov.HECs[i].Frontier())
		}
	}
	return &window{from: from, to: to, grid: g, parts: parts, model: b.Snapshot(), ov: ov, known: known}, nil
}

// seedSamplesAfter gives each capability of a window ending at to the
// SparkCounters samples of the first of the overview's buckets after to
// that holds one, decoded from the file: its spark pool and rates up to
// the window's end are drawn towards the next sample, as in a wider window.
// Capabilities whose buckets lie within seedReach of each other (GHC posts
// every capability's counters at the end of each collection) are decoded
// in one merge.
func (r *Log) seedSamplesAfter(ctx context.Context, b *timeline.Builder, ov *timeline.Model, to uint64) error {
	if !ov.Grid.On() || to == math.MaxUint64 {
		return nil
	}
	w := ov.Grid.Width()
	// Where each capability's next sample's bucket starts.
	bucket := map[int32]uint64{}
	var starts []uint64
	for c := range ov.HECs {
		h := &ov.HECs[c]
		n := h.NumSparkSamples()
		if i := sort.Search(n, func(i int) bool { return h.SparkSample(i).Time > to }); i < n {
			bucket[h.Cap] = h.SparkSample(i).Time / w * w
			starts = append(starts, bucket[h.Cap])
		}
	}
	slices.Sort(starts)
	for i := 0; i < len(starts); {
		j := i
		for j+1 < len(starts) && starts[j+1]-starts[i] <= seedReach*w {
			j++
		}
		from, end := starts[i], starts[j]+w
		i = j + 1
		samples := map[int32][]timeline.SparkSample{}
		var mu sync.Mutex
		tap := func(c int32) func(*ingest.Event) bool {
			at, ok := bucket[c]
			if !ok || at < from || at >= end {
				return func(*ingest.Event) bool { return false }
			}
			return func(e *ingest.Event) bool {
				if e.Kind == ingest.KindSparkCounters && e.Time > to && e.Time/w*w == at {
					mu.Lock()
					samples[c] = append(samples[c], timeline.SparkSampleOf(e))
					mu.Unlock()
				}
				return false
			}
		}
		m := ingest.NewMerge(r.data, r.ix(), ingest.MergeOptions{From: max(from, to+1), To: end - 1, Tap: tap})
		for e := m.Next(); e != nil; e = m.Next() {
		}
		err := m.Err()
		m.Close()
		if err != nil {
			return fmt.Errorf("decoding the spark samples after %d: %w", to, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		for c, ss := range samples {
			for _, s := range ss {
				b.SeedSparkSample(c, s)
			}
		}
	}
	return nil
}

// seedReach is how many of the overview's buckets apart the buckets of the
// capabilities' next samples may lie for one merge to decode them all.
const seedReach = 16
