package export

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"testing"
)

// twoMB is a 2.3 MB real log (ghc-events' test log stop.hT: a heap
// profile by closure type, four capabilities), gzipped.
const twoMB = "testdata/stop-hT.eventlog.gz"

// TestChromeTwoMegabyteLog exports a real 2.3 MB log as a Chrome trace and
// checks every event against the trace-event format's documented fields
// (validateChrome), and that each kind of track is there.
func TestChromeTwoMegabyteLog(t *testing.T) {
	f, err := os.Open(twoMB)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) < 2_000_000 {
		t.Fatalf("the log is %d bytes, want 2 MB", len(raw))
	}
	var out bytes.Buffer
	st, err := Write(context.Background(), Chrome, &out, bytes.NewReader(raw), int64(len(raw)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.State.String() == "corrupt" {
		t.Fatalf("status %v", st)
	}
	evs := validateChrome(t, out.Bytes())
	phases := map[string]int{}
	for _, e := range evs {
		phases[e.Ph]++
	}
	// Thread runs and GCs (X), heap counters (C), track names (M).
	if phases["X"] < 1000 || phases["C"] < 10 || phases["M"] < 4 {
		t.Errorf("%d events by phase: %v", len(evs), phases)
	}
	t.Logf("%d bytes of log → %d bytes of trace, %d events %v", len(raw), out.Len(), len(evs), phases)
}
