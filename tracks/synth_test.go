package tracks

import (
	"fmt"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// rng is a small deterministic pseudo-random generator (xorshift64*).
type rng uint64

func (r *rng) next() uint64 {
	x := uint64(*r)
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*r = rng(x)
	return x * 2685821657736338717
}

// in returns a number in [lo, hi).
func (r *rng) in(lo, hi uint64) uint64 { return lo + r.next()%(hi-lo) }

// synthHEC generates one capability's events in time order.
type synthHEC struct {
	cap     int32
	t       uint64
	alive   []uint32 // threads assigned to this HEC that have been created
	next    int      // round robin
	pending []ingest.Event
}

// synth generates the events of a run of hecs capabilities and threads
// threads, in time order, until events events have been made: threads
// created over the run, each on its own capability, running in slices of
// 1–20 µs and stopping for all the usual reasons; a GC on every capability
// each millisecond; START/STOP user spans, markers, sparks.
type synth struct {
	r       rng
	hecs    []*synthHEC
	threads int
	span    uint64
	created int
	end     []uint64 // per thread: when it finishes
	gcEvery uint64
	nextGC  uint64
	made    int
	limit   int
}

func newSynth(hecs, threads, events int) *synth {
	s := &synth{r: 88172645463325252, threads: threads, limit: events, gcEvery: 1e6}
	// Each slice is two events and takes about 12.5 µs of a capability.
	s.span = uint64(events) / 2 * 12_500 / uint64(hecs)
	for c := 0; c < hecs; c++ {
		s.hecs = append(s.hecs, &synthHEC{cap: int32(c)})
	}
	s.end = make([]uint64, threads+1)
	s.nextGC = s.gcEvery
	return s
}

// createdAt returns when thread k (1-based) is created.
func (s *synth) createdAt(k int) uint64 { return uint64(k-1) * (s.span * 9 / 10) / uint64(s.threads) }

func ev(t uint64, c int32, k ingest.Kind, args ...uint64) ingest.Event {
	e := ingest.Event{Time: t, Cap: c, Kind: k}
	copy(e.Args[:], args)
	return e
}

// step makes HEC h's next few events.
func (s *synth) step(h *synthHEC) {
	// Threads created by now.
	for s.created < s.threads && s.createdAt(s.created+1) <= h.t {
		s.created++
		k := s.created
		owner := s.hecs[k%len(s.hecs)]
		ct := s.createdAt(k)
		s.end[k] = ct + s.r.in(s.span/400, s.span/5)
		owner.alive = append(owner.alive, uint32(k))
		h.pending = append(h.pending, ev(max(ct, h.t), h.cap, ingest.KindCreateThread, uint64(k)))
		if k%7 == 0 {
			lbl := ev(max(ct, h.t), h.cap, ingest.KindThreadLabel, uint64(k))
			lbl.Data = []byte(fmt.Sprintf("worker-%d", k))
			h.pending = append(h.pending, lbl)
		}
	}
	if len(h.pending) > 0 {
		return
	}
	// A GC on every capability each millisecond, at the same times.
	if gcT := (h.t/s.gcEvery + 1) * s.gcEvery; h.t+40_000 > gcT {
		t := max(gcT, h.t)
		h.pending = append(h.pending, ev(t, h.cap, ingest.KindGCStart), ev(t+5_000, h.cap, ingest.KindGCWork),
			ev(t+30_000, h.cap, ingest.KindGCIdle), ev(t+38_000, h.cap, ingest.KindGCWork),
			ev(t+45_000, h.cap, ingest.KindGCDone), ev(t+50_000, h.cap, ingest.KindGCEnd))
		if h.cap == 0 {
			h.pending = append([]ingest.Event{ev(t, h.cap, ingest.KindRequestParGC)}, h.pending...)
		}
		h.t = t + 52_000
		return
	}
	if len(h.alive) == 0 {
		h.t += 20_000
		return
	}
	h.next %= len(h.alive)
	th := h.alive[h.next]
	t := h.t + s.r.in(500, 4_000)
	d := s.r.in(1_000, 20_000)
	h.pending = append(h.pending, ev(t, h.cap, ingest.KindRunThread, uint64(th)))
	status := []uint64{1, 3, 3, 7, 7, 8, 12, 6, 11, 20, 18}[s.r.in(0, 11)]
	if t+d >= s.end[th] {
		status = 5
		h.alive = append(h.alive[:h.next], h.alive[h.next+1:]...)
	} else {
		h.next++
	}
	h.pending = append(h.pending, ev(t+d, h.cap, ingest.KindStopThread, uint64(th), status))
	switch r := s.r.in(0, 100); {
	case r < 10:
		h.pending = append(h.pending, ev(t+d/2, h.cap, ingest.KindSparkCreate))
	case r < 15:
		h.pending = append(h.pending, ev(t+d/2, h.cap, ingest.KindSparkRun))
	case r < 17 && status != 5:
		h.pending = append(h.pending, ev(t+d+100, h.cap, ingest.KindThreadWakeup, uint64(th), uint64(h.cap)))
	}
	if h.cap == 0 {
		switch k := (t / 100_000) % 50; {
		case t%100_000 < 3_000 && k%2 == 0:
			m := ev(t, h.cap, ingest.KindUserMsg)
			m.Data = []byte(fmt.Sprintf("START phase-%d", k%3))
			h.pending = append(h.pending, m)
		case t%100_000 < 3_000:
			m := ev(t, h.cap, ingest.KindUserMsg)
			m.Data = []byte(fmt.Sprintf("STOP phase-%d", (k-1)%3))
			h.pending = append(h.pending, m)
		}
		if t%5_000_000 < 3_000 {
			m := ev(t, h.cap, ingest.KindUserMarker)
			m.Data = []byte(fmt.Sprintf("mark %d", t/5_000_000))
			h.pending = append(h.pending, m)
		}
	}
	h.t = t + d
}

// build feeds the events to b in time order, and returns how many.
func (s *synth) build(b *timeline.Builder) int {
	for s.made < s.limit {
		// The capability with the earliest pending event, or the earliest
		// clock to step.
		var best *synthHEC
		var bt uint64
		for _, h := range s.hecs {
			if len(h.pending) == 0 {
				s.step(h)
			}
			if len(h.pending) == 0 {
				continue
			}
			if t := h.pending[0].Time; best == nil || t < bt {
				best, bt = h, t
			}
		}
		if best == nil {
			continue
		}
		e := best.pending[0]
		best.pending = best.pending[1:]
		b.Add(&e)
		s.made++
	}
	return s.made
}

// synthModel builds an exact model of a synthetic run.
func synthModel(hecs, threads, events int) *timeline.Model {
	b := timeline.NewOverviewBuilder(timeline.Grid{})
	newSynth(hecs, threads, events).build(b)
	b.Finish()
	return b.Snapshot()
}
