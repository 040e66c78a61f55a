package timeline

import (
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
