// Package testlog makes the minimally edited real eventlogs that several
// packages' tests read, so that each edit is written once.
package testlog

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// CapRewritten writes, in a temporary directory of t, a copy of the
// eventlog at path whose first block of capability 0 claims capability c
// instead (two bytes of its block marker changed), and returns the copy's
// path and the marker's byte offset.
func CapRewritten(t testing.TB, path string, c uint16) (string, int64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := ingest.NewIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ix.Pieces {
		if p.Block && p.Cap == 0 {
			// The marker: type (2), time (8), size (4), end time (8), cap (2).
			binary.BigEndian.PutUint16(data[p.Offset+22:], c)
			out := filepath.Join(t.TempDir(), "cap"+strconv.Itoa(int(c))+".eventlog")
			if err := os.WriteFile(out, data, 0o644); err != nil {
				t.Fatal(err)
			}
			return out, p.Offset
		}
	}
	t.Fatalf("%s has no block of capability 0", path)
	return "", 0
}

// ReadAll decodes a whole stream in file order and calls fn for every
// event. It stops early if fn returns an error, and returns that error
// wrapped.
func ReadAll(src io.Reader, fn func(*ingest.Event) error) (*ingest.Header, ingest.Status, error) {
	r := ingest.NewReader(src)
	var ev ingest.Event
	for r.Next(&ev) {
		if err := fn(&ev); err != nil {
			return r.Header(), r.Status(), fmt.Errorf("event at byte %d: %w", ev.Offset, err)
		}
	}
	return r.Header(), r.Status(), r.Err()
}
