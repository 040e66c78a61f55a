package spans

import (
	"cmp"
	"slices"

	"github.com/hecscope/hecscope/ingest"
)

// Options says which spans to measure.
type Options struct {
	// From and To select the spans that start in [From, To) (To 0: no
	// end). A span that starts in the range counts whole, wherever it ends.
	From, To uint64
	// Instances is how many of each label's longest instances to keep
	// (0: DefaultInstances; negative: none).
	Instances int
	// ExactBudget is how many durations are kept exactly over all labels
	// before every label is sketched (0: DefaultExactBudget).
	ExactBudget int
	// OnSpan, if set, is called with every span measured, when it ends
	// (an export streams them).
	OnSpan func(l *Label, in Instance)
}

// DefaultInstances is how many of its longest instances a label keeps.
const DefaultInstances = 200

// DefaultExactBudget is how many durations are kept exactly (16 MB).
const DefaultExactBudget = 2 << 20

// maxOpen bounds the spans held open at once: a log with millions of
// STARTs that never stop is measured without running away with memory
// (the STARTs past the bound count as open and are not paired).
const maxOpen = 1 << 20

// Report is the span statistics of a run or a range of it.
type Report struct {
	// Labels has one entry per label with spans in the range, by total
	// time, longest first (ties by kind, then name).
	Labels []*Label
	// From and To are the range asked for (To 0: the end of the run).
	From, To uint64
	// End is the time of the last event read.
	End uint64
	// Exact says whether the percentiles are exact (false once the
	// durations outgrew Options.ExactBudget and were sketched).
	Exact bool
	// Status is how the log ended (set by File and Read).
	Status ingest.Status
}

// Label returns the label of kind k named name, or nil.
func (r *Report) Label(k Kind, name string) *Label {
	for _, l := range r.Labels {
		if l.Kind == k && l.Name == name {
			return l
		}
	}
	return nil
}

// labelKey identifies a label.
type labelKey struct {
	kind Kind
	name string
}

// openKey identifies the open spans one STOP may close: its thread's, of
// its label and instance number.
type openKey struct {
	thread uint32
	label  string
	id     uint32
}

// openSpan is a START waiting for its STOP.
type openSpan struct {
	start uint64
	cap   int32
	in    bool // starts in the range
}

// threadState is what is known of a live thread.
type threadState struct {
	start uint64
	cap   int32
	label string
}

// Collector measures spans from events given in time order.
type Collector struct {
	opt     Options
	labels  map[labelKey]*Label
	open    map[openKey][]openSpan
	nOpen   int
	inOpen  int // open spans and labelled threads that started in the range
	running map[int32]uint32
	threads map[uint32]*threadState
	exact   int
	sketch  bool
	end     uint64
}

// NewCollector returns a collector of the spans opt selects.
func NewCollector(opt Options) *Collector {
	if opt.Instances == 0 {
		opt.Instances = DefaultInstances
	}
	if opt.ExactBudget <= 0 {
		opt.ExactBudget = DefaultExactBudget
	}
	return &Collector{opt: opt, labels: make(map[labelKey]*Label), open: make(map[openKey][]openSpan),
		running: make(map[int32]uint32), threads: make(map[uint32]*threadState)}
}

// inRange reports whether a span starting at t is measured.
func (c *Collector) inRange(t uint64) bool {
	return t >= c.opt.From && (c.opt.To == 0 || t < c.opt.To)
}

// Done reports whether no later event can change the report: the range has
// ended and no span that started in it is open.
func (c *Collector) Done() bool {
	return c.opt.To != 0 && c.end >= c.opt.To && c.inOpen == 0
}

// label returns the label k, name, making it if new.
func (c *Collector) label(k Kind, name string) *Label {
	key := labelKey{k, name}
	l := c.labels[key]
	if l == nil {
		l = &Label{Name: name, Kind: k, keepLong: c.opt.Instances}
		if c.sketch {
			l.dist.sketch()
		}
		c.labels[key] = l
	}
	return l
}

// record adds a span to its label, sketching every label once the exact
// durations exceed the budget.
func (c *Collector) record(l *Label, in Instance) {
	l.add(in)
	if c.opt.OnSpan != nil {
		c.opt.OnSpan(l, in)
	}
	if c.sketch {
		return
	}
	c.exact++
	if c.exact > c.opt.ExactBudget {
		c.sketch = true
		for _, l := range c.labels {
			l.dist.sketch()
		}
	}
}

// Add takes the next event.
func (c *Collector) Add(ev *ingest.Event) {
	t := ev.Time
	c.end = max(c.end, t)
	switch ev.Kind {
	case ingest.KindRunThread:
		c.running[ev.Cap] = ev.Thread()
	case ingest.KindStopThread:
		delete(c.running, ev.Cap)
		if ev.StopStatus() == ingest.StopFinished {
			c.threadEnd(ev.Thread(), t)
		}
	case ingest.KindCreateThread:
		if _, ok := c.threads[ev.Thread()]; !ok && len(c.threads) < maxOpen {
			c.threads[ev.Thread()] = &threadState{start: t, cap: ev.Cap}
		}
	case ingest.KindThreadLabel:
		th := c.threads[ev.Thread()]
		if th == nil {
			if len(c.threads) >= maxOpen {
				return
			}
			th = &threadState{start: t, cap: ev.Cap}
			c.threads[ev.Thread()] = th
		}
		if th.label == "" && c.inRange(th.start) {
			c.inOpen++
		}
		th.label = string(ev.Data)
	case ingest.KindUserMsg:
		c.userMessage(ev)
	}
}

// threadEnd closes a finished thread's span if it is labelled.
func (c *Collector) threadEnd(id uint32, t uint64) {
	th := c.threads[id]
	if th == nil {
		return
	}
	delete(c.threads, id)
	if th.label == "" || !c.inRange(th.start) {
		return
	}
	c.inOpen--
	c.record(c.label(Thread, th.label), Instance{Start: th.start, End: max(t, th.start), Thread: id, Cap: th.cap})
}

// userMessage pairs a START or STOP with the spans open on its thread.
func (c *Collector) userMessage(ev *ingest.Event) {
	if len(ev.Data) < 6 || ev.Data[1] != 'T' {
		return
	}
	start, id, name, ok := ingest.ParseUserSpan(string(ev.Data))
	if !ok {
		return
	}
	t := ev.Time
	thread := c.running[ev.Cap]
	key := openKey{thread: thread, label: name, id: id}
	if start {
		in := c.inRange(t)
		if c.nOpen >= maxOpen {
			if in {
				c.label(User, name).dropped++
			}
			return
		}
		c.open[key] = append(c.open[key], openSpan{start: t, cap: ev.Cap, in: in})
		c.nOpen++
		if in {
			c.inOpen++
		}
		return
	}
	stack := c.open[key]
	if len(stack) == 0 {
		// A STOP on another thread than its START (a span handed over):
		// the latest open START of the label on any thread.
		found := false
		var latest uint64
		for k, s := range c.open {
			if k.label != name || k.id != id || len(s) == 0 {
				continue
			}
			if st := s[len(s)-1].start; !found || st > latest || (st == latest && k.thread < key.thread) {
				key, latest, found = k, st, true
			}
		}
		if !found {
			if c.inRange(t) {
				c.label(User, name).Unmatched++
			}
			return
		}
		stack = c.open[key]
	}
	o := stack[len(stack)-1]
	if len(stack) == 1 {
		delete(c.open, key)
	} else {
		c.open[key] = stack[:len(stack)-1]
	}
	c.nOpen--
	if !o.in {
		return
	}
	c.inOpen--
	c.record(c.label(User, name), Instance{Start: o.start, End: max(t, o.start), Thread: key.thread, Cap: o.cap, ID: id})
}

// Report returns the statistics so far; spans still open count in their
// labels' Open.
func (c *Collector) Report() *Report {
	r := &Report{From: c.opt.From, To: c.opt.To, End: c.end, Exact: !c.sketch}
	for _, l := range c.labels {
		l.Open = l.dropped
	}
	for k, s := range c.open {
		for _, o := range s {
			if o.in {
				c.label(User, k.label).Open++
			}
		}
	}
	for _, th := range c.threads {
		if th.label != "" && c.inRange(th.start) {
			c.label(Thread, th.label).Open++
		}
	}
	for _, l := range c.labels {
		if l.Count > 0 || l.Open > 0 || l.Unmatched > 0 {
			r.Labels = append(r.Labels, l)
		}
	}
	slices.SortFunc(r.Labels, func(a, b *Label) int {
		if c := cmp.Compare(b.Total, a.Total); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return r
}
