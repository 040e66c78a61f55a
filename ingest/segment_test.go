package ingest

import (
	"bytes"
	"os"
	"testing"
)

// TestFindSegments: real logs of GHC 9.0 (end marker after the blocks) and
// 9.2 (end marker inside the last block) written one after another are
// found as segments, each ending where its log ended; a single log is one
// segment.
func TestFindSegments(t *testing.T) {
	var logs [][]byte
	for _, p := range []string{"../testdata/ghc-9.0.2/parwork-N1.eventlog", "../testdata/corpus/ghc-events__ghc-9.2-events.eventlog",
		"../testdata/ghc-9.0.2/parwork-N2.eventlog"} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, data)
	}
	one, err := FindSegments(bytes.NewReader(logs[0]), int64(len(logs[0])))
	if err != nil || len(one) != 1 || one[0].End != int64(len(logs[0])) || one[0].Status.State != StateComplete {
		t.Fatalf("one log: %+v %v", one, err)
	}
	cat := bytes.Join(logs, nil)
	segs, err := FindSegments(bytes.NewReader(cat), int64(len(cat)))
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) != 3 {
		t.Fatalf("%d segments: %+v", len(segs), segs)
	}
	at := int64(0)
	for i, s := range segs {
		if s.Offset != at || s.End != at+int64(len(logs[i])) || s.Status.State != StateComplete || s.Status.Trailing != 0 {
			t.Errorf("segment %d: %+v, want [%d, %d) complete", i, s, at, at+int64(len(logs[i])))
		}
		at += int64(len(logs[i]))
	}
	// The last one cut short: truncated, the others complete.
	cut := cat[:len(cat)-100]
	segs, err = FindSegments(bytes.NewReader(cut), int64(len(cut)))
	if err != nil || len(segs) != 3 || segs[2].Status.State != StateTruncated || segs[1].Status.State != StateComplete {
		t.Errorf("cut: %+v %v", segs, err)
	}
}

// TestFindSegmentsEmpty: an empty file holds no eventlog, an error (it
// panicked, indexing the last of no segments).
func TestFindSegmentsEmpty(t *testing.T) {
	segs, err := FindSegments(bytes.NewReader(nil), 0)
	if err == nil || segs != nil {
		t.Errorf("FindSegments of an empty file: %v, %v; want an error", segs, err)
	}
}
