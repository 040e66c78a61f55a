//go:build unix

package main

import (
	"fmt"
	"os"
	"syscall"
)

// launch replaces this process with the program prog run with args: the
// desktop app keeps hecscope's process id, and its exit code is hecscope's.
func launch(prog string, args []string) int {
	err := syscall.Exec(prog, append([]string{prog}, args...), os.Environ())
	fmt.Fprintf(os.Stderr, "hecscope: starting %s: %v\n", prog, err)
	return 1
}
