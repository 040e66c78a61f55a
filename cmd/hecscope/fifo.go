package main

import (
	"fmt"
	"os"
)

// sayFIFOWaits tells, for each file argument of a command that is a FIFO,
// that the command waits for a writer on it: opening a FIFO for reading
// blocks until a program opens it for writing, which would otherwise look
// like a hang. Ctrl+C ends the wait (the commands leave SIGINT to its
// default). The argument of -o (an output) is not read, so not told about.
func sayFIFOWaits(name string, args []string) {
	for i, a := range args {
		if len(a) == 0 || a[0] == '-' || (i > 0 && (args[i-1] == "-o" || args[i-1] == "--out")) {
			continue
		}
		if st, err := os.Stat(a); err == nil && st.Mode()&os.ModeNamedPipe != 0 {
			fmt.Fprintf(os.Stderr, "hecscope %s: waiting for a writer on %s (a program started with +RTS -l -ol%s; Ctrl+C stops)\n", name, a, a)
		}
	}
}
