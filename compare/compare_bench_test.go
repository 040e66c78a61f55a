package compare

import (
	"os"
	"testing"
)

// benchRuns reads the two runs the comparison benchmarks use: the 120 MB
// and 208 MB generated logs when present (HECSCOPE_BIG_COMPARE=1), else
// the committed -N1/-N2 pair.
func benchRuns(b *testing.B) (*Run, *Run) {
	pa, pb := "../testdata/ghc-9.0.2/parwork-N1.eventlog", "../testdata/ghc-9.0.2/parwork-N2.eventlog"
	if os.Getenv("HECSCOPE_BIG_COMPARE") == "1" {
		pa, pb = "/tmp/hecscope-gen/big.eventlog", "/tmp/hecscope-gen/big200.eventlog"
	}
	return readRunFile(b, pa, "A"), readRunFile(b, pb, "B")
}

// BenchmarkCompare measures the table of differences and both
// distributions (which walk every HEC and thread mark).
func BenchmarkCompare(b *testing.B) {
	a, c := benchRuns(b)
	b.ResetTimer()
	for b.Loop() {
		Compare(a, c, Options{})
	}
}

// BenchmarkRenderCompare measures one 1600×1200 comparison picture of the
// whole runs (what the compare window draws on every zoom step).
func BenchmarkRenderCompare(b *testing.B) {
	a, c := benchRuns(b)
	cmp := Compare(a, c, Options{})
	b.ResetTimer()
	for b.Loop() {
		if _, err := Render(a, c, cmp, PictureOptions{Width: 1600, Height: 1200}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderCompareZoomed measures the same picture zoomed to a
// hundredth of the runs.
func BenchmarkRenderCompareZoomed(b *testing.B) {
	a, c := benchRuns(b)
	cmp := Compare(a, c, Options{})
	sp := PictureOptions{}.Viewport(a.Model.End, c.Model.End)
	sp = sp.Zoom(0.01, sp.Length()/2)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Render(a, c, cmp, PictureOptions{Width: 1600, Height: 1200, From: sp.From, To: sp.To}); err != nil {
			b.Fatal(err)
		}
	}
}
