package export

import (
	"bufio"
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/spans"
)

// The Chrome trace's processes: each groups tracks in the viewer.
const (
	pidHECs    = 1 // a track per capability: the threads it ran, its GCs
	pidThreads = 2 // a track per thread: when it ran, and where
	pidSpans   = 3 // user spans, as async slices by thread
	pidHeap    = 4 // heap counters
)

// chromeWriter writes the Chrome trace-event format (JSON object form):
// {"traceEvents":[...],"displayTimeUnit":"ns"}, times in microseconds.
type chromeWriter struct {
	w      *bufio.Writer
	opt    Options
	n      int // events written
	buf    []byte
	caps   map[int32]*capState
	named  map[uint32]bool   // threads whose track is named
	labels map[uint32]string // thread labels
	alloc  map[int32]uint64  // bytes allocated so far, by capability
	spans  *spans.Collector
	nextID uint64
}

// capState is what a capability is doing.
type capState struct {
	thread   uint32 // running thread, 0 if none
	runSince uint64
	gcSince  uint64
	inGC     bool
}

// maxThreadNames bounds the thread labels and named tracks remembered.
const maxThreadNames = 1 << 20

func newChromeWriter(w *bufio.Writer, opt Options) *chromeWriter {
	c := &chromeWriter{w: w, opt: opt, caps: make(map[int32]*capState), named: make(map[uint32]bool),
		labels: make(map[uint32]string), alloc: make(map[int32]uint64)}
	c.spans = spans.NewCollector(spans.Options{From: opt.From, To: opt.To, Instances: -1, ExactBudget: 1,
		OnSpan: c.span})
	w.WriteString(`{"displayTimeUnit":"ns","traceEvents":[`)
	for pid, name := range []string{pidHECs: "HECs", pidThreads: "Threads", pidSpans: "User spans", pidHeap: "Heap"} {
		if name != "" {
			c.meta("process_name", pid, -1, name)
			c.meta("process_sort_index", pid, -1, "")
		}
	}
	return c
}

func (c *chromeWriter) done() bool { return c.spans.Done() }

// begin starts an event object with its phase, name, category, time,
// process and thread (tid < 0: none).
func (c *chromeWriter) begin(ph, name, cat string, ts uint64, pid int, tid int64) {
	b := c.buf[:0]
	if c.n > 0 {
		b = append(b, ',')
	}
	b = append(b, "\n{\"ph\":\""...)
	b = append(b, ph...)
	b = append(b, "\",\"name\":"...)
	b = appendJSONString(b, name)
	if cat != "" {
		b = append(b, ",\"cat\":"...)
		b = appendJSONString(b, cat)
	}
	b = append(b, ",\"ts\":"...)
	b = appendMicros(b, ts)
	b = append(b, ",\"pid\":"...)
	b = strconv.AppendInt(b, int64(pid), 10)
	if tid >= 0 {
		b = append(b, ",\"tid\":"...)
		b = strconv.AppendInt(b, tid, 10)
	}
	c.buf = b
	c.n++
}

// end closes the event object and writes it.
func (c *chromeWriter) end() {
	c.buf = append(c.buf, '}')
	c.w.Write(c.buf)
}

// meta writes a metadata event naming a process (tid < 0) or a thread
// track; process_sort_index and thread_sort_index take the pid or tid as
// their index.
func (c *chromeWriter) meta(kind string, pid int, tid int64, name string) {
	c.begin("M", kind, "", 0, pid, tid)
	switch kind {
	case "process_sort_index":
		c.buf = append(c.buf, ",\"args\":{\"sort_index\":"...)
		c.buf = strconv.AppendInt(c.buf, int64(pid), 10)
	case "thread_sort_index":
		c.buf = append(c.buf, ",\"args\":{\"sort_index\":"...)
		c.buf = strconv.AppendInt(c.buf, tid, 10)
	default:
		c.buf = append(c.buf, ",\"args\":{\"name\":"...)
		c.buf = appendJSONString(c.buf, name)
	}
	c.buf = append(c.buf, '}')
	c.end()
}

// slice writes a complete event [from, to] cut to the range, with args
// given as alternating keys and values (strings or uint64s).
func (c *chromeWriter) slice(name, cat string, from, to uint64, pid int, tid int64, args ...any) {
	from, to, ok := c.opt.clip(from, to)
	if !ok {
		return
	}
	c.begin("X", name, cat, from, pid, tid)
	c.buf = append(c.buf, ",\"dur\":"...)
	c.buf = appendMicros(c.buf, to-from)
	c.appendArgs(args)
	c.end()
}

// appendArgs appends "args":{...} from alternating keys and values.
func (c *chromeWriter) appendArgs(args []any) {
	if len(args) == 0 {
		return
	}
	c.buf = append(c.buf, ",\"args\":{"...)
	for i := 0; i+1 < len(args); i += 2 {
		if i > 0 {
			c.buf = append(c.buf, ',')
		}
		c.buf = appendJSONString(c.buf, args[i].(string))
		c.buf = append(c.buf, ':')
		switch v := args[i+1].(type) {
		case string:
			c.buf = appendJSONString(c.buf, v)
		case uint64:
			c.buf = strconv.AppendUint(c.buf, v, 10)
		case int:
			c.buf = strconv.AppendInt(c.buf, int64(v), 10)
		}
	}
	c.buf = append(c.buf, '}')
}

// capability returns cap's state, naming its track when first seen.
func (c *chromeWriter) capability(cp int32) *capState {
	s := c.caps[cp]
	if s == nil {
		s = &capState{}
		c.caps[cp] = s
		c.meta("thread_name", pidHECs, int64(cp), "HEC "+strconv.Itoa(int(cp)))
		c.meta("thread_sort_index", pidHECs, int64(cp), "")
	}
	return s
}

// threadName is how a thread is called: its label if it has one.
func (c *chromeWriter) threadName(th uint32) string {
	if l := c.labels[th]; l != "" {
		return l + " (" + strconv.FormatUint(uint64(th), 10) + ")"
	}
	return "thread " + strconv.FormatUint(uint64(th), 10)
}

// nameThread names a thread's track the first time it gets a slice.
func (c *chromeWriter) nameThread(th uint32) {
	if c.named[th] || len(c.named) >= maxThreadNames {
		return
	}
	c.named[th] = true
	c.meta("thread_name", pidThreads, int64(th), c.threadName(th))
	c.meta("thread_sort_index", pidThreads, int64(th), "")
}

// stopRun ends the run of the thread on capability cp at t.
func (c *chromeWriter) stopRun(cp int32, s *capState, t uint64, why string) {
	if s.thread == 0 {
		return
	}
	th := s.thread
	s.thread = 0
	if _, _, ok := c.opt.clip(s.runSince, t); !ok {
		return
	}
	c.slice(c.threadName(th), "thread", s.runSince, t, pidHECs, int64(cp), "thread", uint64(th), "stop", why)
	c.nameThread(th)
	c.slice("running", "thread", s.runSince, t, pidThreads, int64(th), "cap", uint64(cp), "stop", why)
}

func (c *chromeWriter) event(ev *ingest.Event) {
	c.spans.Add(ev)
	t := ev.Time
	if c.opt.To != 0 && t >= c.opt.To {
		// Past the range only the spans' ends matter; the runs and GCs
		// still open are cut at its end by finish.
		return
	}
	switch ev.Kind {
	case ingest.KindRunThread:
		s := c.capability(ev.Cap)
		c.stopRun(ev.Cap, s, t, "preempted")
		s.thread, s.runSince = ev.Thread(), t
	case ingest.KindStopThread:
		s := c.capability(ev.Cap)
		if s.thread == ev.Thread() {
			c.stopRun(ev.Cap, s, t, stopReason(ev.StopStatus()))
		}
	case ingest.KindGCStart:
		s := c.capability(ev.Cap)
		s.inGC, s.gcSince = true, t
	case ingest.KindGCEnd:
		s := c.capability(ev.Cap)
		if s.inGC {
			s.inGC = false
			c.slice("GC", "gc", s.gcSince, max(t, s.gcSince), pidHECs, int64(ev.Cap))
		}
	case ingest.KindShutdown, ingest.KindCapDelete:
		if s := c.caps[ev.Cap]; s != nil {
			c.stopRun(ev.Cap, s, t, "shutdown")
		}
	case ingest.KindThreadLabel:
		if len(c.labels) < maxThreadNames {
			c.labels[ev.Thread()] = string(ev.Data)
		}
		if c.named[ev.Thread()] {
			c.meta("thread_name", pidThreads, int64(ev.Thread()), c.threadName(ev.Thread()))
		}
	case ingest.KindUserMarker:
		if c.opt.in(t) {
			c.begin("i", string(ev.Data), "marker", t, pidHECs, -1)
			c.buf = append(c.buf, ",\"s\":\"g\""...)
			c.end()
		}
	case ingest.KindHeapSize, ingest.KindHeapLive, ingest.KindHeapAllocated:
		name, v := heapCounter(ev, c.alloc, [3]string{"heap size", "heap live", "allocated"})
		c.counter(name, t, v)
	}
}

// counter writes a counter sample (in the range).
func (c *chromeWriter) counter(name string, t, v uint64) {
	if !c.opt.in(t) {
		return
	}
	c.begin("C", name, "heap", t, pidHeap, -1)
	c.buf = append(c.buf, ",\"args\":{\"bytes\":"...)
	c.buf = strconv.AppendUint(c.buf, v, 10)
	c.buf = append(c.buf, '}')
	c.end()
}

// span writes a user span as a pair of async events on its thread.
func (c *chromeWriter) span(l *spans.Label, in spans.Instance) {
	c.nextID++
	for _, ph := range []string{"b", "e"} {
		t := in.Start
		if ph == "e" {
			t = in.End
		}
		c.begin(ph, l.Name, "span", t, pidSpans, int64(in.Thread))
		c.buf = append(c.buf, ",\"id\":"...)
		c.buf = strconv.AppendUint(c.buf, c.nextID, 10)
		if ph == "b" {
			c.appendArgs([]any{"thread", uint64(in.Thread), "cap", int(in.Cap)})
		}
		c.end()
	}
}

func (c *chromeWriter) finish(end uint64) error {
	caps := slices.Sorted(maps.Keys(c.caps))
	for _, cp := range caps {
		s := c.caps[cp]
		c.stopRun(cp, s, end, "end of range")
		if s.inGC {
			c.slice("GC", "gc", s.gcSince, max(end, s.gcSince), pidHECs, int64(cp))
		}
	}
	c.w.WriteString("\n]}\n")
	return nil
}

// appendJSONString appends s as a JSON string.
func appendJSONString(b []byte, s string) []byte {
	q, err := json.Marshal(s)
	if err != nil {
		return append(b, `""`...)
	}
	return append(b, q...)
}

// appendMicros appends ns as a decimal number of microseconds.
func appendMicros(b []byte, ns uint64) []byte {
	b = strconv.AppendUint(b, ns/1000, 10)
	if r := ns % 1000; r != 0 {
		b = append(b, '.', byte('0'+r/100), byte('0'+r/10%10), byte('0'+r%10))
	}
	return b
}
