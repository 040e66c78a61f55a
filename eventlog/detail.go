package eventlog

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"sync"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// A window is a model of a range of the run, decoded from the file: exact,
// or an overview on a grid fine enough for the zoom it was made for.
type window struct {
	from, to uint64
	grid     timeline.Grid
	model    *timeline.Model
	// ov is the overview the window was made with, and known the time up
	// to which every capability was known then (the earliest frontier):
	// of a log still being read, a window shows later times only as they
	// were known to ov.
	ov    *timeline.Model
	known uint64
}

// covers reports whether the window can draw [from, to) with buckets of at
// most maxShift, the overview now being ov: a range past what every
// capability was known up to when it was made needs a window made anew,
// once more has been read.
func (w *window) covers(from, to uint64, maxShift uint8, ov *timeline.Model) bool {
	return w.from <= from && to <= w.to && w.grid.Shift <= maxShift && (to <= w.known || w.ov == ov)
}

// detailCache keeps the last windows made and makes at most one at a time:
// a request that comes while one is being made waits as the next, replacing
// any older waiting one, so the views converge on what is on screen.
type detailCache struct {
	mu       sync.Mutex
	windows  []*window // most recent first
	building bool
	next     *detailRequest
	ready    []func() // to call when the window being made is done
	wg       sync.WaitGroup
}

type detailRequest struct {
	from, to uint64
	shift    uint8
	ready    func()
}

// keptWindows is how many windows the cache keeps.
const keptWindows = 3

// wait waits for the window being made.
func (c *detailCache) wait() { c.wg.Wait() }

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
// it is.
func (r *Log) Detail(from, to uint64, nsPerPixel float64, ready func()) *timeline.Model {
	ov := r.Overview()
	if !r.loaded.Load() || r.closed.Load() || to <= from || !r.WantsDetail(nsPerPixel) {
		return nil
	}
	shift := detailShift(nsPerPixel)
	c := &r.detail
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, w := range c.windows {
		if w.covers(from, to, shift, ov) {
			copy(c.windows[1:i+1], c.windows[:i])
			c.windows[0] = w
			return w.model
		}
	}
	req := &detailRequest{from: from, to: to, shift: shift, ready: ready}
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
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		from, to := r.windowFor(req.from, req.to)
		w, err := r.makeWindow(context.Background(), from, to, timeline.Grid{Shift: req.shift})
		c.mu.Lock()
		if err == nil {
			c.windows = append([]*window{w}, c.windows...)
			if len(c.windows) > keptWindows {
				c.windows = c.windows[:keptWindows]
			}
		}
		c.building = false
		next := c.next
		c.next = nil
		if next != nil && (err != nil || !w.covers(next.from, next.to, next.shift, r.Overview())) && !r.closed.Load() {
			c.start(r, next)
		} else if next != nil && next.ready != nil {
			defer next.ready()
		}
		c.mu.Unlock()
		if req.ready != nil {
			req.ready()
		}
	}()
}

// windowFor widens [from, to) by half its length each side, so that panning
// stays within it, and aligns it on the overview's buckets.
func (r *Log) windowFor(from, to uint64) (uint64, uint64) {
	g := r.Overview().Grid
	w := g.Width()
	half := (to - from) / 2
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
	win, err := r.makeWindow(ctx, from, to, g)
	if err != nil {
		return nil, err
	}
	return win.model, nil
}

// makeWindow decodes [from, to] into a model on grid g.
func (r *Log) makeWindow(ctx context.Context, from, to uint64, g timeline.Grid) (*window, error) {
	ov := r.Overview()
	if ov == nil {
		return nil, fmt.Errorf("decoding a range: the run is not loaded")
	}
	b := timeline.NewOverviewBuilder(g)
	b.KeepMessages()
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
	// Threads are labelled as in the overview, which knows the labels set
	// before the range.
	b.NameThreads(func(id uint32) string {
		if i := ov.ThreadIndex(id); i >= 0 {
			return ov.String(ov.ThreadRecord(i).Label)
		}
		return ""
	})
	for c := range ov.HECs {
		b.SeedHEC(ov.HECs[c].Cap, from, ov.HECs[c].Track.StateBefore(from))
	}
	for _, i := range ov.ThreadsAliveAt(from) {
		th := ov.Thread(i)
		b.SeedThread(th.ID, ov.String(th.Label), th.Created, from, th.Track.StateBefore(from))
	}
	tap := func(c int32) func(*ingest.Event) bool {
		h := hecs[c]
		return func(e *ingest.Event) bool {
			if h != nil {
				h.Add(e)
			}
			return timeline.GlobalKind(e.Kind)
		}
	}
	m := ingest.NewMerge(r.data, r.ix(), ingest.MergeOptions{From: from, To: to, Tap: tap})
	defer m.Close()
	var k int
	for e := m.Next(); e != nil; e = m.Next() {
		b.AddGlobal(e)
		if k++; k&0xFFF == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	if err := m.Err(); err != nil {
		return nil, fmt.Errorf("decoding [%d, %d]: %w", from, to, err)
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
	return &window{from: from, to: to, grid: g, model: b.Snapshot(), ov: ov, known: known}, nil
}
