package app

import (
	"image"
	"testing"
	"time"

	"github.com/hecscope/hecscope/timeline"
)

// openCompareAndWait opens a compare window and waits until both runs load.
func openCompareAndWait(t *testing.T, a *App, pathA, pathB string) *CompareWindow {
	t.Helper()
	ch := make(chan error, 1)
	c := a.openCompare(pathA, "", pathB, "", func(err error) { ch <- err })
	select {
	case err := <-ch:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("compare window did not load")
	}
	return c
}

func findDiffRow(c *timeline.Comparison, name string) *timeline.DiffRow {
	for i := range c.Rows {
		if c.Rows[i].Name == name {
			return &c.Rows[i]
		}
	}
	return nil
}

func TestCompareWindow(t *testing.T) {
	a, _ := newTestApp(t)
	c := openCompareAndWait(t, a, parworkN1, parworkN2)
	cmp := c.Comparison()
	if cmp == nil || cmp.A != "parwork-N1.eventlog" || cmp.B != "parwork-N2.eventlog" {
		t.Fatalf("comparison %+v", cmp)
	}
	wall := findDiffRow(cmp, "Wall time")
	if wall == nil || wall.A != float64(c.logs[0].Summary.TotalNS) || wall.B != float64(c.logs[1].Summary.TotalNS) {
		t.Fatalf("wall time row %+v", wall)
	}
	// The markers both runs have are offered for alignment.
	found := false
	for _, o := range c.align.Options {
		found = found || o == alignMarkerPrefix+"round 3"
	}
	if !found {
		t.Fatalf("alignment options %v", c.align.Options)
	}
	c.align.SetSelected(alignMarkerPrefix + "round 3")
	ta, _ := timeline.FindMarker(c.logs[0].Model, "round 3")
	tb, _ := timeline.FindMarker(c.logs[1].Model, "round 3")
	if c.alignA != ta || c.alignB != tb || ta == 0 {
		t.Errorf("aligned at %d/%d, markers at %d/%d", c.alignA, c.alignB, ta, tb)
	}
	img, err := c.pic.render(1200, 900, 1)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds() != image.Rect(0, 0, 1200, 900) || colourCount(img) < 10 {
		t.Errorf("picture %v with %d colours", img.Bounds(), colourCount(img))
	}

	// Swapping makes N2 the baseline: the wall-time delta changes sign and
	// the alignment is kept.
	c.swap()
	sw := findDiffRow(c.Comparison(), "Wall time")
	if sw.A != wall.B || sw.B != wall.A || sw.Delta() != -wall.Delta() {
		t.Errorf("after swap %+v", sw)
	}
	if c.alignA != tb || c.alignB != ta {
		t.Errorf("after swap aligned at %d/%d", c.alignA, c.alignB)
	}
	c.Fyne().Close()
}

func TestCompareWindowMissingFile(t *testing.T) {
	a, _ := newTestApp(t)
	ch := make(chan error, 1)
	c := a.openCompare(parworkN1, "", "/nonexistent.eventlog", "", func(err error) { ch <- err })
	select {
	case err := <-ch:
		if err == nil {
			t.Fatal("no error for a missing file")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("did not finish")
	}
	if c.Comparison() != nil {
		t.Error("comparison without two runs")
	}
}
