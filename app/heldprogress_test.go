package app

import (
	"testing"

	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/timeline"
)

// TestHeldProgressKeepsTheFirstOverview: a big log's first overview comes
// before the loading page is made and the next one half a second later; it
// must be shown when the page is there, not dropped with the reports that
// came too early.
func TestHeldProgressKeepsTheFirstOverview(t *testing.T) {
	var h heldProgress
	overview := &timeline.Model{}
	if _, held := h.hold(loaded.Progress{Bytes: 10, Model: overview}); !held {
		t.Fatal("a report before the page is made was not held")
	}
	if _, held := h.hold(loaded.Progress{Bytes: 20}); !held {
		t.Fatal("a report before the page is made was not held")
	}
	h.release()
	p, held := h.hold(loaded.Progress{Bytes: 30})
	if held || p.Bytes != 30 || p.Model != overview {
		t.Fatalf("the first report after the page was made: %+v (held %v); want it with the first overview", p, held)
	}
	if p, _ := h.hold(loaded.Progress{Bytes: 40}); p.Model != nil {
		t.Errorf("the held overview went out twice: %+v", p)
	}
}
