package timeline

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// joinedRecording is what a viewer that joins a relay's stream of data at
// event index join records: the header, a join mark, the state replayed,
// then the stream from that event on. It returns the recording and the
// time the mark gives.
func joinedRecording(t *testing.T, data []byte, join int) ([]byte, uint64) {
	t.Helper()
	d := ingest.NewDecoder()
	d.Feed(data)
	d.End()
	var all []ingest.Event
	var ev ingest.Event
	for d.Next(&ev) {
		all = append(all, ev.Clone())
	}
	r := ingest.NewReplay(d.Header(), data[:all[0].Offset])
	for i := 0; i < join; i++ {
		r.Add(&all[i])
	}
	at, late := r.JoinedAt()
	if !late {
		t.Fatalf("join at event %d is not late", join)
	}
	stream := append(r.Prefix(all[join].Offset), data[all[join].Offset:]...)
	path := filepath.Join(t.TempDir(), "joined.eventlog")
	rec, err := ingest.NewRecorder(path)
	if err != nil {
		t.Fatal(err)
	}
	rec.Write(stream)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return out, at
}

// TestSummaryJoined: the summary of a recording that joined the run late
// covers only the time from the join, as the summary of that range of the
// whole log does, and says from when (JoinedNS); it no longer counts the
// replayed state as events, nor the run's start as its time.
func TestSummaryJoined(t *testing.T) {
	for _, name := range []string{"parwork-N2.eventlog", "heap-hT.eventlog"} {
		data, err := os.ReadFile("../testdata/ghc-9.0.2/" + name)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := Summarize(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		for _, frac := range []int{3, 2} {
			n := int(whole.Events) / frac
			rec, at := joinedRecording(t, data, n)
			got, err := Summarize(bytes.NewReader(rec))
			if err != nil {
				t.Fatal(err)
			}
			want, err := SummarizeRange(bytes.NewReader(data), at, whole.LastNS)
			if err != nil {
				t.Fatal(err)
			}
			if got.JoinedNS != at || got.TotalNS != want.TotalNS || got.TotalNS >= whole.TotalNS {
				t.Fatalf("%s joined at %d: JoinedNS %d, total %d ns; the range's total %d, the whole run's %d", name, at, got.JoinedNS, got.TotalNS, want.TotalNS, whole.TotalNS)
			}
			gotGC, _ := got.GCTime()
			wantGC, _ := want.GCTime()
			for _, c := range []struct {
				what      string
				got, want uint64
			}{
				{"events", got.Events, want.Events},
				{"threads", got.Threads, want.Threads},
				{"collections", uint64(got.GC.Total.Collections), uint64(want.GC.Total.Collections)},
				{"GC elapsed", got.GC.Total.ElapsedNS, want.GC.Total.ElapsedNS},
				{"copied", got.Heap.Copied, want.Heap.Copied},
				{"first event", got.FirstNS, want.FirstNS},
			} {
				if c.got != c.want {
					t.Errorf("%s joined at %d: %s %d, the range's %d", name, at, c.what, c.got, c.want)
				}
			}
			// The recording lacks what came before the join: a collection
			// begun before it, the counters' and the heap size's values then.
			for _, c := range []struct {
				what      string
				got, want uint64
			}{
				{"GC time", gotGC, wantGC},
				{"allocated", got.Heap.Allocated, want.Heap.Allocated},
				{"max heap", got.Heap.MaxSize, want.Heap.MaxSize},
				{"sparks", got.Sparks.Total.Total, want.Sparks.Total.Total},
			} {
				if c.got > c.want {
					t.Errorf("%s joined at %d: %s %d, more than the range's %d", name, at, c.what, c.got, c.want)
				}
			}
			if got.GCFrom != GCFromPauses || got.MutatorNS != got.TotalNS-gotGC {
				t.Errorf("%s joined at %d: GC time from %v, mutator %d of %d", name, at, got.GCFrom, got.MutatorNS, got.TotalNS)
			}
			if got.Program != whole.Program || got.RTS != whole.RTS || got.Capabilities != whole.Capabilities {
				t.Errorf("%s joined at %d: program %q, RTS %q, %d capabilities; want %q, %q, %d", name, at, got.Program, got.RTS, got.Capabilities, whole.Program, whole.RTS, whole.Capabilities)
			}
			path := filepath.Join(t.TempDir(), "rec.eventlog")
			os.WriteFile(path, rec, 0o644)
			if fromFile, err := SummarizeFile(path); err != nil || fromFile.Events != got.Events || fromFile.JoinedNS != at {
				t.Errorf("%s: SummarizeFile of the joined recording: %d events, joined %d (%v)", name, fromFile.Events, fromFile.JoinedNS, err)
			}
		}
		if whole.JoinedNS != 0 {
			t.Fatalf("%s: a whole run has JoinedNS %d", name, whole.JoinedNS)
		}
	}
}
