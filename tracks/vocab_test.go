package tracks

import (
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
)

// The tooltips' reason a thread stopped is the name of the ink its blocked
// time is drawn in wherever that ink stands for one reason alone.
func TestStopReasonsReadAsInks(t *testing.T) {
	one := map[paint.Ink]bool{paint.InkBlockedBlackHole: true, paint.InkBlockedSTM: true, paint.InkBlockedThrowTo: true}
	for st := ingest.StopStatus(0); st <= ingest.StopBlockedMVarRead; st++ {
		k := blockedInk(st)
		switch {
		case one[k] || st == ingest.StopBlockedMVar || k == paint.InkForeignCall:
			if st.Reason() != k.Name() {
				t.Errorf("status %d: reason %q, ink %q", st, st.Reason(), k.Name())
			}
		case k == paint.InkBlocked && st.Blocked() && st.BlockedOn() != "" && st != ingest.StopBlockedDoProc && st != ingest.StopBlockedGA && st != ingest.StopBlockedGANoSend:
			t.Errorf("status %d (%s) falls to the catch-all ink", st, st.Reason())
		}
	}
	if got := ingest.StopStatus(0).Reason(); got != "" {
		t.Errorf("no status: reason %q, want none", got)
	}
}
