package compare

import (
	"context"
	"math"
	"os"
	"testing"
	"time"

	"github.com/hecscope/hecscope/timeline"
)

// readRunFile reads a run from a test log, named name, skipping the test if
// the log is absent.
func readRunFile(t testing.TB, path, name string) *Run {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no log: %v", err)
	}
	r, _, err := Open(context.Background(), path, 0)
	if err != nil {
		t.Fatal(err)
	}
	r.Name = name
	return r
}

func rowByKey(t *testing.T, c *Comparison, key string) Row {
	t.Helper()
	if r := c.Row(key); r != nil {
		return *r
	}
	t.Fatalf("no row %q", key)
	return Row{}
}

// TestCompareParworkN1N2 compares the same workload run with -N1 and -N2:
// every delta is the difference of the two summaries' figures.
func TestCompareParworkN1N2(t *testing.T) {
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	b := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	// The summary inside the run is Summarize's.
	if want, _ := timeline.SummarizeFile("../testdata/ghc-9.0.2/parwork-N2.eventlog"); want.TotalNS != b.Summary.TotalNS ||
		want.GC.Total != b.Summary.GC.Total || want.Heap != b.Summary.Heap || want.Sparks.Total != b.Summary.Sparks.Total {
		t.Fatalf("the run's summary differs from Summarize's")
	}
	c := Compare(a, b, Options{})
	if c.A != "N1" || c.B != "N2" {
		t.Errorf("names %q, %q", c.A, c.B)
	}
	sa, sb := &a.Summary, &b.Summary
	diffs := []struct {
		name   string
		va, vb float64
	}{
		{"wall", f(sa.TotalNS), f(sb.TotalNS)},
		{"mutator", f(sa.MutatorNS), f(sb.MutatorNS)},
		{"gc", f(sa.GC.Total.ElapsedNS), f(sb.GC.Total.ElapsedNS)},
		{"productivity", sa.Productivity, sb.Productivity},
		{"gc_collections_threadscope", float64(sa.GC.Total.Collections), float64(sb.GC.Total.Collections)},
		{"gc_max_pause_threadscope", f(sa.GC.Total.MaxPauseNS), f(sb.GC.Total.MaxPauseNS)},
		{"allocated", f(sa.Heap.Allocated), f(sb.Heap.Allocated)},
		{"max_heap", f(sa.Heap.MaxSize), f(sb.Heap.MaxSize)},
		{"max_live", f(sa.Heap.MaxLive), f(sb.Heap.MaxLive)},
		{"sparks.created", f(sa.Sparks.Total.Created), f(sb.Sparks.Total.Created)},
		{"sparks.converted", f(sa.Sparks.Total.Converted), f(sb.Sparks.Total.Converted)},
		{"sparks.fizzled", f(sa.Sparks.Total.Fizzled), f(sb.Sparks.Total.Fizzled)},
		{"threads", f(sa.Threads), f(sb.Threads)},
		{"hecs", float64(sa.Capabilities), float64(sb.Capabilities)},
	}
	for _, d := range diffs {
		r := rowByKey(t, c, d.name)
		if !r.HasA || !r.HasB || r.A != d.va || r.B != d.vb || r.Delta() != d.vb-d.va {
			t.Errorf("%s: row %+v delta %v, want A %v B %v delta %v", d.name, r, r.Delta(), d.va, d.vb, d.vb-d.va)
		}
		if rel, ok := r.Relative(); d.va != 0 && (!ok || rel != (d.vb-d.va)/d.va) {
			t.Errorf("%s: relative %v %v", d.name, rel, ok)
		}
	}
	// The runs really differ: -N2 has two HECs, -N1 one.
	if sa.Capabilities != 1 || sb.Capabilities != 2 {
		t.Fatalf("capabilities %d, %d", sa.Capabilities, sb.Capabilities)
	}
	h1 := rowByKey(t, c, "hec:1.running")
	if h1.HasA || !h1.HasB || h1.Verdict() != VerdictMissing {
		t.Errorf("HEC 1 row %+v", h1)
	}
	// Utilisation is the model's running time over the run.
	d := b.Model.RangeTimes(0, b.Model.End)
	if r := rowByKey(t, c, "hec:1.running"); r.B != float64(d[1][timeline.StateRunning])/float64(b.Model.End) || r.B <= 0 || r.B > 1 {
		t.Errorf("HEC 1 running %v", r.B)
	}
	// User spans: every label of either run has a row whose totals are the
	// models'.
	for _, run := range []*Run{a, b} {
		for _, l := range run.Model.Labels {
			r := rowByKey(t, c, "span:"+run.Model.String(l.Label)+".total")
			v := r.A
			if run == b {
				v = r.B
			}
			if v != f(l.Total) {
				t.Errorf("label %s: %v, want %d", run.Model.String(l.Label), v, l.Total)
			}
		}
	}
	// Distributions: every pause and run is counted once, in shared bins.
	for _, h := range []Histogram{c.GCPauses, c.ThreadRuns} {
		if len(h.Edges) < 2 || len(h.A) != len(h.Edges)-1 || len(h.B) != len(h.A) {
			t.Fatalf("%s: %d edges, %d/%d bins", h.Title, len(h.Edges), len(h.A), len(h.B))
		}
		if sum(h.A) != h.TotalA || sum(h.B) != h.TotalB || h.TotalA == 0 || h.TotalB == 0 {
			t.Errorf("%s: counts %d/%d of %d/%d", h.Title, sum(h.A), sum(h.B), h.TotalA, h.TotalB)
		}
	}
	if c.GCPauses.TotalA != len(GCPauses(a.Model)) {
		t.Errorf("pause count")
	}
	// GC pauses as the union over HECs cover at least ThreadScope's
	// longest pause, which is one HEC's GCStart to GCEnd rounded to µs.
	var longest uint64
	for _, p := range GCPauses(b.Model) {
		longest = max(longest, p)
	}
	if longest+1000 < sb.GC.Total.MaxPauseNS {
		t.Errorf("longest union pause %d < ThreadScope's %d", longest, sb.GC.Total.MaxPauseNS)
	}
}

func sum(v []int) int {
	n := 0
	for _, x := range v {
		n += x
	}
	return n
}

func TestRowVerdict(t *testing.T) {
	cases := []struct {
		r    Row
		want Verdict
	}{
		{Row{A: 10, B: 5, HasA: true, HasB: true, Better: BetterLower}, VerdictBetter},
		{Row{A: 10, B: 15, HasA: true, HasB: true, Better: BetterLower}, VerdictWorse},
		{Row{A: 0.5, B: 0.9, HasA: true, HasB: true, Better: BetterHigher}, VerdictBetter},
		{Row{A: 0.5, B: 0.1, HasA: true, HasB: true, Better: BetterHigher}, VerdictWorse},
		{Row{A: 3, B: 3, HasA: true, HasB: true, Better: BetterHigher}, VerdictSame},
		{Row{A: 3, B: 7, HasA: true, HasB: true, Better: BetterNeither}, VerdictSame},
		{Row{A: 3, HasA: true, Better: BetterLower}, VerdictMissing},
	}
	for i, c := range cases {
		if got := c.r.Verdict(); got != c.want {
			t.Errorf("case %d: %v, want %v", i, got, c.want)
		}
	}
	if _, ok := (Row{A: 0, B: 4, HasA: true, HasB: true}).Relative(); ok {
		t.Error("relative change from 0")
	}
	if rel, ok := (Row{A: 4, B: 3, HasA: true, HasB: true}).Relative(); !ok || rel != -0.25 {
		t.Errorf("relative %v", rel)
	}
	if d := (Row{A: 4, HasA: true}).Delta(); d != 0 {
		t.Errorf("delta without B: %v", d)
	}
}

func TestHistogramBins(t *testing.T) {
	h := NewHistogram("x", []uint64{0, 1, 9, 10, 11, 999}, []uint64{100, 100, 5000})
	// Bins start at the decade of the shortest (1 ns) and reach past 5000.
	if h.Edges[0] != 1 || h.Edges[len(h.Edges)-1] <= 5000 {
		t.Fatalf("edges %v", h.Edges)
	}
	for i := 1; i < len(h.Edges); i++ {
		if h.Edges[i] <= h.Edges[i-1] {
			t.Fatalf("edges not increasing: %v", h.Edges)
		}
	}
	// Every value lands in the bin whose edges bracket it.
	check := func(vals []uint64, counts []int) {
		want := make([]int, len(counts))
		for _, v := range vals {
			v = max(v, 1)
			for i := 0; i+1 < len(h.Edges); i++ {
				if h.Edges[i] <= v && v < h.Edges[i+1] {
					want[i]++
				}
			}
		}
		for i := range want {
			if want[i] != counts[i] {
				t.Errorf("bins %v, want %v (edges %v)", counts, want, h.Edges)
				return
			}
		}
	}
	check([]uint64{0, 1, 9, 10, 11, 999}, h.A)
	check([]uint64{100, 100, 5000}, h.B)
	if h.SumA != 1030 || h.SumB != 5200 {
		t.Errorf("sums %d %d", h.SumA, h.SumB)
	}
	for k := 0; k < 60; k++ {
		e := logEdge(k)
		if logBin(e) != k || (k > 0 && logBin(e-1) != k-1) {
			t.Errorf("edge %d = %d in bin %d", k, e, logBin(e))
		}
	}
	if e := NewHistogram("empty", nil, nil); len(e.Edges) != 0 || e.TotalA != 0 {
		t.Errorf("empty histogram %+v", e)
	}
}

func TestFormatPoints(t *testing.T) {
	for d, want := range map[float64]string{-0.044: "4.4pp", 0.0004: "0.04pp", 0.25: "25.0pp", 0: "0.00pp"} {
		if got := FormatPoints(d); got != want {
			t.Errorf("FormatPoints(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestQuantiles(t *testing.T) {
	v := []uint64{9, 1, 8, 2, 7, 3, 6, 4, 5, 10}
	q := quantiles(v)
	if q != (Quantiles{P50: 5, P90: 9, P99: 10, Max: 10}) {
		t.Errorf("quantiles %+v", q)
	}
	if v[0] != 9 {
		t.Error("quantiles sorted its input")
	}
	if q := quantiles(nil); q != (Quantiles{}) {
		t.Errorf("empty: %+v", q)
	}
	if q := quantiles([]uint64{42}); q != (Quantiles{42, 42, 42, 42}) {
		t.Errorf("one value: %+v", q)
	}
}

// TestCompareDistributionRows checks the quantile rows against the
// distributions' durations.
func TestCompareDistributionRows(t *testing.T) {
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	b := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	c := Compare(a, b, Options{})
	qa, qb := quantiles(GCPauses(a.Model)), quantiles(GCPauses(b.Model))
	for name, want := range map[string][2]uint64{
		"gc_pause.p50": {qa.P50, qb.P50},
		"gc_pause.p90": {qa.P90, qb.P90},
		"gc_max_pause": {qa.Max, qb.Max},
	} {
		r := rowByKey(t, c, name)
		if r.Group != "Distributions" || r.A != f(want[0]) || r.B != f(want[1]) || !r.HasA || !r.HasB {
			t.Errorf("%s: %+v, want %v", name, r, want)
		}
	}
	if r := rowByKey(t, c, "thread_run.p50"); r.Better != BetterNeither || r.A == 0 {
		t.Errorf("thread run median %+v", r)
	}
	// Without models there are no distributions.
	c2 := Compare(&Run{Summary: a.Summary}, &Run{Summary: b.Summary}, Options{})
	for _, r := range c2.Rows {
		if r.Group == "Distributions" || r.Group == "HECs" {
			t.Errorf("row %q without models", r.Name)
		}
	}
}

// TestHistogramOfHugeDurations: durations near the largest a timestamp can
// make (a flipped byte in a GC's end) are binned, in bounded time; the
// bins' edges used to overflow, and logBin looped for ever.
func TestHistogramOfHugeDurations(t *testing.T) {
	done := make(chan Histogram, 1)
	go func() {
		done <- NewHistogram("pauses", []uint64{1000, math.MaxUint64}, []uint64{math.MaxUint64 - 1, math.MaxUint64})
	}()
	select {
	case h := <-done:
		if h.A[len(h.A)-1] != 1 || h.B[len(h.B)-1] != 2 {
			t.Errorf("the huge durations are not in the last bin: %v %v (edges %v)", h.A, h.B, h.Edges)
		}
		for i := 1; i < len(h.Edges); i++ {
			if h.Edges[i] < h.Edges[i-1] {
				t.Fatalf("edges go down: %v", h.Edges)
			}
		}
	case <-time.After(5 * time.Second):
		t.Fatal("NewHistogram of huge durations did not return")
	}
}

// TestSparkRowsAddUpToTheSummarysTotal: the spark rows add up to the
// summary's Total (ThreadScope's: created, dud and overflowed): compare
// showed "Sparks created 3,437" beside a summary total of 4,137 with no row
// for the 700 duds between them (found by a helper).
func TestSparkRowsAddUpToTheSummarysTotal(t *testing.T) {
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	b := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	c := Compare(a, b, Options{})
	sum := 0.0
	for _, k := range []string{"sparks.created", "sparks.dud", "sparks.overflowed"} {
		r := c.Row(k)
		if r == nil {
			t.Fatalf("no row %s", k)
		}
		sum += r.B
	}
	if want := float64(b.Summary.Sparks.Total.Total); sum != want || want == 0 {
		t.Errorf("created + dud + overflowed = %g, the summary's total %g", sum, want)
	}
}

// TestAbsentFigureHasNoPercentage: a figure one run's log has no events
// for is missing from its side, and the row makes no percentage or
// verdict of it: parallelTest has heap events but no HeapLive, so its max
// live is absent (it was 0, and compare said max_live −100 %).
func TestAbsentFigureHasNoPercentage(t *testing.T) {
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	b := readRunFile(t, "../testdata/corpus/ghc-events__parallelTest.eventlog", "parallelTest")
	if !b.Summary.HasHeap || b.Summary.Heap.HasLive {
		t.Fatalf("parallelTest: heap %v, HeapLive %v", b.Summary.HasHeap, b.Summary.Heap.HasLive)
	}
	c := Compare(a, b, Options{})
	r := rowByKey(t, c, "max_live")
	if !r.HasA || r.HasB {
		t.Fatalf("max_live: has A %v, has B %v", r.HasA, r.HasB)
	}
	if _, ok := r.Relative(); ok || r.Verdict() != VerdictMissing {
		t.Errorf("max_live: a percentage of an absent figure (%v)", r.Verdict())
	}
	for _, key := range []string{"max_heap", "allocated"} {
		if r := rowByKey(t, c, key); !r.HasA || !r.HasB {
			t.Errorf("%s: has A %v, has B %v; both logs have its events", key, r.HasA, r.HasB)
		}
	}
}
