package kit

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/hecscope/hecscope/internal/chooser"
)

// chooserName is the program that shows the system's file chooser on
// Linux (cmd/hecscope-chooser): GTK's chooser, whose library starts GTK in
// every program that links it (see internal/chooser).
const chooserName = "hecscope-chooser"

// findChooser finds the chooser program: next to this program (where `make
// build` and `go install` put both), or else on PATH.
var findChooser = func() (string, error) {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), chooserName)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath(chooserName); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s is neither next to this program nor on PATH", chooserName)
}

// chooseNative runs the chooser program and reads its answer. A chooser
// that cannot be found or shown is errNoNativeDialog: Fyne's own is shown
// instead.
func chooseNative(req chooser.Request) (string, error) {
	prog, err := findChooser()
	if err != nil {
		return "", fmt.Errorf("%w: %v", errNoNativeDialog, err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(prog, req.Args()...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit) && exit.ExitCode() == chooser.Unavailable:
		return "", fmt.Errorf("%w: %s", errNoNativeDialog, strings.TrimSpace(stderr.String()))
	case err != nil:
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("%s: %w: %s", prog, err, msg)
		}
		return "", fmt.Errorf("%s: %w", prog, err)
	}
	return chooser.Answer(stdout.Bytes()), nil
}
