package ccprofile

import (
	"context"
	"image"
	"math"
	"testing"

	"github.com/hecscope/hecscope/paint"

	"github.com/hecscope/hecscope/ingest"
)

const (
	profdiffA = "testdata/profdiff-a.eventlog"
	profdiffB = "testdata/profdiff-b.eventlog"
)

func TestCompareProfiles(t *testing.T) {
	ctx := context.Background()
	a, err := Collect(ingest.FilePass(ctx, profdiffA), Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Collect(ingest.FilePass(ctx, profdiffB), Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := Compare(a, b)
	rows := map[string]DiffRow{}
	for _, r := range d.Rows {
		rows[r.Label] = r
	}
	// light does 20 of 80 million iterations in A (1/4) and 60 of 120 in B
	// (1/2): its share grows by about a quarter, heavy's shrinks as much.
	light, heavy := rows["light"], rows["heavy"]
	if c := light.InheritedChange(); c < 0.15 || c > 0.35 {
		t.Errorf("light: %.3f → %.3f", light.InheritedA, light.InheritedB)
	}
	if c := heavy.InheritedChange(); c > -0.15 || c < -0.35 {
		t.Errorf("heavy: %.3f → %.3f", heavy.InheritedA, heavy.InheritedB)
	}
	if d.Rows[0].Label != "light" && d.Rows[0].Label != "heavy" && d.Rows[0].Label != "loop" {
		t.Errorf("largest change first: %s", d.Rows[0].Label)
	}
	// In B's tree, light's stack grew and heavy's shrank: drawn red and blue.
	th := paint.Light
	col := d.Colors(th)
	var seen int
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.CC != nil && n.Parent().CC != nil && n.Parent().CC.Label == "main" {
			c := col(n)
			switch n.CC.Label {
			case "light":
				seen++
				if d.Stack[n] < 0.15 || !(c.R > c.B) {
					t.Errorf("light's frame: change %.3f, colour %v", d.Stack[n], c)
				}
			case "heavy":
				seen++
				if d.Stack[n] > -0.15 || !(c.B > c.R) {
					t.Errorf("heavy's frame: change %.3f, colour %v", d.Stack[n], c)
				}
			}
		}
		for _, ch := range n.Children {
			walk(ch)
		}
	}
	walk(b.Root)
	if seen != 2 {
		t.Fatalf("found %d of light's and heavy's frames under main", seen)
	}
	img := image.NewRGBA(image.Rect(0, 0, 800, 300))
	lay := DrawFlame(paint.NewRaster(img), b, FlameOptions{Theme: th, Color: col, Title: d.Title})
	if len(lay.Boxes) < 4 {
		t.Errorf("%d frames drawn", len(lay.Boxes))
	}
	// A profile against itself: no change anywhere, every frame neutral.
	same := Compare(a, a)
	if same.MaxStack > 1e-12 {
		t.Errorf("A against A: largest change %v", same.MaxStack)
	}
	for _, r := range same.Rows {
		if math.Abs(r.InheritedChange())+math.Abs(r.SelfChange()) > 1e-12 {
			t.Errorf("A against A: %s changed", r.Label)
		}
	}
	sc := same.Colors(th)
	if sc(a.Root.Children[0]) != sc(a.Root) {
		t.Error("A against A: frames coloured differently")
	}
	// Nil or empty profiles do not panic.
	Compare(nil, b)
	Compare(a, &Profile{})
}
