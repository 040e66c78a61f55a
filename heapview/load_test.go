package heapview

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// TestReadFile checks how inputs are told apart and what bad or cut input
// gives.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	_, err := ReadFile(write("junk", []byte("version https://git-lfs.github.com/spec/v1\n")))
	if err == nil || !errors.Is(err, ingest.ErrHeapProfileMalformed) || !strings.Contains(err.Error(), "junk") {
		t.Errorf("junk: %v", err)
	}

	// An eventlog cut in the middle: what is there, and the status says so.
	full, err := os.ReadFile("../testdata/generated/hc.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	whole, err := ReadFile("../testdata/generated/hc.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	cut, err := ReadFile(write("cut.eventlog", full[:len(full)*3/4]))
	if err != nil {
		t.Fatal(err)
	}
	if cut.Status.State != ingest.StateTruncated || cut.Heap.Size.Len() == 0 || cut.Heap.Size.Len() >= whole.Heap.Size.Len() {
		t.Errorf("cut log: %v, %d of %d heap sizes", cut.Status, cut.Heap.Size.Len(), whole.Heap.Size.Len())
	}

	// A .hp file cut inside a census keeps it as the last sample.
	hp, err := os.ReadFile("../testdata/generated/hc.hp")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.LastIndex(string(hp), "END_SAMPLE")
	i = strings.LastIndex(string(hp[:i]), "END_SAMPLE")
	d, err := ReadFile(write("cut.hp", hp[:i]))
	if err != nil {
		t.Fatal(err)
	}
	if d.Status.State != ingest.StateTruncated || d.Profile == nil || !d.Heap.Empty() {
		t.Errorf("cut .hp: %v, profile %v", d.Status, d.Profile)
	}
	if whole, _ := ReadFile("../testdata/generated/hc.hp"); d.Profile.Len() != whole.Profile.Len()-1 {
		t.Errorf("cut .hp: %d samples, whole %d", d.Profile.Len(), whole.Profile.Len())
	}
}
