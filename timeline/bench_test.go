package timeline

import (
	"os"
	"slices"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

var evScratch ingest.Event

func ingestOpen(path string) (*ingest.File, error) { return ingest.Open(path) }

// BenchmarkBuildBig measures decoding plus model building of the big log;
// events/s is the figure to compare with the 20 M/s target.
func BenchmarkBuildBig(b *testing.B) {
	path := bigLog(b)
	var events int64
	for i := 0; i < b.N; i++ {
		m, size := buildQuiet(b, path)
		events = m.Events
		b.SetBytes(size)
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkModelOnlyBig measures the model alone, fed with events decoded
// beforehand (the decoder has its own benchmarks).
func BenchmarkModelOnlyBig(b *testing.B) {
	path := bigLog(b)
	f, err := ingest.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	var evs []ingest.Event
	var ev ingest.Event
	for f.Next(&ev) {
		c := ev
		c.Raw = nil
		if ev.Data != nil {
			c.Data = append([]byte(nil), ev.Data...)
		}
		evs = append(evs, c)
	}
	f.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bl := NewOverviewBuilder(Grid{})
		for j := range evs {
			bl.Add(&evs[j])
		}
		bl.Snapshot()
	}
	b.ReportMetric(float64(len(evs))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkHECAddBig measures what a loader's capability goroutines spend
// per event in their HECBuilders (on an overview grid, as for a large
// log), fed with the big log's first 128 Ki events (of capabilities) decoded
// beforehand. HECSCOPE_BIG names another log.
func BenchmarkHECAddBig(b *testing.B) {
	path := os.Getenv("HECSCOPE_BIG")
	if path == "" {
		path = bigLog(b)
	}
	f, err := ingest.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	var evs []ingest.Event
	var ev ingest.Event
	var last uint64
	for len(evs) < 1<<17 && f.Next(&ev) {
		if ev.Cap < 0 {
			continue
		}
		c := ev
		c.Raw, c.Data = nil, nil
		evs = append(evs, c)
		last = max(last, ev.Time)
	}
	f.Close()
	var caps []int32
	for _, e := range evs {
		if !slices.Contains(caps, e.Cap) {
			caps = append(caps, e.Cap)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		bl := NewOverviewBuilder(GridFor(last, 1<<16))
		hecs := make([]*HECBuilder, slices.Max(caps)+1)
		for i, h := range bl.Parallel(caps) {
			hecs[caps[i]] = h
		}
		for j := range evs {
			hecs[evs[j].Cap].Add(&evs[j])
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(len(evs))/float64(b.N), "ns/event")
}
