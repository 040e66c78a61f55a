package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/internal/childtest"
)

// TestMain lets a test run the command in a child process: the test binary
// is hecscope itself when HECSCOPE_TEST_MAIN is set.
func TestMain(m *testing.M) {
	childtest.Main(m, run)
}

// hecscope runs the command in a child process under the C.UTF-8 locale of
// CI machines and returns its exit code, stdout and stderr.
func hecscope(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := childtest.Command(context.Background(), args, "LANG=C.UTF-8", "LC_ALL=", "LANGUAGE=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

const corpus = "../../testdata/corpus/"

func TestExitCodesAndMessages(t *testing.T) {
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "corrupt.eventlog")
	data, err := os.ReadFile(corpus + "ghc-events__hello-ghc-8.6.5.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte("datb")) + 4 + 24 // first event after the first block marker
	copy(data[i:], []byte{0x77, 0x77})
	if err := os.WriteFile(corrupt, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args       []string
		code       int
		stderrHave string
	}{
		{[]string{"summary", corpus + "ghc-events__hello-ghc-8.6.5.eventlog"}, 0, ""},
		{[]string{"summary", "--json", corpus + "ghc-events__testlog-part.eventlog"}, 0, "truncated at byte 10237"},
		{[]string{"summary", corrupt}, 1, "corrupt at byte"},
		{[]string{"dump", corrupt}, 1, "corrupt at byte"},
		{[]string{"summary"}, 2, "usage"},
		{[]string{"dump", "a", "b"}, 2, "usage"},
		{[]string{"summary", filepath.Join(dir, "missing.eventlog")}, 1, "missing.eventlog"},
		{[]string{"frobnicate"}, 2, "unknown command"},
	}
	for _, c := range cases {
		code, _, stderr := hecscope(t, c.args...)
		if code != c.code {
			t.Errorf("hecscope %v: exit %d, want %d (stderr %q)", c.args, code, c.code, stderr)
		}
		if !strings.Contains(stderr, c.stderrHave) {
			t.Errorf("hecscope %v: stderr %q lacks %q", c.args, stderr, c.stderrHave)
		}
		if strings.Contains(stderr, "Fyne error") {
			t.Errorf("hecscope %v: Fyne logged an error under C.UTF-8: %q", c.args, stderr)
		}
	}
}

func TestSummaryJSON(t *testing.T) {
	code, out, stderr := hecscope(t, "summary", "--json", corpus+"ghc-events__testlog-part.eventlog")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var s map[string]any
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("summary --json is not JSON: %v\n%s", err, out)
	}
	for _, key := range []string{"status", "offset", "events", "capabilities", "threads", "start_ns", "end_ns",
		"gc_count", "gc_ns", "mutator_ns", "productivity", "max_heap_size", "max_heap_live", "allocated_bytes", "per_type"} {
		if _, ok := s[key]; !ok {
			t.Errorf("summary --json lacks %q", key)
		}
	}
	if s["status"] != "truncated" || s["offset"] != float64(10237) || s["events"] != float64(715) {
		t.Errorf("status %v offset %v events %v, want truncated at 10237 with 715 events (718 less 3 block markers)", s["status"], s["offset"], s["events"])
	}
}

func TestDumpMatchesReference(t *testing.T) {
	name := "ghc-events__ghc-9.2-events.eventlog"
	code, out, stderr := hecscope(t, "dump", corpus+name)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want, err := os.ReadFile(corpus + name + ".reference")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Fatalf("hecscope dump %s differs from its reference", name)
	}
}
