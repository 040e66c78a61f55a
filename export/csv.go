package export

import (
	"bufio"
	"encoding/csv"
	"strconv"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/spans"
)

// csvWriter writes one CSV table of the run's spans, GC pauses and heap
// samples, a row each as they end:
//
//	kind,label,start_ns,end_ns,duration_ns,thread,cap,bytes
//
// kind is "user_span" (label: the span's label), "thread_span" (a labelled
// thread from creation to end), "gc" (a pause: from the first capability
// starting to collect to the last one done; label: "gen N" when the RTS
// said which generation), or "heap_size", "heap_live", "allocated" (a heap
// counter sample at start_ns: bytes; allocated sums the capabilities).
type csvWriter struct {
	w     *csv.Writer
	opt   Options
	spans *spans.Collector
	inGC  map[int32]bool
	gcAt  uint64
	gen   int64
	alloc map[int32]uint64
	rec   [8]string
}

func newCSVWriter(w *bufio.Writer, opt Options) *csvWriter {
	c := &csvWriter{w: csv.NewWriter(w), opt: opt, inGC: make(map[int32]bool), alloc: make(map[int32]uint64), gen: -1}
	c.spans = spans.NewCollector(spans.Options{From: opt.From, To: opt.To, Instances: -1, ExactBudget: 1, OnSpan: c.span})
	c.w.Write([]string{"kind", "label", "start_ns", "end_ns", "duration_ns", "thread", "cap", "bytes"})
	return c
}

func (c *csvWriter) done() bool { return c.spans.Done() }

// row writes one row; thread 0, cap < 0 and bytes < 0 leave their cells empty.
func (c *csvWriter) row(kind, label string, start, end uint64, thread uint32, cp int32, bytes int64) {
	r := c.rec[:]
	r[0], r[1] = kind, label
	r[2], r[3], r[4] = strconv.FormatUint(start, 10), strconv.FormatUint(end, 10), strconv.FormatUint(end-start, 10)
	r[5], r[6], r[7] = "", "", ""
	if thread != 0 {
		r[5] = strconv.FormatUint(uint64(thread), 10)
	}
	if cp >= 0 {
		r[6] = strconv.Itoa(int(cp))
	}
	if bytes >= 0 {
		r[7] = strconv.FormatInt(bytes, 10)
	}
	c.w.Write(r)
}

func (c *csvWriter) span(l *spans.Label, in spans.Instance) {
	kind := "user_span"
	if l.Kind == spans.Thread {
		kind = "thread_span"
	}
	c.row(kind, l.Name, in.Start, in.End, in.Thread, in.Cap, -1)
}

func (c *csvWriter) event(ev *ingest.Event) {
	c.spans.Add(ev)
	t := ev.Time
	if c.opt.To != 0 && t >= c.opt.To {
		return
	}
	switch ev.Kind {
	case ingest.KindGCStart:
		if len(c.inGC) == 0 {
			c.gcAt, c.gen = t, -1
		}
		c.inGC[ev.Cap] = true
	case ingest.KindGCEnd:
		if !c.inGC[ev.Cap] {
			return
		}
		delete(c.inGC, ev.Cap)
		if len(c.inGC) == 0 {
			c.pause(max(t, c.gcAt))
		}
	case ingest.KindGCStatsGHC:
		c.gen = int64(ev.Args[1])
	case ingest.KindHeapSize, ingest.KindHeapLive, ingest.KindHeapAllocated:
		name, v := heapCounter(ev, c.alloc, [3]string{"heap_size", "heap_live", "allocated"})
		c.sample(name, t, v)
	}
}

// pause writes the GC pause that ends at t, cut to the range.
func (c *csvWriter) pause(t uint64) {
	from, to, ok := c.opt.clip(c.gcAt, t)
	if !ok {
		return
	}
	label := ""
	if c.gen >= 0 {
		label = "gen " + strconv.FormatInt(c.gen, 10)
	}
	c.row("gc", label, from, to, 0, -1, -1)
}

// sample writes a heap counter sample in the range.
func (c *csvWriter) sample(kind string, t, v uint64) {
	if c.opt.in(t) {
		c.row(kind, "", t, t, 0, -1, int64(min(v, 1<<63-1)))
	}
}

func (c *csvWriter) finish(end uint64) error {
	if len(c.inGC) > 0 {
		c.pause(max(end, c.gcAt))
	}
	c.w.Flush()
	return c.w.Error()
}
