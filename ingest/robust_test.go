package ingest

import (
	"bytes"
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/internal/testfile"
)

// readCorpus returns the corpus log called name.
func readCorpus(t testing.TB, name string) []byte {
	t.Helper()
	return testfile.Read(t, "../testdata/corpus/"+name)
}

// TestTruncatedEverywhere cuts a log at every byte: the events decoded from
// each prefix are exactly the whole log's events that end before the cut, and
// the status says where the partial event starts.
func TestTruncatedEverywhere(t *testing.T) {
	data := readCorpus(t, "ghc-events__trace-binary-event.eventlog")
	whole, wst := decodeChunks(data, []int{len(data)})
	if wst.State != StateComplete {
		t.Fatalf("whole file: %v", wst)
	}
	for cut := 0; cut < len(data); cut++ {
		got, st := decodeChunks(data[:cut], []int{13})
		if cut == 0 {
			got, st = decodeChunks(nil, []int{1})
		}
		if st.State != StateTruncated {
			t.Fatalf("cut %d: status %v, want truncated", cut, st)
		}
		n := 0
		for n < len(whole) && whole[n].Offset+int64(len(whole[n].Raw)) <= int64(cut) {
			n++
		}
		if len(got) != n {
			t.Fatalf("cut %d: %d events, want %d", cut, len(got), n)
		}
		if st.Offset > int64(cut) {
			t.Fatalf("cut %d: truncation reported at %d, past the end", cut, st.Offset)
		}
	}
}

// TestTestlogPart checks the corpus's real truncated file: the reference
// parser drops the partial last event and keeps the 718 before it.
func TestTestlogPart(t *testing.T) {
	part := readCorpus(t, "ghc-events__testlog-part.eventlog")
	full := readCorpus(t, "ghc-events__testlog.eventlog")
	if !bytes.HasPrefix(full, part) {
		t.Fatal("testlog-part is not a prefix of testlog")
	}
	evs, st := decodeChunks(part, []int{4096})
	if st.State != StateTruncated || st.Offset != 10237 {
		t.Fatalf("status %v, want truncated at byte 10237", st)
	}
	if len(evs) != 718 {
		t.Fatalf("%d events, want 718", len(evs))
	}
}

func TestCorruptInputs(t *testing.T) {
	good := readCorpus(t, "ghc-events__trace-binary-event.eventlog")
	dataAt := bytes.Index(good, []byte("datb")) + 4
	undeclared := append([]byte(nil), good...)
	binary.BigEndian.PutUint16(undeclared[dataAt:], 150) // not declared in this header
	cases := []struct {
		name   string
		input  []byte
		offset int64
		reason string
	}{
		{"not an eventlog", []byte("this is a text file, not an eventlog"), 0, "header begin marker"},
		{"tiny non-eventlog", []byte("hi\n"), 0, "header begin marker"},
		{"undeclared id", undeclared, int64(dataAt), "undeclared event type 150"},
		{"huge description", append([]byte("hdrbhetbetb\x00\x00\x01\x00\x04\x7f\xff\xff\xff"), make([]byte, 64)...), 16, "implausible"},
	}
	for _, c := range cases {
		evs, st := decodeChunks(c.input, []int{5, 100})
		if st.State != StateCorrupt {
			t.Errorf("%s: status %v, want corrupt", c.name, st)
			continue
		}
		if c.offset >= 0 && st.Offset != c.offset {
			t.Errorf("%s: corrupt at %d, want %d", c.name, st.Offset, c.offset)
		}
		if !strings.Contains(st.Reason, c.reason) {
			t.Errorf("%s: reason %q lacks %q", c.name, st.Reason, c.reason)
		}
		if err := st.Err(); err == nil || !strings.Contains(err.Error(), "corrupt at byte") {
			t.Errorf("%s: Err() = %v", c.name, err)
		}
		_ = evs
	}
}

// TestEventsBeforeCorruptionKept checks that a corrupt tail costs only the
// events from the corruption on.
func TestEventsBeforeCorruptionKept(t *testing.T) {
	data := readCorpus(t, "ghc-events__hello-ghc-8.6.5.eventlog")
	whole, _ := decodeChunks(data, []int{len(data)})
	bad := append([]byte(nil), data...)
	victim := whole[len(whole)/2]
	binary.BigEndian.PutUint16(bad[victim.Offset:], 0x7777)
	got, st := decodeChunks(bad, []int{333})
	if st.State != StateCorrupt || st.Offset != victim.Offset {
		t.Fatalf("status %v, want corrupt at %d", st, victim.Offset)
	}
	if len(got) != len(whole)/2 {
		t.Fatalf("kept %d events, want %d", len(got), len(whole)/2)
	}
}

// TestNewlineTranslatedFile checks a log damaged by \n → \r\n translation
// is rejected in its header rather than decoded into garbage.
func TestNewlineTranslatedFile(t *testing.T) {
	good := readCorpus(t, "ghc-events__trace-binary-event.eventlog")
	evs, st := decodeChunks(bytes.ReplaceAll(good, []byte("\n"), []byte("\r\n")), []int{64})
	if st.State == StateComplete || len(evs) != 0 {
		t.Fatalf("status %v with %d events, want a failed header", st, len(evs))
	}
}

func TestTrailingBytesAfterEndMarker(t *testing.T) {
	data := readCorpus(t, "ghc-events__trace-binary-event.eventlog")
	data = append(append([]byte(nil), data...), "junk"...)
	_, st := decodeChunks(data, []int{len(data) - 2, 2})
	if st.State != StateComplete || st.Trailing != 4 {
		t.Fatalf("status %+v, want complete with 4 trailing bytes", st)
	}
}

// TestZeroAllocsFixedEvents checks the decoder's steady state allocates
// nothing for fixed-size events.
func TestZeroAllocsFixedEvents(t *testing.T) {
	data := readCorpus(t, "ghc-events__hello-ghc-8.6.5.eventlog")
	d := NewDecoder()
	d.Feed(data)
	var ev Event
	var raw []byte
	for d.Next(&ev) {
		if ev.Kind == KindRunThread && raw == nil {
			raw = append([]byte(nil), ev.Raw...)
		}
	}
	// Re-decode the same RunThread event bytes over and over.
	d.phase, d.status = phaseData, Status{}
	allocs := testing.AllocsPerRun(1000, func() {
		d.Feed(raw)
		if !d.Next(&ev) || ev.Kind != KindRunThread {
			t.Fatal("lost the event")
		}
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations per fixed-size event, want 0", allocs)
	}
}

// FuzzDecoder feeds arbitrary bytes split at an arbitrary point: it must not
// panic, must give the same events however the input is split, and must not
// buffer more than the input.
func FuzzDecoder(f *testing.F) {
	for _, name := range []string{"ghc-events__trace-binary-event.eventlog", "ghc-events__hello-ghc-8.2.2.eventlog",
		"ghc-events__nonmoving-gc.eventlog", "ghc-events__ticky-ticky.eventlog", "ghc-events__biographical-samples.eventlog",
		"ghc-events__ghc-9.2-events.eventlog", "ghc-events-history__queens-ghc-6.12.1.eventlog", "ghc-events__parallelTest.eventlog"} {
		data, err := os.ReadFile("../testdata/corpus/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint16(len(data)/3))
	}
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		whole, wst := decodeChunks(data, []int{len(data) + 1})
		cut := int(split)
		if cut == 0 || cut > len(data) {
			cut = len(data)/2 + 1
		}
		parts, pst := decodeChunks(data, []int{cut, 1, 17})
		if wst != pst || len(whole) != len(parts) {
			t.Fatalf("split changes result: %v/%d vs %v/%d", wst, len(whole), pst, len(parts))
		}
		for i := range whole {
			if whole[i].Offset != parts[i].Offset || whole[i].Args != parts[i].Args || !bytes.Equal(whole[i].Raw, parts[i].Raw) {
				t.Fatalf("event %d differs", i)
			}
		}
		if wst.State == StateDecoding {
			t.Fatal("status still decoding after End")
		}
		var ev Event
		for _, e := range whole {
			ev = e
			_ = ev.Strings()
			if ev.Kind == KindHeapProfSampleCostCentre || ev.Kind == KindProfSampleCostCentre {
				for i := 0; i < ev.StackLen(); i++ {
					_ = ev.Stack(i)
				}
			}
		}
	})
}
