package app

import (
	"testing"

	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/timeline"
)

// TestHeldProgressKeepsTheFirstOverview: a big log's first overview comes
// before the loading page is made and the next a quarter of a second later; it
// must be shown as soon as the page is there, not dropped with the
// reports that came too early, nor kept waiting for the next report.
func TestHeldProgressKeepsTheFirstOverview(t *testing.T) {
	var h heldProgress
	overview := &timeline.Model{}
	if _, held := h.hold(loaded.Progress{Bytes: 10, Model: overview}); !held {
		t.Fatal("a report before the page is made was not held")
	}
	if _, held := h.hold(loaded.Progress{Bytes: 20}); !held {
		t.Fatal("a report before the page is made was not held")
	}
	p, ok := h.release()
	if !ok || p.Bytes != 20 || p.Model != overview {
		t.Fatalf("the report held for the page: %+v (%v); want the latest, with the first overview", p, ok)
	}
	if p, held := h.hold(loaded.Progress{Bytes: 30}); held || p.Bytes != 30 || p.Model != nil {
		t.Errorf("the first report after the page was made: %+v (held %v); want it as it came", p, held)
	}
	var none heldProgress
	if _, ok := none.release(); ok {
		t.Error("a page made before any report was given one")
	}
}
