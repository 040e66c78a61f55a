package compare

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// TestThresholdSaysSame: a change within the threshold is "same"; beyond
// it, better or worse; a threshold of none (negative) judges every change.
func TestThresholdSaysSame(t *testing.T) {
	row := Row{A: 100, B: 104, HasA: true, HasB: true, Better: BetterLower, Threshold: DefaultThreshold}
	if v := row.Verdict(); v != VerdictSame {
		t.Errorf("+4%% with a 5%% threshold: %v", v)
	}
	row.B = 106
	if v := row.Verdict(); v != VerdictWorse {
		t.Errorf("+6%% with a 5%% threshold: %v", v)
	}
	row.B, row.Threshold = 101, 0
	if v := row.Verdict(); v != VerdictWorse {
		t.Errorf("+1%% with no threshold: %v", v)
	}
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	b := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	c := Compare(a, b, Options{})
	if c.Threshold != DefaultThreshold {
		t.Fatalf("threshold %v", c.Threshold)
	}
	// Allocated differs by 0.9 %: noise at 5 %, a change at none.
	if r := rowByKey(t, c, "allocated"); r.Verdict() != VerdictSame {
		t.Errorf("allocated %v → %v: %v", r.A, r.B, r.Verdict())
	}
	if r := rowByKey(t, Compare(a, b, Options{Threshold: -1}), "allocated"); r.Verdict() != VerdictWorse {
		t.Errorf("allocated without threshold: %v", r.Verdict())
	}
	if r := rowByKey(t, Compare(a, b, Options{Threshold: 0.5}), "wall"); r.Verdict() != VerdictSame {
		t.Errorf("wall +39.5%% with a 50%% threshold: %v", r.Verdict())
	}
}

// TestEveryRowHasAStableKey: every row has a key of its own, and the keys
// CI scripts name are there.
func TestEveryRowHasAStableKey(t *testing.T) {
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	b := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	c := Compare(a, b, Options{})
	seen := map[string]bool{}
	for _, r := range c.Rows {
		if r.Key == "" || seen[r.Key] {
			t.Errorf("row %q: key %q empty or repeated", r.Name, r.Key)
		}
		seen[r.Key] = true
	}
	for _, k := range []string{"wall", "mutator", "gc", "productivity", "max_live", "allocated", "gc_max_pause",
		"span:phase-2.total", "span:phase-2.p90", "hec:1.running"} {
		if !seen[k] {
			t.Errorf("no row %q", k)
		}
	}
}

// TestOneDefinitionPerFigure: the GC pause figures of the rows are those of
// the distribution drawn under them (every collection), and the rows
// labelled ThreadScope's counting are the summary's; on this pair the
// pause count is the RTS's count of collections. (The compare command used
// to print "Collections 1,444" and "longest 739 µs" in its table and
// "1,539 pauses … longest 748 µs" under its histogram, unlabelled.)
func TestOneDefinitionPerFigure(t *testing.T) {
	a := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N1.eventlog", "N1")
	b := readRunFile(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "N2")
	c := Compare(a, b, Options{})
	h := &c.GCPauses
	for _, x := range []struct {
		key    string
		va, vb float64
	}{
		{"gc_pauses", float64(h.TotalA), float64(h.TotalB)},
		{"gc_pause.mean", float64(h.MeanA()), float64(h.MeanB())},
		{"gc_max_pause", float64(h.QuantA.Max), float64(h.QuantB.Max)},
		{"gc_collections_rts", float64(h.TotalA), float64(h.TotalB)},
		{"gc_collections_threadscope", float64(a.Summary.GC.Total.Collections), float64(b.Summary.GC.Total.Collections)},
		{"gc_max_pause_threadscope", float64(a.Summary.GC.Total.MaxPauseNS), float64(b.Summary.GC.Total.MaxPauseNS)},
		{"gc", float64(a.Summary.GC.Total.ElapsedNS), float64(b.Summary.GC.Total.ElapsedNS)},
	} {
		if r := rowByKey(t, c, x.key); r.A != x.va || r.B != x.vb {
			t.Errorf("%s: row %v/%v, its source %v/%v", x.key, r.A, r.B, x.va, x.vb)
		}
	}
	if h.TotalA == a.Summary.GC.Total.Collections {
		t.Errorf("the two countings agree on this log (%d): the test shows nothing", h.TotalA)
	}
}

// TestPartialRunsGetNoVerdict: a run cut short (a real log truncated at
// half its size) against a complete one gets no verdict on any row — it
// used to be "better" on wall time, GC time and more — and the comparison
// over the time both cover has verdicts.
func TestPartialRunsGetNoVerdict(t *testing.T) {
	full := "../testdata/ghc-9.0.2/parwork-N2.eventlog"
	data, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.eventlog")
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	a, _, err := Open(context.Background(), full, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Open(context.Background(), cut, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Partial() || b.Summary.Status.State != ingest.StateTruncated {
		t.Fatalf("cut run: %v", b.Summary.Status)
	}
	c := Compare(a, b, Options{})
	if !c.Partial {
		t.Fatal("comparison not partial")
	}
	for _, r := range c.Rows {
		if v := r.Verdict(); v == VerdictBetter || v == VerdictWorse {
			t.Errorf("%s: %v on a partial run", r.Key, v)
		}
	}
	cov, err := CompareCovered(a, b, 0, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cov.Length == 0 || cov.Length > b.Summary.LastNS || cov.Partial {
		t.Errorf("covered %d ns (partial %v), the cut run ends at %d", cov.Length, cov.Partial, b.Summary.LastNS)
	}
	// Over the same stretch of the same run, every figure is the same.
	if r := rowByKey(t, cov.Comparison, "allocated"); r.A != r.B || r.Verdict() != VerdictSame {
		t.Errorf("allocated over the covered time: %v vs %v (%v)", r.A, r.B, r.Verdict())
	}
	if !bytes.HasPrefix(data, []byte("hdrb")) {
		t.Fatal("not an eventlog")
	}
}

// TestCutRunStopsWhereItsCapabilityDoes: in a run cut short (parwork-N2's
// first 120,000 bytes: capability 1's events stop at 36.9 ms of 113), HEC 1
// is not counted running past its last event, nor is the thread it last
// ran: compare gave its running share as 71 % (19.9 % in the whole run)
// and its longest thread run as 76 ms (4.7 ms).
func TestCutRunStopsWhereItsCapabilityDoes(t *testing.T) {
	data, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	// Read as streams: recorded, then loaded as a file is.
	dir := t.TempDir()
	whole, _, err := OpenStream(context.Background(), bytes.NewReader(data), "whole", dir)
	if err != nil {
		t.Fatal(err)
	}
	cut, _, err := OpenStream(context.Background(), bytes.NewReader(data[:120000]), "cut", dir)
	if err != nil {
		t.Fatal(err)
	}
	if cut.Summary.Status.State != ingest.StateTruncated {
		t.Fatalf("status %v, want truncated", cut.Summary.Status)
	}
	end := cut.Model.HECs[1].Track.End()
	if end >= cut.Model.End-10_000_000 {
		t.Fatalf("HEC 1's track ends at %d of a run ending at %d: it runs on past the cut", end, cut.Model.End)
	}
	longest := func(r *Run) (m uint64) {
		for _, d := range ThreadRuns(r.Model) {
			m = max(m, d)
		}
		return m
	}
	if lw, lc := longest(whole), longest(cut); lc > lw {
		t.Errorf("the cut run's longest thread run is %d ns, the whole run's %d ns", lc, lw)
	}
}
