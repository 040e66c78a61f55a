package ingest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// decodeFile decodes a whole eventlog file and returns its header, events
// (cloned) and status.
func decodeFile(t testing.TB, path string) (*Header, []Event, Status) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []Event
	h, st, err := readAll(f, func(ev *Event) error {
		evs = append(evs, ev.Clone())
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	return h, evs, st
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g := strings.Split(string(got), "\n")
	w := strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, gl, wl)
		}
	}
	return "no line differs"
}

// TestShowMatchesReferences checks the whole document, byte for byte, against
// the output of current ghc-events for every corpus file that has one; both
// WriteShow and ShowBuffer must produce it.
func TestShowMatchesReferences(t *testing.T) {
	refs, err := filepath.Glob("../testdata/corpus/ghc-events__*.reference")
	if err != nil || len(refs) == 0 {
		t.Fatalf("no references: %v", err)
	}
	for _, ref := range refs {
		name := strings.TrimSuffix(filepath.Base(ref), ".reference")
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(ref)
			if err != nil {
				t.Fatal(err)
			}
			h, evs, st := decodeFile(t, strings.TrimSuffix(ref, ".reference"))
			if st.State != StateComplete {
				t.Fatalf("status %v", st)
			}
			var got bytes.Buffer
			if err := WriteShow(&got, h, evs); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("WriteShow differs from the reference at %s", firstDiff(got.Bytes(), want))
			}
			var sb ShowBuffer
			for i := range evs {
				sb.Add(&evs[i])
			}
			var got2 bytes.Buffer
			if err := sb.WriteShow(&got2, h); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got2.Bytes(), want) {
				t.Errorf("ShowBuffer differs from the reference at %s", firstDiff(got2.Bytes(), want))
			}
		})
	}
}

// TestHeaderNilWhenCutInHeader: a stream that ends (or breaks) inside its
// header has no header to show.
func TestHeaderNilWhenCutInHeader(t *testing.T) {
	data, err := os.ReadFile("../testdata/corpus/ghc-events__unicode.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	end := bytes.Index(data, []byte("hdre"))
	if end < 0 {
		t.Fatal("no header end marker")
	}
	for _, n := range []int{0, 3, 8, 40, end} {
		d := NewDecoder()
		d.Feed(data[:n])
		d.End()
		var ev Event
		for d.Next(&ev) {
		}
		if d.Status().State != StateTruncated {
			t.Errorf("cut at %d: status %v, want truncated", n, d.Status())
		}
		if h := d.Header(); h != nil {
			t.Errorf("cut at %d: Header() = %+v, want nil", n, h)
		}
	}
	d := NewDecoder()
	d.Feed(data[:end+4])
	d.End()
	var ev Event
	d.Next(&ev)
	if h := d.Header(); h == nil || len(h.Types) == 0 {
		t.Errorf("cut after the header: Header() = %v, want the header", h)
	}
}

// showSections splits a show document into its event-type lines and its
// event lines, leaving out blank lines and block-marker lines (which older
// ghc-events did not print) and the leading spaces older versions used to
// right-align ids and timestamps.
func showSections(doc []byte) (types, events []string) {
	inEvents := false
	for _, l := range strings.Split(string(doc), "\n") {
		l = strings.TrimLeft(l, " ")
		switch {
		case l == "" || l == "Event Types:":
		case l == "Events:":
			inEvents = true
		case !inEvents:
			types = append(types, l)
		case !strings.Contains(l, ": event block: cap "):
			events = append(events, l)
		}
	}
	return types, events
}

// TestShowHistoryReferences checks the files whose references older
// ghc-events versions (2011–2022) wrote. Those printers differ from the
// current one: no block-marker lines, padded ids and timestamps, "stack
// overflow" without the size, a different order for events with out-of-order
// timestamps (the Eden warshall log), and Mercury's reused ids 5, 6, 39, 40
// decoded as GHC spark events (hecscope leaves them unknown and prints the
// header's description). So the test is: every event decodes, except
// Mercury's reused ids; the event-type lists are equal; the event lines have
// the same count; and, Mercury aside, the same lines in some order once
// "stack overflow, size N" is written the old way.
func TestShowHistoryReferences(t *testing.T) {
	refs, err := filepath.Glob("../testdata/corpus/ghc-events-history__*.reference")
	if err != nil || len(refs) != 8 {
		t.Fatalf("want 8 history references, found %d (%v)", len(refs), err)
	}
	for _, ref := range refs {
		name := strings.TrimSuffix(filepath.Base(ref), ".reference")
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(ref)
			if err != nil {
				t.Fatal(err)
			}
			h, evs, st := decodeFile(t, strings.TrimSuffix(ref, ".reference"))
			if st.State != StateComplete {
				t.Fatalf("status %v", st)
			}
			for i := range evs {
				ev := &evs[i]
				if ev.Kind == KindUnknown && !(h.Mercury && mercuryReused[ev.Type]) {
					t.Errorf("event at byte %d (type %d) did not decode", ev.Offset, ev.Type)
				}
			}
			var got bytes.Buffer
			if err := WriteShow(&got, h, evs); err != nil {
				t.Fatal(err)
			}
			gotTypes, gotEvents := showSections(got.Bytes())
			wantTypes, wantEvents := showSections(want)
			if strings.Join(gotTypes, "\n") != strings.Join(wantTypes, "\n") {
				t.Errorf("event types differ:\n got %q\nwant %q", gotTypes, wantTypes)
			}
			if len(gotEvents) != len(wantEvents) {
				t.Fatalf("%d event lines, reference has %d", len(gotEvents), len(wantEvents))
			}
			if h.Mercury {
				return
			}
			for i, l := range gotEvents {
				if j := strings.Index(l, "(stack overflow, size "); j >= 0 {
					gotEvents[i] = l[:j] + "(stack overflow)"
				}
			}
			slices.Sort(gotEvents)
			slices.Sort(wantEvents)
			for i := range gotEvents {
				if gotEvents[i] != wantEvents[i] {
					t.Fatalf("event lines differ (sorted), first: got %q, want %q", gotEvents[i], wantEvents[i])
				}
			}
		})
	}
}

// testHeader builds a header declaring the given types.
func testHeader(types ...EventType) *Header {
	h := &Header{Types: types}
	h.finish()
	return h
}

func TestShowString(t *testing.T) {
	cases := []struct{ in, want string }{
		{``, `""`},
		{`plain text`, `"plain text"`},
		{`C:\Users\"me"`, `"C:\\Users\\\"me\""`},
		{"tab\tnl\nbell\a", `"tab\tnl\nbell\a"`},
		{"\x00\x01\x1b\x1f", `"\NUL\SOH\ESC\US"`},
		{"\x0eH", `"\SO\&H"`},
		{"\x0eI", `"\SOI"`},
		{"\x7f", `"\DEL"`},
		{"é1", `"\233\&1"`},
		{"éa", `"\233a"`},
		{"é\"", `"\233\""`},
		{"日本", `"\26085\26412"`},
		{"\xff9", `"\65533\&9"`},
	}
	for _, c := range cases {
		if got := string(appendShowString(nil, []byte(c.in))); got != c.want {
			t.Errorf("show %q = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestShowArgs(t *testing.T) {
	cases := []struct{ data, want string }{
		{"prog\x00+RTS\x00-l\x00", `["prog","+RTS","-l"]`},
		{"", `[""]`},
		{"\x00\x00", `[""]`},
		{"a\x00\x00b\x00\x00", `["a","","b"]`},
		{"\x00a\x00", `["","a"]`},
		{"no-nul", `["no-nul"]`},
		{"x=\"1\"\x00", `["x=\"1\""]`},
	}
	for _, c := range cases {
		ev := Event{Kind: KindProgramArgs, Data: []byte(c.data)}
		ev.Args[0] = 7
		want := "capset 7: args: " + c.want
		if got := string(AppendEventText(nil, nil, &ev)); got != want {
			t.Errorf("args %q: got %s, want %s", c.data, got, want)
		}
		ev.Kind = KindProgramEnv
		want = "capset 7: env: " + c.want
		if got := string(AppendEventText(nil, nil, &ev)); got != want {
			t.Errorf("env %q: got %s, want %s", c.data, got, want)
		}
	}
}

func TestShowStopStatus(t *testing.T) {
	cases := []struct {
		status, info uint64
		want         string
	}{
		{0, 0, "No stop thread status"},
		{1, 0, "heap overflow"},
		{2, 1024, "stack overflow, size 1024"},
		{3, 0, "thread yielding"},
		{4, 0, "thread blocked"},
		{5, 0, "thread finished"},
		{6, 0, "making a foreign call"},
		{7, 0, "blocked on an MVar"},
		{8, 42, "blocked on black hole owned by thread 42"},
		{9, 0, "blocked on I/O read"},
		{10, 0, "blocked on I/O write"},
		{11, 0, "blocked on threadDelay"},
		{12, 0, "blocked in STM retry"},
		{13, 0, "blocked on asyncDoProc"},
		{14, 0, "unknown status 14"},
		{15, 0, "unknown status 15"},
		{16, 0, "blocked in a foreign call"},
		{18, 0, "blocked in throwTo"},
		{19, 0, "No stop thread status"},
		{20, 0, "blocked reading an MVar"},
		{21, 0, "unknown status 21"},
		{65535, 0, "unknown status 65535"},
	}
	for _, c := range cases {
		ev := Event{Kind: KindStopThread, Args: [MaxArgs]uint64{9, c.status, c.info}}
		want := "stopping thread 9 (" + c.want + ")"
		if got := string(AppendEventText(nil, nil, &ev)); got != want {
			t.Errorf("status %d: got %q, want %q", c.status, got, want)
		}
	}
}

// TestShowGCStatsLayouts: the balanced-copied field is printed only when the
// header declares the 58-byte layout, whatever the value of the field.
func TestShowGCStatsLayouts(t *testing.T) {
	args := [MaxArgs]uint64{0, 1, 100, 20, 3000, 2, 60, 90, 0}
	base := "GC stats for heap capset 0: generation 1, 100 bytes copied, 20 bytes slop, " +
		"3000 bytes fragmentation, 2 par threads, 60 bytes max par copied, 90 bytes total par copied"
	for _, c := range []struct {
		size int
		want string
	}{
		{50, base},
		{58, base + ", 0 bytes balanced par copied"},
		{66, base + ", 0 bytes balanced par copied"},
	} {
		h := testHeader(EventType{ID: 53, Size: c.size, Desc: "GC statistics"})
		ev := Event{Kind: KindGCStatsGHC, Type: 53, Args: args}
		if got := string(AppendEventText(nil, h, &ev)); got != c.want {
			t.Errorf("size %d: got %q, want %q", c.size, got, c.want)
		}
	}
}

// TestShowUnknown: unknown events print their header description, or
// nothing without one.
func TestShowUnknown(t *testing.T) {
	h := testHeader(EventType{ID: 250, Size: 3, Desc: "Frobnicate widget"},
		EventType{ID: 59, Size: 0, Desc: "Empty event for bug #9003"})
	ev := Event{Kind: KindUnknown, Type: 250, Cap: 2, Time: 77, Data: []byte{1, 2, 3}}
	if got := string(AppendEventLine(nil, h, &ev)); got != "77: cap 2: Frobnicate widget\n" {
		t.Errorf("unknown event: got %q", got)
	}
	ev = Event{Kind: KindHackBugT9003, Type: 59, Cap: NoCap, Time: 5}
	if got := string(AppendEventLine(nil, h, &ev)); got != "5: Empty event for bug #9003\n" {
		t.Errorf("hack event: got %q", got)
	}
	ev = Event{Kind: KindUnknown, Type: 251, Cap: NoCap}
	if got := string(AppendEventText(nil, h, &ev)); got != "" {
		t.Errorf("undeclared unknown event: got %q", got)
	}
}

func TestShowLines(t *testing.T) {
	block := Event{Kind: KindBlockMarker, Time: 10, Cap: 3, Args: [MaxArgs]uint64{1000, 99, 3}}
	global := Event{Kind: KindBlockMarker, Time: 11, Cap: NoCap, Args: [MaxArgs]uint64{24, 12, 0xFFFF}}
	run := Event{Kind: KindRunThread, Time: 12, Cap: 0, Args: [MaxArgs]uint64{4}}
	var got []byte
	for _, ev := range []*Event{&block, &global, &run} {
		got = AppendEventLine(got, nil, ev)
	}
	want := "10: cap 3: event block: cap 3, end time: 99\n\n" +
		"11: event block: cap 65535, end time: 12\n\n" +
		"12: cap 0: running thread 4\n"
	if string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestShowTexts(t *testing.T) {
	cc := func(label, module, loc string, flags uint64) Event {
		return Event{Kind: KindHeapProfCostCentre, Args: [MaxArgs]uint64{12, flags},
			Data: []byte(label + "\x00" + module + "\x00" + loc + "\x00" + string(rune(flags)))}
	}
	ipe := func(closure string) Event {
		return Event{Kind: KindIPE, Args: [MaxArgs]uint64{0x4a7b28},
			Data: []byte("Tbl\x00" + closure + "\x00ty\x00lbl\x00Mod\x00A.hs:1:2-3\x00")}
	}
	cases := []struct {
		ev   Event
		want string
	}{
		{cc("main", "Main", "Main.hs:3:1-20", 0), "cost centre 12 main in Main at Main.hs:3:1-20"},
		{cc("CAF", "Main", "<entire-module>", 1), "cost centre 12 CAF in Main at <entire-module> CAF"},
		{ipe("21"), "Info Table: 4a7b28:21:Tbl - A.hs:1:2-3"},
		{ipe("007"), "Info Table: 4a7b28:7:Tbl - A.hs:1:2-3"},
		{ipe("x"), "Info Table: 4a7b28:x:Tbl - A.hs:1:2-3"},
		{Event{Kind: KindHeapProfBegin, Args: [MaxArgs]uint64{0, 100000000, 7}, Data: []byte("\x00\x00\x00\x00\x00\x00\x00")},
			"start heap profiling 0 at sampling period 100000000 broken down by closure type"},
		{Event{Kind: KindHeapProfBegin, Args: [MaxArgs]uint64{0, 5, 1}, Data: []byte("Main\x00\x00\x00\x00\x00\x00LAG\x00")},
			"start heap profiling 0 at sampling period 5 broken down by cost centre filtered by Main, LAG, "},
		{Event{Kind: KindHeapProfBegin, Args: [MaxArgs]uint64{0, 5, 42}, Data: []byte("\x00\x00\x00\x00\x00\x00\x00")},
			"start heap profiling 0 at sampling period 5 broken down by unknown breakdown 42"},
		{Event{Kind: KindHeapProfSampleCostCentre, Args: [MaxArgs]uint64{0, 4096, 3}, Data: []byte{0, 0, 0, 7, 0, 0, 1, 0, 0, 0, 0, 1}},
			"heap prof sample 0, residency 4096, cost centre stack 7, 256, 1"},
		{Event{Kind: KindHeapProfSampleCostCentre, Args: [MaxArgs]uint64{0, 8, 0}},
			"heap prof sample 0, residency 8, cost centre stack "},
		{Event{Kind: KindProfSampleCostCentre, Args: [MaxArgs]uint64{0x10002, 9, 1}, Data: []byte{0, 0, 0, 5}},
			"cap no 2, prof sample 9, cost centre stack 5"},
		{Event{Kind: KindTickyCounterDef, Args: [MaxArgs]uint64{140000, 2, 0xbeef}, Data: []byte("pp\x00f_info\x00")},
			"ticky counter definition 140000, arity: 2, def kinds: pp, name: f_info, itbl: beef"},
		{Event{Kind: KindTickyCounterDef, Args: [MaxArgs]uint64{1, 0, 0}, Data: []byte("\x00g\x00")},
			"ticky counter definition 1, arity: 0, def kinds: , name: g, itbl: 0"},
		{Event{Kind: KindUserBinaryMsg, Data: []byte("Hi\x00\u200b\xe9ü \u2028!")},
			"binary message Hi...ü .!"},
		{Event{Kind: KindUserMsg, Data: []byte("ok \xff")}, "ok \uFFFD"},
		{Event{Kind: KindUserMarker, Data: []byte(`start "quoted" marker`)}, `marker: start "quoted" marker`},
		{Event{Kind: KindEdenVersion, Data: []byte("7.8\xe9")}, "compiler version is 7.8é"},
		{Event{Kind: KindInternString, Args: [MaxArgs]uint64{3}, Data: []byte("x")}, `Interned string: "x" with id 3`},
		{Event{Kind: KindEdenSendMessage, Args: [MaxArgs]uint64{0x57, 1, 2, 3, 4, 5}},
			"sending message with tag DataMes from process 1, thread 2 to machine 3, process 4 on inport 5"},
		{Event{Kind: KindEdenSendReceiveLocal, Args: [MaxArgs]uint64{0x20, 1, 2, 4, 5}},
			"sending/receiving message with tag unknown tag 32 from process 1, thread 2 to process 4 on inport 5"},
		{Event{Kind: KindCapsetCreate, Args: [MaxArgs]uint64{4, 9}}, "created capset 4 of type CapsetUnknown"},
		{Event{Kind: KindPerfCounter, Args: [MaxArgs]uint64{1, 777, 1<<64 - 1}}, "perf event counter 1 incremented by 0 in OS thread 777"},
		{Event{Kind: KindSparkCounters, Args: [MaxArgs]uint64{1, 2, 3, 4, 5, 6, 7}},
			"spark stats: 1 created, 4 converted, 7 remaining (3 overflowed, 2 dud, 5 GC'd, 6 fizzled)"},
		{Event{Kind: KindTaskCreate, Args: [MaxArgs]uint64{0x7f00aa, 1, 4242}}, "task 0x7f00aa created on cap 1 with OS kernel thread 4242"},
		{Event{Kind: KindMerCreateSpark, Args: [MaxArgs]uint64{0xabc, 0x10}}, "Create spark for conjunction: 0xabc spark: 0x10"},
		{Event{Kind: KindNonmovingHeapCensus, Args: [MaxArgs]uint64{48, 1, 2, 3}},
			"nonmoving heap census 48: 1 active segments, 2 filled segments, 3 live blocks"},
	}
	for _, c := range cases {
		if got := string(AppendEventText(nil, nil, &c.ev)); got != c.want {
			t.Errorf("%v: got %q, want %q", c.ev.Kind, got, c.want)
		}
	}
}

// TestShowBufferOrder: ShowBuffer sorts by time and keeps the order of
// events with equal times, and gives back every field it printed.
func TestShowBufferOrder(t *testing.T) {
	h := testHeader(EventType{ID: 19, Size: VariableSize, Desc: "User message"})
	var sb ShowBuffer
	var evs []Event
	for i, tm := range []uint64{30, 10, 20, 10, 30, 0, 10} {
		ev := Event{Kind: KindUserMsg, Type: 19, Time: tm, Cap: int32(i%3) - 1,
			Data: []byte(fmt.Sprintf("msg %d", i))}
		evs = append(evs, ev)
		sb.Add(&ev)
	}
	if sb.Len() != len(evs) {
		t.Fatalf("Len = %d", sb.Len())
	}
	var got, want bytes.Buffer
	if err := sb.WriteShow(&got, h); err != nil {
		t.Fatal(err)
	}
	if err := WriteShow(&want, h, evs); err != nil {
		t.Fatal(err)
	}
	wantText := "Event Types:\n19: User message (size variable)\n\nEvents:\n" +
		"0: cap 1: msg 5\n10: cap 0: msg 1\n10: msg 3\n10: msg 6\n20: cap 1: msg 2\n" +
		"30: msg 0\n30: cap 0: msg 4\n\n"
	if want.String() != wantText {
		t.Errorf("WriteShow:\n%s\nwant:\n%s", want.String(), wantText)
	}
	if got.String() != wantText {
		t.Errorf("ShowBuffer:\n%s\nwant:\n%s", got.String(), wantText)
	}
	if evs[0].Time != 30 || string(evs[5].Data) != "msg 5" {
		t.Error("WriteShow reordered its argument")
	}
}

// TestAppendEventTextAllocs: rendering into a buffer with room allocates
// nothing, for every event of two corpus logs.
func TestAppendEventTextAllocs(t *testing.T) {
	for _, name := range []string{"ghc-events__hello-ghc-8.6.5.eventlog", "ghc-events__ghc-9.2-events.eventlog", "ghc-events__sleep.hd.eventlog"} {
		h, evs, _ := decodeFile(t, filepath.Join("../testdata/corpus", name))
		buf := make([]byte, 0, 1<<17)
		allocs := testing.AllocsPerRun(5, func() {
			for i := range evs {
				buf = AppendEventLine(buf[:0], h, &evs[i])
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per pass over %d events", name, allocs, len(evs))
		}
	}
}

// TestShowBufferChunks: with tiny index chunks (many sorted in parallel, then
// merged) ShowBuffer still writes exactly what WriteShow writes, for a log
// with out-of-order timestamps and ties, also after more events are added
// to a buffer already written once.
func TestShowBufferChunks(t *testing.T) {
	defer func(n int) { showIndexChunk = n }(showIndexChunk)
	h, evs, _ := decodeFile(t, "../testdata/corpus/ghc-events-history__warshall0-trace-7.8.2_8.eventlog")
	for _, size := range []int{1, 7, 1000} {
		showIndexChunk = size
		var sb ShowBuffer
		half := len(evs) / 2
		for i := range evs[:half] {
			sb.Add(&evs[i])
		}
		if err := sb.WriteShow(io.Discard, h); err != nil {
			t.Fatal(err)
		}
		for i := range evs[half:] {
			sb.Add(&evs[half+i])
		}
		var got, want bytes.Buffer
		if err := sb.WriteShow(&got, h); err != nil {
			t.Fatal(err)
		}
		if err := WriteShow(&want, h, evs); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("chunk size %d: ShowBuffer differs from WriteShow at %s", size, firstDiff(got.Bytes(), want.Bytes()))
		}
	}
}

// BenchmarkAppendEventLine renders every event of a 16.7k-event corpus log
// into a reused buffer.
func BenchmarkAppendEventLine(b *testing.B) {
	h, evs, _ := decodeFile(b, "../testdata/corpus/ghc-events-history__warshall0-trace-7.8.2_8.eventlog")
	buf := make([]byte, 0, 1<<16)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range evs {
			buf = AppendEventLine(buf[:0], h, &evs[j])
		}
	}
	b.ReportMetric(float64(len(evs))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkShowBig is `hecscope dump` on the big log without the terminal:
// decode from disk, collect in a ShowBuffer, sort and write to io.Discard.
func BenchmarkShowBig(b *testing.B) {
	path := bigLog(b)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	var events int
	for i := 0; i < b.N; i++ {
		f, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		var sb ShowBuffer
		var ev Event
		for f.Next(&ev) {
			sb.Add(&ev)
		}
		f.Close()
		if err := sb.WriteShow(io.Discard, f.Header()); err != nil {
			b.Fatal(err)
		}
		events = sb.Len()
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
