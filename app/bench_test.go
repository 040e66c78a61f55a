package app

import (
	"context"
	"os"
	"testing"
)

// bigLog is a large GHC 9.0.2 eventlog generated outside the repository (see
// testdata/ghc-9.0.2); the benchmarks skip without it.
const bigLog = "/tmp/hecscope-gen/big.eventlog"

// BenchmarkLoadBig measures loading a ≥100 MB eventlog as the app does,
// with progress reports, to the state where its view can be built.
func BenchmarkLoadBig(b *testing.B) {
	st, err := os.Stat(bigLog)
	if err != nil {
		b.Skipf("no big eventlog: %v", err)
	}
	b.SetBytes(st.Size())
	for b.Loop() {
		reports := 0
		ev, err := LoadEventlog(context.Background(), bigLog, func(Progress) { reports++ })
		if err != nil {
			b.Fatal(err)
		}
		if ev.Events == 0 || reports == 0 {
			b.Fatalf("%d events, %d progress reports", ev.Events, reports)
		}
	}
}
