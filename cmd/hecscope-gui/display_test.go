package main

import (
	"runtime"
	"testing"
)

// TestNoDisplayIsAnError: without DISPLAY on an X11 desktop, the app says
// so and exits 1 instead of panicking inside the windowing library.
func TestNoDisplayIsAnError(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("DISPLAY is an X11 matter")
	}
	t.Setenv("DISPLAY", "")
	if err := checkDisplay(); err == nil {
		t.Fatal("no error without a display")
	}
	if code := run([]string{"--quit-after-load", "../../testdata/ghc-9.0.2/parwork-N2.eventlog"}); code != 1 {
		t.Fatalf("exit code %d without a display, want 1", code)
	}
}
