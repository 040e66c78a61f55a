package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// fuzzSeedMax is the largest corpus log FuzzLog takes as a seed, so the
// seed-only run of CI stays fast.
const fuzzSeedMax = 64 << 10

// FuzzLog feeds arbitrary bytes through the whole path a user's file takes:
// the decoder, the models, the summary (text and JSON, from a stream) and
// the timeline picture (from a file). Whatever the bytes, nothing panics,
// allocation stays within a bound linear in the input, and each input
// finishes in bounded time. Seeds are the small real logs of
// testdata/corpus; crashers found are kept in testdata/fuzz/FuzzLog.
func FuzzLog(f *testing.F) {
	names, err := filepath.Glob(corpus + "*.eventlog")
	if err != nil {
		f.Fatal(err)
	}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) <= fuzzSeedMax {
			f.Add(data)
		}
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "in.eventlog")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		png := filepath.Join(dir, "out.png")
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		var out, errs bytes.Buffer
		code := summary("fuzz", bytes.NewReader(data), false, &out, &errs)
		if code != 0 && code != 1 {
			t.Fatalf("summary: exit %d", code)
		}
		if code == 1 && strings.TrimSpace(errs.String()) == "" {
			t.Fatal("summary failed without saying why")
		}
		if c := summary("fuzz", bytes.NewReader(data), true, io.Discard, io.Discard); c != code {
			t.Fatalf("summary --json exits %d, the text %d", c, code)
		}
		if c := runRender([]string{path, "-o", png, "--width", "320", "--height", "200"}); c != 0 && c != 1 {
			t.Fatalf("render: exit %d", c)
		}
		elapsed := time.Since(start)
		runtime.ReadMemStats(&after)
		// The bound is generous (a 320×200 picture and the models' fixed
		// costs are the constant); a runaway allocation breaks it by orders.
		if grown, limit := after.TotalAlloc-before.TotalAlloc, uint64(400*len(data))+256<<20; grown > limit {
			t.Fatalf("allocated %d bytes for %d bytes of input (limit %d)", grown, len(data), limit)
		}
		if elapsed > 30*time.Second {
			t.Fatalf("took %v for %d bytes of input", elapsed, len(data))
		}
	})
}
