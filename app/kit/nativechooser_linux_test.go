package kit

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/internal/chooser"
)

// fakeChooser makes findChooser find a shell script that writes its
// arguments, one a line, to a file, then runs body; it returns that file.
func fakeChooser(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	argsFile := filepath.Join(dir, "args")
	prog := filepath.Join(dir, chooserName)
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '" + argsFile + "'\n" + body + "\n"
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	old := findChooser
	findChooser = func() (string, error) { return prog, nil }
	t.Cleanup(func() { findChooser = old })
	return argsFile
}

// TestNativeChooserProgram: the app asks the chooser program for what the
// user asked, and reads a chosen path, a cancel, a chooser that cannot be
// shown (Fyne's is shown instead) and a chooser that failed, each as what it
// is.
func TestNativeChooserProgram(t *testing.T) {
	req := chooser.Request{Save: true, Title: "Export the view as PNG", StartDir: "/tmp/some runs", StartFile: "view.png", Filters: PNGFilters}

	argsFile := fakeChooser(t, `echo "/tmp/some runs/chosen view.png"`)
	path, err := chooseNative(req)
	if err != nil || path != "/tmp/some runs/chosen view.png" {
		t.Fatalf("chosen: %q, %v", path, err)
	}
	sent, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatal(err)
	}
	got, err := chooser.Parse(strings.Split(strings.TrimSuffix(string(sent), "\n"), "\n"))
	if err != nil || !reflect.DeepEqual(got, req) {
		t.Errorf("the chooser was asked %+v (%v), want %+v", got, err, req)
	}

	fakeChooser(t, "exit 0")
	if path, err := chooseNative(req); err != nil || path != "" {
		t.Errorf("cancelled: %q, %v; want \"\", nil", path, err)
	}

	fakeChooser(t, "echo 'no display' >&2; exit 3")
	if _, err := chooseNative(req); !errors.Is(err, errNoNativeDialog) || !strings.Contains(err.Error(), "no display") {
		t.Errorf("unavailable: %v; want errNoNativeDialog saying why", err)
	}

	fakeChooser(t, "echo 'something broke' >&2; exit 1")
	if _, err := chooseNative(req); err == nil || errors.Is(err, errNoNativeDialog) || !strings.Contains(err.Error(), "something broke") {
		t.Errorf("failed: %v; want an error saying what broke", err)
	}

	old := findChooser
	findChooser = func() (string, error) { return "", errors.New("not installed") }
	defer func() { findChooser = old }()
	if _, err := chooseNative(req); !errors.Is(err, errNoNativeDialog) {
		t.Errorf("missing program: %v; want errNoNativeDialog", err)
	}
}
