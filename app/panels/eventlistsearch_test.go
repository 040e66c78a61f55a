package panels

import (
	"context"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
)

// bigLog is the large eventlog of app's BenchmarkLoadBig; the benchmarks
// skip without it.
const bigLog = "/tmp/hecscope-gen/big.eventlog"

// BenchmarkEventSearchBigLog measures a text search over every event of
// the big log (read from the file a bucket at a time).
func BenchmarkEventSearchBigLog(b *testing.B) {
	l, err := eventlog.Open(context.Background(), bigLog, eventlog.Options{NoSummary: true})
	if err != nil {
		b.Skipf("no big log: %v", err)
	}
	defer l.Close()
	q := &eventQuery{text: []byte("thread 4242 ")}
	for b.Loop() {
		hits, _, _, err := findEvents(l.EventList(), l.Header, q, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(hits)), "hits")
	}
}
