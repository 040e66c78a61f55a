package main

import (
	"encoding/json"
	"strings"
	"testing"
)

const adviseSequential = "../../testdata/ghc-9.0.2/advise-sequential.eventlog"

// jsonFindings is the shape of `advise --json`.
type jsonFindings struct {
	Findings []struct {
		Kind       string   `json:"kind"`
		Severity   string   `json:"severity"`
		From       uint64   `json:"from_ns"`
		To         uint64   `json:"to_ns"`
		Title      string   `json:"title"`
		Evidence   []string `json:"evidence"`
		Suggestion string   `json:"suggestion"`
		Caps       []int32  `json:"caps"`
		Threads    []uint32 `json:"threads"`
		GC         bool     `json:"gc"`
	} `json:"findings"`
}

func TestAdviseCommand(t *testing.T) {
	code, out, errOut := hecscope(t, "advise", "--json", adviseSequential)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got jsonFindings
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Findings) == 0 || got.Findings[0].Kind != "sequential" || got.Findings[0].Severity != "problem" {
		t.Fatalf("findings %s", out)
	}
	f := got.Findings[0]
	if f.From == 0 || f.To <= f.From || f.Title == "" || len(f.Evidence) == 0 || f.Suggestion == "" {
		t.Errorf("first finding %+v", f)
	}
	// Its tracks: both HECs and the thread that ran alone, no GC.
	if len(f.Caps) != 2 || len(f.Threads) != 1 || f.GC || strings.Contains(out, `"heap"`) {
		t.Errorf("first finding's tracks: caps %v, threads %v, gc %v", f.Caps, f.Threads, f.GC)
	}
	for _, field := range []string{`"kind"`, `"severity"`, `"from_ns"`, `"to_ns"`, `"title"`, `"evidence"`, `"suggestion"`} {
		if !strings.Contains(out, field) {
			t.Errorf("no %s in %s", field, out)
		}
	}

	// The text says the same, most severe first.
	code, out, _ = hecscope(t, "advise", adviseSequential)
	if code != 0 || !strings.Contains(out, "PROBLEM  sequential") || !strings.Contains(out, f.Title) || !strings.Contains(out, "Try: ") {
		t.Errorf("text: exit %d, %q", code, out)
	}

	// A range of the sequential stretch alone is sequential throughout.
	code, out, errOut = hecscope(t, "advise", "--json", "--from", "250ms", "--to", "700ms", adviseSequential)
	got = jsonFindings{}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("range: exit %d, %v, %s", code, err, errOut)
	}
	if len(got.Findings) == 0 || got.Findings[0].From != 250e6 || got.Findings[0].To != 700e6 ||
		!strings.Contains(got.Findings[0].Title, "100% of the range") {
		t.Errorf("range: %s", out)
	}

	// A healthy run: no findings, said in words, and an empty list.
	code, out, _ = hecscope(t, "advise", "--json", "../../testdata/ghc-9.0.2/advise-healthy.eventlog")
	if code != 0 || !strings.Contains(out, `"findings": []`) {
		t.Errorf("healthy: exit %d, %s", code, out)
	}

	for _, bad := range [][]string{{"advise"}, {"advise", "--to", "1ms", "--from", "2ms", adviseSequential}, {"advise", "--bogus", adviseSequential}, {"advise", "a", "b"}} {
		if code, _, _ := hecscope(t, bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
	for _, bad := range [][]string{{"advise", "nonexistent.eventlog"}, {"advise", "--from", "100s", adviseSequential},
		{"advise", "../../testdata/ghc-9.0.2/heap-hT.hp"}} {
		if code, _, errOut := hecscope(t, bad...); code != 1 || errOut == "" {
			t.Errorf("%v: exit %d (%q), want 1 and a message", bad, code, errOut)
		}
	}
}

func TestWrap(t *testing.T) {
	got := wrap("  - ", "    ", strings.Repeat("word ", 40))
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "  - word") || !strings.HasPrefix(lines[1], "    word") {
		t.Fatalf("wrap: %q", got)
	}
	for _, l := range lines {
		if len(l) > wrapWidth {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
}
