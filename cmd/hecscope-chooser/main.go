// Command hecscope-chooser shows the system's file chooser for the desktop
// app, hecscope-gui, which runs it with the request's arguments (see
// internal/chooser): `hecscope-chooser open|save -title T [-dir D] [-file F]
// [-filter "DESC|EXT,EXT"]…`. It prints the path chosen on a line of its
// own, nothing if the user cancels, and exits with chooser.Unavailable when
// the system's chooser cannot be shown.
//
// It is a program of its own so that the app does not link the chooser's
// library, which starts GTK whenever a program that links it starts.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/hecscope/hecscope/internal/chooser"
	"github.com/hecscope/hecscope/internal/chooser/syschooser"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run shows the chooser args ask for and writes the path chosen to stdout;
// it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	req, err := chooser.Parse(args)
	if err != nil {
		fmt.Fprintf(stderr, "hecscope-chooser: %v\nusage: hecscope-chooser open|save -title TITLE [-dir DIR] [-file NAME] [-filter \"DESC|EXT,EXT\"]...\n", err)
		return 2
	}
	path, err := syschooser.Show(req)
	switch {
	case errors.Is(err, syschooser.ErrUnavailable):
		fmt.Fprintf(stderr, "hecscope-chooser: %v\n", err)
		return chooser.Unavailable
	case err != nil:
		fmt.Fprintf(stderr, "hecscope-chooser: %v\n", err)
		return 1
	case path != "":
		fmt.Fprintln(stdout, path)
	}
	return 0
}
