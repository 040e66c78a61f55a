package eventlog

import (
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// A load's own goroutine merges the capabilities' streams in time order
// and hands the events that are not one capability's alone to the
// builder's own part (timeline.Builder.AddGlobal): in a thread-heavy run
// that part is most of the load's work (storm1g's 9.6 M threads: 6.4 s
// of the 7.2 s of that goroutine, while the streams took 4.3 s). It runs
// in a goroutine of its own, the globals builder, which owns the builder
// for the time of the merge: the merge hands it those events in batches,
// copied out of the merge's buffers, and asks it for the builder's
// settling and previews between two batches, as the loop did itself.

// globalBatchEvents is how many events a batch holds at most (48 kB).
const globalBatchEvents = 1 << 10

// globalsAhead is how many batches the merge may be ahead of the globals
// builder.
const globalsAhead = 4

// globalEvent is what AddGlobal reads of an event (timeline.GlobalArgs
// of its Args); its Data lies in its batch's data at [data, data+size).
type globalEvent struct {
	time       uint64
	args       [timeline.GlobalArgs]uint64
	kind       ingest.Kind
	cap        int32
	data, size uint32
}

// globalBatch is a run of events for the globals builder, then what it
// does once it has added them.
type globalBatch struct {
	evs  []globalEvent
	data []byte
	// settle: Builder.Settle.
	settle bool
	// preview: Builder.SetExtent(events, from, to), then Builder.Preview,
	// whose model it sends back on previews.
	preview  bool
	events   int64
	from, to uint64
}

// add copies e into the batch, which has room for it. (Its fields are
// stored one by one in place: a globalEvent made apart and then copied in
// is read back wider than it was written, which cost storm1g's load 0.6 s.)
func (g *globalBatch) add(e *ingest.Event) {
	n := len(g.evs)
	g.evs = g.evs[:n+1]
	ge := &g.evs[n]
	ge.time, ge.kind, ge.cap, ge.data, ge.size = e.Time, e.Kind, e.Cap, 0, 0
	copy(ge.args[:], e.Args[:])
	if len(e.Data) > 0 {
		ge.data, ge.size = uint32(len(g.data)), uint32(len(e.Data))
		g.data = append(g.data, e.Data...)
	}
}

// globals is the globals builder: batches go in on work, and come back
// emptied on free; done is closed once work is closed and every batch
// added.
type globals struct {
	work, free chan *globalBatch
	previews   chan *timeline.Model
	done       chan struct{}
	cur        *globalBatch
}

// startGlobals starts the globals builder of b.
func startGlobals(b *timeline.Builder) *globals {
	g := &globals{work: make(chan *globalBatch, globalsAhead), free: make(chan *globalBatch, globalsAhead+1),
		previews: make(chan *timeline.Model), done: make(chan struct{})}
	for range globalsAhead + 1 {
		g.free <- &globalBatch{evs: make([]globalEvent, 0, globalBatchEvents)}
	}
	g.cur = <-g.free
	go g.run(b)
	return g
}

// run adds the batches' events to b, in order.
func (g *globals) run(b *timeline.Builder) {
	defer close(g.done)
	var ev ingest.Event
	for w := range g.work {
		for i := range w.evs {
			ge := &w.evs[i]
			ev.Time, ev.Kind, ev.Cap, ev.Data = ge.time, ge.kind, ge.cap, nil
			copy(ev.Args[:], ge.args[:])
			if ge.size > 0 {
				ev.Data = w.data[ge.data : ge.data+ge.size]
			}
			b.AddGlobal(&ev)
		}
		if w.settle {
			b.Settle()
		}
		if w.preview {
			b.SetExtent(w.events, w.from, w.to)
			g.previews <- b.Preview()
		}
		w.evs, w.data, w.settle, w.preview = w.evs[:0], w.data[:0], false, false
		g.free <- w
	}
}

// add hands e on to the globals builder.
func (g *globals) add(e *ingest.Event) {
	if len(g.cur.evs) == globalBatchEvents {
		g.send()
	}
	g.cur.add(e)
}

// send sends the batch being filled to the globals builder.
func (g *globals) send() {
	g.work <- g.cur
	g.cur = <-g.free
}

// settle has the globals builder settle the builder's threads once it has
// added the events handed on so far (Builder.Settle).
func (g *globals) settle() {
	g.cur.settle = true
	g.send()
}

// preview returns the builder's preview once the globals builder has added
// the events handed on so far, and set the builder's extent.
func (g *globals) preview(events int64, from, to uint64) *timeline.Model {
	g.cur.preview, g.cur.events, g.cur.from, g.cur.to = true, events, from, to
	g.send()
	return <-g.previews
}

// stop waits until the globals builder has added every event handed on:
// the builder is then the caller's again.
func (g *globals) stop() {
	if g.cur != nil {
		g.work <- g.cur
		g.cur = nil
		close(g.work)
	}
	<-g.done
}
