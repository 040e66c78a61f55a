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
	path      string // labels from the outermost, "/"-separated, MAIN left out
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
			stack = append(stack[:depth-1], f[0])
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

// find returns the node of p's tree at path ("/"-separated labels).
func find(p *Profile, path string) *Node {
	n := p.Root
	for _, label := range strings.Split(path, "/") {
		var next *Node
		for _, c := range n.Children {
			if c.CC.Label == label {
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

func TestProfileMatchesGHCProf(t *testing.T) {
	p, err := File(context.Background(), profwork, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Samples < 900 || p.Interval != 1_000_000 || p.Status.State.String() != "complete" {
		t.Fatalf("samples %d interval %d status %v", p.Samples, p.Interval, p.Status)
	}
	self, tree := readProf(t, "testdata/profwork.prof")
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
	if checked < 10 {
		t.Errorf("only %d tree nodes compared", checked)
	}
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
	all, err := File(context.Background(), profwork, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// heavy runs first, for about 0.6 s of the run's 1 s of samples.
	heavy := all.Row("heavy", "Main")
	var first uint64
	{
		p, err := File(context.Background(), profwork, Options{To: 1})
		if err != nil || p.Samples != 0 {
			t.Fatalf("samples before 1 ns: %v %v", p, err)
		}
	}
	// Find the first sample's time by bisection on the samples counted.
	lo, hi := uint64(0), uint64(10_000_000_000)
	for hi-lo > 1000 {
		mid := (lo + hi) / 2
		p, err := File(context.Background(), profwork, Options{To: mid})
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
	a, err := File(context.Background(), profwork, Options{To: mid})
	if err != nil {
		t.Fatal(err)
	}
	b, err := File(context.Background(), profwork, Options{From: mid})
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
	p, err := File(context.Background(), "../spans/testdata/spanwork.eventlog", Options{})
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
		p, err := Read(context.Background(), bytes.NewReader(data[:n]), int64(n), Options{})
		if err != nil {
			continue
		}
		if p.Status.State.String() == "complete" {
			t.Errorf("cut at %d: complete", n)
		}
	}
}

func TestSpreadOf(t *testing.T) {
	p, err := File(context.Background(), profwork, Options{})
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
