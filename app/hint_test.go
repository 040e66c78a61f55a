package app

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// factValue returns the value label of the fact labelled label in o.
func factValue(t *testing.T, o fyne.CanvasObject, label string) fyne.CanvasObject {
	t.Helper()
	var cells []fyne.CanvasObject
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		case *hintLabel, *copyLabel:
			cells = append(cells, x)
		case *widget.Label:
			cells = append(cells, x)
		}
	}
	walk(o)
	for i, c := range cells[:len(cells)-1] {
		if l, ok := c.(*widget.Label); ok && l.Text == label {
			return cells[i+1]
		}
	}
	t.Fatalf("no fact %q", label)
	return nil
}

// TestAbsentFiguresReadDash: in the Summary panel, a figure the log has no
// events for reads "—", and its hint, shown while the pointer rests on it,
// says what the log lacks: parallelTest (heap events, no HeapLive) said
// "Max heap residency 0 B". A log without heap events (sealions, GHC 7.x)
// gets its GC time from its GC events, and says so; it said "n/a".
func TestAbsentFiguresReadDash(t *testing.T) {
	fa := test.NewApp()
	defer fa.Quit()
	ev, err := loadEventlog(context.Background(), corpus+"ghc-events__parallelTest.eventlog", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Log.Close()
	panel := summaryPanel(ev)
	w := test.NewWindow(fitWindow(panel))
	defer w.Close()
	w.Resize(fyne.NewSize(1280, 600))
	v := factValue(t, panel, "Max heap residency")
	live, ok := v.(*hintLabel)
	if !ok || live.Text != "—" || !strings.Contains(live.hint, "no HeapLive events") {
		t.Fatalf("max heap residency: %T %+v", v, v)
	}
	if size := factValue(t, panel, "Total heap size").(*copyLabel); size.Text == "—" {
		t.Errorf("total heap size %q: the log has HeapSize events", size.Text)
	}
	layer := live.layer()
	if layer == nil || layer.Visible() {
		t.Fatalf("hint layer %v before the pointer came", layer)
	}
	live.MouseIn(&desktop.MouseEvent{})
	if !layer.Visible() || layer.text != live.hint {
		t.Errorf("pointer on the dash: hint shown %v, %q", layer.Visible(), layer.text)
	}
	live.MouseOut()
	if layer.Visible() {
		t.Error("the hint stays after the pointer left")
	}

	old, err := loadEventlog(context.Background(), corpus+"ThreadScope__sealions.eventlog", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Log.Close()
	panel = summaryPanel(old)
	if gc := factValue(t, panel, "GC time").(*hintLabel); gc.Text == "—" || gc.Text == "0" {
		t.Errorf("sealions: GC time %q", gc.Text)
	}
	if from := factValue(t, panel, "GC time from").(*hintLabel); from.Text != "the GC events (no heap events)" {
		t.Errorf("sealions: GC time from %q", from.Text)
	}
	if p := factValue(t, panel, "Productivity").(*copyLabel); p.Text == "100.0%" || p.Text == "—" {
		t.Errorf("sealions: productivity %q", p.Text)
	}
	if live := factValue(t, panel, "Max heap residency").(*hintLabel); live.Text != "—" {
		t.Errorf("sealions: max heap residency %q", live.Text)
	}
}
