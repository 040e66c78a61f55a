package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

const profwork = "../../ccprofile/testdata/profwork.eventlog"

func TestProfileCommand(t *testing.T) {
	code, out, errOut := hecscope(t, "profile", "--json", profwork)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Samples     int `json:"samples"`
		CostCentres []struct {
			Label, Module, Src string
			Self, Inherited    float64
		} `json:"cost_centres"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	shares := map[string][2]float64{}
	for _, c := range got.CostCentres {
		shares[c.Label] = [2]float64{c.Self, c.Inherited}
	}
	// ProfWork.prof: heavy 59.6%, light 21.4% inherited; loop.go 99.9% self.
	if got.Samples < 900 || math.Abs(shares["heavy"][1]-0.596) > 0.005 || math.Abs(shares["light"][1]-0.214) > 0.005 ||
		shares["loop.go"][0] < 0.99 {
		t.Errorf("profile %s", out)
	}
	code, out, _ = hecscope(t, "profile", profwork)
	if code != 0 || !strings.Contains(out, "loop.go") || !strings.Contains(out, "%inherited") {
		t.Errorf("text: exit %d %q", code, out)
	}
	code, out, _ = hecscope(t, "profile", spanwork)
	if code != 0 || !strings.Contains(out, "no cost-centre samples") {
		t.Errorf("without samples: exit %d %q", code, out)
	}
	png := filepath.Join(t.TempDir(), "flame.png")
	if code, _, errOut := hecscope(t, "render", "--view", "flame", profwork, "-o", png, "--width", "400", "--height", "200"); code != 0 {
		t.Fatalf("render flame: exit %d %s", code, errOut)
	}
	if img := readPNG(t, png); img.Bounds().Dx() != 400 {
		t.Errorf("flame PNG %v", img.Bounds())
	}
}
