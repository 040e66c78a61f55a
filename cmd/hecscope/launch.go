package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// guiName is the desktop app's program. It is not part of hecscope itself so
// that the commands start in a few milliseconds: the app links OpenGL and
// X11, and loading and initialising those takes ~20 ms, two thirds of what
// summarising a 121 MB eventlog takes.
const guiName = "hecscope-gui"

// runGUI starts the desktop app with args (files to open, or --attach=URL)
// in place of this process, and returns only if it could not.
func runGUI(args []string) int {
	self, _ := os.Executable()
	prog, err := guiProgram(self)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		return 1
	}
	return launch(prog, args)
}

// guiProgram finds the desktop app: next to the program self (where `make
// build` and `go install` put both), or else on PATH.
func guiProgram(self string) (string, error) {
	name := guiName
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if self != "" {
		p := filepath.Join(filepath.Dir(self), name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath(guiName); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("the desktop app is the program %s, which is neither next to %s nor on PATH (`make build` builds both into bin/, `go install ./cmd/...` installs both)", guiName, self)
}

// isFile reports whether path names an existing regular file (so that the
// argument is a file to open rather than a subcommand).
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
