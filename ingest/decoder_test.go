package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// corpusFiles returns the eventlogs copied from the public corpus.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("../testdata/corpus/*.eventlog")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus eventlogs found: %v", err)
	}
	return files
}

// decodeChunks feeds data to a decoder in chunks of the given sizes (cycled)
// and returns the events (cloned) and the final status.
func decodeChunks(data []byte, sizes []int) ([]Event, Status) {
	d := NewDecoder()
	var out []Event
	var ev Event
	for i, off := 0, 0; off < len(data); i++ {
		n := sizes[i%len(sizes)]
		if off+n > len(data) {
			n = len(data) - off
		}
		d.Feed(data[off : off+n])
		off += n
		for d.Next(&ev) {
			out = append(out, ev.Clone())
		}
	}
	d.End()
	for d.Next(&ev) {
		out = append(out, ev.Clone())
	}
	return out, d.Status()
}

func TestCorpusDecodes(t *testing.T) {
	for _, f := range corpusFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		evs, st := decodeChunks(data, []int{len(data)})
		want := StateComplete
		if filepath.Base(f) == "ghc-events__testlog-part.eventlog" {
			want = StateTruncated
		}
		if st.State != want {
			t.Errorf("%s: status %v, want %v", filepath.Base(f), st, want)
		}
		unknown := 0
		for i := range evs {
			if evs[i].Kind == KindUnknown {
				unknown++
			}
		}
		t.Logf("%s: %d events, %d unknown, %v", filepath.Base(f), len(evs), unknown, st)
	}
}

func TestChunkingDoesNotMatter(t *testing.T) {
	for _, f := range corpusFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		whole, wst := decodeChunks(data, []int{len(data)})
		for _, sizes := range [][]int{{1}, {7, 1, 4096, 3}, {65536}} {
			got, gst := decodeChunks(data, sizes)
			if gst != wst {
				t.Fatalf("%s chunks %v: status %v, whole gives %v", f, sizes, gst, wst)
			}
			if len(got) != len(whole) {
				t.Fatalf("%s chunks %v: %d events, whole gives %d", f, sizes, len(got), len(whole))
			}
			for i := range got {
				a, b := got[i], whole[i]
				if a.Time != b.Time || a.Kind != b.Kind || a.Cap != b.Cap || a.Args != b.Args || a.Offset != b.Offset ||
					!bytes.Equal(a.Data, b.Data) || !bytes.Equal(a.Raw, b.Raw) {
					t.Fatalf("%s chunks %v: event %d differs: %+v vs %+v", f, sizes, i, a, b)
				}
			}
		}
	}
}
