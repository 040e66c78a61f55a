//go:build !unix

package library

import "os"

// lockFile does nothing where there is no flock: two instances of the app
// must not use one library at once there.
func lockFile(*os.File) error { return nil }

// inUse reports false: without locks, a staging directory or temporary
// file is taken for a crash's leftover.
func inUse(string) bool { return false }
