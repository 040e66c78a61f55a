//go:build unix

package library

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on f (a file or a directory) that lasts
// until f is closed or the process ends, however it ends: the kernel lets
// go of it. It does not wait for another holder.
func lockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// inUse reports whether another open file (of this process or another)
// holds the lock on path: a save or edit going on. A path that cannot be
// opened is not in use.
func inUse(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return false
	}
	return errors.Is(err, syscall.EWOULDBLOCK)
}
