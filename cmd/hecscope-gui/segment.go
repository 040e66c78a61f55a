package main

import (
	"fmt"
	"strconv"
	"strings"
)

const segmentUsage = "usage: hecscope-gui --segment N FILE   (N from 1: which eventlog of a file holding several one after another)"

// segmentArgs parses `--segment N FILE` (or `--segment=N FILE`): it returns
// N counted from 1, as the app's segment chooser counts, and FILE.
func segmentArgs(args []string) (n int, file string, err error) {
	var v string
	if s, ok := strings.CutPrefix(args0(args), "--segment="); ok {
		v, args = s, args[1:]
	} else if args0(args) == "--segment" && len(args) > 1 {
		v, args = args[1], args[2:]
	} else {
		return 0, "", fmt.Errorf("--segment needs a number")
	}
	if n, err = parseSegment(v); err != nil {
		return 0, "", err
	}
	if len(args) != 1 || args[0] == "" || strings.HasPrefix(args[0], "-") {
		return 0, "", fmt.Errorf("--segment %d needs one FILE after it", n)
	}
	return n, args[0], nil
}

// parseSegment parses a segment number counted from 1.
func parseSegment(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 1<<20 {
		return 0, fmt.Errorf("--segment %q is not a segment number (1 for the first eventlog of the file)", v)
	}
	return n, nil
}
