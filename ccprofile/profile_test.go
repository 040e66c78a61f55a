package ccprofile

import (
	"bufio"
	"bytes"
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// profwork is a GHC 9.0.2 log of testdata/ProfWork.hs, and profwork.prof
// the .prof file GHC wrote for the same run (see ProfWork.hs's header).
const profwork = "testdata/profwork.eventlog"

// profNode is one line of a .prof file's call tree.
type profNode struct {
	path      string // "label module" from the outermost, "/"-separated, MAIN left out
	inherited float64
}

// readProf reads a .prof file's per-cost-centre table (label+" "+module →
// %time) and its call tree.
func readProf(t *testing.T, path string) (self map[string]float64, tree []profNode) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	self = map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	section := 0
	var stack []string
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(strings.TrimSpace(line), "COST CENTRE"):
			section++
			continue
		case len(f) == 0 || section == 0:
			continue
		}
		if section == 1 && len(f) == 5 {
			v, err := strconv.ParseFloat(f[3], 64)
			if err != nil {
				t.Fatalf("%s: %q: %v", path, line, err)
			}
			self[f[0]+" "+f[1]] = v
		}
		if section == 2 && len(f) == 9 {
			depth := len(line) - len(strings.TrimLeft(line, " "))
			if depth == 0 {
				continue // MAIN: the eventlog's stacks leave it out
			}
			stack = append(stack[:depth-1], f[0]+" "+f[1])
			v, err := strconv.ParseFloat(f[7], 64)
			if err != nil {
				t.Fatalf("%s: %q: %v", path, line, err)
			}
			tree = append(tree, profNode{path: strings.Join(stack, "/"), inherited: v})
		}
	}
	if len(self) == 0 || len(tree) == 0 {
		t.Fatalf("%s: no tables read", path)
	}
	return self, tree
}

// find returns the node of p's tree at path ("/"-separated labels, each
// with its module after a space or not).
func find(p *Profile, path string) *Node {
	n := p.Root
	for _, step := range strings.Split(path, "/") {
		label, module, _ := strings.Cut(step, " ")
		var next *Node
		for _, c := range n.Children {
			if c.CC.Label == label && (module == "" || c.CC.Module == module) {
				next = c
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}

// gcwork is a GHC 9.0.2 log of testdata/GCWork.hs, about half of whose
// samples are GC's, and gcwork.prof the .prof file GHC wrote for the run.
const gcwork = "testdata/gcwork.eventlog"

func TestProfileMatchesGHCProf(t *testing.T) {
	for _, tc := range []struct{ log, prof string }{
		{profwork, "testdata/profwork.prof"},
		{gcwork, "testdata/gcwork.prof"},
	} {
		t.Run(tc.log, func(t *testing.T) { matchesProf(t, tc.log, tc.prof) })
	}
}

// matchesProf checks the default profile of log against GHC's .prof of the
// same run: every cost centre's self share and every call-tree node's
// inherited share of 1% or more.
func matchesProf(t *testing.T, log, prof string) *Profile {
	t.Helper()
	p, err := Collect(ingest.FilePass(context.Background(), log), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Samples < 200 || p.Interval != 1_000_000 || p.Status.State.String() != "complete" || p.Of != MutatorSamples {
		t.Fatalf("samples %d interval %d status %v of %v", p.Samples, p.Interval, p.Status, p.Of)
	}
	self, tree := readProf(t, prof)
	const tolerance = 0.5 // percentage points: one or two ticks of 1000
	for key, want := range self {
		label, module, _ := strings.Cut(key, " ")
		got := 0.0
		if r := p.Row(label, module); r != nil {
			got = 100 * p.SelfShare(*r)
		}
		if math.Abs(got-want) > tolerance {
			t.Errorf("%s: self %.1f%%, .prof says %.1f%%", key, got, want)
		}
	}
	checked := 0
	for _, n := range tree {
		if n.inherited < 1 {
			continue
		}
		node := find(p, n.path)
		if node == nil {
			t.Errorf("%s (%.1f%% in .prof): not in the tree", n.path, n.inherited)
			continue
		}
		if got := 100 * float64(node.Total) / float64(p.Samples); math.Abs(got-n.inherited) > tolerance {
			t.Errorf("%s: %.1f%% inherited, .prof says %.1f%%", n.path, got, n.inherited)
		}
		checked++
	}
	if checked < 8 {
		t.Errorf("only %d tree nodes compared", checked)
	}
	for _, r := range p.Rows {
		if r.Self > r.Inherited || r.Inherited > p.Samples {
			t.Errorf("row %+v of %d samples", r, p.Samples)
		}
	}
	return p
}

// The shares of the mutator's samples leave GC out, as .prof does; those
// of all samples count it, and the two profiles agree sample for sample.
func TestProfileSharesOf(t *testing.T) {
	all, err := Collect(ingest.FilePass(context.Background(), gcwork), Options{Of: AllSamples})
	if err != nil {
		t.Fatal(err)
	}
	mut, err := Collect(ingest.FilePass(context.Background(), gcwork), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if all.Of != AllSamples || all.Samples != all.All || mut.All != all.All || mut.Apart != all.Apart {
		t.Fatalf("all %d of %d (%v), mutator %d of %d (%v)", all.Samples, all.All, all.Apart, mut.Samples, mut.All, mut.Apart)
	}
	// About half of GCWork's samples are GC's (its .prof: 245 ticks, the
	// log has 477 samples).
	if g := share(all.Apart.GC, all.All); g < 0.3 || g > 0.7 || mut.Samples+all.Apart.Total() != all.All {
		t.Errorf("GC %d of %d samples, %d mutator, apart %+v", all.Apart.GC, all.All, mut.Samples, all.Apart)
	}
	if mut.Root.Total != mut.Samples || all.Root.Total != all.Samples {
		t.Errorf("root %d of %d, %d of %d", mut.Root.Total, mut.Samples, all.Root.Total, all.Samples)
	}
	if all.Row("GC", "GC") == nil || mut.Row("GC", "GC") != nil || mut.Row("SYSTEM", "SYSTEM") != nil {
		t.Errorf("GC row: %v with GC, %v without", all.Row("GC", "GC"), mut.Row("GC", "GC"))
	}
	for _, n := range mut.Root.Children {
		if n.CC.Label == "GC" || n.Parent() != mut.Root {
			t.Errorf("mutator tree has %s (parent %p, root %p)", n.CC.Label, n.Parent(), mut.Root)
		}
	}
	// The same samples, other shares: build.\ is 72% of the mutator's
	// samples in .prof and half as much of all.
	rm, ra := mut.Row("build.\\", "Main"), all.Row("build.\\", "Main")
	if rm == nil || ra == nil || rm.Self != ra.Self {
		t.Fatalf("build.\\: %v and %v", rm, ra)
	}
	if sm, sa := mut.SelfShare(*rm), all.SelfShare(*ra); sm < 0.7 || sa > 0.5 {
		t.Errorf("build.\\ %.3f of the mutator, %.3f of all", sm, sa)
	}
	// Mutator leaves the profile it is called on as it was.
	if again := all.Mutator(); again.Samples != mut.Samples || all.Samples != all.All || all.Row("GC", "GC") == nil {
		t.Errorf("Mutator changed its profile: %d of %d", all.Samples, all.All)
	}
	if !strings.Contains(mut.Basis(), "245 mutator samples (of 477)") ||
		mut.ApartText() != "GC 47% (226), system 1.3% (6) of all samples: not in the shares" ||
		!strings.HasSuffix(all.ApartText(), ": in the shares") {
		t.Errorf("%q %q %q", mut.Basis(), mut.ApartText(), all.ApartText())
	}
}

func TestProfileProfWork(t *testing.T) {
	p := matchesProf(t, profwork, "testdata/profwork.prof")
	// Per cost centre, inherited counts a sample once however often the
	// cost centre is on its stack: loop is under heavy, light and outer.
	loop, main := p.Row("loop", "Main"), p.Row("main", "Main")
	if loop == nil || main == nil || loop.Inherited != main.Inherited || loop.Self != 0 {
		t.Errorf("loop %+v main %+v", loop, main)
	}
	for _, r := range p.Rows {
		if r.Self > r.Inherited || r.Inherited > p.Samples {
			t.Errorf("row %+v of %d samples", r, p.Samples)
		}
	}
}

func TestProfileRange(t *testing.T) {
	all, err := Collect(ingest.FilePass(context.Background(), profwork), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// heavy runs first, for about 0.6 s of the run's 1 s of samples.
	heavy := all.Row("heavy", "Main")
	var first uint64
	{
		p, err := Collect(ingest.FilePass(context.Background(), profwork), Options{To: 1})
		if err != nil || p.Samples != 0 {
			t.Fatalf("samples before 1 ns: %v %v", p, err)
		}
	}
	// Find the first sample's time by bisection on the samples counted.
	lo, hi := uint64(0), uint64(10_000_000_000)
	for hi-lo > 1000 {
		mid := (lo + hi) / 2
		p, err := Collect(ingest.FilePass(context.Background(), profwork), Options{To: mid})
		if err != nil {
			t.Fatal(err)
		}
		if p.Samples > 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	first = lo
	mid := first + 300_000_000
	a, err := Collect(ingest.FilePass(context.Background(), profwork), Options{To: mid})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Collect(ingest.FilePass(context.Background(), profwork), Options{From: mid})
	if err != nil {
		t.Fatal(err)
	}
	if a.Samples+b.Samples != all.Samples || a.Samples < 250 {
		t.Errorf("split at %d: %d + %d samples of %d", mid, a.Samples, b.Samples, all.Samples)
	}
	ah, bh := a.Row("heavy", "Main"), b.Row("heavy", "Main")
	if ah == nil || a.InheritedShare(*ah) < 0.95 || bh == nil || ah.Inherited+bh.Inherited != heavy.Inherited {
		t.Errorf("heavy in the first 300 ms: %+v of %d; after: %+v", ah, a.Samples, bh)
	}
	if r := a.Row("light", "Main"); r != nil {
		t.Errorf("light in the first 300 ms: %+v", r)
	}
}

func TestProfileWithoutSamples(t *testing.T) {
	p, err := Collect(ingest.FilePass(context.Background(), "../spans/testdata/spanwork.eventlog"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Samples != 0 || len(p.Rows) != 0 || len(p.Root.Children) != 0 {
		t.Errorf("profile of a log without samples: %+v", p)
	}
}

func TestProfileCutLogs(t *testing.T) {
	data, err := os.ReadFile(profwork)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(data); n += 4999 {
		p, err := Collect(ingest.ReaderPass(context.Background(), bytes.NewReader(data[:n]), int64(n)), Options{})
		if err != nil {
			continue
		}
		if p.Status.State.String() == "complete" {
			t.Errorf("cut at %d: complete", n)
		}
	}
}

func TestSpreadOf(t *testing.T) {
	p, err := Collect(ingest.FilePass(context.Background(), profwork), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// heavy runs first, light next, outer last: their samples fall in that
	// order along the run, and every one is counted.
	var centre [3]float64
	for k, name := range []string{"heavy", "light", "outer"} {
		s, err := SpreadOf(ingest.FilePass(context.Background(), profwork), name, "Main", p.First, p.Last+1, 50)
		if err != nil {
			t.Fatal(err)
		}
		var n, sum float64
		for i, c := range s.Counts {
			n += float64(c)
			sum += float64(c) * float64(i)
		}
		if r := p.Row(name, "Main"); uint64(n) != r.Inherited {
			t.Errorf("%s: %v samples spread, %d in the profile", name, n, r.Inherited)
		}
		centre[k] = sum / n
	}
	if !(centre[0] < centre[1] && centre[1] < centre[2]) {
		t.Errorf("centres of heavy, light, outer: %v", centre)
	}
	if _, err := SpreadOf(ingest.FilePass(context.Background(), profwork), "heavy", "Main", 5, 5, 10); err == nil {
		t.Error("no error for an empty range")
	}
}
