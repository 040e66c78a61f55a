package main

import (
	"fmt"
	"io"
	"os"

	"github.com/hecscope/hecscope/ingest"
)

// runDump implements `hecscope dump FILE`: it prints the eventlog as
// `ghc-events show FILE` does (event types, then every event sorted by
// timestamp); FILE "-" is standard input. A truncated log is printed as far
// as it goes, with a notice on stderr, and exits 0; a corrupt one is printed
// up to the damage and exits 1; usage errors exit 2.
func runDump(args []string) int {
	if len(args) != 1 || args[0] == "" || (len(args[0]) > 1 && args[0][0] == '-') {
		fmt.Fprintln(os.Stderr, "usage: hecscope dump FILE")
		return 2
	}
	if args[0] == "-" {
		return dump("standard input", ingest.NewReader(os.Stdin), os.Stdout, os.Stderr)
	}
	f, err := ingest.Open(args[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		return 1
	}
	defer f.Close()
	return dump(args[0], f.Reader, os.Stdout, os.Stderr)
}

// dump writes the listing of the eventlog that f decodes to stdout, and
// problems to stderr naming it name; it returns the exit code.
func dump(name string, f *ingest.Reader, stdout, stderr io.Writer) int {
	var buf ingest.ShowBuffer
	var ev ingest.Event
	for f.Next(&ev) {
		buf.Add(&ev)
	}
	st := f.Status()
	h := f.Header()
	// Without a header (not an eventlog, or cut inside its header) there is
	// no document to print, only the status below.
	if h != nil {
		if err := buf.WriteShow(stdout, h); err != nil {
			fmt.Fprintf(stderr, "hecscope: %s: %v\n", name, err)
			return 1
		}
	}

	if err := f.Err(); err != nil {
		fmt.Fprintf(stderr, "hecscope: %s: %v\n", name, err)
		return 1
	}
	switch st.State {
	case ingest.StateCorrupt:
		fmt.Fprintf(stderr, "hecscope: %s: %s\n", name, st)
		return 1
	case ingest.StateTruncated:
		fmt.Fprintf(stderr, "hecscope: %s: %s\n", name, st)
	case ingest.StateComplete:
		if st.Trailing > 0 {
			fmt.Fprintf(stderr, "hecscope: %s: %s\n", name, st)
		}
	}
	return 0
}
