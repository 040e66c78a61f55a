package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/compare"
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
			Key, Group, Name, Unit, Better, Verdict string
			A, B, Delta, Relative                   *float64
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
		"wall":                       "duration_ns",
		"mutator":                    "mutator_ns",
		"gc":                         "gc_ns",
		"productivity":               "productivity",
		"gc_collections_threadscope": "gc_count",
		"gc_collections_rts":         "gc_reported",
		"gc_max_pause_threadscope":   "gc_max_pause_ns",
		"allocated":                  "allocated_bytes",
		"max_heap":                   "max_heap_size",
		"max_live":                   "max_heap_live",
		"threads":                    "threads",
		"hecs":                       "capabilities",
		"sparks.created":             "sparks.created",
		"sparks.converted":           "sparks.converted",
		"sparks.fizzled":             "sparks.fizzled",
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
		path, ok := fields[r.Key]
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
	for _, want := range []string{"A: parwork-N1.eventlog", "Wall time", "Productivity", "HEC 1 running", "GC stops (every collection: HECs stopped, first HEC in GC to last out) (A: 90", "worse", "better"} {
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
		{[]string{"render", "--compare", parwork + "N1.eventlog", parwork + "N2.eventlog", "-o", out, "--align", "marker:no such"}, 1, "has no marker"},
		{[]string{"render", "--compare", parwork + "N1.eventlog", parwork + "N2.eventlog"}, 2, "-o out.png"},
		{[]string{"render", "--compare", parwork + "N1.eventlog", parwork + "N2.eventlog", "-o", out, "--from", "30ms", "--to", "20ms"}, 2, "--to must be after --from"},
		{[]string{"render", "--compare", parwork + "N1.eventlog", parwork + "N2.eventlog", "-o", out, "--from", "soon"}, 2, "usage"},
		{[]string{"render", "--compare", parwork + "N1.eventlog", parwork + "N2.eventlog", "-o", out, "--view", "heap"}, 2, "hecs, sparks"},
	}
	for _, c := range cases {
		code, _, errOut := hecscope(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errOut, c.code, c.msg)
		}
	}
}

// TestRenderCompareViews: the runs' panels show the view of the tracks
// --view names (the comparison's default without one), as render's views
// do.
func TestRenderCompareViews(t *testing.T) {
	dir := t.TempDir()
	pics := map[string][]byte{}
	for _, view := range []string{"", compare.DefaultView, "timeline"} {
		out := filepath.Join(dir, "cmp-"+view+".png")
		args := []string{"render", "--compare", parwork + "N1.eventlog", parwork + "N2.eventlog", "-o", out, "--width", "800"}
		if view != "" {
			args = append(args, "--view", view)
		}
		if code, _, errOut := hecscope(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		pics[view] = b
	}
	if !bytes.Equal(pics[""], pics[compare.DefaultView]) {
		t.Errorf("without --view the comparison is not its view %q", compare.DefaultView)
	}
	if bytes.Equal(pics[""], pics["timeline"]) {
		t.Error("--view timeline drew the default view")
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

// TestCompareFailIf: --fail-if exits 3 when a limit is crossed and says
// which, 0 when none is; a limit it cannot read is a usage error (2).
func TestCompareFailIf(t *testing.T) {
	a, b := parwork+"N1.eventlog", parwork+"N2.eventlog"
	// N2's wall time is 39.5 % above N1's; its phase-2 p90 1024 % above.
	code, _, errs := hecscope(t, "compare", "--fail-if", "wall>+5%", "--fail-if", "span:phase-2.p90>+10%", a, b)
	if code != 3 || !strings.Contains(errs, "wall>+5% crossed: Wall time changed by +39.5%") ||
		!strings.Contains(errs, "span:phase-2.p90>+10% crossed") {
		t.Errorf("crossed limits: exit %d, stderr %q", code, errs)
	}
	if strings.Contains(errs, "e+") || !strings.Contains(errs, " ms, B ") {
		t.Errorf("limit messages give the runs' values in their units (A … ms, B … ms): %q", errs)
	}
	code, out, errs := hecscope(t, "compare", "--json", "--fail-if", "wall>+50%", "--fail-if", "productivity<-5pp", "--fail-if", "gc_max_pause>+10ms", a, b)
	if code != 0 || !strings.Contains(errs, "wall>+50% within") || !strings.Contains(out, `"key": "gc_max_pause"`) {
		t.Errorf("limits within: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := hecscope(t, "compare", "--fail-if", "no_such_row>+1%", a, b); code != 3 || !strings.Contains(errs, `no row "no_such_row"`) {
		t.Errorf("unknown key: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := hecscope(t, "compare", "--fail-if", "wall+5%", a, b); code != 2 || !strings.Contains(errs, "KEY>CHANGE") {
		t.Errorf("unreadable limit: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := hecscope(t, "compare", "--fail-if", "wall>+5%", a, "/nonexistent.eventlog"); code != 1 {
		t.Errorf("missing file with a limit: exit %d, want 1", code)
	}
}

// TestComparePartialRunCLI: a truncated run compared with a complete one:
// every output says the run's status, gives no verdict, and offers the
// comparison over the time both cover; the picture draws too.
func TestComparePartialRunCLI(t *testing.T) {
	data, err := os.ReadFile(parwork + "N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.eventlog")
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := hecscope(t, "compare", parwork+"N2.eventlog", cut)
	if code != 0 || !strings.Contains(out, "(partial run)") || !strings.Contains(out, "No verdicts on the whole runs") ||
		!strings.Contains(out, "Over the time both runs cover") || strings.Count(out, " partial ") < 10 {
		t.Errorf("text: exit %d\n%s", code, out)
	}
	code, out, _ = hecscope(t, "compare", "--json", parwork+"N2.eventlog", cut)
	var j struct {
		B       struct{ Status string }
		Partial bool
		Rows    []struct{ Key, Verdict string }
		Covered *struct {
			LengthNS uint64 `json:"length_ns"`
			Rows     []struct{ Key, Verdict string }
		}
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil || code != 0 {
		t.Fatalf("json: exit %d, %v", code, err)
	}
	if j.B.Status != "truncated" || !j.Partial || j.Covered == nil || j.Covered.LengthNS == 0 {
		t.Errorf("json: %+v", j)
	}
	for _, r := range j.Rows {
		if r.Verdict == "better" || r.Verdict == "worse" {
			t.Errorf("json row %s: %s on a partial run", r.Key, r.Verdict)
		}
	}
	png := filepath.Join(t.TempDir(), "cmp.png")
	if code, _, errs := hecscope(t, "render", "--compare", parwork+"N2.eventlog", cut, "-o", png); code != 0 {
		t.Errorf("render --compare of a partial run: exit %d %s", code, errs)
	}
}

// TestCompareAlign: --align lines the runs up at a marker, a span's start
// or an offset, and compares them over the time both cover from there.
func TestCompareAlign(t *testing.T) {
	a, b := parwork+"N1.eventlog", parwork+"N2.eventlog"
	for _, spec := range []string{"marker:round 3", "span:phase-2", "offset:10ms", "offset:-5ms"} {
		code, out, errs := hecscope(t, "compare", "--align", spec, a, b)
		if code != 0 || !strings.Contains(out, "Over the time both runs cover") {
			t.Errorf("--align %s: exit %d %s\n%s", spec, code, errs, out)
		}
		png := filepath.Join(t.TempDir(), "cmp.png")
		if code, _, errs := hecscope(t, "render", "--compare", a, b, "--align", spec, "-o", png); code != 0 {
			t.Errorf("render --compare --align %s: exit %d %s", spec, code, errs)
		}
	}
	if code, _, _ := hecscope(t, "compare", "--align", "middle", a, b); code != 2 {
		t.Errorf("--align middle: exit %d, want 2", code)
	}
	if code, _, errs := hecscope(t, "compare", "--align", "span:no such", a, b); code != 1 || !strings.Contains(errs, "has no span") {
		t.Errorf("--align span:no such: exit %d %q", code, errs)
	}
}

// TestCompareSpansAreTheSpansCommands: compare's user-span rows pair each
// START with its STOP in time order, as `hecscope spans` and the app do.
// It read the events in the file's order, where one capability's block
// comes before another's, and paired a START on HEC 0 with a later STOP on
// HEC 0 instead of the earlier one on HEC 1: on parwork-N2 it counted 6
// phase-6 spans of 89.754 ms in all (the log has 7, of 72.571 ms).
func TestCompareSpansAreTheSpansCommands(t *testing.T) {
	log := parwork + "N2.eventlog"
	code, out, errOut := hecscope(t, "compare", "--json", log, log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var c struct {
		Rows []struct {
			Key  string
			A, B *float64
		}
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	code, out, errOut = hecscope(t, "spans", "--json", log)
	if code != 0 {
		t.Fatalf("spans: exit %d: %s", code, errOut)
	}
	var sp struct {
		Spans []struct {
			Label, Kind string
			Count       int
			TotalNS     uint64 `json:"total_ns"`
		}
	}
	if err := json.Unmarshal([]byte(out), &sp); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	row := func(key string) float64 {
		for _, r := range c.Rows {
			if r.Key == key && r.A != nil {
				return *r.A
			}
		}
		t.Fatalf("no row %s", key)
		return 0
	}
	checked := 0
	for _, l := range sp.Spans {
		if l.Kind != "user" {
			continue
		}
		checked++
		if n := row("span:" + l.Label + ".count"); n != float64(l.Count) {
			t.Errorf("%s: compare counts %g spans, spans %d", l.Label, n, l.Count)
		}
		if tot := row("span:" + l.Label + ".total"); tot != float64(l.TotalNS) {
			t.Errorf("%s: compare totals %g ns, spans %d ns", l.Label, tot, l.TotalNS)
		}
	}
	if checked != 6 {
		t.Errorf("spans --json listed %d phase labels, want 6:\n%s", checked, out)
	}
}
