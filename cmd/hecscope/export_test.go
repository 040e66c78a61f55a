package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExportCommand(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ format, file, want string }{
		{"chrome", spanwork, `"traceEvents"`},
		{"speedscope", profwork, `"$schema"`},
		{"csv", spanwork, "kind,label,start_ns"},
	} {
		out := filepath.Join(dir, "out."+c.format)
		code, _, errOut := hecscope(t, "export", "--format", c.format, "--from", "1ms", c.file, "-o", out)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.format, code, errOut)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), c.want) {
			t.Errorf("%s: %.200s", c.format, data)
		}
		if c.format != "csv" && !json.Valid(data) {
			t.Errorf("%s: not JSON", c.format)
		}
	}
	code, out, _ := hecscope(t, "export", "--format", "csv", spanwork, "-o", "-")
	if code != 0 || !strings.HasPrefix(out, "kind,") {
		t.Errorf("to stdout: exit %d %.100q", code, out)
	}
	for _, bad := range [][]string{{"export", spanwork, "-o", "x"}, {"export", "--format", "pdf", spanwork, "-o", "x"}, {"export", "--format", "csv", spanwork}} {
		if code, _, _ := hecscope(t, bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
	missing := filepath.Join(dir, "missing.json")
	if code, _, _ := hecscope(t, "export", "--format", "chrome", "nonexistent.eventlog", "-o", missing); code != 1 {
		t.Errorf("missing log: exit %d", code)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("a failed export left its file")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
