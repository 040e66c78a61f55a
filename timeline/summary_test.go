package timeline

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/internal/testlog"
	"github.com/hecscope/hecscope/paint"
)

// summaryLogs returns the real eventlogs the summary tests run on: the
// committed corpus copies, plus the GHC 9.0.2 logs of testdata when present.
func summaryLogs(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"../testdata/corpus/*.eventlog", "../testdata/ghc-9.0.2/*.eventlog", "../testdata/generated/*.eventlog"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no eventlogs found under ../testdata")
	}
	return files
}

// summarizeFile is the Summary of the log at path decoded as a stream,
// every event through the Summarizer (what SummarizeFile must equal).
func summarizeFile(t testing.TB, path string) Summary {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := Summarize(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}

// refEvent is what the reference model keeps of an event.
type refEvent struct {
	us   uint64 // timestamp rounded up to a microsecond
	cap  int32
	kind ingest.Kind
	args [ingest.MaxArgs]uint64
}

// refStats are the ThreadScope figures the reference model computes.
type refStats struct {
	totalUS                     uint64
	collections, parCollections map[int]int // by generation, -1 = total
	elapsedUS, maxPauseUS       map[int]uint64
	maxGen                      int
	allocated, maxSize, maxLive uint64
	maxSlop, copied             uint64
	parThreads                  int
	parMax, parTot              uint64
	sparks                      map[int32][6]uint64 // created, dud, overflowed, converted, fizzled, gc'd
}

// reference computes ThreadScope's statistics the way ThreadScope does: all
// events (block markers excluded) in one array, stably sorted by timestamp
// rounded up to the microsecond, run through one GC state machine shared by
// all capabilities. It is deliberately written differently from the
// Summarizer (global sort, no holding back, cross-capability transitions)
// so that agreement tests the Summarizer's claim that it needs neither.
func reference(t testing.TB, path string) refStats {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var evs []refEvent
	_, _, err = testlog.ReadAll(bytes.NewReader(data), func(e *ingest.Event) error {
		if e.Kind != ingest.KindBlockMarker {
			evs = append(evs, refEvent{us: (e.Time + 999) / 1000, cap: e.Cap, kind: e.Kind, args: e.Args})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].us < evs[j].us })

	const (
		init_ = iota
		start
		sync
		ghc
		end
		idle
	)
	type capGC struct {
		mode, main, gen int
		startUS         uint64
		gens            map[int]bool
	}
	r := refStats{
		collections: map[int]int{}, parCollections: map[int]int{},
		elapsedUS: map[int]uint64{}, maxPauseUS: map[int]uint64{},
		sparks: map[int32][6]uint64{},
	}
	table := map[int32]*capGC{}
	alloc := map[int32]uint64{}
	firstSparks := map[int32][6]uint64{}
	seenStats := false
	for _, e := range evs {
		r.totalUS = max(r.totalUS, e.us)
		c := e.cap
		switch e.kind {
		case ingest.KindHeapAllocated:
			alloc[c] = e.args[1]
		case ingest.KindHeapSize:
			r.maxSize = max(r.maxSize, e.args[1])
		case ingest.KindHeapLive:
			r.maxLive = max(r.maxLive, e.args[1])
		case ingest.KindSparkCounters:
			cur := [6]uint64{e.args[0], e.args[1], e.args[2], e.args[3], e.args[5], e.args[4]}
			if _, ok := firstSparks[c]; !ok {
				firstSparks[c] = cur
			}
			var d [6]uint64
			for i := range d {
				d[i] = cur[i] - firstSparks[c][i]
			}
			r.sparks[c] = d
		case ingest.KindGCStart:
			g := table[c]
			if g == nil {
				g = &capGC{gens: map[int]bool{}}
				table[c] = g
			}
			g.mode, g.startUS = start, e.us
		case ingest.KindGCGlobalSync:
			for k, g := range table {
				switch g.mode {
				case start:
					g.mode, g.main = sync, int(c)
					if k == c {
						r.collections[-1]++
					}
				case end:
					g.mode = idle
				}
			}
		case ingest.KindGCStatsGHC:
			r.copied += e.args[2]
			r.maxSlop = max(r.maxSlop, e.args[3])
			r.parThreads = max(r.parThreads, int(e.args[5]))
			if seenStats {
				r.parMax += e.args[6]
				r.parTot += e.args[7]
			}
			seenStats = true
			gen, par := int(e.args[1]), int(e.args[5])
			for k, g := range table {
				switch g.mode {
				case sync:
					g.mode, g.main, g.gen = ghc, int(c), gen
					if k == c {
						g.gens[gen] = true
						r.collections[gen]++
						if par > 1 {
							r.parCollections[gen]++
							r.parCollections[-1]++
						}
					}
				case start:
					g.mode, g.main = sync, int(c)
					if k == c {
						r.collections[-1]++
					}
				case end:
					g.mode = idle
				}
			}
		case ingest.KindGCEnd:
			g := table[c]
			if g == nil {
				g = &capGC{gens: map[int]bool{}}
				table[c] = g
			}
			d := e.us - g.startUS
			if g.mode == ghc {
				g.gens[g.gen] = true
			}
			if (g.mode == sync || g.mode == ghc) && g.main == int(c) {
				r.elapsedUS[-1] += d
				r.maxPauseUS[-1] = max(r.maxPauseUS[-1], d)
				if g.mode == ghc {
					r.elapsedUS[g.gen] += d
					r.maxPauseUS[g.gen] = max(r.maxPauseUS[g.gen], d)
				}
			}
			g.mode = end
		}
	}
	r.maxGen = 1
	for _, g := range table {
		for gen := range g.gens {
			r.maxGen = max(r.maxGen, gen)
		}
	}
	for _, a := range alloc {
		r.allocated += a
	}
	return r
}

// TestSummaryMatchesReference checks, on every real log, that the streaming
// Summarizer gives the figures of the sorted-array reference model.
func TestSummaryMatchesReference(t *testing.T) {
	for _, f := range summaryLogs(t) {
		name := filepath.Base(f)
		s := summarizeFile(t, f)
		r := reference(t, f)
		check := func(what string, got, want any) {
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: %s = %v, reference %v", name, what, got, want)
			}
		}
		check("total", s.TotalNS, r.totalUS*1000)
		check("collections", s.GC.Total.Collections, r.collections[-1])
		check("par collections", s.GC.Total.ParCollections, r.parCollections[-1])
		check("GC elapsed", s.GC.Total.ElapsedNS, r.elapsedUS[-1]*1000)
		check("GC max pause", s.GC.Total.MaxPauseNS, r.maxPauseUS[-1]*1000)
		check("allocated", s.Heap.Allocated, r.allocated)
		check("max heap size", s.Heap.MaxSize, r.maxSize)
		check("max heap live", s.Heap.MaxLive, r.maxLive)
		check("max slop", s.Heap.MaxSlop, r.maxSlop)
		check("copied", s.Heap.Copied, r.copied)
		check("par threads", s.GC.ParThreads, max(r.parThreads, 1))
		check("par max copied", s.GC.ParMaxCopied, r.parMax)
		check("par total copied", s.GC.ParTotalCopied, r.parTot)
		check("spark caps", len(s.Sparks.PerCap), len(r.sparks))
		for _, c := range s.Sparks.PerCap {
			d := r.sparks[int32(c.Cap)]
			check(fmt.Sprintf("sparks of cap %d", c.Cap),
				[]uint64{c.Created, c.Dud, c.Overflowed, c.Converted, c.Fizzled, c.GCd}, d[:])
		}
	}
}

// TestSummaryInvariants checks relations that hold on every log.
func TestSummaryInvariants(t *testing.T) {
	for _, f := range summaryLogs(t) {
		name := filepath.Base(f)
		s := summarizeFile(t, f)

		// Events and per-type counts against an independent count.
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		perType := map[uint16]uint64{}
		var events, statsEvents, copied uint64
		lastSparks := map[int32][7]uint64{}
		_, st, err := testlog.ReadAll(bytes.NewReader(data), func(e *ingest.Event) error {
			if e.Kind == ingest.KindBlockMarker {
				return nil
			}
			events++
			perType[e.Type]++
			if e.Kind == ingest.KindGCStatsGHC {
				statsEvents++
				copied += e.Args[2]
			}
			if e.Kind == ingest.KindSparkCounters {
				var a [7]uint64
				copy(a[:], e.Args[:7])
				lastSparks[e.Cap] = a
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if s.Status != st {
			t.Errorf("%s: status %v, decoder says %v", name, s.Status, st)
		}
		if s.Events != events {
			t.Errorf("%s: %d events, counted %d", name, s.Events, events)
		}
		var sum uint64
		for _, tc := range s.Types {
			sum += tc.Count
			if perType[tc.ID] != tc.Count {
				t.Errorf("%s: type %d (%s): %d events, counted %d", name, tc.ID, tc.Desc, tc.Count, perType[tc.ID])
			}
			if tc.Desc == "" {
				t.Errorf("%s: type %d has no description", name, tc.ID)
			}
		}
		if sum != s.Events || len(s.Types) != len(perType) {
			t.Errorf("%s: per-type counts sum to %d over %d types, want %d over %d", name, sum, len(s.Types), s.Events, len(perType))
		}

		// Time: mutator + GC = total, productivity = mutator / total, with
		// the GC time of heap events (ThreadScope's), or else of the GC
		// events; none without either.
		gc, ok := s.GCTime()
		wantFrom := GCFromNone
		if s.HasHeap {
			wantFrom = GCFromThreadScope
		} else if s.GC.Pauses.Count > 0 {
			wantFrom = GCFromPauses
		}
		if s.GCFrom != wantFrom || ok != (wantFrom != GCFromNone) {
			t.Errorf("%s: GC time from %v (%v), want %v", name, s.GCFrom, ok, wantFrom)
		}
		if !ok {
			if s.MutatorNS != 0 || s.Productivity != 0 || s.Heap.AllocRate != 0 {
				t.Errorf("%s: no GC time, but mutator %d, productivity %v, allocation rate %d", name, s.MutatorNS, s.Productivity, s.Heap.AllocRate)
			}
		} else if s.MutatorNS+gc != s.TotalNS {
			t.Errorf("%s: mutator %d + GC %d != total %d", name, s.MutatorNS, gc, s.TotalNS)
		}
		// With GCStatsGHC events, the pauses are those of the GC table.
		if s.Heap.HasStats && (s.GC.Pauses.ElapsedNS != s.GC.Reported.ElapsedNS || s.GC.Pauses.MaxNS != s.GC.Reported.MaxPauseNS) {
			t.Errorf("%s: pauses %+v, the GC table's total %+v", name, s.GC.Pauses, s.GC.Reported)
		}
		// A figure without its events is absent, not 0.
		h := s.Heap
		if (!h.HasLive && h.MaxLive != 0) || (!h.HasSize && h.MaxSize != 0) || (!h.HasAllocated && h.Allocated != 0) ||
			(!h.HasStats && (h.MaxSlop != 0 || h.Copied != 0)) || (!s.HasAllocRate() && h.AllocRate != 0) {
			t.Errorf("%s: figures without their events: %+v", name, h)
		}
		if s.TotalNS < s.LastNS || s.TotalNS-s.LastNS >= 1000 || s.FirstNS > s.LastNS {
			t.Errorf("%s: total %d for events %d..%d", name, s.TotalNS, s.FirstNS, s.LastNS)
		}
		if p := float64(s.MutatorNS) / float64(s.TotalNS); ok && s.Productivity != p {
			t.Errorf("%s: productivity %v, want %v", name, s.Productivity, p)
		}

		// GC: ThreadScope counts at most the collections GHC reported; the
		// generations count each reported collection once and add up to
		// Reported, copied bytes included.
		if uint64(s.GC.RTSCollections) != statsEvents || s.GC.Total.Collections > s.GC.RTSCollections && statsEvents > 0 {
			t.Errorf("%s: %d collections reported, %d GCStatsGHC events, %d counted", name, s.GC.RTSCollections, statsEvents, s.GC.Total.Collections)
		}
		genSum := GenStats{Gen: -1}
		for _, g := range s.GC.Gens {
			genSum.Collections += g.Collections
			genSum.ParCollections += g.ParCollections
			genSum.ElapsedNS += g.ElapsedNS
			genSum.MaxPauseNS = max(genSum.MaxPauseNS, g.MaxPauseNS)
			genSum.Copied += g.Copied
		}
		if genSum != s.GC.Reported || genSum.Collections != s.GC.RTSCollections || len(s.GC.Gens) < 2 {
			t.Errorf("%s: generations add up to %+v; reported %+v, %d GCStatsGHC events", name, genSum, s.GC.Reported, s.GC.RTSCollections)
		}
		if s.GC.Reported.Copied != copied || s.GC.Total.Copied != copied || s.Heap.Copied != copied {
			t.Errorf("%s: copied %d by generation, %d total, %d heap; events say %d", name, s.GC.Reported.Copied, s.GC.Total.Copied, s.Heap.Copied, copied)
		}

		// Sparks: the total is the genSum over capabilities, and in a whole
		// run each capability's counts are its last SparkCounters (GHC's
		// first ones are all zero).
		var tot SparkCounts
		for _, c := range s.Sparks.PerCap {
			last := lastSparks[int32(c.Cap)]
			want := SparkCounts{Created: last[0], Dud: last[1], Overflowed: last[2], Converted: last[3],
				GCd: last[4], Fizzled: last[5], Total: last[0] + last[1] + last[2]}
			if c.SparkCounts != want {
				t.Errorf("%s: cap %d sparks %+v, last SparkCounters %+v", name, c.Cap, c.SparkCounts, want)
			}
			tot.Total += c.Total
			tot.Created += c.Created
			tot.Converted += c.Converted
			tot.Overflowed += c.Overflowed
			tot.Dud += c.Dud
			tot.GCd += c.GCd
			tot.Fizzled += c.Fizzled
		}
		if tot != s.Sparks.Total {
			t.Errorf("%s: spark total %+v, sum over caps %+v", name, s.Sparks.Total, tot)
		}
		if s.Capabilities < 1 && s.Events > 0 {
			t.Errorf("%s: %d capabilities", name, s.Capabilities)
		}
	}
}

// tsFigures are figures read off ThreadScope 0.2.14.1's Time, Heap, GC and
// Spark stats tabs (Xvfb screenshots) for one exact file, in ThreadScope's
// own formatting.
type tsFigures struct {
	file                       string
	total, mutator, gc, prod   string
	maxSize, maxLive, alloc    uint64
	allocRate, maxSlop, copied uint64
	balance                    string
	gcRows                     [][3]string // collections, par collections, max pause
	sparks                     [][6]uint64 // Total row, then each HEC
}

var threadScopeFigures = []tsFigures{
	{
		file:  "hecscope-ghc-9.0.2__parwork-N2.eventlog",
		total: "112.927ms", mutator: "106.910ms", gc: "6.017ms", prod: "94.7",
		maxSize: 1048576, maxLive: 80768, alloc: 23316568, allocRate: 218095295, maxSlop: 35088, copied: 436160,
		balance: "44.62",
		gcRows:  [][3]string{{"67", "63", "0.0033s"}, {"63", "63", "0.0002s"}, {"0", "0", "0.0000s"}},
		sparks:  [][6]uint64{{4137, 382, 0, 700, 2785, 270}, {673, 188, 0, 100, 455, 165}, {3464, 194, 0, 600, 2330, 105}},
	},
	{
		file:  "hecscope-ghc-9.0.2__heap-hc.eventlog",
		total: "2.006s", mutator: "1.490s", gc: "515.683ms", prod: "74.3",
		maxSize: 62914560, maxLive: 28967792, alloc: 319475576, allocRate: 214428824, maxSlop: 921968, copied: 775602400,
		balance: "N/A",
		gcRows:  [][3]string{{"248", "0", "0.0431s"}, {"199", "0", "0.0045s"}, {"14", "0", "0.0427s"}},
		sparks:  [][6]uint64{{0, 0, 0, 0, 0, 0}},
	},
	{
		file:  "hecscope-ghc-9.0.2__heap-hT.eventlog",
		total: "1.915s", mutator: "1.347s", gc: "568.426ms", prod: "70.3",
		maxSize: 40894464, maxLive: 17423968, alloc: 189647272, allocRate: 140790973, maxSlop: 2144216, copied: 456486256,
		balance: "37.84",
		gcRows:  [][3]string{{"143", "130", "0.0973s"}, {"113", "113", "0.0049s"}, {"18", "17", "0.0973s"}},
		sparks:  [][6]uint64{{0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0}},
	},
	{
		file:  "ghc-events-history__warshall0-trace-7.8.2_8.eventlog",
		total: "4.135s", mutator: "3.440s", gc: "695.091ms", prod: "83.2",
		maxSize: 14680064, maxLive: 4694488, alloc: 541122368, allocRate: 157309690, maxSlop: 128952, copied: 294599896,
		balance: "N/A",
		gcRows:  [][3]string{{"1044", "0", "0.0203s"}, {"987", "0", "0.0130s"}, {"57", "0", "0.0203s"}},
		sparks:  [][6]uint64{{0, 0, 0, 0, 0, 0}},
	},
	{
		file:   "ThreadScope__sealions.eventlog",
		total:  "1.820s",
		sparks: [][6]uint64{{60, 33, 0, 0, 8, 19}, {12, 25, 0, 0, 2, 7}, {48, 8, 0, 0, 6, 12}},
	},
	{
		file:  "ThreadScope__SumEulerPar1_sparks_detailed.eventlog",
		total: "59.001ms",
		sparks: [][6]uint64{{999, 999, 0, 0, 0, 0}, {0, 122, 0, 0, 0, 0}, {0, 82, 0, 0, 0, 0}, {0, 75, 0, 0, 0, 0},
			{0, 55, 0, 0, 0, 0}, {0, 71, 0, 0, 0, 0}, {0, 144, 0, 0, 0, 0}, {999, 185, 0, 0, 0, 0}, {0, 265, 0, 0, 0, 0}},
	},
}

// TestSummaryAgreesWithThreadScope compares with what ThreadScope showed.
func TestSummaryAgreesWithThreadScope(t *testing.T) {
	for _, want := range threadScopeFigures {
		s := summarizeFile(t, "../testdata/corpus/"+want.file)
		check := func(what string, got, exp any) {
			if fmt.Sprint(got) != fmt.Sprint(exp) {
				t.Errorf("%s: %s = %v, ThreadScope shows %v", want.file, what, got, exp)
			}
		}
		check("total time", paint.ThreadScopeTime(s.TotalNS), want.total)
		check("has heap", s.HasHeap, want.mutator != "")
		if s.HasHeap {
			check("mutator time", paint.ThreadScopeTime(s.MutatorNS), want.mutator)
			check("GC time", paint.ThreadScopeTime(s.GC.Total.ElapsedNS), want.gc)
			check("productivity", fmt.Sprintf("%.1f", 100*s.Productivity), want.prod)
			h := s.Heap
			check("heap", []uint64{h.MaxSize, h.MaxLive, h.Allocated, h.AllocRate, h.MaxSlop, h.Copied},
				[]uint64{want.maxSize, want.maxLive, want.alloc, want.allocRate, want.maxSlop, want.copied})
			bal := "N/A"
			if s.GC.HasWorkBalance {
				bal = fmt.Sprintf("%.2f", s.GC.WorkBalance)
			}
			check("work balance", bal, want.balance)
			// ThreadScope's Total row; its generation rows (the others)
			// are not hecscope's, which count every reported collection.
			g := s.GC.Total
			check("GC total row",
				[3]string{fmt.Sprint(g.Collections), fmt.Sprint(g.ParCollections), fmt.Sprintf("%.4fs", float64(g.MaxPauseNS)/1e9)},
				want.gcRows[0])
		}
		got := [][6]uint64{}
		row := func(c SparkCounts) [6]uint64 {
			return [6]uint64{c.Total, c.Converted, c.Overflowed, c.Dud, c.GCd, c.Fizzled}
		}
		got = append(got, row(s.Sparks.Total))
		for _, c := range s.Sparks.PerCap {
			got = append(got, row(c.SparkCounts))
		}
		check("sparks", got, want.sparks)
	}
}

// gcEv builds a GC event for the state-machine tests.
func gcEv(kind ingest.Kind, cap int32, ns uint64, args ...uint64) *ingest.Event {
	e := &ingest.Event{Kind: kind, Type: uint16(kind), Cap: cap, Time: ns}
	copy(e.Args[:], args)
	return e
}

// TestBackdatedGCEnd pins down ThreadScope's treatment of GHC's back-dated
// GCEnd: sorted by microsecond, it lands before the GlobalSync and
// GCStatsGHC written ahead of it when its microsecond is earlier (the GC is
// then not counted), and after them when it is the same (counted).
func TestBackdatedGCEnd(t *testing.T) {
	stats := func(cap int32, ns uint64) *ingest.Event {
		// capset, generation 0, copied, slop, frag, 2 par threads.
		return gcEv(ingest.KindGCStatsGHC, cap, ns, 0, 0, 100, 10, 0, 2, 60, 100, 0)
	}
	cases := []struct {
		name    string
		endNS   uint64
		count   int
		gen0    int
		elapsed uint64
	}{
		// GHC reported the collection either way: Gens count it.
		{"end in an earlier microsecond", 1_999_500, 0, 1, 0},
		{"end in the same microsecond", 2_000_200, 1, 1, 1_001_000},
	}
	for _, c := range cases {
		z := NewSummarizer()
		// A log with heap information: its GC time is ThreadScope's.
		z.Add(gcEv(ingest.KindHeapSize, 0, 900_000, 0, 1<<20))
		z.Add(gcEv(ingest.KindGCStart, 1, 1_000_000))
		z.Add(gcEv(ingest.KindGCStart, 0, 1_000_100))
		z.Add(gcEv(ingest.KindGCGlobalSync, 1, 2_000_100))
		z.Add(stats(1, 2_000_150))
		z.Add(gcEv(ingest.KindGCEnd, 1, c.endNS))
		z.Add(gcEv(ingest.KindGCEnd, 0, 2_100_000))
		s := z.Summary(nil, ingest.Status{State: ingest.StateComplete})
		if s.GC.Total.Collections != c.count || s.GC.Gens[0].Collections != c.gen0 || s.GC.Total.ElapsedNS != c.elapsed {
			t.Errorf("%s: collections %d, gen 0 %d, elapsed %d; want %d, %d, %d", c.name,
				s.GC.Total.Collections, s.GC.Gens[0].Collections, s.GC.Total.ElapsedNS, c.count, c.gen0, c.elapsed)
		}
		if s.GC.Gens[0].ParCollections != 1 || s.GC.Gens[0].MaxPauseNS != c.endNS-1_000_000 {
			t.Errorf("%s: gen 0 %+v, want 1 parallel collection of pause %d (cap 1's)", c.name, s.GC.Gens[0], c.endNS-1_000_000)
		}
		if c.count == 1 && s.GC.Total.ParCollections != 1 {
			t.Errorf("%s: par collections %d/%d, want 1/1", c.name, s.GC.Total.ParCollections, s.GC.Gens[0].ParCollections)
		}
		if s.TotalNS != 2_100_000 || s.MutatorNS != 2_100_000-c.elapsed {
			t.Errorf("%s: total %d, mutator %d", c.name, s.TotalNS, s.MutatorNS)
		}
	}
}

// TestGCNeverEnded checks that held events of a GC cut off by the end of the
// log still count, and that Summary can be called twice.
func TestGCNeverEnded(t *testing.T) {
	z := NewSummarizer()
	z.Add(gcEv(ingest.KindGCStart, 0, 1000))
	z.Add(gcEv(ingest.KindGCGlobalSync, 0, 2000))
	z.Add(gcEv(ingest.KindGCStatsGHC, 0, 3000, 0, 1, 0, 0, 0, 1, 0, 0, 0))
	for range 2 {
		s := z.Summary(nil, ingest.Status{State: ingest.StateTruncated, Offset: 99})
		if s.GC.Total.Collections != 1 || s.GC.Gens[1].Collections != 1 || s.GC.Total.ElapsedNS != 0 {
			t.Errorf("unended GC: %+v", s.GC)
		}
	}
}

// TestSummaryDamagedLogs summarises truncated and corrupted copies of a log:
// no panic, the right status, and no more events than the whole log.
func TestSummaryDamagedLogs(t *testing.T) {
	data, err := os.ReadFile("../testdata/corpus/hecscope-ghc-9.0.2__parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Summarize(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Summarize(bytes.NewReader(nil)); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty input: error %v, want ErrEmpty", err)
	}
	for _, n := range []int{10, 3000, len(data) / 3, len(data) / 2, len(data) - 3} {
		s, err := Summarize(bytes.NewReader(data[:n]))
		if err != nil {
			t.Fatal(err)
		}
		if s.Status.State != ingest.StateTruncated || s.Events > whole.Events {
			t.Errorf("cut at %d: status %v, %d events (whole: %d)", n, s.Status, s.Events, whole.Events)
		}
		// (The program name is in the RTS's global block, which GHC may
		// write only at the end, so a cut log can lack it.)
		if n >= len(data)/3 && (s.Events == 0 || s.Capabilities != whole.Capabilities || s.TotalNS > whole.TotalNS) {
			t.Errorf("cut at %d: %d events, %d caps, total %d", n, s.Events, s.Capabilities, s.TotalNS)
		}
	}
	bad := append([]byte(nil), data...)
	at := len(bad) / 2
	for i := at; i < at+64; i++ {
		bad[i] = 0xEE
	}
	s, err := Summarize(bytes.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	if s.Status.State != ingest.StateCorrupt || s.Status.Offset > int64(at+64) || s.Events >= whole.Events {
		t.Errorf("corrupted: status %v, %d events", s.Status, s.Events)
	}
}

// TestMicros checks the rounding ThreadScope applies to timestamps.
func TestMicros(t *testing.T) {
	for _, c := range [][2]uint64{{0, 0}, {1, 1}, {999, 1}, {1000, 1}, {1001, 2}, {2_466_098, 2467}} {
		if got := Micros(c[0]); got != c[1] {
			t.Errorf("Micros(%d) = %d, want %d", c[0], got, c[1])
		}
	}
}

// BenchmarkSummarize summarises the big generated log when it exists (see
// testdata/haskell/gen.sh), else the largest corpus copy.
func BenchmarkSummarize(b *testing.B) {
	path := "/tmp/hecscope-gen/big.eventlog"
	if _, err := os.Stat(path); err != nil {
		path = "../testdata/corpus/hecscope-ghc-9.0.2__parwork-N2.eventlog"
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.Seek(0, 0); err != nil {
			b.Fatal(err)
		}
		s, err := Summarize(f)
		if err != nil || s.Status.State == ingest.StateCorrupt {
			b.Fatalf("%v %v", err, s.Status)
		}
	}
}

// TestSummaryDamageNeverPanics summarises copies of a log with one byte
// changed at many places: whatever the decoder makes of them (odd
// capabilities, generations, counters going backwards), the Summarizer must
// not panic and its time invariant must hold.
func TestSummaryDamageNeverPanics(t *testing.T) {
	data, err := os.ReadFile("../testdata/corpus/hecscope-ghc-9.0.2__heap-hc.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	bad := make([]byte, len(data))
	for i := 0; i < 300; i++ {
		copy(bad, data)
		at := (i*7919 + 1234) % len(bad)
		bad[at] ^= byte(0x5A + i)
		s, err := Summarize(bytes.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if s.MutatorNS+s.GC.Total.ElapsedNS != s.TotalNS && s.GC.Total.ElapsedNS <= s.TotalNS {
			t.Errorf("byte %d changed: mutator %d + GC %d != total %d", at, s.MutatorNS, s.GC.Total.ElapsedNS, s.TotalNS)
		}
	}
}

// TestGensCountEveryCollection checks the generation rows of parwork-N2 (75
// GCStatsGHC events: 73 of generation 0, 2 of generation 1, one of those on
// one GC thread), whose GC table read "Gen 1: 0 collections" with 58.1 KiB
// copied when it followed ThreadScope's counting, and that the skim and
// the stream agree.
func TestGensCountEveryCollection(t *testing.T) {
	const path = "../testdata/corpus/hecscope-ghc-9.0.2__parwork-N2.eventlog"
	skimmed, err := SummarizeFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Summary{summarizeFile(t, path), skimmed} {
		gc := s.GC
		got := [][3]uint64{}
		for _, g := range append([]GenStats{gc.Reported}, gc.Gens...) {
			got = append(got, [3]uint64{uint64(g.Collections), uint64(g.ParCollections), g.Copied})
		}
		want := [][3]uint64{{75, 74, 436160}, {73, 73, 376680}, {2, 1, 59480}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("rows (total, gen 0, gen 1) = %v, want %v", got, want)
		}
		// The longest pause: GCStart 5,853,391 to GCEnd 9,125,632 ns on
		// HEC 1, which wrote the collection's GCStatsGHC.
		if gc.Reported.MaxPauseNS != 3_272_241 || gc.Gens[0].MaxPauseNS != 3_272_241 {
			t.Errorf("max pause %d (gen 0: %d), want 3272241", gc.Reported.MaxPauseNS, gc.Gens[0].MaxPauseNS)
		}
		if gc.Total.Collections != 67 || gc.Total.MaxPauseNS != 3_272_000 {
			t.Errorf("ThreadScope's count %d, max pause %d; want 67, 3272000", gc.Total.Collections, gc.Total.MaxPauseNS)
		}
		if s.Events != 14389 || s.BlockMarkers != 3 || s.ListedEvents() != 14392 {
			t.Errorf("events %d, block markers %d, listed %d; want 14389, 3, 14392", s.Events, s.BlockMarkers, s.ListedEvents())
		}
	}
}

// TestGCTimeWithoutHeapEvents: a log without heap events (old GHCs) gets
// its collections, GC time and productivity from its GC start and end
// events, and says so (GCFrom); it said "0 collections, GC time 0,
// productivity 100 %" while the GC track drew pauses of up to 13 ms.
// ThreadScope's pc-short-N6 has 3,391 GC start/end pairs on 6 HECs: 566
// collections.
func TestGCTimeWithoutHeapEvents(t *testing.T) {
	logs := []struct {
		path        string
		collections int
	}{
		{"../testdata/corpus/ThreadScope__sealions.eventlog", 0},
		{"../testdata/corpus/ThreadScope__SumEulerPar1_sparks_detailed.eventlog", 0},
		{"../../shared/corpus/public/ThreadScope__pc-short-N6.eventlog", 566},
	}
	for _, l := range logs {
		if _, err := os.Stat(l.path); err != nil {
			// The shared corpus beside the main checkout, or beside a
			// worktree's directory of worktrees.
			alt := "../" + l.path
			if _, err2 := os.Stat(alt); err2 != nil {
				t.Logf("%s: %v", l.path, err)
				continue
			}
			l.path = alt
		}
		name := filepath.Base(l.path)
		s := summarizeFile(t, l.path)
		_, evs := build(t, l.path)
		whole := factsOf(evs, 0, s.LastNS)
		n, maxPause, ok := s.Collections()
		gc, _ := s.GCTime()
		if s.HasHeap || s.GCFrom != GCFromPauses || !ok || n == 0 || gc != whole.pauses {
			t.Errorf("%s: heap %v, GC from %v: %d collections, GC time %d; the GC events give %d", name, s.HasHeap, s.GCFrom, n, gc, whole.pauses)
		}
		if l.collections != 0 && n != l.collections {
			t.Errorf("%s: %d collections, want %d", name, n, l.collections)
		}
		if maxPause == 0 || maxPause > gc || s.MutatorNS != s.TotalNS-gc || s.Productivity <= 0 || s.Productivity >= 1 {
			t.Errorf("%s: max pause %d, mutator %d of %d, productivity %v", name, maxPause, s.MutatorNS, s.TotalNS, s.Productivity)
		}
		if s.Heap.HasLive || s.Heap.HasSize || s.Heap.HasAllocated || s.HasAllocRate() {
			t.Errorf("%s: heap figures without heap events: %+v", name, s.Heap)
		}
	}
}
