package eventlog

import (
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/internal/testlog"
)

// TestFarCapabilityLoaded: parwork-N2 with its first block of capability 0
// rewritten to claim capability 4095, loaded as render loads it (no
// summary, each capability in its own goroutine, exact and on a grid) and
// as the app does (with the summary): the Log reports the block (offset,
// capability, events) and the overview has a HEC 4095 with the block's
// events. Before, nothing was reported and the block's events were in no
// HEC.
func TestFarCapabilityLoaded(t *testing.T) {
	path, off := testlog.CapRewritten(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", 4095)
	for _, opt := range []Options{{NoSummary: true, NoEventList: true, NoHeap: true}, {NoSummary: true, ExactBelow: -1, Buckets: 256}, {}} {
		r := open(t, path, opt)
		cf := r.CapFaults
		if cf.Count != 1 || len(cf.First) != 1 || cf.First[0] != (ingest.CapFault{Offset: off, Cap: 4095, Events: 4099}) || !cf.Created {
			t.Errorf("%+v: cap faults %+v, want the block at byte %d, 4,099 events, claiming 4095", opt, cf, off)
		}
		m := r.Overview()
		if len(m.HECs) != 3 || m.HEC(4095) == nil || m.HEC(4095).Track.Len() == 0 {
			t.Errorf("%+v: %d HECs, HEC 4095 %v", opt, len(m.HECs), m.HEC(4095))
		}
	}
	if r := open(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", Options{NoSummary: true}); r.CapFaults.Count != 0 {
		t.Errorf("the sound log has cap faults: %+v", r.CapFaults)
	}
}
