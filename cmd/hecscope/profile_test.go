package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/internal/testfile"
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
	gcShares(t)
	if code, _, errOut := hecscope(t, "render", "--view", "flame", profwork, "-o", png, "--width", "400", "--height", "200"); code != 0 {
		t.Fatalf("render flame: exit %d %s", code, errOut)
	}
	if img := testfile.ReadPNG(t, png); img.Bounds().Dx() != 400 {
		t.Errorf("flame PNG %v", img.Bounds())
	}
}

// gcShares checks the shares of the mutator's samples (the default, as
// GHC's .prof: gcwork.prof has build.\ 72.2%, query.\ 17.1%) against those
// of all samples (--with-gc), of a run whose samples are half GC's.
func gcShares(t *testing.T) {
	t.Helper()
	const gcwork = "../../ccprofile/testdata/gcwork.eventlog"
	type profile struct {
		ShareOf     string `json:"share_of"`
		Samples     uint64 `json:"samples"`
		All         uint64 `json:"all_samples"`
		Apart       struct{ GC, System uint64 }
		CostCentres []struct {
			Label string
			Self  float64
		} `json:"cost_centres"`
	}
	read := func(args ...string) (profile, map[string]float64) {
		code, out, errOut := hecscope(t, append([]string{"profile", "--json"}, append(args, gcwork)...)...)
		var p profile
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatal(err)
		}
		self := map[string]float64{}
		for _, c := range p.CostCentres {
			self[c.Label] = c.Self
		}
		return p, self
	}
	mut, ms := read()
	all, as := read("--with-gc")
	if mut.ShareOf != "mutator_samples" || all.ShareOf != "all_samples" || mut.All != all.Samples ||
		mut.Samples+mut.Apart.GC+mut.Apart.System != mut.All || mut.Apart.GC < mut.All/3 {
		t.Errorf("mutator %+v, all %+v", mut, all)
	}
	if math.Abs(ms["build.\\"]-0.722) > 0.005 || math.Abs(ms["query.\\"]-0.171) > 0.005 || ms["GC"] != 0 ||
		as["build.\\"] > 0.5 || as["GC"] < 0.3 {
		t.Errorf("self shares of the mutator's samples %v, of all %v", ms, as)
	}
	code, out, _ := hecscope(t, "profile", gcwork)
	if code != 0 || !strings.Contains(out, "Shares of the 245 mutator samples (of 477)") || !strings.Contains(out, "\nGC 47% (226), system 1.3% (6) of all samples: not in the shares\n") {
		t.Errorf("text: exit %d %q", code, out)
	}
}
