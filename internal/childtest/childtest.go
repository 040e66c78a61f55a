// Package childtest lets a command's tests run the command in a child
// process: the test binary runs the command instead of its tests when
// started with Env set, as Command starts it.
package childtest

import (
	"context"
	"os"
	"os/exec"
	"testing"
)

// Env is the environment setting that makes a test binary the command.
const Env = "HECSCOPE_TEST_MAIN=1"

// Main is a command's TestMain: it runs the command (run, given the
// arguments) when the test binary was started as a child, the tests
// otherwise.
func Main(m *testing.M, run func(args []string) int) {
	if os.Getenv("HECSCOPE_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// Command returns the command that runs the test binary as the command
// with args, with env added to the environment.
func Command(ctx context.Context, args []string, env ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), Env), env...)
	return cmd
}
