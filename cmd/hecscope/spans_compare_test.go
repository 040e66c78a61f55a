package main

import (
	"encoding/json"
	"strings"
	"testing"
)

const (
	spandiffA = "../../spans/testdata/spandiff-a.eventlog"
	spandiffB = "../../spans/testdata/spandiff-b.eventlog"
)

func TestSpansCompareCommand(t *testing.T) {
	code, out, errOut := hecscope(t, "spans", "--compare", "--json", spandiffA, spandiffB)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Threshold float64
		Spans     []struct {
			Label, Kind, Verdict string
			A, B                 *struct{ Count int }
			Change               float64 `json:"p50_change"`
			P                    float64 `json:"p_value"`
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]string{}
	for _, s := range got.Spans {
		verdicts[s.Kind+":"+s.Label] = s.Verdict
		if s.Label == "step" && (s.A == nil || s.B == nil || s.A.Count != 40 || s.B.Count != 40 || s.P > 1e-6 || s.Change < 0.3) {
			t.Errorf("step: %+v", s)
		}
	}
	if got.Threshold != 0.05 || verdicts["user:step"] != "slower" || verdicts["user:steady"] != "same" {
		t.Errorf("threshold %v, verdicts %v", got.Threshold, verdicts)
	}
	// A threshold of 80% hides the 45% change; the text says why.
	code, out, _ = hecscope(t, "spans", "--compare", "--threshold", "80%", spandiffA, spandiffB)
	if code != 0 || strings.Contains(out, "slower") || !strings.Contains(out, "more than 80%") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	for _, args := range [][]string{
		{"spans", "--compare", spandiffA},
		{"spans", "--compare", "--threshold", "lots", spandiffA, spandiffB},
		{"spans", "--compare", "--alpha", "2", spandiffA, spandiffB},
		{"spans", spandiffA, spandiffB},
	} {
		if code, _, _ := hecscope(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
