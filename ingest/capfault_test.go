package ingest

import (
	"bytes"
	"encoding/binary"
	"os"
	"testing"
)

// TestCapFaultsOfRewrittenBlock: parwork-N2 (GHC created capabilities 0
// and 1) with its first block of capability 0 rewritten to claim 4095 has
// one faulty block, found by the capabilities created and, for a log that
// records none, by lying far beyond the others; its events are counted
// by decoding it. The sound log has none.
func TestCapFaultsOfRewrittenBlock(t *testing.T) {
	data, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	ix, err := NewIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if cf := FindCapFaults(bytes.NewReader(data), ix, []int32{0, 1}); cf.Count != 0 {
		t.Errorf("sound log: %+v", cf)
	}
	if cf := FindCapFaults(bytes.NewReader(data), ix, nil); cf.Count != 0 {
		t.Errorf("sound log, no capabilities created: %+v", cf)
	}
	off := int64(-1)
	for _, p := range ix.Pieces {
		if p.Block && p.Cap == 0 {
			off = p.Offset
			binary.BigEndian.PutUint16(data[p.Offset+22:], 4095)
			break
		}
	}
	ix, err = NewIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	want := CapFault{Offset: off, Cap: 4095, Events: 4099}
	for _, created := range [][]int32{{0, 1}, nil} {
		cf := FindCapFaults(bytes.NewReader(data), ix, created)
		if cf.Count != 1 || cf.Events != 4099 || len(cf.First) != 1 || cf.First[0] != want || cf.Created != (created != nil) {
			t.Errorf("created %v: %+v, want %+v", created, cf, want)
		}
	}
	cf := FindCapFaults(bytes.NewReader(data), ix, []int32{0, 1})
	if s := cf.String(); s != "the block at byte 2688 (4,099 events) claims capability 4095, which the log never created" {
		t.Errorf("String: %q", s)
	}
}
