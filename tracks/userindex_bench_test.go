package tracks

import (
	"context"
	"os"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
)

// BenchmarkUserIndex lays out the user spans' rows of a big log's overview
// (HECSCOPE_BIG), as Prepare does once its load is over.
func BenchmarkUserIndex(b *testing.B) {
	path := os.Getenv("HECSCOPE_BIG")
	if path == "" {
		b.Skip("set HECSCOPE_BIG to a big eventlog")
	}
	r, err := eventlog.Open(context.Background(), path, eventlog.Options{NoSummary: true, NoHeap: true, NoEventList: true})
	if err != nil {
		b.Skip(err)
	}
	defer r.Close()
	ov := r.Overview()
	b.ReportMetric(float64(numUserSpans(ov)), "spans")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		newUserIndex(ov)
	}
}
