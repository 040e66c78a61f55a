package app

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/eventlog"
)

// bigLog is a large GHC 9.0.2 eventlog generated outside the repository (see
// testdata/ghc-9.0.2); the benchmarks skip without it.
const bigLog = "/tmp/hecscope-gen/big.eventlog"

// BenchmarkLoadBig measures loading a ≥100 MB eventlog as the app does,
// with progress reports, to the state where its view can be built. It also
// reports how soon the first partial model (the first picture) arrives.
func BenchmarkLoadBig(b *testing.B) {
	st, err := os.Stat(bigLog)
	if err != nil {
		b.Skipf("no big eventlog: %v", err)
	}
	b.SetBytes(st.Size())
	var firstModel time.Duration
	for b.Loop() {
		reports := 0
		start := time.Now()
		var first time.Duration
		ev, err := loaded.LoadEventlog(context.Background(), bigLog, eventlog.Options{}, func(p loaded.Progress) {
			reports++
			if p.Model != nil && first == 0 {
				first = time.Since(start)
			}
		})
		if err != nil {
			b.Fatal(err)
		}
		if ev.Events == 0 || reports == 0 {
			b.Fatalf("%d events, %d progress reports", ev.Events, reports)
		}
		firstModel = max(firstModel, first)
	}
	b.ReportMetric(float64(firstModel.Microseconds())/1000, "ms-to-first-model")
}
