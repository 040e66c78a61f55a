//go:build !unix

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// launch runs the program prog with args, connected to this process's
// standard streams, and returns its exit code.
func launch(prog string, args []string) int {
	cmd := exec.Command(prog, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: starting %s: %v\n", prog, err)
		return 1
	}
	return 0
}
