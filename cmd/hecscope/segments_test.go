package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSummarySegments (issue 16.9): two real eventlogs written one after the
// other into a file are two segments: the text says "Segments: 2" with each
// one's program, and the JSON lists both with where they lie. A single log
// has no segments section.
func TestSummarySegments(t *testing.T) {
	a, err := os.ReadFile(corpus + "ghc-events__hello-ghc-8.2.2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(corpus + "ghc-events__sleep.hy.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	joined := filepath.Join(t.TempDir(), "joined.eventlog")
	if err := os.WriteFile(joined, append(append([]byte{}, a...), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := hecscope(t, "summary", joined)
	if code != 0 {
		t.Fatalf("summary of two joined logs: exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "\nSegments: 2\n") || !strings.Contains(out, "hellofib.exe") || !strings.Contains(out, "./sleep") {
		t.Errorf("summary of two joined logs does not list both segments:\n%s", out)
	}
	segs := summarySegments(t, joined)
	if len(segs) != 2 {
		t.Fatalf("JSON segments: %d, want 2", len(segs))
	}
	s0, s1 := segs[0], segs[1]
	if s0.Offset != 0 || s0.End != int64(len(a)) || s1.Offset != int64(len(a)) || s1.End != int64(len(a)+len(b)) {
		t.Errorf("segment bounds %d–%d, %d–%d; want 0–%d, %d–%d", s0.Offset, s0.End, s1.Offset, s1.End, len(a), len(a), len(a)+len(b))
	}
	if s0.Status != "complete" || s1.Status != "complete" || s0.Program != "hellofib.exe" || s1.Program != "./sleep" || s0.Events == 0 || s1.Events == 0 {
		t.Errorf("segments %+v", segs)
	}
	code, out, _ = hecscope(t, "summary", corpus+"ghc-events__sleep.hy.eventlog")
	if code != 0 || strings.Contains(out, "Segments:") {
		t.Errorf("a single log reports segments (exit %d):\n%s", code, out)
	}
}

// summarySegment is what `hecscope summary --json` says of one eventlog
// of a file holding several.
type summarySegment struct {
	Offset       int64  `json:"offset"`
	End          int64  `json:"end"`
	Status       string `json:"status"`
	Program      string `json:"program"`
	IdentityFrom int    `json:"identity_from_segment"`
	Events       uint64 `json:"events"`
	Capabilities int    `json:"capabilities"`
}

// summarySegments runs `hecscope summary --json` on the file at path and
// returns the eventlogs it says the file holds.
func summarySegments(t *testing.T, path string) []summarySegment {
	t.Helper()
	code, out, errs := hecscope(t, "summary", "--json", path)
	if code != 0 {
		t.Fatalf("summary --json %s: exit %d, stderr %q", path, code, errs)
	}
	var j struct {
		Segments []summarySegment `json:"segments"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	return j.Segments
}

// joinedRuns writes parwork-N2, parwork-N1 and heap-hT, three real logs,
// one after another into one file (as a program that restarts its logging
// into a FIFO leaves them) and returns its path and the second one's.
func joinedRuns(t *testing.T) (joined, second string) {
	t.Helper()
	var all []byte
	names := []string{"parwork-N2", "parwork-N1", "heap-hT"}
	for _, n := range names {
		b, err := os.ReadFile("../../testdata/ghc-9.0.2/" + n + ".eventlog")
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	joined = filepath.Join(t.TempDir(), "joined.eventlog")
	if err := os.WriteFile(joined, all, 0o644); err != nil {
		t.Fatal(err)
	}
	return joined, "../../testdata/ghc-9.0.2/parwork-N1.eventlog"
}

// TestCommandsReadSegment (issue 16.9): every command that reads one
// eventlog takes --segment N, and reads of a joined file what it reads of
// that eventlog alone (the same text, CSV or picture), saying on stderr
// which of the three it read. Before, render, spans, dump, profile and
// export refused the flag.
func TestCommandsReadSegment(t *testing.T) {
	joined, second := joinedRuns(t)
	dir := t.TempDir()
	cases := []struct {
		name string
		args func(file string, out string) []string
		out  bool // the output is the file out, not stdout
	}{
		{"dump", func(f, _ string) []string { return []string{"dump", f} }, false},
		{"summary", func(f, _ string) []string { return []string{"summary", "--json", f} }, false},
		{"spans", func(f, _ string) []string { return []string{"spans", "--json", f} }, false},
		{"profile", func(f, _ string) []string { return []string{"profile", "--json", f} }, false},
		{"export", func(f, o string) []string { return []string{"export", "--format", "csv", f, "-o", o} }, true},
		{"render", func(f, o string) []string { return []string{"render", f, "-o", o, "--width", "400", "--height", "300"} }, true},
		{"render-threads", func(f, o string) []string {
			return []string{"render", "--view", "threads", f, "-o", o, "--width", "400", "--height", "300"}
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			alone, joinedOut := filepath.Join(dir, c.name+"-alone"), filepath.Join(dir, c.name+"-joined")
			code, want, errs := hecscope(t, c.args(second, alone)...)
			if code != 0 || strings.Contains(errs, "note:") {
				t.Fatalf("%s of the log alone: exit %d, stderr %q", c.name, code, errs)
			}
			args := append([]string{c.args(joined, joinedOut)[0], "--segment", "2"}, c.args(joined, joinedOut)[1:]...)
			code, got, errs := hecscope(t, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d, stderr %q", args, code, errs)
			}
			note := "note: " + joined + " holds 3 eventlogs one after another; this is the 2nd (--segment N picks another; hecscope summary lists them)\n"
			if errs != note {
				t.Errorf("%v: stderr %q, want %q", args, errs, note)
			}
			sameAsAlone(t, args, c.out, alone, joinedOut, want, got)
		})
	}
	code, _, errs := hecscope(t, "render", "--segment", "4", joined, "-o", filepath.Join(dir, "none.png"))
	if code != 1 || !strings.Contains(errs, "no segment 4: the file holds 3 eventlogs one after another") {
		t.Errorf("render --segment 4 of 3: exit %d, stderr %q", code, errs)
	}
	code, _, errs = hecscope(t, "spans", "--segment", "0", joined)
	if code != 2 || !strings.Contains(errs, "not a segment number") {
		t.Errorf("spans --segment 0: exit %d, stderr %q", code, errs)
	}
}

// TestSegmentStatusWording (issue 16.9): dump and compare of a joined file
// said "complete (336386 bytes after the end marker ignored)"; they now say
// which eventlog they read, in summary's words, and compare takes
// --segment-a and --segment-b.
func TestSegmentStatusWording(t *testing.T) {
	joined, _ := joinedRuns(t)
	code, _, errs := hecscope(t, "dump", joined)
	if code != 0 || strings.Contains(errs, "ignored") || !strings.Contains(errs, "this is the 1st (--segment N picks another") {
		t.Errorf("dump of a joined file: exit %d, stderr %q", code, errs)
	}
	code, out, errs := hecscope(t, "compare", "--segment-b", "2", joined, joined)
	if code != 0 {
		t.Fatalf("compare --segment-b 2: exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{
		"-N2 -lf -A256k -RTS; GHC-9.0.2 rts_thr_l)\n   eventlog 1 of 3 in the file; status: complete (then 2 more eventlogs)\n",
		"-N1 -lf -A256k -RTS; GHC-9.0.2 rts_thr_l)\n   eventlog 2 of 3 in the file; status: complete (then 1 more eventlog)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("compare --segment-b 2 does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "ignored") || !strings.Contains(errs, "this is the 1st (--segment-a N picks another") ||
		!strings.Contains(errs, "this is the 2nd (--segment-b N picks another") {
		t.Errorf("compare --segment-b 2: stdout %q, stderr %q", out, errs)
	}
	code, out, _ = hecscope(t, "compare", "--json", "--segment-a", "3", joined, joined)
	var j struct {
		A struct {
			Program  string `json:"program"`
			Segment  int    `json:"segment"`
			Segments int    `json:"segments"`
		} `json:"a"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil || code != 0 {
		t.Fatalf("compare --json: exit %d, %v", code, err)
	}
	if j.A.Program != "./heapwork" || j.A.Segment != 3 || j.A.Segments != 3 {
		t.Errorf("compare --json --segment-a 3: run A %+v", j.A)
	}
	if code, _, errs = hecscope(t, "compare", "--segment", "2", joined, joined); code != 2 || !strings.Contains(errs, "--segment-a N and --segment-b N") {
		t.Errorf("compare --segment: exit %d, stderr %q", code, errs)
	}
}

// TestSummarySegmentRowsCountAsHeader (issue 16.9): the segments table
// counted events without block markers (14,389) under a header that
// counts them (14,392 events (3 block markers)) for the same eventlog.
func TestSummarySegmentRowsCountAsHeader(t *testing.T) {
	joined, _ := joinedRuns(t)
	code, out, errs := hecscope(t, "summary", joined)
	if code != 0 {
		t.Fatalf("summary: exit %d, stderr %q", code, errs)
	}
	var header string
	for _, l := range strings.Split(out, "\n") {
		if h, ok := strings.CutPrefix(l, "Events:"); ok {
			header = strings.Fields(h)[0]
		}
	}
	i := strings.Index(out, "\nSegments: 3\n")
	if header == "" || i < 0 {
		t.Fatalf("no Events row or segments table:\n%s", out)
	}
	rows := strings.Split(out[i:], "\n")
	if len(rows) < 5 || !strings.HasPrefix(strings.TrimSpace(rows[3]), "1 ") || !strings.Contains(rows[3], " "+header+" ") {
		t.Errorf("the first segment's row does not count %s events as the header does:\n%s", header, out[i:])
	}
}

// TestTwoRunCommandsReadSegments (issue 16.9): spans --compare, profile
// --diff and render --compare take --segment-a N and --segment-b N, and
// give of the second eventlog of a joined file, twice, what they give of
// that log alone, twice (saved under the same name, which the picture
// shows). --segment with two runs is a usage error.
func TestTwoRunCommandsReadSegments(t *testing.T) {
	joined, second := joinedRuns(t)
	dir := t.TempDir()
	alone := filepath.Join(dir, "alone", filepath.Base(joined))
	b, err := os.ReadFile(second)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(alone), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args func(a, b, out string) []string
		out  bool
	}{
		{"spans", func(a, b, _ string) []string { return []string{"spans", "--compare", "--json", a, b} }, false},
		{"profile", func(a, b, _ string) []string { return []string{"profile", "--diff", "--json", a, b} }, false},
		{"render", func(a, b, o string) []string {
			return []string{"render", "--compare", a, b, "-o", o, "--width", "800", "--height", "900"}
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			aloneOut, joinedOut := filepath.Join(dir, c.name+"-alone.png"), filepath.Join(dir, c.name+"-joined.png")
			code, want, errs := hecscope(t, c.args(alone, alone, aloneOut)...)
			if code != 0 || strings.Contains(errs, "note:") {
				t.Fatalf("%s of the log alone: exit %d, stderr %q", c.name, code, errs)
			}
			args := c.args(joined, joined, joinedOut)
			args = append([]string{args[0], "--segment-a", "2", "--segment-b", "2"}, args[1:]...)
			code, got, errs := hecscope(t, args...)
			if code != 0 || !strings.Contains(errs, "this is the 2nd (--segment-a N picks another") ||
				!strings.Contains(errs, "this is the 2nd (--segment-b N picks another") {
				t.Fatalf("%v: exit %d, stderr %q", args, code, errs)
			}
			sameAsAlone(t, args, c.out, aloneOut, joinedOut, want, got)
			args = append([]string{args[0], "--segment", "2"}, c.args(joined, joined, joinedOut)[1:]...)
			if code, _, errs := hecscope(t, args...); code != 2 || !strings.Contains(errs, "--segment-a N and --segment-b N") {
				t.Errorf("%v: exit %d, stderr %q", args, code, errs)
			}
		})
	}
}

// sameAsAlone checks that the command args, run on one eventlog of a file
// holding several, gave what it gives on that log alone: its standard
// output (got, want), or with out the bytes of the file it wrote
// (joinedOut, aloneOut).
func sameAsAlone(t *testing.T, args []string, out bool, aloneOut, joinedOut, want, got string) {
	t.Helper()
	if out {
		w, err := os.ReadFile(aloneOut)
		if err != nil {
			t.Fatal(err)
		}
		g, err := os.ReadFile(joinedOut)
		if err != nil {
			t.Fatal(err)
		}
		want, got = string(w), string(g)
	}
	if len(want) == 0 || got != want {
		t.Errorf("%v gives %d bytes unlike the log alone's %d", args, len(got), len(want))
	}
}

// TestRestartedFIFOStream: a GHC 9.0.2 program that restarted its logging
// three times (endEventLogging; startEventLogging), read from its FIFO,
// holds 4 eventlogs, each after the first behind a block marker; each has
// its events, and the later ones, which do not repeat the program's
// identity, name the program from the first and say so.
func TestRestartedFIFOStream(t *testing.T) {
	const path = "../../testdata/ghc-9.0.2/restart4.eventlog"
	segs := summarySegments(t, path)
	if len(segs) != 4 {
		t.Fatalf("%d segments, want 4: %+v", len(segs), segs)
	}
	for i, g := range segs {
		from := 0
		if i > 0 {
			from = 1
		}
		if g.Status != "complete" || g.Program != "./restart-fifo" || g.IdentityFrom != from || g.Events < 100 || g.Capabilities != 2 {
			t.Errorf("segment %d: %+v", i+1, g)
		}
	}
	code, out, _ := hecscope(t, "summary", "--segment", "3", path)
	if code != 0 || !strings.Contains(out, "Identity:          from eventlog 1 of this file") || !strings.Contains(out, "Program:           ./restart-fifo") {
		t.Errorf("summary --segment 3: exit %d\n%s", code, out)
	}
}
