package export

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestToFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	out := filepath.Join(dir, "trace.json")
	if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A failed export keeps the old file and leaves nothing beside it.
	if _, err := ToFile(ctx, Chrome, filepath.Join(dir, "missing.eventlog"), out, Options{}); err == nil {
		t.Fatal("no error for a missing log")
	}
	if b, _ := os.ReadFile(out); string(b) != "old" {
		t.Errorf("the old file became %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files in the directory", len(ents))
	}
	if _, err := ToFile(ctx, Chrome, spanwork, out, Options{}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(out); err != nil || !fi.Mode().IsRegular() || fi.Size() < 1000 || fi.Mode().Perm() != 0o644 {
		t.Errorf("export: %v, %v", fi, err)
	}
	// A device is written to, never replaced.
	if _, err := ToFile(ctx, CSV, spanwork, os.DevNull, Options{}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeDevice == 0 {
		t.Fatalf("%s is no longer a device: %v, %v", os.DevNull, fi, err)
	}
	if _, err := ToFile(ctx, CSV, spanwork, dir, Options{}); err == nil {
		t.Error("no error for a directory")
	}
}
