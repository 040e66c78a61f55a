package spans

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// spanwork is a GHC 9.0.2 log of testdata/SpanWork.hs (see its header).
const spanwork = "testdata/spanwork.eventlog"

func TestFileSpanWork(t *testing.T) {
	r, err := Collect(ingest.FilePass(context.Background(), spanwork), Options{Instances: 100})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status.State.String() != "complete" || !r.Exact {
		t.Fatalf("status %v exact %v", r.Status, r.Exact)
	}
	const ms = 1_000_000
	want := []struct {
		kind   Kind
		name   string
		count  int
		minDur uint64
	}{
		{User, "request", 30, 1 * ms},
		{User, "parse", 30, 0},
		{User, "sleep", 5, 10 * ms},
		{User, "job", 2, 3 * ms},
		{Thread, "worker-1", 1, 10 * ms},
		{Thread, "worker-2", 1, 20 * ms},
		{Thread, "worker-3", 1, 30 * ms},
		{Thread, "main", 1, 60 * ms},
	}
	for _, w := range want {
		l := r.Label(w.kind, w.name)
		if l == nil {
			t.Errorf("no %s label %q", w.kind, w.name)
			continue
		}
		if l.Count != w.count || l.Open != 0 || l.Unmatched != 0 {
			t.Errorf("%q: count %d open %d unmatched %d, want %d 0 0", w.name, l.Count, l.Open, l.Unmatched, w.count)
		}
		if l.Min < w.minDur {
			t.Errorf("%q: shortest %d ns, want at least %d", w.name, l.Min, w.minDur)
		}
		if l.Mean()*uint64(l.Count) > l.Total || l.Total-l.Mean()*uint64(l.Count) >= uint64(l.Count) {
			t.Errorf("%q: mean %d total %d count %d", w.name, l.Mean(), l.Total, l.Count)
		}
		if !(l.Min <= l.Quantile(.5) && l.Quantile(.5) <= l.Quantile(.9) && l.Quantile(.9) <= l.Quantile(.99) && l.Quantile(.99) <= l.Max) {
			t.Errorf("%q: quantiles out of order: %d %d %d %d %d", w.name, l.Min, l.Quantile(.5), l.Quantile(.9), l.Quantile(.99), l.Max)
		}
	}
	// Each worker's requests sleep 1, 2 or 3 ms: the request spans of
	// worker w's thread last at least w ms, and each parse lies inside a
	// request of its own thread (paired per thread, though the workers'
	// messages interleave on the capabilities).
	workers := map[uint32]uint64{}
	for _, in := range r.Label(Thread, "worker-1").Longest() {
		workers[in.Thread] = 1 * ms
	}
	for _, in := range r.Label(Thread, "worker-2").Longest() {
		workers[in.Thread] = 2 * ms
	}
	for _, in := range r.Label(Thread, "worker-3").Longest() {
		workers[in.Thread] = 3 * ms
	}
	reqs := r.Label(User, "request").Longest()
	if len(reqs) != 30 {
		t.Fatalf("%d request instances kept, want 30", len(reqs))
	}
	perThread := map[uint32]int{}
	for _, in := range reqs {
		d, ok := workers[in.Thread]
		if !ok {
			t.Errorf("request %+v on thread %d, not a worker", in, in.Thread)
		}
		if in.Duration() < d {
			t.Errorf("request %+v of a %d ns worker lasts %d ns", in, d, in.Duration())
		}
		perThread[in.Thread]++
	}
	for th, n := range perThread {
		if n != 10 {
			t.Errorf("thread %d ran %d requests, want 10", th, n)
		}
	}
	for _, p := range r.Label(User, "parse").Longest() {
		inside := false
		for _, q := range reqs {
			if q.Thread == p.Thread && q.Start <= p.Start && p.End <= q.End {
				inside = true
			}
		}
		if !inside {
			t.Errorf("parse %+v is in no request of its thread", p)
		}
	}
	// "START 1 job", "START 2 job", 3 ms, "STOP 1 job", 3 ms, "STOP 2
	// job": the instance numbers pair them, not the nesting.
	jobs := r.Label(User, "job").Longest()
	if len(jobs) != 2 || jobs[0].ID != 2 || jobs[1].ID != 1 || jobs[0].Duration() < 6*ms || jobs[1].Duration() >= 6*ms {
		t.Errorf("jobs %+v", jobs)
	}
}

func TestFileRange(t *testing.T) {
	all, err := Collect(ingest.FilePass(context.Background(), spanwork), Options{})
	if err != nil {
		t.Fatal(err)
	}
	sleeps := all.Label(User, "sleep").Longest()
	from := sleeps[len(sleeps)-1].Start
	for _, in := range sleeps {
		from = min(from, in.Start)
	}
	// From the first sleep on: no request starts, and the sleeps and jobs
	// count whole.
	r, err := Collect(ingest.FilePass(context.Background(), spanwork), Options{From: from})
	if err != nil {
		t.Fatal(err)
	}
	if l := r.Label(User, "request"); l != nil {
		t.Errorf("requests after the workers: %+v", l)
	}
	if l := r.Label(User, "sleep"); l == nil || l.Count != 5 || l.Total != all.Label(User, "sleep").Total {
		t.Errorf("sleep in range: %+v", l)
	}
	// A range that ends within the first sleep holds it whole, and stops
	// reading there (the labelled threads all finish later, but started
	// before).
	r, err = Collect(ingest.FilePass(context.Background(), spanwork), Options{From: from, To: from + 1})
	if err != nil {
		t.Fatal(err)
	}
	if l := r.Label(User, "sleep"); l == nil || l.Count != 1 || l.Min < 10_000_000 {
		t.Errorf("one sleep: %+v", l)
	}
	if l := r.Label(User, "job"); l != nil {
		t.Errorf("jobs after the range: %+v", l)
	}
}

func TestFileErrors(t *testing.T) {
	if _, err := Collect(ingest.FilePass(context.Background(), "testdata/nonexistent.eventlog"), Options{}); err == nil {
		t.Error("no error for a missing file")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Collect(ingest.FilePass(ctx, spanwork), Options{}); err == nil {
		t.Error("no error for a cancelled context")
	}
	// Every cut of the log is measured without panicking, up to the cut.
	data, err := os.ReadFile(spanwork)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(data); n += 997 {
		r, err := Collect(ingest.ReaderPass(context.Background(), bytes.NewReader(data[:n]), int64(n)), Options{})
		if err != nil {
			continue
		}
		if r.Status.State.String() == "complete" {
			t.Errorf("cut at %d: complete", n)
		}
	}
}
