package ingest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// mapFile maps the whole of file f for a test.
func mapFile(t *testing.T, f string) *Mapped {
	t.Helper()
	fh, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fh.Close() })
	st, err := fh.Stat()
	if err != nil {
		t.Fatal(err)
	}
	mm, err := MapSection(fh, 0, st.Size())
	if err != nil {
		t.Skipf("no mapping on this system: %v", err)
	}
	t.Cleanup(func() { mm.Close() })
	return mm
}

// mergeFrom merges all of ix's streams from r, cloning the events.
func mergeFrom(t *testing.T, r io.ReaderAt, ix *Index) ([]Event, Status) {
	t.Helper()
	m := NewMerge(r, ix, MergeOptions{Learn: true})
	return drain(t, m), m.Status()
}

// TestMappedMergeMatchesReader: a merge that decodes a mapped file in
// place, in windows that end anywhere inside events, hands out the same
// events, learns the same pieces and ends the same as one that reads the
// file into buffers; whole and cut short.
func TestMappedMergeMatchesReader(t *testing.T) {
	defer func(w int64) { directWindow = w }(directWindow)
	dir := t.TempDir()
	for _, f := range mergeLogs(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cuts := []int{len(data)}
		if filepath.Base(f) == "parwork-N2.eventlog" {
			cuts = append(cuts, len(data)-7, len(data)/2, 5000)
		}
		for _, cut := range cuts {
			part := data[:cut]
			path := filepath.Join(dir, "log")
			if err := os.WriteFile(path, part, 0o644); err != nil {
				t.Fatal(err)
			}
			ix, err := NewIndex(bytes.NewReader(part), int64(len(part)))
			if err != nil {
				continue
			}
			ix2, _ := NewIndex(bytes.NewReader(part), int64(len(part)))
			want, wantSt := mergeFrom(t, bytes.NewReader(part), ix)
			for _, w := range []int64{4 << 20, 997, 13} {
				directWindow = w
				ix3 := *ix2
				ix3.Pieces = append([]Piece(nil), ix2.Pieces...)
				got, gotSt := mergeFrom(t, mapFile(t, path), &ix3)
				name := filepath.Base(f)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s cut at %d, window %d: mapped merge gave %d events, the reader's %d, or different ones", name, cut, w, len(got), len(want))
				}
				if gotSt != wantSt {
					t.Errorf("%s cut at %d, window %d: mapped status %v, reader's %v", name, cut, w, gotSt, wantSt)
				}
				if !reflect.DeepEqual(ix3.Pieces, ix.Pieces) {
					t.Errorf("%s cut at %d, window %d: the mapped merge learned other pieces", name, cut, w)
				}
			}
		}
	}
}

// TestMappedFileCutWhileMapped: a file cut shorter while it is mapped
// makes the reads of the pages it lost an error, not a crash.
func TestMappedFileCutWhileMapped(t *testing.T) {
	data, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "log")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := NewIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	mm := mapFile(t, path)
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 100)
	if _, err := mm.ReadAt(buf, int64(len(data))/2); !errors.Is(err, errFault) {
		t.Errorf("ReadAt past the cut: %v, want %v", err, errFault)
	}
	m := NewMerge(mm, ix, MergeOptions{})
	for e := m.Next(); e != nil; e = m.Next() {
	}
	if err := m.Err(); !errors.Is(err, errFault) {
		t.Errorf("merge of a file cut while mapped: %v, want %v", err, errFault)
	}
}
