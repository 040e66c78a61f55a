package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSummarySegments (issue 16.9): two real eventlogs written one after the
// other into a file are two segments: the text says "Segments: 2" with each
// one's program, and the JSON lists both with where they lie. A single log
// has no segments section.
func TestSummarySegments(t *testing.T) {
	a, err := os.ReadFile(corpus + "ghc-events__hello-ghc-8.2.2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(corpus + "ghc-events__sleep.hy.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	joined := filepath.Join(t.TempDir(), "joined.eventlog")
	if err := os.WriteFile(joined, append(append([]byte{}, a...), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := hecscope(t, "summary", joined)
	if code != 0 {
		t.Fatalf("summary of two joined logs: exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "\nSegments: 2\n") || !strings.Contains(out, "hellofib.exe") || !strings.Contains(out, "./sleep") {
		t.Errorf("summary of two joined logs does not list both segments:\n%s", out)
	}
	code, out, errs = hecscope(t, "summary", "--json", joined)
	if code != 0 {
		t.Fatalf("summary --json: exit %d, stderr %q", code, errs)
	}
	var j struct {
		Segments []struct {
			Offset  int64  `json:"offset"`
			End     int64  `json:"end"`
			Status  string `json:"status"`
			Program string `json:"program"`
			Events  uint64 `json:"events"`
		} `json:"segments"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if len(j.Segments) != 2 {
		t.Fatalf("JSON segments: %d, want 2", len(j.Segments))
	}
	s0, s1 := j.Segments[0], j.Segments[1]
	if s0.Offset != 0 || s0.End != int64(len(a)) || s1.Offset != int64(len(a)) || s1.End != int64(len(a)+len(b)) {
		t.Errorf("segment bounds %d–%d, %d–%d; want 0–%d, %d–%d", s0.Offset, s0.End, s1.Offset, s1.End, len(a), len(a), len(a)+len(b))
	}
	if s0.Status != "complete" || s1.Status != "complete" || s0.Program != "hellofib.exe" || s1.Program != "./sleep" || s0.Events == 0 || s1.Events == 0 {
		t.Errorf("segments %+v", j.Segments)
	}
	code, out, _ = hecscope(t, "summary", corpus+"ghc-events__sleep.hy.eventlog")
	if code != 0 || strings.Contains(out, "Segments:") {
		t.Errorf("a single log reports segments (exit %d):\n%s", code, out)
	}
}
