package timeline

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestSummarizeFileMatchesSummarize: skimming a file (only the events the
// statistics need decoded, the others tallied) gives the very Summary that
// decoding every event does, on every test log and on cut-short copies.
func TestSummarizeFileMatchesSummarize(t *testing.T) {
	files := summaryLogs(t)
	if len(files) < 40 {
		t.Fatalf("only %d logs", len(files))
	}
	dir := t.TempDir()
	for i, path := range files {
		check := func(path string) {
			t.Helper()
			got, err := SummarizeFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := summarizeFile(t, path)
			if len(got.Segments) > 1 && want.Segments == nil {
				// A file of several eventlogs (restart4): reading it as a
				// stream does not split it; its segments are checked by
				// the summary command's tests (TestRestartedFIFOStream).
				got.Segments = nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: SummarizeFile\n%+v\nSummarize\n%+v", path, got, want)
			}
		}
		check(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cut := filepath.Join(dir, filepath.Base(path))
		if err := os.WriteFile(cut, data[:len(data)*(i%7+2)/10], 0o600); err != nil {
			t.Fatal(err)
		}
		check(cut)
	}
	if _, err := SummarizeFile(filepath.Join(dir, "missing.eventlog")); err == nil {
		t.Error("no error for a missing file")
	}
}

// TestSummarizeFileBig checks the same on the ≥ 100 MB log of
// testdata/haskell/gen.sh, which the skim cuts into many pieces, when it is
// there (HECSCOPE_BIG names it).
func TestSummarizeFileBig(t *testing.T) {
	path := os.Getenv("HECSCOPE_BIG")
	if path == "" {
		path = "/tmp/hecscope-gen/big.eventlog"
	}
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no big eventlog at %s (run testdata/haskell/gen.sh or set HECSCOPE_BIG)", path)
	}
	got, err := SummarizeFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := summarizeFile(t, path); !reflect.DeepEqual(got, want) {
		t.Errorf("SummarizeFile\n%+v\nSummarize\n%+v", got, want)
	}
}

// BenchmarkSummarizeFile is `hecscope summary` without the report: skim the
// big log on all cores and summarise it.
func BenchmarkSummarizeFile(b *testing.B) {
	path := bigLog(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	for b.Loop() {
		if _, err := SummarizeFile(path); err != nil {
			b.Fatal(err)
		}
	}
}
