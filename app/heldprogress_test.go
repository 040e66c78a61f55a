package app

import (
	"testing"

	"github.com/hecscope/hecscope/timeline"
)

// TestHeldProgressKeepsTheFirstOverview: a big log's first overview comes
// before the loading page is made and the next one half a second later; it
// must be shown when the page is there, not dropped with the reports that
// came too early.
func TestHeldProgressKeepsTheFirstOverview(t *testing.T) {
	var h heldProgress
	overview := &timeline.Model{}
	if !h.hold(Progress{Bytes: 10, Model: overview}) || !h.hold(Progress{Bytes: 20}) {
		t.Fatal("reports before the page is made were not held")
	}
	p := h.release()
	if p == nil || p.Bytes != 20 || p.Model != overview {
		t.Fatalf("released %+v; want the latest report (20 bytes) with the first overview", p)
	}
	if h.hold(Progress{Bytes: 30}) {
		t.Error("a report after the page was made was held")
	}
	var none heldProgress
	if p := none.release(); p != nil {
		t.Errorf("nothing was reported, yet %+v was released", p)
	}
}
