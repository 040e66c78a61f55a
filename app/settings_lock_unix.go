//go:build unix

package app

import (
	"os"
	"path/filepath"
	"syscall"
)

// lockSettings takes an exclusive lock shared by every instance of the app
// on the settings file at path (a lock file beside it), waiting for it, and
// returns what lets go of it.
func lockSettings(path string) func() {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return func() {}
	}
	f, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return func() {}
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX) != nil {
		f.Close()
		return func() {}
	}
	return func() { f.Close() }
}
