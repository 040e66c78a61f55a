//go:build !unix

package app

// lockSettings does nothing where there is no flock: two instances
// changing settings at the same moment may lose one change.
func lockSettings(string) func() { return func() {} }
