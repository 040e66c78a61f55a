package heapview

import (
	"math"
	"testing"
	"unsafe"

	"github.com/hecscope/hecscope/ingest"
)

// heapLogs are real logs with GC events: single and multi-capability,
// profiled and not, GHC 9.0.2 and GHC 7.x.
var heapLogs = []string{
	"../testdata/generated/hT.eventlog", // -N2
	"../testdata/generated/hc.eventlog",
	"../testdata/ghc-9.0.2/parwork-N1.eventlog",
	"../testdata/ghc-9.0.2/parwork-N2.eventlog",
	"../testdata/ghc-9.0.2/heap-hT.eventlog",
	"../testdata/corpus/ghc-events-history__mandelbrot-mmc-2011-06-14.eventlog",
}

// heapCounts is what the test counts in a log on its own.
type heapCounts struct {
	size, live, blocks, stats, sync int
	lastAlloc                       map[int32]uint64
	maxSize                         uint64
}

func countHeapEvents(t *testing.T, path string) heapCounts {
	t.Helper()
	f, err := ingest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := heapCounts{lastAlloc: map[int32]uint64{}}
	var e ingest.Event
	for f.Next(&e) {
		switch e.Kind {
		case ingest.KindHeapSize:
			c.size++
			c.maxSize = max(c.maxSize, e.Args[1])
		case ingest.KindHeapLive:
			c.live++
		case ingest.KindBlocksSize:
			c.blocks++
		case ingest.KindGCStatsGHC:
			c.stats++
		case ingest.KindGCGlobalSync:
			c.sync++
		case ingest.KindHeapAllocated:
			c.lastAlloc[e.Cap] = e.Args[1]
		}
	}
	return c
}

// TestHeapFromEventlog checks the series and GCs of real logs against
// counts taken directly from their events.
func TestHeapFromEventlog(t *testing.T) {
	for _, path := range heapLogs {
		if !present(t, path) {
			continue
		}
		d, err := readFile(path)
		if err != nil {
			t.Fatal(err)
		}
		h := d.Heap
		want := countHeapEvents(t, path)
		if h.Size.Len() != want.size || h.Live.Len() != want.live || h.Blocks.Len() != want.blocks {
			t.Errorf("%s: size/live/blocks points %d/%d/%d, want %d/%d/%d", path,
				h.Size.Len(), h.Live.Len(), h.Blocks.Len(), want.size, want.live, want.blocks)
		}
		if h.Size.Max() != want.maxSize {
			t.Errorf("%s: max heap size %d, want %d", path, h.Size.Max(), want.maxSize)
		}
		for _, s := range []*Series{&h.Size, &h.Live, &h.Blocks, &h.Allocated} {
			for i := 1; i < s.Len(); i++ {
				if s.Time[i] < s.Time[i-1] {
					t.Fatalf("%s: series not in time order at %d", path, i)
				}
			}
		}
		if len(h.GCs) == 0 {
			t.Fatalf("%s: no GCs", path)
		}
		// Every GC_STATS_GHC belongs to exactly one GC.
		withStats := 0
		for i, g := range h.GCs {
			if g.End < g.Start || i > 0 && g.Start <= h.GCs[i-1].End {
				t.Fatalf("%s: GC %d [%d,%d] after [%d,%d]", path, i, g.Start, g.End, h.GCs[i-1].Start, h.GCs[i-1].End)
			}
			if g.HasStats {
				withStats++
			}
			if mid := g.Start + g.Pause()/2; h.GCAt(mid) != i {
				t.Errorf("%s: GCAt(middle of GC %d) = %d", path, i, h.GCAt(mid))
			}
		}
		if want.stats > 0 && (withStats != want.stats || len(h.GCs) != want.stats) {
			t.Errorf("%s: %d GCs, %d with stats; log has %d GC_STATS_GHC", path, len(h.GCs), withStats, want.stats)
		}
		if want.sync > 0 && len(h.GCs) != want.sync {
			t.Errorf("%s: %d GCs, log has %d GC_GLOBAL_SYNC", path, len(h.GCs), want.sync)
		}
		// Allocation: the final total is the sum of every capability's
		// last count, the total never falls, and the rates add up.
		var total uint64
		for _, v := range want.lastAlloc {
			total += v
		}
		a := &h.Allocated
		if len(want.lastAlloc) > 0 && (a.Len() == 0 || a.Value[a.Len()-1] != total) {
			t.Errorf("%s: final allocated %v, want %d", path, a.Value[max(0, a.Len()-1):], total)
		}
		perGC := map[int]int{}
		for i := 0; i < a.Len(); i++ {
			if i > 0 && a.Value[i] < a.Value[i-1] {
				t.Errorf("%s: allocated falls at %d", path, i)
			}
			if g := h.GCAt(a.Time[i]); g >= 0 {
				perGC[g]++
				if perGC[g] > 1 {
					t.Errorf("%s: GC %d has %d allocation points", path, g, perGC[g])
				}
			}
		}
		if a.Len() > 1 {
			var sum float64
			for _, r := range h.AllocRate() {
				sum += r.BytesPerSec * float64(r.To-r.From) / 1e9
			}
			if d := float64(a.Value[a.Len()-1] - a.Value[0]); math.Abs(sum-d) > 1e-6*d+1 {
				t.Errorf("%s: rates add up to %g bytes, allocated %g", path, sum, d)
			}
		}
	}
}

// TestHeapSynthetic covers GCs reported by two capabilities in file order
// (not time order), stats attached to their GC, and per-capability
// allocation totals merged into one point per GC.
func TestHeapSynthetic(t *testing.T) {
	c := NewCollector()
	// Capability 1's block comes first in the file but is later in time
	// for the second GC.
	c.Add(ev(ingest.KindGCStart, 100, 1, nil))
	c.Add(ev(ingest.KindGCEnd, 180, 1, nil))
	c.Add(ev(ingest.KindGCStart, 300, 1, nil))
	c.Add(ev(ingest.KindHeapAllocated, 310, 1, nil, 0, 5000))
	c.Add(ev(ingest.KindGCEnd, 320, 1, nil))
	c.Add(ev(ingest.KindGCStart, 90, 0, nil))
	c.Add(ev(ingest.KindHeapAllocated, 150, 0, nil, 0, 1000))
	c.Add(ev(ingest.KindGCStatsGHC, 160, 0, nil, 0, 1, 64, 8, 0, 2, 40, 60))
	c.Add(ev(ingest.KindGCEnd, 170, 0, nil))
	c.Add(ev(ingest.KindHeapSize, 171, 0, nil, 0, 1<<20))
	c.Add(ev(ingest.KindHeapAllocated, 150, 1, nil, 0, 2000))
	c.Add(ev(ingest.KindGCStart, 290, 0, nil))
	c.Add(ev(ingest.KindHeapAllocated, 305, 0, nil, 0, 4000))
	c.Add(ev(ingest.KindGCEnd, 330, 0, nil))
	c.Add(ev(ingest.KindHeapSize, 331, 0, nil, 0, 2<<20))
	c.Add(ev(ingest.KindGCEnd, 400, 0, nil)) // unpaired: ignored

	h, p := c.Result()
	if p != nil {
		t.Errorf("profile without samples: %v", p)
	}
	if len(h.GCs) != 2 {
		t.Fatalf("GCs %+v", h.GCs)
	}
	g := h.GCs[0]
	if g.Start != 90 || g.End != 180 || !g.HasStats || g.Gen != 1 || g.Copied != 64 || g.ParThreads != 2 || !g.Major() {
		t.Errorf("GC 0: %+v", g)
	}
	if g := h.GCs[1]; g.Start != 290 || g.End != 330 || g.HasStats {
		t.Errorf("GC 1: %+v", g)
	}
	if got := h.Allocated; len(got.Time) != 2 || got.Value[0] != 3000 || got.Value[1] != 9000 || got.Time[1] != 310 {
		t.Errorf("allocated %+v", got)
	}
	r := h.AllocRate()
	if len(r) != 1 || r[0].From != 150 || r[0].To != 310 || math.Abs(r[0].BytesPerSec-6000/160e-9) > 1 {
		t.Errorf("rate %+v", r)
	}
	if v, ok := h.Size.At(200); !ok || v != 1<<20 {
		t.Errorf("size at 200: %d %v", v, ok)
	}
	if _, ok := h.Size.At(100); ok {
		t.Errorf("size before the first GC")
	}
	// GC 0's pause is cap 0's GC (90–170), which wrote its statistics;
	// the union (90–180) is the time stopped. GC 1 has no statistics.
	if g := h.GCs[0]; g.Pause() != 80 || g.Stopped() != 90 || h.GCs[1].Pause() != 40 || h.PauseTotal() != 80+40 {
		t.Errorf("pauses %d and %d (stopped %d), total %d; want 80 and 40 (stopped 90), 120", g.Pause(), h.GCs[1].Pause(), g.Stopped(), h.PauseTotal())
	}
}

// TestGCSize: a GC is 72 bytes (its small fields side by side), not the
// 80 its fields in their first order took; a GC-heavy run keeps hundreds
// of thousands.
func TestGCSize(t *testing.T) {
	if n := unsafe.Sizeof(GC{}); n != 72 {
		t.Errorf("a GC is %d bytes, want 72", n)
	}
}
