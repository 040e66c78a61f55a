package main

import (
	"fmt"
	"io"
	"os"

	"github.com/hecscope/hecscope/ingest"
)

const dumpUsage = "usage: hecscope dump [--segment N] FILE"

// runDump implements `hecscope dump [--segment N] FILE`: it prints the
// eventlog as `ghc-events show FILE` does (event types, then every event
// sorted by timestamp); FILE "-" is standard input. Of a file holding
// several eventlogs one after another it prints the Nth (the first by
// default; see findPart). A truncated log is printed as far as it goes,
// with a notice on stderr, and exits 0; a corrupt one is printed up to the
// damage and exits 1; usage errors exit 2.
func runDump(args []string) int {
	segment, args, err := cutSegmentArg(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope dump: %v\n%s\n", err, dumpUsage)
		return 2
	}
	if len(args) != 1 || args[0] == "" || (len(args[0]) > 1 && args[0][0] == '-') {
		fmt.Fprintln(os.Stderr, dumpUsage)
		return 2
	}
	if args[0] == "-" {
		if segment > 1 {
			fmt.Fprintln(os.Stderr, "hecscope dump: --segment: standard input is read as one eventlog")
			return 2
		}
		r := ingest.NewReader(os.Stdin)
		var buf ingest.ShowBuffer
		var ev ingest.Event
		for r.Next(&ev) {
			buf.Add(&ev)
		}
		var err error
		if h := r.Header(); h != nil {
			err = buf.WriteShow(os.Stdout, h)
		}
		if err == nil {
			err = r.Err()
		}
		return dumpEnd("standard input", r.Status(), err, os.Stderr)
	}
	part, err := findPart(args[0], segment, "--segment", os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
		return 1
	}
	if part.segmented() {
		status, err := readPart(part, func(r io.ReaderAt, size int64) (ingest.Status, error) {
			return ingest.ShowFile(os.Stdout, r, size)
		})
		return dumpEnd(args[0], part.fileStatus(status), err, os.Stderr)
	}
	f, err := os.Open(args[0])
	if err == nil {
		defer f.Close()
		var st os.FileInfo
		if st, err = f.Stat(); err == nil {
			var status ingest.Status
			status, err = ingest.ShowFile(os.Stdout, f, st.Size())
			return dumpEnd(args[0], status, err, os.Stderr)
		}
	}
	fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
	return 1
}

// dumpEnd reports how a dump ended and returns the exit code: 1 for an
// error or a corrupt log, else 0 (a truncated log is normal, with a notice).
func dumpEnd(name string, st ingest.Status, err error, stderr io.Writer) int {
	if err != nil {
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
