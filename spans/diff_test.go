package spans

import (
	"context"
	"math"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// ones gives every value a count of 1.
func ones(vs ...uint64) []uint64 {
	out := make([]uint64, len(vs))
	for i := range out {
		out[i] = 1
	}
	return out
}

func TestMannWhitney(t *testing.T) {
	a := []uint64{1, 2, 3, 4, 5}
	b := []uint64{6, 7, 8, 9, 10}
	// U = 0: z = (12.5 - 0.5) / sqrt(25·11/12) = 2.5067, p = 0.01219.
	p, sup := MannWhitney(a, ones(a...), b, ones(b...))
	if math.Abs(p-0.01219) > 0.0001 || sup != 1 {
		t.Errorf("separated samples: p %.5f, superiority %v", p, sup)
	}
	p, sup = MannWhitney(b, ones(b...), a, ones(a...))
	if math.Abs(p-0.01219) > 0.0001 || sup != 0 {
		t.Errorf("the other way: p %.5f, superiority %v", p, sup)
	}
	// Counts stand for repeated values: {1,1,2} against {2,3,3}. Mean
	// ranks 1.5, 1.5, 3.5 | 3.5, 5.5, 5.5: U_B = 14.5 - 6 = 8.5; tie term
	// 3·(2³-2) = 18, variance 9/12·(7 - 18/30) = 4.8, z = 3.5/√4.8.
	p, sup = MannWhitney([]uint64{1, 2}, []uint64{2, 1}, []uint64{2, 3}, []uint64{1, 2})
	if want := math.Erfc(3.5 / math.Sqrt(4.8) / math.Sqrt2); math.Abs(p-want) > 1e-12 || sup != 8.5/9 {
		t.Errorf("ties: p %v (want %v), superiority %v", p, want, sup)
	}
	if p, sup := MannWhitney([]uint64{7}, []uint64{10}, []uint64{7}, []uint64{4}); p != 1 || sup != 0.5 {
		t.Errorf("all equal: p %v, superiority %v", p, sup)
	}
	if p, _ := MannWhitney(nil, nil, b, ones(b...)); p != 1 {
		t.Errorf("empty sample: p %v", p)
	}
}

func TestDiffRealRuns(t *testing.T) {
	ctx := context.Background()
	a, err := Collect(ingest.FilePass(ctx, "testdata/spandiff-a.eventlog"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Collect(ingest.FilePass(ctx, "testdata/spandiff-b.eventlog"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	find := func(cs []Change, name string) Change {
		for _, c := range cs {
			if c.Name == name && c.Kind == User {
				return c
			}
		}
		t.Fatalf("no change for %s", name)
		return Change{}
	}
	cs := Diff(a, b, DiffOptions{})
	// step sleeps 2 ms in A and 3 ms in B; steady 1 ms in both.
	step := find(cs, "step")
	if step.Verdict != Slower || step.P > 1e-6 || step.MedianChange < 0.3 || step.MedianChange > 0.7 {
		t.Errorf("step: %v, p %.3g, median %+.2f", step.Verdict, step.P, step.MedianChange)
	}
	if steady := find(cs, "steady"); steady.Verdict != Same {
		t.Errorf("steady: %v, p %.3g, median %+.2f", steady.Verdict, steady.P, steady.MedianChange)
	}
	back := find(Diff(b, a, DiffOptions{}), "step")
	if back.Verdict != Faster {
		t.Errorf("B against A: step %v", back.Verdict)
	}
	// A run against itself: nothing changes.
	for _, c := range Diff(a, a, DiffOptions{}) {
		if c.Verdict != Same && c.Verdict != TooFew {
			t.Errorf("A against A: %s %v", c.Name, c.Verdict)
		}
	}
	// A huge threshold keeps every verdict away.
	if c := find(Diff(a, b, DiffOptions{Threshold: 5}), "step"); c.Verdict != Same {
		t.Errorf("threshold 500%%: step %v", c.Verdict)
	}
}

func TestDiffNewGoneTooFew(t *testing.T) {
	mk := func(name string, ds ...uint64) *Label {
		l := &Label{Name: name, Kind: User}
		for _, d := range ds {
			l.add(Instance{Start: 0, End: d})
		}
		return l
	}
	open := &Label{Name: "open", Kind: User, Open: 1}
	a := &Report{Labels: []*Label{mk("old", 5, 6, 7, 8, 9), mk("few", 1, 2), open}}
	b := &Report{Labels: []*Label{mk("new", 1, 2, 3, 4, 5), mk("few", 10, 20), open}}
	cs := Diff(a, b, DiffOptions{})
	want := map[string]Verdict{"old": Gone, "few": TooFew, "new": New, "open": TooFew}
	if len(cs) != 4 {
		t.Fatalf("%d changes", len(cs))
	}
	for _, c := range cs {
		if c.Verdict != want[c.Name] {
			t.Errorf("%s: %v, want %v", c.Name, c.Verdict, want[c.Name])
		}
	}
	SortChanges(cs)
	if cs[0].Verdict != Gone && cs[0].Verdict != New {
		t.Errorf("sorted: %s first", cs[0].Name)
	}
}
