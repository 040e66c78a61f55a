//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGUIProgram finds the desktop app next to hecscope before PATH, and
// says where it looked when it is in neither.
func TestGUIProgram(t *testing.T) {
	here, onPath := t.TempDir(), t.TempDir()
	self := filepath.Join(here, "hecscope")
	t.Setenv("PATH", onPath)
	if p, err := guiProgram(self); err == nil {
		t.Fatalf("found %s where there is none", p)
	} else if !strings.Contains(err.Error(), "hecscope-gui") || !strings.Contains(err.Error(), here) {
		t.Errorf("error %q does not say what was looked for where", err)
	}
	fake := filepath.Join(onPath, "hecscope-gui")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := guiProgram(self); err != nil || p != fake {
		t.Errorf("on PATH: got %q, %v; want %s", p, err, fake)
	}
	// Next to hecscope wins; a file there that is not executable does not count.
	sibling := filepath.Join(here, "hecscope-gui")
	if err := os.WriteFile(sibling, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := guiProgram(self); err != nil || p != fake {
		t.Errorf("with a non-executable sibling: got %q, %v; want %s", p, err, fake)
	}
	if err := os.Chmod(sibling, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := guiProgram(self); err != nil || p != sibling {
		t.Errorf("with a sibling: got %q, %v; want %s", p, err, sibling)
	}
}

// TestLaunchHandsOver runs hecscope as a user would start the app — on a
// file, on nothing, with --attach — and checks that each time the desktop
// app (here a script on PATH) is started in its place with the arguments it
// understands, its exit code becoming hecscope's.
func TestLaunchHandsOver(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(dir, "args")
	script := "#!/bin/sh\nprintf '%s|' \"$@\" > " + record + "\nexit 7\n"
	if err := os.WriteFile(filepath.Join(dir, "hecscope-gui"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	sample := corpus + "ghc-events__hello-ghc-8.6.5.eventlog"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{sample}, sample + "|"},
		{[]string{sample, sample}, sample + "|" + sample + "|"},
		{nil, "|"},
		{[]string{"--attach", "tcp://127.0.0.1:4242"}, "--attach=tcp://127.0.0.1:4242|"},
		{[]string{"--attach=unix:///tmp/s"}, "--attach=unix:///tmp/s|"},
	} {
		os.Remove(record)
		code, _, stderr := hecscope(t, c.args...)
		got, err := os.ReadFile(record)
		if err != nil {
			t.Errorf("hecscope %q did not start the app (exit %d): %s", c.args, code, stderr)
			continue
		}
		if code != 7 || string(got) != c.want {
			t.Errorf("hecscope %q: the app got %q and exited %d; want %q and 7", c.args, got, code, c.want)
		}
	}
}
