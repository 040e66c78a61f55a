package ingest

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// eventlogHeapSamples collects the heap-profile censuses of an eventlog in the
// .hp file's terms: one entry list per census, labels as the RTS prints them
// into the .hp file (cost-centre stacks as innermost-first names joined by
// "/", CAF cost centres as Module.CAF, the empty stack as MAIN).
func eventlogHeapSamples(t *testing.T, path string) [][]HeapEntry {
	t.Helper()
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names := map[uint32]string{}
	var samples [][]HeapEntry
	var cur []HeapEntry
	open := false
	var ev Event
	for f.Next(&ev) {
		switch ev.Kind {
		case KindHeapProfCostCentre:
			s := ev.Strings()
			if len(s) < 2 {
				t.Fatalf("cost centre %d: %q", ev.Args[0], s)
			}
			name := s[0]
			if ev.CAF() {
				name = s[1] + ".CAF"
			}
			names[uint32(ev.Args[0])] = name
		case KindHeapProfSampleBegin, KindHeapBioProfSampleBegin:
			cur, open = nil, true
		case KindHeapProfSampleString:
			cur = append(cur, HeapEntry{Label: ev.Text(), Bytes: ev.Args[1]})
		case KindHeapProfSampleCostCentre:
			parts := make([]string, ev.StackLen())
			for i := range parts {
				parts[i] = names[ev.Stack(i)]
			}
			label := strings.Join(parts, "/")
			if label == "" {
				label = "MAIN"
			}
			cur = append(cur, HeapEntry{Label: label, Bytes: ev.Args[1]})
		case KindHeapProfSampleEnd:
			if open {
				samples = append(samples, cur)
			}
			open = false
		}
	}
	if st := f.Status(); st.State != StateComplete {
		t.Fatalf("%s: %v", path, st)
	}
	return samples
}

// ccsPrefix is the "(id)" a .hp file puts before a cost-centre stack or
// retainer set; the eventlog has no such ids.
var ccsPrefix = regexp.MustCompile(`^\(\d+\)`)

// TestHeapProfileMatchesEventlog checks, for each .hp/.eventlog pair written
// by one GHC 9.0.2 run, that every census in the .hp file is in the eventlog
// with the same entries in the same order and the same byte counts.
func TestHeapProfileMatchesEventlog(t *testing.T) {
	const dir = "../testdata/generated" // copied from the shared corpus
	for _, mode := range []string{"hT", "hb", "hc", "hd", "hr", "hy"} {
		t.Run(mode, func(t *testing.T) {
			hp, err := ReadHeapProfileFile(filepath.Join(dir, mode+".hp"))
			if err != nil {
				t.Fatal(err)
			}
			fromLog := eventlogHeapSamples(t, filepath.Join(dir, mode+".eventlog"))
			var fromHP [][]HeapEntry
			for _, s := range hp.Samples {
				if len(s.Entries) > 0 { // GHC's empty first and last samples
					fromHP = append(fromHP, s.Entries)
				}
			}
			if len(fromHP) == 0 || len(fromHP) != len(fromLog) {
				t.Fatalf(".hp has %d censuses, eventlog %d", len(fromHP), len(fromLog))
			}
			for i := range fromHP {
				if got, want := describe(fromLog[i], mode == "hc"), describe(fromHP[i], mode == "hc"); got != want {
					t.Errorf("census %d:\neventlog: %s\n.hp:      %s", i, got, want)
				}
			}
		})
	}
}

func describe(entries []HeapEntry, stripIDs bool) string {
	var b strings.Builder
	for _, e := range entries {
		label := e.Label
		if stripIDs {
			label = ccsPrefix.ReplaceAllString(label, "")
		}
		fmt.Fprintf(&b, "%s=%d ", label, e.Bytes)
	}
	return b.String()
}
