package timeline

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// testLogs returns the real eventlogs the model is checked on.
func testLogs(t testing.TB) []string {
	var out []string
	// The shared corpus beside the checkout adds the bigger ThreadScope logs
	// where it is present.
	for _, pat := range []string{"../testdata/corpus/*.eventlog", "../testdata/ghc-9.0.2/*.eventlog",
		"../../shared/corpus/public/ThreadScope__*.eventlog"} {
		m, _ := filepath.Glob(pat)
		out = append(out, m...)
	}
	if len(out) == 0 {
		t.Skip("no eventlogs found")
	}
	return out
}

// build reads a whole file into a model, also returning the events.
func build(t testing.TB, path string) (*Model, []ingest.Event) {
	f, err := ingest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := NewOverviewBuilder(Grid{})
	var evs []ingest.Event
	var ev ingest.Event
	for f.Next(&ev) {
		b.Add(&ev)
		evs = append(evs, ev.Clone())
	}
	b.Finish()
	return b.Snapshot(), evs
}

// TestHECTimeAddsUp checks that per HEC running + GC + idle time is the whole
// run, and that running spans and RunThread events agree one to one.
func TestHECTimeAddsUp(t *testing.T) {
	for _, path := range testLogs(t) {
		m, evs := build(t, path)
		name := filepath.Base(path)
		runs := map[int32]int{}
		runTime := map[int32]uint64{}
		started := map[int32]uint64{}
		running := map[int32]bool{}
		for i := range evs {
			e := &evs[i]
			switch e.Kind {
			case ingest.KindRunThread:
				runs[e.Cap]++
				if running[e.Cap] {
					runTime[e.Cap] += e.Time - started[e.Cap]
				}
				started[e.Cap], running[e.Cap] = e.Time, true
			case ingest.KindStopThread, ingest.KindShutdown, ingest.KindCapDelete:
				if running[e.Cap] {
					runTime[e.Cap] += e.Time - started[e.Cap]
					running[e.Cap] = false
				}
			}
		}
		for c := range m.HECs {
			h := &m.HECs[c]
			d := h.Track.Durations(0, m.End)
			if got := d.Total(); got != m.End {
				t.Errorf("%s HEC %d: states add up to %d ns, run is %d", name, c, got, m.End)
			}
			if got := h.Track.Count(StateRunning, 0, m.End+1); got != runs[int32(c)] {
				t.Errorf("%s HEC %d: %d running spans, %d RunThread events", name, c, got, runs[int32(c)])
			}
			want := runTime[int32(c)]
			if running[int32(c)] {
				want += m.End - started[int32(c)]
			}
			if d[StateRunning] != want {
				t.Errorf("%s HEC %d: running %d ns, events say %d", name, c, d[StateRunning], want)
			}
			// Any split of the run sums to the same durations.
			var sum Durations
			for i := uint64(0); i < 7; i++ {
				p := h.Track.Durations(m.End*i/7, m.End*(i+1)/7)
				sum.add(&p)
			}
			if sum != d {
				t.Errorf("%s HEC %d: split durations %v != whole %v", name, c, sum, d)
			}
		}
		if m.Events != int64(len(evs)) {
			t.Errorf("%s: %d events counted, %d decoded", name, m.Events, len(evs))
		}
	}
}

// TestThreadStates checks that a thread's marks are in time order, that its
// running time equals the HEC rows' time running it, and that it never runs
// on two HECs at once.
func TestThreadStates(t *testing.T) {
	for _, path := range testLogs(t) {
		m, _ := build(t, path)
		name := filepath.Base(path)
		perThread := map[uint32]uint64{}
		for c := range m.HECs {
			tr := &m.HECs[c].Track
			for i := 0; i < tr.Len(); i++ {
				mk := tr.Mark(i)
				if mk.State != StateRunning {
					continue
				}
				end := m.End
				if i+1 < tr.Len() {
					end = tr.Mark(i + 1).Time
				}
				perThread[mk.Arg] += end - mk.Time
			}
		}
		for i := range m.NumThreads() {
			th := new(m.Thread(i))
			tr := &th.Track
			for j := 1; j < tr.Len(); j++ {
				if tr.Mark(j).Time < tr.Mark(j-1).Time {
					t.Fatalf("%s thread %d: marks out of order at %d", name, th.ID, j)
				}
			}
			d := tr.Durations(0, m.End)
			if d.Total() != m.End {
				t.Errorf("%s thread %d: states add up to %d, run is %d", name, th.ID, d.Total(), m.End)
			}
			if d[StateRunning] != perThread[th.ID] {
				t.Errorf("%s thread %d: running %d ns on its own row, %d on the HEC rows", name, th.ID, d[StateRunning], perThread[th.ID])
			}
			if th.Finished != 0 && tr.StateAt(m.End).State != StateFinished {
				t.Errorf("%s thread %d: finished at %d but ends %v", name, th.ID, th.Finished, tr.StateAt(m.End).State)
			}
		}
		if m.NumThreads() != len(perThread) && len(perThread) > m.NumThreads() {
			t.Errorf("%s: %d threads ran but %d known", name, len(perThread), m.NumThreads())
		}
	}
}

// TestSparksMatchEvents compares spark counts with the events of the log.
func TestSparksMatchEvents(t *testing.T) {
	for _, path := range testLogs(t) {
		m, evs := build(t, path)
		want := map[int32]int{}
		samples := map[int32]int{}
		for i := range evs {
			switch evs[i].Kind {
			case ingest.KindSparkCreate:
				want[evs[i].Cap]++
			case ingest.KindSparkCounters:
				samples[evs[i].Cap]++
			}
		}
		for c := range m.HECs {
			h := &m.HECs[c]
			if got := h.Sparks(SparkCreated, 0, m.End+1); got != want[int32(c)] {
				t.Errorf("%s HEC %d: %d sparks created, want %d", filepath.Base(path), c, got, want[int32(c)])
			}
			half := h.Sparks(SparkCreated, 0, m.End/2) + h.Sparks(SparkCreated, m.End/2, m.End+1)
			if half != want[int32(c)] {
				t.Errorf("%s HEC %d: halves give %d sparks, want %d", filepath.Base(path), c, half, want[int32(c)])
			}
			if h.NumSparkSamples() != samples[int32(c)] {
				t.Errorf("%s HEC %d: %d spark samples, want %d", filepath.Base(path), c, h.NumSparkSamples(), samples[int32(c)])
			}
		}
	}
}

func TestUserSpans(t *testing.T) {
	cases := []struct {
		msg   string
		start bool
		id    uint32
		label string
		ok    bool
	}{
		{"START phase-3", true, 0, "phase-3", true},
		{"STOP phase-3", false, 0, "phase-3", true},
		{"START 12 fetch url", true, 12, "fetch url", true},
		{"STOP 12 fetch url", false, 12, "fetch url", true},
		{"START 12", true, 0, "12", true},
		{"STARTLE x", false, 0, "", false},
		{"hello", false, 0, "", false},
		{"STOP  ", false, 0, "", false},
	}
	for _, c := range cases {
		start, id, label, ok := ingest.ParseUserSpan(c.msg)
		if start != c.start || id != c.id || label != c.label || ok != c.ok {
			t.Errorf("ParseUserSpan(%q) = %v %d %q %v", c.msg, start, id, label, ok)
		}
	}
	b := NewOverviewBuilder(Grid{})
	msg := func(tm uint64, s string) {
		b.Add(&ingest.Event{Time: tm, Kind: ingest.KindUserMsg, Cap: 0, Data: []byte(s)})
	}
	msg(10, "START a")
	msg(15, "START 1 b")
	msg(20, "START 2 b")
	msg(30, "STOP a")
	msg(35, "STOP 2 b")
	msg(50, "STOP 1 b")
	msg(60, "START a")
	msg(64, "STOP a")
	msg(70, "STOP c")
	msg(80, "START c")
	b.Finish()
	m := b.Snapshot()
	stats := map[string]LabelStats{}
	for _, s := range m.Labels {
		stats[m.String(s.Label)] = s
	}
	a, bb, c := stats["a"], stats["b"], stats["c"]
	if a.Count != 2 || a.Total != 24 || a.Min != 4 || a.Max != 20 || a.Mean() != 12 {
		t.Errorf("label a: %+v", a)
	}
	if bb.Count != 2 || bb.Total != 50 || bb.Min != 15 || bb.Max != 35 {
		t.Errorf("label b: %+v", bb)
	}
	if c.Count != 0 || c.Unmatched != 1 || c.Open != 1 {
		t.Errorf("label c: %+v", c)
	}
	if m.NumUserSpans() != 4 {
		t.Errorf("%d user spans, want 4", m.NumUserSpans())
	}
	if n := m.HECs[0].NumInstants(); n != 10 {
		t.Errorf("%d instants, want 10", n)
	}
}

// TestUserSpansOnCorpus checks START/STOP totals against the log's messages.
func TestUserSpansOnCorpus(t *testing.T) {
	path := "../testdata/ghc-9.0.2/parwork-N2.eventlog"
	if _, err := os.Stat(path); err != nil {
		t.Skip("no parwork log")
	}
	m, evs := build(t, path)
	starts := 0
	for i := range evs {
		if evs[i].Kind == ingest.KindUserMsg && strings.HasPrefix(string(evs[i].Data), "START ") {
			starts++
		}
	}
	total := 0
	for _, l := range m.Labels {
		total += l.Count + l.Open
	}
	if total != starts {
		t.Errorf("%d spans+open, %d START messages", total, starts)
	}
}

// eventAdder returns what adds to b an event of kind k at tm on
// capability c, of thread th, with text as its data.
func eventAdder(b *Builder) func(tm uint64, c int32, k ingest.Kind, th uint64, text string) {
	return func(tm uint64, c int32, k ingest.Kind, th uint64, text string) {
		e := ingest.Event{Time: tm, Cap: c, Kind: k, Data: []byte(text)}
		e.Args[0] = th
		b.Add(&e)
	}
}

// TestUserSpanThread checks that a span records the thread that ran on
// its START's HEC, whoever runs there at its STOP, and none where no
// thread ran.
func TestUserSpanThread(t *testing.T) {
	b := NewOverviewBuilder(Grid{})
	add := eventAdder(b)
	add(0, 0, ingest.KindCreateThread, 7, "")
	add(0, 0, ingest.KindCreateThread, 8, "")
	add(0, 0, ingest.KindRunThread, 7, "")
	add(10, 0, ingest.KindUserMsg, 0, "START x")
	add(20, 0, ingest.KindStopThread, 7, "")
	add(25, 0, ingest.KindRunThread, 8, "")
	add(30, 0, ingest.KindUserMsg, 0, "STOP x")
	add(40, 0, ingest.KindUserMsg, 0, "START y")
	add(45, 1, ingest.KindUserMsg, 0, "START z")
	add(50, 0, ingest.KindUserMsg, 0, "STOP y")
	add(55, 1, ingest.KindUserMsg, 0, "STOP z")
	b.Finish()
	m := b.Snapshot()
	want := map[string]uint32{"x": 7, "y": 8, "z": 0}
	if m.NumUserSpans() != len(want) {
		t.Fatalf("%d spans, want %d", m.NumUserSpans(), len(want))
	}
	for i := 0; i < m.NumUserSpans(); i++ {
		sp := m.UserSpan(i)
		if l := m.String(sp.Label); sp.Thread != want[l] {
			t.Errorf("span %s: thread %d, want %d", l, sp.Thread, want[l])
		}
	}
}

// TestUserSpansPairPerThread: a STOP closes the latest START of its label
// on its own thread, as package spans pairs them, though another thread
// started one since; one on a thread with none open (a span handed over)
// closes the latest START on any thread.
func TestUserSpansPairPerThread(t *testing.T) {
	b := NewOverviewBuilder(Grid{})
	add := eventAdder(b)
	for th := uint64(6); th <= 8; th++ {
		add(0, 0, ingest.KindCreateThread, th, "")
	}
	add(1, 0, ingest.KindRunThread, 6, "")
	add(1, 1, ingest.KindRunThread, 7, "")
	add(10, 0, ingest.KindUserMsg, 0, "START job")
	add(20, 1, ingest.KindUserMsg, 0, "START job")
	add(30, 0, ingest.KindUserMsg, 0, "STOP job") // thread 6's: 10–30
	add(40, 1, ingest.KindUserMsg, 0, "STOP job") // thread 7's: 20–40
	add(50, 0, ingest.KindUserMsg, 0, "START job")
	add(55, 0, ingest.KindStopThread, 6, "")
	add(56, 0, ingest.KindRunThread, 8, "")
	add(60, 0, ingest.KindUserMsg, 0, "STOP job") // thread 8 has none: thread 6's 50–60
	b.Finish()
	m := b.Snapshot()
	type span struct {
		start, end uint64
		thread     uint32
	}
	want := []span{{10, 30, 6}, {20, 40, 7}, {50, 60, 6}}
	var got []span
	for i := 0; i < m.NumUserSpans(); i++ {
		sp := m.UserSpan(i)
		got = append(got, span{sp.Start, sp.End, sp.Thread})
	}
	slices.SortFunc(got, func(a, b span) int { return int(a.start) - int(b.start) })
	if !slices.Equal(got, want) {
		t.Errorf("spans %v, want %v", got, want)
	}
}
