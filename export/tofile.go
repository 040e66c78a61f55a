package export

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hecscope/hecscope/ingest"
)

// ToFile exports the eventlog at path in format f to the file out. A
// regular file (or a new one) is written beside out and renamed over it at
// the end, so that a failed export leaves no partial file and an old one
// stays whole; anything else that exists at out (a device such as
// /dev/null, a pipe) is written to in place, never replaced.
func ToFile(ctx context.Context, f Format, path, out string, opt Options) (ingest.Status, error) {
	if fi, err := os.Stat(out); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return ingest.Status{}, fmt.Errorf("exporting %s to %s: a directory", path, out)
		}
		w, err := os.OpenFile(out, os.O_WRONLY, 0)
		if err != nil {
			return ingest.Status{}, fmt.Errorf("exporting %s: %w", path, err)
		}
		st, err := File(ctx, f, path, w, opt)
		if cerr := w.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("exporting %s to %s: %w", path, out, cerr)
		}
		return st, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*")
	if err != nil {
		return ingest.Status{}, fmt.Errorf("exporting %s: %w", path, err)
	}
	// CreateTemp makes the file private; an export is an ordinary file.
	err = tmp.Chmod(0o644)
	var st ingest.Status
	if err == nil {
		st, err = File(ctx, f, path, tmp, opt)
	}
	if cerr := tmp.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("exporting %s to %s: %w", path, out, cerr)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), out)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return st, err
	}
	return st, nil
}
