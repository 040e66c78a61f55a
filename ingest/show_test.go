package ingest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// decodeFile decodes a whole eventlog file and returns its header, events
// (cloned) and status.
func decodeFile(t testing.TB, path string) (*Header, []Event, Status) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []Event
	h, st, err := ReadAll(f, func(ev *Event) error {
		evs = append(evs, ev.Clone())
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	return h, evs, st
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g := strings.Split(string(got), "\n")
	w := strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, gl, wl)
		}
	}
	return "no line differs"
}

// TestShowMatchesReferences checks the whole document, byte for byte, against
// the output of current ghc-events for every corpus file that has one; both
// WriteShow and ShowBuffer must produce it.
func TestShowMatchesReferences(t *testing.T) {
	refs, err := filepath.Glob("../testdata/corpus/ghc-events__*.reference")
	if err != nil || len(refs) == 0 {
		t.Fatalf("no references: %v", err)
	}
	for _, ref := range refs {
		name := strings.TrimSuffix(filepath.Base(ref), ".reference")
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(ref)
			if err != nil {
				t.Fatal(err)
			}
			h, evs, st := decodeFile(t, strings.TrimSuffix(ref, ".reference"))
			if st.State != StateComplete {
				t.Fatalf("status %v", st)
			}
			var got bytes.Buffer
			if err := WriteShow(&got, h, evs); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("WriteShow differs from the reference at %s", firstDiff(got.Bytes(), want))
			}
			var sb ShowBuffer
			for i := range evs {
				sb.Add(&evs[i])
			}
			var got2 bytes.Buffer
			if err := sb.WriteShow(&got2, h); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got2.Bytes(), want) {
				t.Errorf("ShowBuffer differs from the reference at %s", firstDiff(got2.Bytes(), want))
			}
		})
	}
}

// TestHeaderNilWhenCutInHeader: a stream that ends (or breaks) inside its
// header has no header to show.
func TestHeaderNilWhenCutInHeader(t *testing.T) {
	data, err := os.ReadFile("../testdata/corpus/ghc-events__unicode.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	end := bytes.Index(data, []byte("hdre"))
	if end < 0 {
		t.Fatal("no header end marker")
	}
	for _, n := range []int{0, 3, 8, 40, end} {
		d := NewDecoder()
		d.Feed(data[:n])
		d.End()
		var ev Event
		for d.Next(&ev) {
		}
		if d.Status().State != StateTruncated {
			t.Errorf("cut at %d: status %v, want truncated", n, d.Status())
		}
		if h := d.Header(); h != nil {
			t.Errorf("cut at %d: Header() = %+v, want nil", n, h)
		}
	}
	d := NewDecoder()
	d.Feed(data[:end+4])
	d.End()
	var ev Event
	d.Next(&ev)
	if h := d.Header(); h == nil || len(h.Types) == 0 {
		t.Errorf("cut after the header: Header() = %v, want the header", h)
	}
}
