package advise

import (
	"strings"
	"testing"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

const ms = uint64(1e6)

// synth builds a model from events written by hand, in time order.
type synth struct {
	b     *timeline.Builder
	heap  *heapview.Collector
	evs   int64
	first uint64
	last  uint64
}

func newSynth(caps int) *synth {
	s := &synth{b: timeline.NewOverviewBuilder(timeline.Grid{}), heap: heapview.NewCollector()}
	s.ev(0, ingest.NoCap, ingest.KindStartup, uint64(caps))
	return s
}

// ev adds one event.
func (s *synth) ev(t uint64, c int32, k ingest.Kind, args ...uint64) {
	e := ingest.Event{Time: t, Cap: c, Kind: k, Type: uint16(k)}
	copy(e.Args[:], args)
	s.b.Add(&e)
	if heapview.Wants(k) {
		s.heap.Add(&e)
	}
	s.evs++
	s.last = max(s.last, t)
}

// create creates thread th on capability c at t.
func (s *synth) create(t uint64, c int32, th uint32) { s.ev(t, c, ingest.KindCreateThread, uint64(th)) }

// run runs thread th on capability c over [from, to), stopping it with st.
func (s *synth) run(c int32, th uint32, from, to uint64, st ingest.StopStatus) {
	s.ev(from, c, ingest.KindRunThread, uint64(th))
	s.ev(to, c, ingest.KindStopThread, uint64(th), uint64(st))
}

// wake makes thread th runnable at t, woken on capability c.
func (s *synth) wake(t uint64, c int32, th uint32) {
	s.ev(t, c, ingest.KindThreadWakeup, uint64(th), uint64(c))
}

// gc puts every capability of caps in a collection over [from, to).
func (s *synth) gc(caps int32, from, to uint64) {
	for c := range caps {
		s.ev(from, c, ingest.KindGCStart)
	}
	for c := range caps {
		s.ev(to, c, ingest.KindGCEnd)
	}
}

// analyze returns the findings of the model built, over the run.
func (s *synth) analyze(sum *timeline.Summary) []Finding {
	s.b.SetExtent(s.evs, 0, s.last)
	s.b.Finish()
	h, _ := s.heap.Result()
	if sum == nil {
		sum = &timeline.Summary{}
	}
	return Analyze(Input{Model: s.b.Snapshot(), Summary: sum, Heap: h})
}

// of returns the findings of kind k.
func of(fs []Finding, k Kind) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Kind == k {
			out = append(out, f)
		}
	}
	return out
}

// twoWorkers is a run of length total in which threads 1 and 2 each keep
// a HEC busy, except that thread 2 stops for gap from 40 % of the run on,
// blocked on an MVar: HEC 1 idles then, with nothing to run.
func twoWorkers(total, gap uint64) *synth {
	s := newSynth(2)
	s.create(0, 0, 1)
	s.create(0, 1, 2)
	s.run(0, 1, 0, total, ingest.StopFinished)
	s.run(1, 2, 0, gapAt(total), ingest.StopBlockedMVar)
	s.wake(gapAt(total)+gap, 0, 2)
	s.run(1, 2, gapAt(total)+gap, total, ingest.StopFinished)
	return s
}

// gapAt is where twoWorkers's gap starts.
func gapAt(total uint64) uint64 { return total * 2 / 5 }

// TestSequentialThresholds checks the sequential finding's two floors: a
// period of 10 % of the run and 50 ms.
func TestSequentialThresholds(t *testing.T) {
	for _, c := range []struct {
		name       string
		total, gap uint64
		want       Severity
		found      bool
	}{
		{"9% of 1 s", 1000 * ms, 90 * ms, 0, false},
		{"12% of 1 s", 1000 * ms, 120 * ms, Warning, true},
		{"30% of 1 s", 1000 * ms, 300 * ms, Problem, true},
		{"13% but 40 ms", 300 * ms, 40 * ms, 0, false},
	} {
		fs := of(twoWorkers(c.total, c.gap).analyze(nil), KindSequential)
		if len(fs) > 0 != c.found {
			t.Errorf("%s: sequential findings %v, want found %v", c.name, fs, c.found)
			continue
		}
		if !c.found {
			continue
		}
		f := fs[0]
		if f.Severity != c.want {
			t.Errorf("%s: severity %v, want %v", c.name, f.Severity, c.want)
		}
		// The period is found to a window (a thousandth of the run).
		slack := c.total / 500
		g := gapAt(c.total)
		if f.From+slack < g || f.From > g+slack || f.To+slack < g+c.gap || f.To > g+c.gap+slack {
			t.Errorf("%s: range %d–%d, want about %d–%d", c.name, f.From, f.To, g, g+c.gap)
		}
		if !strings.Contains(strings.Join(f.Evidence, "\n"), "blocked on an MVar") {
			t.Errorf("%s: evidence does not say what the other thread waited for: %q", c.name, f.Evidence)
		}
	}
}

// TestSequentialHandedOver checks that one thread at a time, handed from
// HEC to HEC, is still sequential, and that two threads side by side are
// not.
func TestSequentialHandedOver(t *testing.T) {
	s := newSynth(2)
	s.create(0, 0, 1)
	for i := range uint64(10) {
		s.run(int32(i%2), 1, i*100*ms, (i+1)*100*ms, ingest.StopYielding)
	}
	fs := of(s.analyze(nil), KindSequential)
	if len(fs) != 1 || fs[0].Severity != Problem {
		t.Fatalf("a thread alone on alternating HECs: %v, want one problem", fs)
	}
	if got := twoWorkers(1000*ms, 0).analyze(nil); len(got) != 0 {
		t.Errorf("two threads on two HECs throughout: %v, want no finding", got)
	}
}

// TestBlockingContendedOrOutside checks that threads blocked while
// another thread of the program runs are contention (a warning or worse),
// and that threads blocked while none runs are at most an info.
func TestBlockingContendedOrOutside(t *testing.T) {
	// Thread 2 waits on an MVar for 600 ms while thread 1 works.
	fs := of(twoWorkers(1000*ms, 600*ms).analyze(nil), KindBlocking)
	if len(fs) != 1 || fs[0].Severity < Warning || !strings.Contains(fs[0].Title, "MVar") {
		t.Fatalf("contention: %v, want one warning or problem about an MVar", fs)
	}
	// Thread 1 sleeps 900 ms in an MVar (threadDelay through the I/O
	// manager) with nothing else to run.
	s := newSynth(2)
	s.create(0, 0, 1)
	s.run(0, 1, 0, 50*ms, ingest.StopBlockedMVar)
	s.wake(950*ms, 0, 1)
	s.run(0, 1, 950*ms, 1000*ms, ingest.StopFinished)
	fs = s.analyze(nil)
	if b := of(fs, KindBlocking); len(b) != 1 || b[0].Severity != Info || !strings.Contains(b[0].Title, "no thread of the program ran") {
		t.Fatalf("waiting outside: %v, want one info saying no thread ran", b)
	}
	for _, f := range fs {
		if f.Severity > Info {
			t.Errorf("a program that sleeps: %v %v %q", f.Severity, f.Kind, f.Title)
		}
	}
}

// TestSystemThreadsWaitByDesign checks that the I/O manager's threads,
// blocked in foreign calls all along, are no finding and no contention.
func TestSystemThreadsWaitByDesign(t *testing.T) {
	s := newSynth(2)
	s.create(0, 0, 1)
	s.create(0, 0, 2)
	s.create(0, 1, 3)
	// Label thread 3 as the RTS labels its I/O manager.
	e := ingest.Event{Time: 0, Cap: 1, Kind: ingest.KindThreadLabel, Args: [ingest.MaxArgs]uint64{3}, Data: []byte("IOManager on cap 1")}
	s.b.Add(&e)
	s.run(0, 2, 0, 1*ms, ingest.StopForeignCall)
	s.run(1, 3, 0, 1*ms, ingest.StopForeignCall)
	s.run(0, 1, 1*ms, 1000*ms, ingest.StopFinished)
	s.run(1, 3, 999*ms, 1000*ms, ingest.StopFinished)
	fs := s.analyze(nil)
	bl := of(fs, KindBlocking)
	if len(bl) != 1 || !strings.Contains(strings.Join(bl[0].Evidence, "\n"), "thread 2") ||
		strings.Contains(strings.Join(bl[0].Evidence, "\n"), "IOManager") {
		t.Errorf("blocking: %v, want thread 2 listed and not the I/O manager", bl)
	}
}

// TestGCThresholds checks the gc finding's shares and its floor of 10 ms
// of GC per HEC.
func TestGCThresholds(t *testing.T) {
	for _, c := range []struct {
		name     string
		total    uint64
		gcs, per uint64 // collections of per ns each
		want     Severity
		found    bool
	}{
		{"4%", 1000 * ms, 4, 10 * ms, 0, false},
		{"6%", 1000 * ms, 6, 10 * ms, Info, true},
		{"12%", 1000 * ms, 12, 10 * ms, Warning, true},
		{"30%", 1000 * ms, 30, 10 * ms, Problem, true},
		{"30% of 10 ms", 10 * ms, 30, 100e3, Info, true},
	} {
		s := newSynth(1)
		s.create(0, 0, 1)
		step := c.total / c.gcs
		for i := range c.gcs {
			s.run(0, 1, i*step, (i+1)*step-c.per, ingest.StopHeapOverflow)
			s.gc(1, (i+1)*step-c.per, (i+1)*step)
		}
		fs := of(s.analyze(nil), KindGC)
		if len(fs) > 0 != c.found || (c.found && fs[0].Severity != c.want) {
			t.Errorf("%s: %v, want found %v severity %v", c.name, fs, c.found, c.want)
		}
	}
}

// TestNurseryFromArguments checks where the nursery size is taken from.
func TestNurseryFromArguments(t *testing.T) {
	for _, c := range []struct {
		name      string
		args, env []string
		rts       string
		info      heapview.HeapInfo
		want      uint64
		from      string
		ok        bool
	}{
		{"heap info wins", []string{"+RTS", "-A1m"}, nil, "GHC-9.0.2 rts_thr", heapview.HeapInfo{Known: true, AllocArea: 16 << 10}, 16 << 10, "heap-info event, +RTS -A1m", true},
		{"last -A", []string{"x", "+RTS", "-A1m", "-A4m", "-RTS", "-A9m"}, nil, "", heapview.HeapInfo{}, 4 << 20, "+RTS -A4m", true},
		{"GHCRTS then argv", []string{"+RTS", "-A2m"}, []string{"GHCRTS=-A8m -N2"}, "", heapview.HeapInfo{}, 2 << 20, "+RTS -A2m", true},
		{"GHCRTS", nil, []string{"GHCRTS=-A8m -N2"}, "", heapview.HeapInfo{}, 8 << 20, "+RTS -A8m", true},
		{"-AL is not -A", []string{"+RTS", "-AL64m"}, nil, "GHC-8.2.2 rts", heapview.HeapInfo{}, 1 << 20, "default", true},
		{"GHC 7 default", nil, nil, "GHC-7.4.1 rts_thr_l", heapview.HeapInfo{}, 512 << 10, "default", true},
		{"--RTS ends them", []string{"--RTS", "+RTS", "-A8m"}, nil, "", heapview.HeapInfo{}, 0, "", false},
		{"unknown", nil, nil, "GHC-9.4.1 rts", heapview.HeapInfo{}, 0, "", false},
	} {
		r := &run{sum: &timeline.Summary{Args: c.args, Env: c.env, RTS: c.rts}, heap: &heapview.Heap{Info: c.info}}
		n, ok := r.nursery()
		if ok != c.ok || n.bytes != c.want || !strings.Contains(n.from, c.from) {
			t.Errorf("%s: %d from %q (%v), want %d from …%q… (%v)", c.name, n.bytes, n.from, ok, c.want, c.from, c.ok)
		}
	}
}

// TestParseSize checks RTS sizes.
func TestParseSize(t *testing.T) {
	for in, want := range map[string]uint64{"64m": 64 << 20, "16k": 16 << 10, "1G": 1 << 30, "4096": 4096, "2w": 16, "1.5m": 3 << 19} {
		if got, ok := parseSize(in); !ok || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "m", "-1m", "x"} {
		if _, ok := parseSize(in); ok {
			t.Errorf("parseSize(%q) accepted", in)
		}
	}
}

// TestHeapProfiledGC checks that the gc finding says when a heap profile's
// censuses add major collections, from the RTS options.
func TestHeapProfiledGC(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"+RTS", "-hT", "-i0.05", "-RTS"}, "heap-profiled (+RTS -hT, a census every 0.05 s)"},
		{[]string{"+RTS", "-h", "-RTS"}, "heap-profiled (+RTS -h, a census every 0.1 s)"},
		{[]string{"+RTS", "-H64m", "-RTS"}, ""},
	} {
		s := newSynth(1)
		s.create(0, 0, 1)
		s.run(0, 1, 0, 800*ms, ingest.StopHeapOverflow)
		s.gc(1, 800*ms, 1000*ms)
		f := of(s.analyze(&timeline.Summary{Args: c.args}), KindGC)
		if len(f) != 1 {
			t.Fatalf("%v: %v, want one gc finding", c.args, f)
		}
		if got := says(f[0], "heap-profiled"); got != (c.want != "") || (c.want != "" && !says(f[0], c.want)) {
			t.Errorf("%v: %q, want %q", c.args, f[0].Evidence, c.want)
		}
	}
}
