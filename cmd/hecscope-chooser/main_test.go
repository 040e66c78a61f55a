package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/internal/chooser"
)

// TestMain runs the program itself when asked to (the test's child, with
// the environment the test gives it), since GTK starts, or fails to, when
// the program does.
func TestMain(m *testing.M) {
	if os.Getenv("HECSCOPE_CHOOSER_RUN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// runChild runs the program with args and no display; it returns its
// status, output and errors.
func runChild(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "HECSCOPE_CHOOSER_RUN=1", "DISPLAY=", "WAYLAND_DISPLAY=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

// TestNoDisplayIsUnavailable: without a display the chooser says it cannot
// be shown, with the status the app falls back to its own chooser on.
func TestNoDisplayIsUnavailable(t *testing.T) {
	req := chooser.Request{Title: "Open", Filters: []chooser.Filter{{Desc: "GHC eventlogs", Extensions: []string{"eventlog"}}}}
	status, out, errs := runChild(t, req.Args()...)
	if status != chooser.Unavailable || out != "" || !strings.Contains(errs, "cannot be shown") {
		t.Errorf("status %d, output %q, errors %q; want %d, nothing, why", status, out, errs, chooser.Unavailable)
	}
}

// TestBadRequestIsAUsageError: arguments that are not a request are a
// usage error, and no chooser is shown.
func TestBadRequestIsAUsageError(t *testing.T) {
	status, out, errs := runChild(t, "delete", "/")
	if status != 2 || out != "" || !strings.Contains(errs, "usage:") {
		t.Errorf("status %d, output %q, errors %q; want 2 and the usage", status, out, errs)
	}
}
