package spans

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// events builds a little run: each step is an event at time t on cap 0.
type run struct{ evs []ingest.Event }

func (r *run) at(t uint64, k ingest.Kind, thread uint32, data string) *run {
	ev := ingest.Event{Time: t, Kind: k, Cap: 0, Data: []byte(data)}
	ev.Args[0] = uint64(thread)
	if k == ingest.KindStopThread && data == "finished" {
		ev.Args[1] = uint64(ingest.StopFinished)
		ev.Data = nil
	}
	r.evs = append(r.evs, ev)
	return r
}

func (r *run) report(opt Options) *Report {
	c := NewCollector(opt)
	for i := range r.evs {
		c.Add(&r.evs[i])
	}
	return c.Report()
}

func TestCollectorNestingAndThreads(t *testing.T) {
	r := new(run).
		at(0, ingest.KindRunThread, 1, "").
		at(10, ingest.KindUserMsg, 0, "START a").
		at(20, ingest.KindUserMsg, 0, "START a").
		at(25, ingest.KindUserMsg, 0, "STOP a"). // inner: 5
		at(30, ingest.KindStopThread, 1, "").
		at(30, ingest.KindRunThread, 2, "").
		at(35, ingest.KindUserMsg, 0, "START a"). // thread 2
		at(40, ingest.KindStopThread, 2, "").
		at(40, ingest.KindRunThread, 1, "").
		at(50, ingest.KindUserMsg, 0, "STOP a").    // thread 1's outer: 40
		at(60, ingest.KindUserMsg, 0, "STOP a").    // thread 1 has none open: thread 2's, 25
		at(70, ingest.KindUserMsg, 0, "STOP a").    // unmatched
		at(80, ingest.KindUserMsg, 0, "START b").   // never stopped
		at(81, ingest.KindUserMsg, 0, "STOPPED c"). // not a span message
		at(82, ingest.KindUserMsg, 0, "STOP ")
	c := NewCollector(Options{})
	for i := range r.evs {
		c.Add(&r.evs[i])
	}
	rep := c.Report()
	a := rep.Label(User, "a")
	if a == nil || a.Count != 3 || a.Total != 70 || a.Min != 5 || a.Max != 40 || a.Unmatched != 1 || a.Open != 0 {
		t.Fatalf("a: %+v", a)
	}
	if a.Quantile(.5) != 25 || a.Quantile(.01) != 5 || a.Quantile(1) != 40 {
		t.Errorf("a quantiles %d %d %d", a.Quantile(.01), a.Quantile(.5), a.Quantile(1))
	}
	long := a.Longest()
	if long[0].Thread != 1 || long[0].Duration() != 40 || long[1].Thread != 2 || long[1].Duration() != 25 || long[2].Duration() != 5 {
		t.Errorf("instances %+v", long)
	}
	if b := rep.Label(User, "b"); b == nil || b.Count != 0 || b.Open != 1 {
		t.Errorf("b: %+v", b)
	}
	if len(rep.Labels) != 2 || rep.Labels[0].Name != "a" {
		t.Errorf("labels %+v", rep.Labels)
	}
	// Report may be asked again.
	if b := c.Report().Label(User, "b"); b.Open != 1 {
		t.Errorf("b open %d the second time", b.Open)
	}
}

func TestCollectorThreadLabels(t *testing.T) {
	rep := new(run).
		at(100, ingest.KindCreateThread, 7, "").
		at(150, ingest.KindThreadLabel, 7, "worker").
		at(160, ingest.KindThreadLabel, 9, "daemon"). // creation not seen
		at(400, ingest.KindStopThread, 7, "finished").
		at(500, ingest.KindCreateThread, 8, "").
		at(900, ingest.KindStopThread, 8, "finished"). // unlabelled
		report(Options{})
	w := rep.Label(Thread, "worker")
	if w == nil || w.Count != 1 || w.Total != 300 {
		t.Errorf("worker %+v", w)
	}
	if d := rep.Label(Thread, "daemon"); d == nil || d.Count != 0 || d.Open != 1 {
		t.Errorf("daemon %+v", d)
	}
	if len(rep.Labels) != 2 {
		t.Errorf("labels %+v", rep.Labels)
	}
}

func TestCollectorRangeKeepsNesting(t *testing.T) {
	// The outer START is before the range: its STOP must not close the
	// inner one, which is in the range.
	rep := new(run).
		at(0, ingest.KindUserMsg, 0, "START x").
		at(100, ingest.KindUserMsg, 0, "START x").
		at(150, ingest.KindUserMsg, 0, "STOP x").
		at(300, ingest.KindUserMsg, 0, "STOP x").
		report(Options{From: 50, To: 200})
	x := rep.Label(User, "x")
	if x == nil || x.Count != 1 || x.Total != 50 {
		t.Errorf("x %+v", x)
	}
}

func TestSketchQuantiles(t *testing.T) {
	// Past the exact budget, quantiles are within the sketch's accuracy.
	rng := rand.New(rand.NewPCG(1, 2))
	var exact, sketched run
	for i := range 5000 {
		d := uint64(math.Exp(rng.Float64()*10)) + 1000
		tm := uint64(i) * 1_000_000
		for _, r := range []*run{&exact, &sketched} {
			r.at(tm, ingest.KindUserMsg, 0, "START s").at(tm+d, ingest.KindUserMsg, 0, "STOP s")
		}
	}
	e := exact.report(Options{}).Label(User, "s")
	srep := sketched.report(Options{ExactBudget: 100})
	s := srep.Label(User, "s")
	if srep.Exact || !exact.report(Options{}).Exact {
		t.Fatal("Exact not reported")
	}
	for _, q := range []float64{.01, .5, .9, .99, 1} {
		a, b := float64(e.Quantile(q)), float64(s.Quantile(q))
		if math.Abs(a-b)/a > 0.006 {
			t.Errorf("q%.2f: exact %v sketched %v", q, a, b)
		}
	}
	if e.Total != s.Total || e.Count != s.Count || e.Max != s.Max {
		t.Errorf("totals differ: %+v %+v", e, s)
	}
	h := s.Histogram(20)
	n := 0
	for i, b := range h {
		n += b.Count
		if b.Lo > b.Hi || (i > 0 && h[i-1].Hi != b.Lo) {
			t.Errorf("bin %d %+v", i, b)
		}
	}
	if n != 5000 || h[0].Lo != s.Min || h[len(h)-1].Hi != s.Max {
		t.Errorf("histogram holds %d of 5000, from %d to %d", n, h[0].Lo, h[len(h)-1].Hi)
	}
}
