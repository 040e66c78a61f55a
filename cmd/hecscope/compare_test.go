package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const parwork = "../../testdata/ghc-9.0.2/parwork-"

// TestCompareJSONMatchesSummaries checks `compare --json` against the two
// `summary --json` reports: each delta is the difference of the summaries.
func TestCompareJSONMatchesSummaries(t *testing.T) {
	code, out, errOut := hecscope(t, "compare", "--json", parwork+"N1.eventlog", parwork+"N2.eventlog")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var c struct {
		A, B struct{ Name, Program string }
		Rows []struct {
			Group, Name, Unit, Better, Verdict string
			A, B, Delta, Relative              *float64
		}
		Histograms []struct {
			Title   string
			EdgesNS []uint64 `json:"edges_ns"`
			A, B    []int
			TotalA  int `json:"total_a"`
			TotalB  int `json:"total_b"`
		}
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if c.A.Name != "parwork-N1.eventlog" || c.B.Name != "parwork-N2.eventlog" || c.A.Program == "" {
		t.Errorf("runs %+v %+v", c.A, c.B)
	}
	summaries := make([]map[string]any, 2)
	for i, f := range []string{"N1", "N2"} {
		code, out, errOut := hecscope(t, "summary", "--json", parwork+f+".eventlog")
		if code != 0 {
			t.Fatalf("summary exit %d: %s", code, errOut)
		}
		if err := json.Unmarshal([]byte(out), &summaries[i]); err != nil {
			t.Fatal(err)
		}
	}
	// Rows checked against summary fields (dotted paths).
	fields := map[string]string{
		"Wall time":        "duration_ns",
		"Mutator time":     "mutator_ns",
		"GC time":          "gc_ns",
		"Productivity":     "productivity",
		"Collections":      "gc_count",
		"Longest pause":    "gc_max_pause_ns",
		"Allocated":        "allocated_bytes",
		"Max heap size":    "max_heap_size",
		"Max live":         "max_heap_live",
		"Threads created":  "threads",
		"HECs":             "capabilities",
		"Sparks created":   "sparks.created",
		"Sparks converted": "sparks.converted",
		"Sparks fizzled":   "sparks.fizzled",
	}
	lookup := func(m map[string]any, path string) (float64, bool) {
		var v any = m
		for _, k := range strings.Split(path, ".") {
			mm, ok := v.(map[string]any)
			if !ok {
				return 0, false
			}
			v = mm[k]
		}
		f, ok := v.(float64)
		return f, ok
	}
	seen := 0
	for _, r := range c.Rows {
		path, ok := fields[r.Name]
		if !ok {
			continue
		}
		a, okA := lookup(summaries[0], path)
		b, okB := lookup(summaries[1], path)
		if !okA || !okB {
			t.Fatalf("summary JSON has no %s", path)
		}
		seen++
		if r.A == nil || r.B == nil || r.Delta == nil || *r.A != a || *r.B != b || *r.Delta != b-a {
			t.Errorf("%s: row %v %v %v, summaries %v %v", r.Name, r.A, r.B, r.Delta, a, b)
		}
	}
	if seen != len(fields) {
		t.Errorf("%d of %d rows found", seen, len(fields))
	}
	if len(c.Histograms) != 2 || len(c.Histograms[0].EdgesNS) < 2 || len(c.Histograms[0].A) != len(c.Histograms[0].EdgesNS)-1 {
		t.Errorf("histograms %+v", c.Histograms)
	}
}

func TestCompareTextAndUsage(t *testing.T) {
	code, out, _ := hecscope(t, "compare", parwork+"N1.eventlog", parwork+"N2.eventlog")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"A: parwork-N1.eventlog", "Wall time", "Productivity", "HEC 1 running", "GC pauses (A: ", "worse", "better"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	if code, _, _ := hecscope(t, "compare", parwork+"N1.eventlog"); code != 2 {
		t.Errorf("one file: exit %d, want 2", code)
	}
	if code, _, _ := hecscope(t, "compare", "--bogus", "a", "b"); code != 2 {
		t.Errorf("bad flag: exit %d, want 2", code)
	}
	if code, _, errOut := hecscope(t, "compare", "/nonexistent/a.eventlog", parwork+"N1.eventlog"); code != 1 || !strings.Contains(errOut, "nonexistent") {
		t.Errorf("missing file: exit %d, %q", code, errOut)
	}
}

func TestRenderCompare(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cmp.png")
	code, _, errOut := hecscope(t, "render", "--compare", parwork+"N1.eventlog", parwork+"N2.eventlog", "-o", out,
		"--align", "marker:round 2", "--width", "1000")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatal(err)
	}
	// Without --height the comparison is 3/4 as high as wide.
	if cfg.Width != 1000 || cfg.Height != 750 {
		t.Errorf("size %dx%d, want 1000x750", cfg.Width, cfg.Height)
	}
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"render", "--compare", parwork + "N1.eventlog", "-o", out}, 2, "two eventlogs"},
		{[]string{"render", "--compare", parwork + "N1.eventlog", parwork + "N2.eventlog", "-o", out, "--align", "middle"}, 2, "--align"},
		{[]string{"render", "--compare", parwork + "N1.eventlog", parwork + "N2.eventlog", "-o", out, "--align", "marker:no such"}, 1, "no marker matching"},
		{[]string{"render", "--compare", parwork + "N1.eventlog", parwork + "N2.eventlog"}, 2, "-o out.png"},
		{[]string{"render", "--compare", parwork + "N1.eventlog", parwork + "N2.eventlog", "-o", out, "--from", "30ms", "--to", "20ms"}, 2, "--to must be after --from"},
		{[]string{"render", "--compare", parwork + "N1.eventlog", parwork + "N2.eventlog", "-o", out, "--from", "soon"}, 2, "usage"},
	}
	for _, c := range cases {
		code, _, errOut := hecscope(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errOut, c.code, c.msg)
		}
	}
}

// TestRenderCompareRange draws a stretch of the shared time scale: the
// time ruler then starts at --from.
func TestRenderCompareRange(t *testing.T) {
	dir := t.TempDir()
	whole, part := filepath.Join(dir, "whole.png"), filepath.Join(dir, "part.png")
	for _, args := range [][]string{
		{"render", "--compare", parwork + "N1.eventlog", parwork + "N2.eventlog", "-o", whole, "--width", "800"},
		{"render", "--compare", parwork + "N1.eventlog", parwork + "N2.eventlog", "-o", part, "--width", "800", "--from", "20ms", "--to", "30ms"},
	} {
		if code, _, errOut := hecscope(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
	a, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(part)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, b) {
		t.Error("--from/--to drew the whole runs")
	}
}

// TestCompareDamagedLogs: a truncated log is compared as far as it goes
// (exit 0, a notice); a corrupt one is compared up to the damage but exits
// 1, and render --compare refuses it.
func TestCompareDamagedLogs(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(parwork + "N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.eventlog")
	if err := os.WriteFile(truncated, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(dir, "corrupt.eventlog")
	bad := bytes.Clone(data)
	i := bytes.Index(bad, []byte("datb")) + 4 + 24 // the first event after the first block marker
	copy(bad[i:], []byte{0x77, 0x77})
	if err := os.WriteFile(corrupt, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := hecscope(t, "compare", parwork+"N2.eventlog", truncated)
	if code != 0 || !strings.Contains(errOut, "truncated") || !strings.Contains(out, "Wall time") {
		t.Errorf("truncated: exit %d, %q", code, errOut)
	}
	code, out, errOut = hecscope(t, "compare", "--json", parwork+"N2.eventlog", corrupt)
	if code != 1 || !strings.Contains(errOut, "corrupt") || !strings.Contains(out, `"rows"`) {
		t.Errorf("corrupt: exit %d, %q", code, errOut)
	}
	outPNG := filepath.Join(dir, "out.png")
	if code, _, errOut := hecscope(t, "render", "--compare", parwork+"N2.eventlog", corrupt, "-o", outPNG); code != 1 || !strings.Contains(errOut, "corrupt") {
		t.Errorf("render corrupt: exit %d, %q", code, errOut)
	}
	if code, _, errOut := hecscope(t, "render", "--compare", parwork+"N1.eventlog", truncated, "-o", outPNG); code != 0 {
		t.Errorf("render truncated: exit %d, %q", code, errOut)
	}
}
