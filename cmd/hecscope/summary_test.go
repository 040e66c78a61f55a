package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/internal/testlog"
	"github.com/hecscope/hecscope/timeline"
)

// flippedLog writes a copy of the real log at path with byte 2 of one
// event's timestamp set to 0x7f (a time of about 40 hours past the run's
// 0.1 s): the event half way through those in capability blocks. It
// returns the copy's path and the event's offset.
func flippedLog(t *testing.T, path string) (string, int64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := ingest.NewDecoder()
	d.Feed(data)
	d.End()
	var ev ingest.Event
	var offs []int64
	var blockEnd int64
	for d.Next(&ev) {
		if ev.Kind == ingest.KindBlockMarker {
			blockEnd = ev.Offset + int64(ev.Args[0])
		} else if ev.Cap >= 0 && ev.Offset+int64(len(ev.Raw)) < blockEnd {
			offs = append(offs, ev.Offset)
		}
	}
	off := offs[len(offs)/2]
	data = bytes.Clone(data)
	data[off+4] = 0x7f
	out := filepath.Join(t.TempDir(), "flipped.eventlog")
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out, off
}

// TestImpossibleTimestampDoesNotStretchTheRun: with one event's timestamp
// made impossible by one flipped byte, summary reports the event (its
// offset) and gives the run's real length, and render draws the run's
// real length with the same report. Before, summary said the 0.11 s run
// took 139,638 s at 100 % productivity, and render drew that.
func TestImpossibleTimestampDoesNotStretchTheRun(t *testing.T) {
	orig := "../../testdata/ghc-9.0.2/parwork-N2.eventlog"
	path, off := flippedLog(t, orig)
	code, out, _ := hecscope(t, "summary", "--json", orig)
	if code != 0 {
		t.Fatalf("summary of the original: exit %d", code)
	}
	var want struct {
		EndNS      uint64 `json:"end_ns"`
		DurationNS uint64 `json:"duration_ns"`
	}
	if err := json.Unmarshal([]byte(out), &want); err != nil {
		t.Fatal(err)
	}
	code, out, errs := hecscope(t, "summary", "--json", path)
	if code != 0 {
		t.Fatalf("summary: exit %d: %s", code, errs)
	}
	var got struct {
		Status     string `json:"status"`
		EndNS      uint64 `json:"end_ns"`
		DurationNS uint64 `json:"duration_ns"`
		TimeFaults struct {
			Count int64 `json:"count"`
			First []struct {
				Offset int64 `json:"offset"`
			} `json:"first"`
		} `json:"time_faults"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.EndNS != want.EndNS || got.DurationNS != want.DurationNS {
		t.Errorf("summary: run ends at %d ns and lasts %d ns; the log before the flip: %d, %d", got.EndNS, got.DurationNS, want.EndNS, want.DurationNS)
	}
	if got.TimeFaults.Count != 1 || len(got.TimeFaults.First) != 1 || got.TimeFaults.First[0].Offset != off {
		t.Errorf("summary: time faults %+v, want one at byte %d", got.TimeFaults, off)
	}
	if !strings.Contains(errs, "impossible timestamp") {
		t.Errorf("summary says nothing of the impossible timestamp on stderr: %q", errs)
	}
	_, text, _ := hecscope(t, "summary", path)
	if !strings.Contains(text, "Impossible times:") || !strings.Contains(text, "ThreadScope's total time:    112.927ms") {
		t.Errorf("summary text:\n%s", text)
	}

	png := filepath.Join(t.TempDir(), "out.png")
	code, _, errs = hecscope(t, "render", path, "-o", png)
	if code != 0 || !strings.Contains(errs, "impossible timestamp") {
		t.Fatalf("render: exit %d, stderr %q", code, errs)
	}
}

// TestEveryCommandKeepsItsWord: an empty file is "empty file: not an
// eventlog", exit 1, for every command that reads a log (summary said
// "truncated at byte 0" and exited 0, compare printed a table); a log of a
// program that crashed after its header gets a picture that says "no
// events", exit 0 (render exited 1: "empty time range").
func TestEveryCommandKeepsItsWord(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.eventlog")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	good := "../../testdata/ghc-9.0.2/parwork-N1.eventlog"
	png := filepath.Join(dir, "out.png")
	for _, args := range [][]string{
		{"summary", empty}, {"summary", "--json", empty}, {"dump", empty}, {"render", empty, "-o", png},
		{"compare", empty, good}, {"compare", good, empty}, {"compare", "--json", good, empty},
	} {
		code, _, errs := hecscope(t, args...)
		if code != 1 || !strings.Contains(errs, "empty file: not an eventlog") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}

	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	headerOnly := filepath.Join(dir, "header-only.eventlog")
	if err := os.WriteFile(headerOnly, data[:bytes.Index(data, []byte("datb"))+4], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, view := range []string{"timeline", "threads", "activity"} {
		os.Remove(png)
		code, _, errs := hecscope(t, "render", headerOnly, "-o", png, "--view", view)
		if code != 0 || !strings.Contains(errs, "no events") {
			t.Errorf("render --view %s of a header-only log: exit %d, stderr %q", view, code, errs)
		}
		if st, err := os.Stat(png); err != nil || st.Size() == 0 {
			t.Errorf("render --view %s of a header-only log wrote no picture: %v", view, err)
		}
	}
}

// TestBlockOfImpossibleCapabilityIsReported: parwork-N2 with its first
// block's marker rewritten to capability 4095 (GHC created 0 and 1).
// Before, summary said "Status: complete" and "Capabilities: 4096" and
// nothing else, and render exited 0 in silence with HEC 0 empty and the
// block's 4,099 events drawn nowhere. Now both report the block (its
// offset, the capability it claims, its events), summary counts the
// capabilities that occur (0, 1 and 4095) and render draws HEC 4095.
func TestBlockOfImpossibleCapabilityIsReported(t *testing.T) {
	orig := "../../testdata/ghc-9.0.2/parwork-N2.eventlog"
	path, off := testlog.CapRewritten(t, orig, 4095)
	if off != 2688 {
		t.Errorf("the first block of capability 0 is at byte %d, the brief says 2688", off)
	}
	type report struct {
		Capabilities int     `json:"capabilities"`
		Numbers      []int32 `json:"capability_numbers"`
		CapFaults    *struct {
			Count int64 `json:"count"`
			First []struct {
				Offset int64 `json:"offset"`
				Cap    int32 `json:"cap"`
				Events int64 `json:"events"`
			} `json:"first"`
		} `json:"cap_faults"`
	}
	code, out, errs := hecscope(t, "summary", "--json", orig)
	var sound report
	if err := json.Unmarshal([]byte(out), &sound); code != 0 || err != nil {
		t.Fatalf("summary of the original: exit %d, %v: %s", code, err, errs)
	}
	if sound.Capabilities != 2 || sound.Numbers != nil || sound.CapFaults != nil || errs != "" {
		t.Errorf("summary of the original: %+v, stderr %q", sound, errs)
	}
	code, out, errs = hecscope(t, "summary", "--json", path)
	var got report
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("summary: exit %d, %v: %s", code, err, errs)
	}
	if got.Capabilities != 3 || !slices.Equal(got.Numbers, []int32{0, 1, 4095}) {
		t.Errorf("summary: %d capabilities, numbers %v; want 3: 0, 1, 4095", got.Capabilities, got.Numbers)
	}
	if cf := got.CapFaults; cf == nil || cf.Count != 1 || len(cf.First) != 1 ||
		cf.First[0].Offset != off || cf.First[0].Cap != 4095 || cf.First[0].Events != 4099 {
		t.Errorf("summary: cap faults %+v, want the block at byte %d of 4,099 events claiming 4095", cf, off)
	}
	claim := fmt.Sprintf("the block at byte %d (4,099 events) claims capability 4095, which the log never created", off)
	if !strings.Contains(errs, claim) {
		t.Errorf("summary's stderr %q does not say %q", errs, claim)
	}
	_, text, _ := hecscope(t, "summary", path)
	if !strings.Contains(text, "Capabilities:             3 (numbers 0, 1, 4095)") || !strings.Contains(text, "Impossible capabilities:  "+claim) {
		t.Errorf("summary text:\n%s", text)
	}

	png := filepath.Join(t.TempDir(), "out.png")
	code, _, errs = hecscope(t, "render", path, "-o", png)
	if code != 0 || !strings.Contains(errs, claim) {
		t.Errorf("render: exit %d, stderr %q", code, errs)
	}
}

// TestSummaryRange: `summary --from --to --json` gives the figures of the
// range, the same timeline.SummarizeRange gives the app's Selection tab:
// the GC time of the pauses in it, the allocation its collections
// counted, the threads that ran in it; the text report marks the run's
// description as the run's. Without --to the range runs to the end of the
// run.
func TestSummaryRange(t *testing.T) {
	path := "../../testdata/ghc-9.0.2/parwork-N2.eventlog"
	const from, to = 30_000_000, 60_000_000
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, err := timeline.SummarizeRange(f, from, to)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := hecscope(t, "summary", "--from", "30ms", "--to", "60ms", "--json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Range struct {
			ToNS uint64 `json:"to_ns"`
		} `json:"range"`
		Events     uint64  `json:"events"`
		DurationNS uint64  `json:"duration_ns"`
		GCSource   string  `json:"gc_source"`
		GCTimeNS   *uint64 `json:"gc_time_ns"`
		Allocated  *uint64 `json:"allocated_bytes"`
		MaxLive    *uint64 `json:"max_heap_live"`
		ThreadsRan *uint64 `json:"threads_ran"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	gc, _ := want.GCTime()
	if got.Events != want.Events || got.DurationNS != want.TotalNS || got.GCSource != "gc_events" ||
		got.GCTimeNS == nil || *got.GCTimeNS != gc || got.Allocated == nil || *got.Allocated != want.Heap.Allocated ||
		got.ThreadsRan == nil || *got.ThreadsRan != want.ThreadsRan || (got.MaxLive != nil) != want.Heap.HasLive {
		t.Errorf("summary --from --to: %s\nthe Selection tab's figures: %+v", out, want)
	}
	if gc == 0 || want.Heap.Allocated == 0 || want.ThreadsRan == 0 {
		t.Errorf("the range 30-60 ms of parwork-N2 has GC time %d, allocated %d, %d threads that ran", gc, want.Heap.Allocated, want.ThreadsRan)
	}
	_, text, _ := hecscope(t, "summary", "--from", "30ms", "--to", "60ms", path)
	for _, w := range []string{"Range:", "Program (the run's):", "Threads ran:", "the pauses in the range"} {
		if !strings.Contains(text, w) {
			t.Errorf("the range's text report lacks %q:\n%s", w, text)
		}
	}
	// To the end of the run.
	_, out, _ = hecscope(t, "summary", "--from", "30ms", "--json", path)
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Range.ToNS == 0 {
		t.Errorf("summary --from alone: %v %s", err, out)
	}
}

// TestSummaryAbsentIsNull: a figure the log has no events for is null in
// the JSON report, never 0, and its row says what the log lacks:
// parallelTest has heap events but no HeapLive (its residency was 0);
// sealions, from GHC 7.x, has no heap events (it had 0 collections, GC
// time 0 and productivity 1) and gets its GC time from its GC events.
func TestSummaryAbsentIsNull(t *testing.T) {
	var got map[string]any
	_, out, _ := hecscope(t, "summary", "--json", corpus+"ghc-events__parallelTest.eventlog")
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got["max_heap_live"] != nil || got["max_heap_size"] == nil || got["gc_source"] != "threadscope" {
		t.Errorf("parallelTest: max_heap_live %v, max_heap_size %v, gc_source %v", got["max_heap_live"], got["max_heap_size"], got["gc_source"])
	}
	_, text, _ := hecscope(t, "summary", corpus+"ghc-events__parallelTest.eventlog")
	if !strings.Contains(text, "Maximum heap residency:    — (the log has no HeapLive events)") {
		t.Errorf("parallelTest's text report:\n%s", text)
	}
	_, out, _ = hecscope(t, "summary", "--json", corpus+"ThreadScope__sealions.eventlog")
	got = nil
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"max_heap_size", "max_heap_live", "allocated_bytes", "alloc_rate", "max_slop", "copied_bytes", "gc_count", "gc_ns"} {
		if got[k] != nil {
			t.Errorf("sealions: %s %v, want null", k, got[k])
		}
	}
	p, _ := got["gc_pauses"].(map[string]any)
	if got["gc_source"] != "gc_events" || got["gc_time_ns"] == nil || p == nil || p["count"].(float64) < 1 ||
		got["productivity"] == nil || got["productivity"].(float64) >= 1 {
		t.Errorf("sealions: gc_source %v, gc_time_ns %v, gc_pauses %v, productivity %v", got["gc_source"], got["gc_time_ns"], p, got["productivity"])
	}
}

// TestSummaryRTSFigures: the report gives `+RTS -s`'s figures under -s's
// names and ThreadScope's under ThreadScope's. On a GHC 9.0.2 run saved
// with its -s output, the work balance and slop in --json are -s's (50.44%
// and 40,232 bytes, where ThreadScope's formula gives another balance), the
// GC elapsed time is the sum of the collections' and prints as -s's; on a
// profiled run with heap censuses, whose -s takes their time out of GC
// time, the GC time and productivity are null and say why.
func TestSummaryRTSFigures(t *testing.T) {
	const dir = "../../testdata/ghc-9.0.2/"
	var got map[string]any
	_, out, _ := hecscope(t, "summary", "--json", dir+"rts-N2-A1m.eventlog")
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	gens := got["gc_generations"].([]any)
	total := gens[0].(map[string]any)["elapsed_ns"].(float64)
	bal, _ := got["gc_work_balance"].(float64)
	tsBal, _ := got["threadscope_gc_work_balance"].(float64)
	if got["rts_gc_elapsed_ns"] != total || fmt.Sprintf("%.2f", 100*bal) != "50.44" || tsBal == 0 || fmt.Sprintf("%.2f", tsBal) == "50.44" ||
		got["max_slop"] != 40232.0 || got["threadscope_max_slop"] == nil || got["rts_absent"] != nil {
		t.Errorf("rts-N2-A1m: rts_gc_elapsed_ns %v (collections' %v), gc_work_balance %v, threadscope_gc_work_balance %v, max_slop %v, threadscope_max_slop %v, rts_absent %v",
			got["rts_gc_elapsed_ns"], total, got["gc_work_balance"], got["threadscope_gc_work_balance"], got["max_slop"], got["threadscope_max_slop"], got["rts_absent"])
	}
	mut, _ := got["rts_mutator_elapsed_ns"].(float64)
	elapsed, _ := got["rts_elapsed_ns"].(float64)
	if p, ok := got["rts_productivity"].(float64); !ok || mut == 0 || elapsed == 0 || math.Abs(p-mut/elapsed) > 1e-3 {
		t.Errorf("rts-N2-A1m: rts_productivity %v, rts_mutator_elapsed_ns %v, rts_elapsed_ns %v", got["rts_productivity"], mut, elapsed)
	}
	_, text, _ := hecscope(t, "summary", dir+"rts-N2-A1m.eventlog")
	for _, want := range []string{"GC time (elapsed):", fmt.Sprintf("%.3fs (", total/1e9), "ThreadScope's GC time:", "ThreadScope's productivity:",
		"Parallel GC work balance:    50.44%", "ThreadScope's work balance:", "Maximum slop:", "ThreadScope's max slop:"} {
		if !strings.Contains(text, want) {
			t.Errorf("rts-N2-A1m's text report has no %q:\n%s", want, text)
		}
	}

	got = nil
	_, out, _ = hecscope(t, "summary", "--json", dir+"rts-prof-hc.eventlog")
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	why, _ := got["rts_absent"].(map[string]any)
	if got["rts_gc_elapsed_ns"] != nil || got["rts_productivity"] != nil || got["rts_mutator_elapsed_ns"] == nil ||
		why == nil || !strings.Contains(fmt.Sprint(why["rts_gc_elapsed_ns"]), "heap censuses") {
		t.Errorf("rts-prof-hc: rts_gc_elapsed_ns %v, rts_productivity %v, rts_mutator_elapsed_ns %v, rts_absent %v",
			got["rts_gc_elapsed_ns"], got["rts_productivity"], got["rts_mutator_elapsed_ns"], why)
	}
}
