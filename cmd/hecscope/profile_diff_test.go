package main

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

const (
	profdiffA = "../../ccprofile/testdata/profdiff-a.eventlog"
	profdiffB = "../../ccprofile/testdata/profdiff-b.eventlog"
)

func TestProfileDiffCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "diff.png")
	code, stdout, errOut := hecscope(t, "profile", "--diff", "--json", "--png", out, "--width", "900", "--height", "300", profdiffA, profdiffB)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		SamplesA    uint64 `json:"samples_a"`
		SamplesB    uint64 `json:"samples_b"`
		CostCentres []struct {
			Label      string
			InheritedA float64 `json:"inherited_a"`
			InheritedB float64 `json:"inherited_b"`
		} `json:"cost_centres"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.SamplesA == 0 || got.SamplesB <= got.SamplesA || len(got.CostCentres) < 4 {
		t.Fatalf("%s", stdout)
	}
	for _, c := range got.CostCentres {
		if c.Label == "light" && !(c.InheritedB-c.InheritedA > 0.15) {
			t.Errorf("light: %v → %v", c.InheritedA, c.InheritedB)
		}
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() != 900 || img.Bounds().Dy() != 300 {
		t.Fatalf("png %v, %v", img.Bounds(), err)
	}
	for _, args := range [][]string{
		{"profile", "--diff", profdiffA},
		{"profile", "--png", out, profdiffA},
		{"profile", "--diff", "--png", out, "--width", "10", profdiffA, profdiffB},
	} {
		if code, _, _ := hecscope(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
