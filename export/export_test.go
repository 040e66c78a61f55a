package export

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/ccprofile"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/spans"
)

const (
	spanwork = "../spans/testdata/spanwork.eventlog"
	profwork = "../ccprofile/testdata/profwork.eventlog"
	parwork  = "../testdata/ghc-9.0.2/parwork-N2.eventlog"
)

func exportBytes(t *testing.T, f Format, path string, opt Options) []byte {
	t.Helper()
	var b bytes.Buffer
	st, err := File(context.Background(), f, path, &b, opt)
	if err != nil {
		t.Fatal(err)
	}
	if st.State.String() == "corrupt" {
		t.Fatalf("%s: %v", path, st)
	}
	return b.Bytes()
}

// traceEvent is one event of the Chrome trace-event format, as its
// documentation (the "Trace Event Format" document) defines the fields.
type traceEvent struct {
	Name string          `json:"name"`
	Cat  *string         `json:"cat"`
	Ph   string          `json:"ph"`
	Ts   *float64        `json:"ts"`
	Dur  *float64        `json:"dur"`
	Pid  *json.Number    `json:"pid"`
	Tid  *json.Number    `json:"tid"`
	ID   json.RawMessage `json:"id"`
	S    string          `json:"s"`
	Args map[string]any  `json:"args"`
}

// ns is a trace time in whole nanoseconds.
func ns(us float64) int64 { return int64(math.Round(us * 1000)) }

// validateChrome checks a trace against the format's documented fields:
// the JSON object form with a traceEvents array; every event's phase,
// name, pid (and tid where the phase needs one), a non-negative ts; dur of
// complete events; cat and id of async events, each begin with its end;
// counters' numeric args; instants' scope; metadata's names and args. It
// also checks what trace viewers need to draw a track: the complete events
// of one track nest (none overlaps another partly).
func validateChrome(t *testing.T, data []byte) []traceEvent {
	t.Helper()
	var doc struct {
		TraceEvents     []traceEvent `json:"traceEvents"`
		DisplayTimeUnit string       `json:"displayTimeUnit"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if doc.TraceEvents == nil || (doc.DisplayTimeUnit != "ns" && doc.DisplayTimeUnit != "ms") {
		t.Fatalf("traceEvents %d, displayTimeUnit %q", len(doc.TraceEvents), doc.DisplayTimeUnit)
	}
	type track struct{ pid, tid string }
	slicesOf := map[track][][2]int64{}
	open := map[string]float64{}
	for i, e := range doc.TraceEvents {
		bad := func(why string) { t.Errorf("event %d %+v: %s", i, e, why) }
		if e.Pid == nil {
			bad("no pid")
			continue
		}
		if _, err := e.Pid.Int64(); err != nil {
			bad("pid not an integer")
		}
		if e.Tid != nil {
			if _, err := e.Tid.Int64(); err != nil {
				bad("tid not an integer")
			}
		}
		if e.Ts == nil || *e.Ts < 0 {
			bad("no ts, or negative")
			continue
		}
		switch e.Ph {
		case "X":
			if e.Name == "" || e.Tid == nil || e.Dur == nil || *e.Dur < 0 {
				bad("complete event without name, tid or dur")
				continue
			}
			k := track{e.Pid.String(), e.Tid.String()}
			slicesOf[k] = append(slicesOf[k], [2]int64{ns(*e.Ts), ns(*e.Ts) + ns(*e.Dur)})
		case "b", "e":
			if e.Name == "" || e.Cat == nil || *e.Cat == "" || len(e.ID) == 0 {
				bad("async event without name, cat or id")
				continue
			}
			key := *e.Cat + "/" + string(e.ID)
			if e.Ph == "b" {
				if _, dup := open[key]; dup {
					bad("async id begun twice")
				}
				open[key] = *e.Ts
			} else if b, ok := open[key]; !ok {
				// Ends may come before their begins in the array.
				open[key] = -1 - *e.Ts
			} else {
				if b < 0 {
					bad("async id ended twice")
				}
				delete(open, key)
			}
		case "C":
			if e.Name == "" || len(e.Args) == 0 {
				bad("counter without name or args")
			}
			for _, v := range e.Args {
				if _, ok := v.(json.Number); !ok {
					bad("counter value not a number")
				}
			}
		case "i", "I":
			if e.Name == "" || (e.S != "" && e.S != "g" && e.S != "p" && e.S != "t") {
				bad("instant without name or with a bad scope")
			}
		case "M":
			switch e.Name {
			case "process_name", "thread_name":
				if s, ok := e.Args["name"].(string); !ok || s == "" {
					bad("metadata without a name")
				}
			case "process_sort_index", "thread_sort_index":
				if _, ok := e.Args["sort_index"].(json.Number); !ok {
					bad("metadata without sort_index")
				}
			default:
				bad("unknown metadata")
			}
		default:
			bad("unexpected phase")
		}
	}
	// Pairs whose end came first are complete too: the end's time (stored
	// negated) is the begin's or later.
	for key, v := range open {
		if v >= 0 {
			t.Errorf("async %s begun and never ended", key)
		}
	}
	for k, ss := range slicesOf {
		slices.SortFunc(ss, func(a, b [2]int64) int {
			if a[0] != b[0] {
				return int(a[0] - b[0])
			}
			return int(b[1] - a[1])
		})
		var stack [][2]int64
		for _, s := range ss {
			for len(stack) > 0 && stack[len(stack)-1][1] <= s[0] {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 && s[1] > stack[len(stack)-1][1] {
				t.Errorf("track %v: slice %v overlaps %v", k, s, stack[len(stack)-1])
				break
			}
			stack = append(stack, s)
		}
	}
	return doc.TraceEvents
}

func TestChromeSpanWork(t *testing.T) {
	evs := validateChrome(t, exportBytes(t, Chrome, spanwork, Options{}))
	count := map[string]int{}
	names := map[string]bool{}
	for _, e := range evs {
		count[e.Ph+":"+e.Name]++
		if e.Ph == "M" {
			if s, ok := e.Args["name"].(string); ok {
				names[s] = true
			}
		}
	}
	if count["b:request"] != 30 || count["e:request"] != 30 || count["b:parse"] != 30 || count["b:sleep"] != 5 {
		t.Errorf("span events: %v", count)
	}
	if count["i:workers done"] != 1 || count["X:GC"] == 0 || count["X:running"] == 0 || count["C:heap size"] == 0 {
		t.Errorf("events: %v", count)
	}
	for _, want := range []string{"HECs", "Threads", "User spans", "Heap", "HEC 0", "HEC 1"} {
		if !names[want] {
			t.Errorf("no track %q", want)
		}
	}
	labelled := false
	for n := range names {
		labelled = labelled || strings.HasPrefix(n, "worker-2 (")
	}
	if !labelled {
		t.Error("no track named by its thread label")
	}
}

func TestChromeRange(t *testing.T) {
	const from, to = 20_000_000, 60_000_000
	evs := validateChrome(t, exportBytes(t, Chrome, spanwork, Options{From: from, To: to}))
	n := 0
	for _, e := range evs {
		switch e.Ph {
		case "X":
			n++
			if ns(*e.Ts) < from || ns(*e.Ts)+ns(*e.Dur) > to {
				t.Errorf("slice %+v outside the range", e)
			}
		case "b":
			if ns(*e.Ts) < from || ns(*e.Ts) >= to {
				t.Errorf("span %+v starts outside the range", e)
			}
		case "C", "i":
			if ns(*e.Ts) < from || ns(*e.Ts) >= to {
				t.Errorf("sample %+v outside the range", e)
			}
		}
	}
	if n == 0 {
		t.Error("no slices in the range")
	}
}

func TestChromeLogs(t *testing.T) {
	logs := []string{profwork, parwork, "../testdata/corpus/ghc-events__ghc-9.2-events.eventlog",
		"../testdata/corpus/ghc-events-history__queens-ghc-6.12.1.eventlog"}
	for _, path := range logs {
		t.Run(path[strings.LastIndexByte(path, '/')+1:], func(t *testing.T) {
			evs := validateChrome(t, exportBytes(t, Chrome, path, Options{}))
			if len(evs) < 20 {
				t.Errorf("%d events", len(evs))
			}
		})
	}
}

func TestSpeedscope(t *testing.T) {
	data := exportBytes(t, Speedscope, profwork, Options{})
	var doc struct {
		Schema string `json:"$schema"`
		Shared struct {
			Frames []struct{ Name, File string }
		}
		Profiles []struct {
			Type, Name, Unit     string
			StartValue, EndValue uint64
			Samples              [][]int
			Weights              []uint64
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	p, err := ccprofile.Collect(ingest.FilePass(context.Background(), profwork), ccprofile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Schema != "https://www.speedscope.app/file-format-schema.json" || len(doc.Profiles) != 1 {
		t.Fatalf("schema %q, %d profiles", doc.Schema, len(doc.Profiles))
	}
	pr := doc.Profiles[0]
	// Speedscope gets every sample, the RTS's own (GC, system) included,
	// as their stacks: p.All, not the mutator's p.Samples that shares use.
	if pr.Type != "sampled" || pr.Unit != "nanoseconds" || uint64(len(pr.Samples)) != p.All || len(pr.Weights) != len(pr.Samples) ||
		pr.EndValue-pr.StartValue != p.All*p.Interval {
		t.Fatalf("profile %s %s, %d samples %d weights, %d..%d; want %d samples", pr.Type, pr.Unit, len(pr.Samples), len(pr.Weights), pr.StartValue, pr.EndValue, p.All)
	}
	heavy := -1
	for i, f := range doc.Shared.Frames {
		if f.Name == "heavy (Main)" && strings.HasPrefix(f.File, "ProfWork.hs:") {
			heavy = i
		}
	}
	n := 0
	for _, s := range pr.Samples {
		for _, f := range s {
			if f < 0 || f >= len(doc.Shared.Frames) {
				t.Fatalf("frame %d of %d", f, len(doc.Shared.Frames))
			}
		}
		if slices.Contains(s, heavy) {
			n++
		}
	}
	if r := p.Row("heavy", "Main"); r == nil || uint64(n) != r.Inherited {
		t.Errorf("%d samples with heavy, the profile says %+v", n, r)
	}
	// The outermost frame comes first: every stack with heavy begins with
	// CAF, main.
	for _, s := range pr.Samples {
		if slices.Contains(s, heavy) && doc.Shared.Frames[s[0]].Name != "CAF (Main)" {
			t.Fatalf("stack %v begins with %s", s, doc.Shared.Frames[s[0]].Name)
		}
	}
}

func TestCSV(t *testing.T) {
	rows, err := csv.NewReader(bytes.NewReader(exportBytes(t, CSV, spanwork, Options{}))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != "kind,label,start_ns,end_ns,duration_ns,thread,cap,bytes" {
		t.Fatalf("header %v", rows[0])
	}
	rep, err := spans.Collect(ingest.FilePass(context.Background(), spanwork), spans.Options{})
	if err != nil {
		t.Fatal(err)
	}
	perLabel := map[string]int{}
	kinds := map[string]int{}
	var lastGC uint64
	for _, r := range rows[1:] {
		kinds[r[0]]++
		var start, end, dur uint64
		for i, p := range []*uint64{&start, &end, &dur} {
			if err := json.Unmarshal([]byte(r[2+i]), p); err != nil {
				t.Fatalf("row %v: %v", r, err)
			}
		}
		if end-start != dur || end < start {
			t.Errorf("row %v: duration", r)
		}
		switch r[0] {
		case "user_span":
			perLabel[r[1]]++
		case "gc":
			if start < lastGC {
				t.Errorf("GC pauses overlap: %v", r)
			}
			lastGC = end
		case "heap_size", "heap_live", "allocated":
			if r[7] == "" || start != end {
				t.Errorf("heap row %v", r)
			}
		}
	}
	for _, l := range rep.Labels {
		if l.Kind == spans.User && perLabel[l.Name] != l.Count {
			t.Errorf("%s: %d rows, %d spans", l.Name, perLabel[l.Name], l.Count)
		}
	}
	if kinds["gc"] == 0 || kinds["heap_size"] == 0 || kinds["allocated"] == 0 || kinds["thread_span"] == 0 {
		t.Errorf("row kinds %v", kinds)
	}
}

func TestErrors(t *testing.T) {
	if _, err := ParseFormat("pdf"); err == nil {
		t.Error("pdf parsed")
	}
	if f, err := ParseFormat("Chrome"); err != nil || f != Chrome {
		t.Errorf("Chrome: %v %v", f, err)
	}
	var b bytes.Buffer
	if _, err := File(context.Background(), Chrome, "nonexistent.eventlog", &b, Options{}); err == nil {
		t.Error("no error for a missing file")
	}
	data, err := os.ReadFile(spanwork)
	if err != nil {
		t.Fatal(err)
	}
	// Every cut of the log exports valid JSON.
	for n := 200; n < len(data); n += 1999 {
		b.Reset()
		if _, err := Write(context.Background(), Chrome, &b, bytes.NewReader(data[:n]), int64(n), Options{}); err != nil {
			continue
		}
		validateChrome(t, b.Bytes())
	}
}
