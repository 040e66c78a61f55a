package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSegmentOption: `--segment N FILE` parses N from 1, and --snapshot
// draws the segment it names (two segments of different runs draw
// differently; one the file does not have is an error, a bad N a usage
// error).
func TestSegmentOption(t *testing.T) {
	for _, c := range []struct {
		args []string
		n    int
		file string
	}{
		{[]string{"--segment", "2", "x.eventlog"}, 2, "x.eventlog"},
		{[]string{"--segment=1", "x.eventlog"}, 1, "x.eventlog"},
	} {
		n, file, err := segmentArgs(c.args)
		if err != nil || n != c.n || file != c.file {
			t.Errorf("%q: %d %q %v, want %d %q", c.args, n, file, err, c.n, c.file)
		}
	}
	for _, bad := range [][]string{
		{"--segment"}, {"--segment", "2"}, {"--segment", "0", "x"}, {"--segment", "two", "x"},
		{"--segment", "2", "x", "y"}, {"--segment=", "x"}, {"--segment", "2", "--quit-after-load"},
	} {
		if _, _, err := segmentArgs(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}

	var all []byte
	for _, p := range []string{"../../testdata/ghc-9.0.2/parwork-N2.eventlog", "../../testdata/ghc-9.0.2/heap-hc.eventlog"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	dir := t.TempDir()
	joined := filepath.Join(dir, "joined.eventlog")
	if err := os.WriteFile(joined, all, 0o644); err != nil {
		t.Fatal(err)
	}
	shot := func(seg string) ([]byte, int, string) {
		out := filepath.Join(dir, "seg"+seg+".png")
		var stderr strings.Builder
		code := snapshot([]string{"--snapshot", out, "--size", "640x400", "--segment", seg, joined}, &stderr)
		b, _ := os.ReadFile(out)
		return b, code, stderr.String()
	}
	one, code1, err1 := shot("1")
	two, code2, err2 := shot("2")
	if code1 != 0 || code2 != 0 {
		t.Fatalf("--segment 1: exit %d %s; --segment 2: exit %d %s", code1, err1, code2, err2)
	}
	if bytes.Equal(one, two) {
		t.Error("segments 1 and 2 of two different runs draw the same picture")
	}
	if _, code, stderr := shot("3"); code != 1 || !strings.Contains(stderr, "no segment 3") {
		t.Errorf("--segment 3 of 2: exit %d, %q", code, stderr)
	}
	if _, code, _ := shot("0"); code != 2 {
		t.Errorf("--segment 0: exit %d, want 2 (usage)", code)
	}
}
