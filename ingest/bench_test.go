package ingest

import (
	"os"
	"runtime"
	"sync"
	"testing"
)

// bigLog is the ≥ 100 MB eventlog made by testdata/haskell/gen.sh; the
// benchmarks that need it are skipped where it has not been generated.
func bigLog(b *testing.B) string {
	path := os.Getenv("HECSCOPE_BIG")
	if path == "" {
		path = "/tmp/hecscope-gen/big.eventlog"
	}
	if _, err := os.Stat(path); err != nil {
		b.Skipf("no big eventlog at %s (run testdata/haskell/gen.sh or set HECSCOPE_BIG)", path)
	}
	return path
}

// BenchmarkDecodeFile decodes the big log from disk (page cache) through a
// Reader, the way `hecscope summary` does.
func BenchmarkDecodeFile(b *testing.B) {
	path := bigLog(b)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	var events int
	for i := 0; i < b.N; i++ {
		f, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		var ev Event
		events = 0
		for f.Next(&ev) {
			events++
		}
		f.Close()
		if f.Status().State != StateComplete {
			b.Fatal(f.Status())
		}
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkDecodeMemory decodes the big log held in memory, fed in 64 KiB
// chunks as a socket would deliver it.
func BenchmarkDecodeMemory(b *testing.B) {
	data, err := os.ReadFile(bigLog(b))
	if err != nil {
		b.Fatal(err)
	}
	benchDecodeBytes(b, data)
}

// BenchmarkDecodeCorpus decodes a real GHC log from the corpus in memory; it
// always runs.
func BenchmarkDecodeCorpus(b *testing.B) {
	benchDecodeBytes(b, readCorpus(b, "ghc-events-history__warshall0-trace-7.8.2_8.eventlog"))
}

func benchDecodeBytes(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	var events int
	var ev Event
	for i := 0; i < b.N; i++ {
		d := NewDecoder()
		events = 0
		for off := 0; off < len(data); off += 1 << 16 {
			d.Feed(data[off:min(off+1<<16, len(data))])
			for d.Next(&ev) {
				events++
			}
		}
		d.End()
		for d.Next(&ev) {
			events++
		}
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// summarySelection is what timeline's Summarizer asks Skim for (the GC,
// heap and process events; the ends of the allocation and spark counters),
// so the benchmarks measure the skim that `hecscope summary` does.
var summarySelection = Selection{
	Kinds: []Kind{
		KindStartup, KindCapCreate, KindProgramArgs, KindProgramEnv, KindRTSIdentifier, KindWallClockTime,
		KindHeapSize, KindHeapLive, KindGCStart, KindGCEnd, KindGCGlobalSync, KindGCStatsGHC,
	},
	Ends: []Kind{KindHeapAllocated, KindSparkCounters},
}

// BenchmarkSkimMemory skims the big log held in memory, on all cores.
func BenchmarkSkimMemory(b *testing.B) {
	data, err := os.ReadFile(bigLog(b))
	if err != nil {
		b.Fatal(err)
	}
	benchSkim(b, data)
}

// BenchmarkSkimMemoryOneCore is BenchmarkSkimMemory on one core.
func BenchmarkSkimMemoryOneCore(b *testing.B) {
	data, err := os.ReadFile(bigLog(b))
	if err != nil {
		b.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	benchSkim(b, data)
}

func benchSkim(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var events uint64
	for b.Loop() {
		handed := uint64(0)
		r := Skim(data, summarySelection, func(*Event) { handed++ })
		if r.Status.State != StateComplete {
			b.Fatalf("status %v", r.Status)
		}
		events = handed + r.Tally.Events
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mevents/s")
}

// BenchmarkSkimFile skims the big log from its file (from the page cache
// after the first round), as `hecscope summary` does.
func BenchmarkSkimFile(b *testing.B) {
	path := bigLog(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	for b.Loop() {
		r, err := SkimFile(path, summarySelection, func(*Event) {})
		if err != nil || r.Status.State != StateComplete {
			b.Fatalf("%v %v", err, r.Status)
		}
	}
}

// BenchmarkMergeFile indexes the big log and merges all its events in time
// order, every stream decoded in its own goroutine.
func BenchmarkMergeFile(b *testing.B) {
	path := bigLog(b)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	var events int
	for i := 0; i < b.N; i++ {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		ix, err := NewIndex(f, st.Size())
		if err != nil {
			b.Fatal(err)
		}
		m := NewMerge(f, ix, MergeOptions{})
		events = 0
		for e := m.Next(); e != nil; e = m.Next() {
			events++
		}
		f.Close()
		if s := m.Status(); s.State != StateComplete {
			b.Fatal(s)
		}
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkStreamsOneCore reads the big log's streams as the loader does
// (mapped in place, learning the pieces, a tap that keeps every event to
// itself) on one core: the CPU a load spends per event in decoding and
// merging, before its models see the events.
func BenchmarkStreamsOneCore(b *testing.B) {
	path := bigLog(b)
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	b.SetBytes(st.Size())
	b.ReportAllocs()
	var events int64
	for b.Loop() {
		ix, err := NewIndex(f, st.Size())
		if err != nil {
			b.Fatal(err)
		}
		mm, err := MapSection(f, 0, st.Size())
		if err != nil {
			b.Fatal(err)
		}
		// Each stream counts its own events, read once the merge is done.
		var mu sync.Mutex
		var counts []*int64
		tap := func(int32) func(*Event) bool {
			n := new(int64)
			mu.Lock()
			counts = append(counts, n)
			mu.Unlock()
			return func(*Event) bool { *n++; return false }
		}
		m := NewMerge(mm, ix, MergeOptions{Tap: tap, Learn: true})
		for e := m.Next(); e != nil; e = m.Next() {
		}
		mm.Close()
		if s := m.Status(); s.State != StateComplete {
			b.Fatal(s)
		}
		events = 0
		for _, n := range counts {
			events += *n
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(events)/float64(b.N), "ns/event")
}
