package main

import (
	"encoding/json"
	"strings"
	"testing"
)

const spanwork = "../../spans/testdata/spanwork.eventlog"

func TestSpansCommand(t *testing.T) {
	code, out, errOut := hecscope(t, "spans", "--json", spanwork)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Spans []struct {
			Label              string
			Kind               string
			Count              int
			Total              uint64 `json:"total_ns"`
			Mean               uint64 `json:"mean_ns"`
			P50, P90, P99, Max uint64
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	byLabel := map[string]int{}
	for _, s := range got.Spans {
		byLabel[s.Kind+":"+s.Label] = s.Count
	}
	if byLabel["user:request"] != 30 || byLabel["user:sleep"] != 5 || byLabel["thread:worker-2"] != 1 {
		t.Errorf("spans %s", out)
	}
	for _, field := range []string{`"label"`, `"count"`, `"total_ns"`, `"mean_ns"`, `"p50_ns"`, `"p90_ns"`, `"p99_ns"`, `"max_ns"`} {
		if !strings.Contains(out, field) {
			t.Errorf("no %s in %s", field, out)
		}
	}
	code, out, _ = hecscope(t, "spans", "--from", "1000s", spanwork)
	if code != 0 || !strings.Contains(out, "no user spans") {
		t.Errorf("past the end: exit %d, %q", code, out)
	}
	code, out, _ = hecscope(t, "spans", spanwork)
	if code != 0 || !strings.Contains(out, "request") || !strings.Contains(out, "p99") {
		t.Errorf("text: exit %d, %q", code, out)
	}
	for _, bad := range [][]string{{"spans"}, {"spans", "--to", "1ms", "--from", "2ms", spanwork}, {"spans", "--bogus", spanwork}, {"spans", "a", "b"}} {
		if code, _, _ := hecscope(t, bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
	if code, _, _ := hecscope(t, "spans", "nonexistent.eventlog"); code != 1 {
		t.Errorf("missing file: exit %d, want 1", code)
	}
}
