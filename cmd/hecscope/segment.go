package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
)

// segmentFlag is a --segment N option: which eventlog of a file holding
// several one after another a command reads, counted from 1 as the app's
// segment chooser and `hecscope --segment N FILE` count; 0 when not given
// (the first).
type segmentFlag int

func (s *segmentFlag) String() string { return strconv.Itoa(int(*s)) }

func (s *segmentFlag) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > ingest.MaxSegments {
		return fmt.Errorf("%q is not a segment number (1 for the first eventlog of the file)", v)
	}
	*s = segmentFlag(n)
	return nil
}

// segmentFlagNames are the options that pick the segment of each file of a
// command that reads n files: --segment for one, --segment-a and
// --segment-b for two runs A and B.
func segmentFlagNames(n int) []string {
	if n == 2 {
		return []string{"--segment-a", "--segment-b"}
	}
	return []string{"--segment"}
}

// cutSegmentArg takes --segment N (or --segment=N) out of args, for the
// commands that read their arguments without a flag set (dump, summary).
// It returns N (0 if not given) and the other arguments.
func cutSegmentArg(args []string) (n segmentFlag, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v, ok := strings.CutPrefix(a, "--segment=")
		if !ok && (a == "--segment" || a == "-segment") {
			if i+1 == len(args) {
				return 0, nil, fmt.Errorf("--segment needs a number")
			}
			v, ok = args[i+1], true
			i++
		}
		if !ok {
			rest = append(rest, a)
			continue
		}
		if err := n.Set(v); err != nil {
			return 0, nil, fmt.Errorf("--segment: %w", err)
		}
	}
	return n, rest, nil
}

// logPart is what a command reads of an eventlog file: the whole file, or
// one segment of a file holding several eventlogs one after another (as
// ingest.FindSegments splits it).
type logPart struct {
	path string
	// offset and length are the segment's bytes in the file (length 0:
	// the whole file is read, as an ordinary log).
	offset, length int64
	// index is the segment read (0-based), of count segments (1 for an
	// ordinary file, or one that is not a regular file).
	index, count int
	// firstLength is the first segment's length: a restarted eventlog
	// takes the program's identity from it (timeline.Summary.Inherit).
	firstLength int64
}

// findPart finds segment n (counted from 1; 0 is the first) of the file at
// path. A file that is not a regular one (standard input, a FIFO) is read
// as it comes, as one eventlog. When the file holds several, it says on
// stderr which one the command reads and that flag picks another (see
// segmentNote).
func findPart(path string, n segmentFlag, flag string, stderr io.Writer) (logPart, error) {
	k := max(int(n), 1) - 1
	p := logPart{path: path, count: 1}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		if k > 0 {
			return p, fmt.Errorf("%s: %s %d: only a regular file is split into its eventlogs", path, flag, k+1)
		}
		return p, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return p, err
	}
	defer f.Close()
	found, err := ingest.FindSegments(f, st.Size())
	if err != nil {
		if k > 0 {
			return p, fmt.Errorf("%s: finding its eventlogs: %w", path, err)
		}
		return p, nil // not an eventlog: the command's own reading says so
	}
	if k >= len(found) {
		return p, fmt.Errorf("%s: no segment %d: the file holds %s", path, k+1, eventlogCount(len(found)))
	}
	if len(found) == 1 {
		return p, nil
	}
	g := found[k]
	p.offset, p.length, p.index, p.count = g.Offset, g.End-g.Offset, k, len(found)
	p.firstLength = found[0].End
	if k == len(found)-1 {
		// The last one with the bytes after it that are no eventlog, which
		// its status counts.
		p.length = st.Size() - g.Offset
	}
	fmt.Fprintln(stderr, segmentNote(p, flag))
	return p, nil
}

// segmentNote is the line every command writes when the file it reads
// holds several eventlogs and it reads one: which, and how to pick another.
func segmentNote(p logPart, flag string) string {
	return fmt.Sprintf("note: %s holds %s; this is the %s (%s N picks another; hecscope summary lists them)",
		p.path, eventlogCount(p.count), ordinal(p.index+1), flag)
}

// eventlogCount says "1 eventlog" or "N eventlogs one after another".
func eventlogCount(n int) string {
	if n == 1 {
		return "1 eventlog"
	}
	return fmt.Sprintf("%d eventlogs one after another", n)
}

// ordinal writes n as 1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, 21st.
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// segmented reports whether p is one segment of several (read from its
// bytes), not a whole file.
func (p logPart) segmented() bool { return p.count > 1 }

// readPart returns what read makes of the part's bytes: a section of the
// file of p.length bytes. Only for a segmented part.
func readPart[T any](p logPart, read func(r io.ReaderAt, size int64) (T, error)) (T, error) {
	f, err := os.Open(p.path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	return read(io.NewSectionReader(f, p.offset, p.length), p.length)
}

// pass is a time-ordered pass over the eventlog p: the whole file, or its
// segment, the file opened for the pass. A segment's statuses count bytes
// from its start (fileStatus turns them into the file's).
func (p logPart) pass(ctx context.Context) ingest.Pass {
	if !p.segmented() {
		return ingest.FilePass(ctx, p.path)
	}
	return func(fn func(*ingest.Event) bool) (ingest.Status, error) {
		st, err := readPart(p, func(r io.ReaderAt, size int64) (ingest.Status, error) {
			return ingest.ReaderPass(ctx, r, size)(fn)
		})
		if err != nil {
			return st, fmt.Errorf("%s: %w", p.path, err)
		}
		return st, nil
	}
}

// fileStatus turns a status of the part's bytes (offsets from the
// segment's start) into the file's.
func (p logPart) fileStatus(st ingest.Status) ingest.Status {
	st.Offset += p.offset
	return st
}

// segmentStatus says how a log ends as `hecscope summary` says it of a file
// holding several: a complete segment followed by others is "complete
// (then N more eventlogs)", not "complete (N bytes after the end marker
// ignored)"; index is the segment (0-based) of count.
func segmentStatus(st ingest.Status, index, count int) string {
	if count > 1 && st.State == ingest.StateComplete && index < count-1 {
		return "complete (then " + paint.CountOf(int64(count-1-index), "more eventlog", "more eventlogs") + ")"
	}
	return st.String()
}
