package ingest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"syscall"
	"testing"
)

// skimTestLogs are the logs the skim tests run over: the public corpus, the
// GHC 9.0.2 runs and the generated heap-profile runs.
func skimTestLogs(t *testing.T) map[string][]byte {
	t.Helper()
	logs := map[string][]byte{}
	for _, pat := range []string{"../testdata/corpus/*.eventlog", "../testdata/ghc-9.0.2/*.eventlog", "../testdata/generated/*.eventlog"} {
		files, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			logs[filepath.Base(f)] = data
		}
	}
	if len(logs) < 40 {
		t.Fatalf("only %d test logs found", len(logs))
	}
	return logs
}

// checkSkim compares Skim over data with the Decoder. The events handed
// out must be the Decoder's, in order, and every one sel asks for: all of
// its Kinds, and of its Ends the first and last of each type on each
// capability (the skim may hand out more of those, no others). The tally
// must count exactly the rest.
func checkSkim(t *testing.T, name string, data []byte, sel Selection) {
	t.Helper()
	d := NewDecoder()
	d.Feed(data)
	d.End()
	var all []Event
	var ev Event
	for d.Next(&ev) {
		all = append(all, ev.Clone())
	}
	kinds, ends := map[Kind]bool{}, map[Kind]bool{}
	for _, k := range sel.Ends {
		ends[k] = true
	}
	for _, k := range sel.Kinds {
		kinds[k], ends[k] = true, false
	}
	// A type is selected by the kind its declaration decodes as.
	planKind := func(e *Event) Kind { return d.plans[e.Type].kind }
	need := make([]bool, len(all))
	type typeCap struct {
		id  uint16
		cap int32
	}
	first, last := map[typeCap]int{}, map[typeCap]int{}
	for i := range all {
		k := planKind(&all[i])
		need[i] = kinds[k]
		if ends[k] {
			tc := typeCap{all[i].Type, all[i].Cap}
			if _, ok := first[tc]; !ok {
				first[tc] = i
			}
			last[tc] = i
		}
	}
	for _, i := range first {
		need[i] = true
	}
	for _, i := range last {
		need[i] = true
	}

	var got []Event
	res := Skim(data, sel, func(ev *Event) { got = append(got, ev.Clone()) })
	if res.Status != d.Status() {
		t.Fatalf("%s: status %v, want %v", name, res.Status, d.Status())
	}
	if (res.Header == nil) != (d.Header() == nil) || res.Header != nil && !reflect.DeepEqual(res.Header.Types, d.Header().Types) {
		t.Fatalf("%s: header differs", name)
	}
	handed := make([]bool, len(all))
	j := 0
	for n, g := range got {
		for j < len(all) && all[j].Offset != g.Offset {
			j++
		}
		if j == len(all) {
			t.Fatalf("%s: event %d handed out (%+v) is not the Decoder's next", name, n, g)
		}
		if !reflect.DeepEqual(g, all[j]) {
			t.Fatalf("%s: event %d is\n%+v\nwant\n%+v", name, n, g, all[j])
		}
		if k := planKind(&all[j]); !kinds[k] && !ends[k] {
			t.Fatalf("%s: event %d (%v) handed out though not selected", name, n, g.Kind)
		}
		handed[j] = true
		j++
	}
	want := Tally{FirstNS: math.MaxUint64, MaxCap: NoCap}
	for i := range all {
		e := &all[i]
		if need[i] && !handed[i] {
			t.Fatalf("%s: event at %d (%v, cap %d) not handed out", name, e.Offset, e.Kind, e.Cap)
		}
		if e.Kind != KindBlockMarker {
			want.FirstNS = min(want.FirstNS, e.Time)
			want.LastNS = max(want.LastNS, e.Time)
			want.MaxCap = max(want.MaxCap, e.Cap)
			if i, found := slices.BinarySearch(want.Caps, e.Cap); e.Cap >= 0 && !found {
				want.Caps = slices.Insert(want.Caps, i, e.Cap)
			}
		}
		if handed[i] {
			continue
		}
		for int(e.Type) >= len(want.Types) {
			want.Types = append(want.Types, TypeTally{})
		}
		want.Types[e.Type].Count++
		want.Types[e.Type].Kind = e.Kind
		if e.Kind != KindBlockMarker {
			want.Events++
		}
	}
	// Compare tallies on the ids either has, ignoring trailing zeros.
	for id := range max(len(res.Tally.Types), len(want.Types)) {
		var g, w TypeTally
		if id < len(res.Tally.Types) {
			g = res.Tally.Types[id]
		}
		if id < len(want.Types) {
			w = want.Types[id]
		}
		if g.Count != w.Count || w.Count != 0 && g.Kind != w.Kind {
			t.Fatalf("%s: tally of type %d is %+v, want %+v", name, id, g, w)
		}
	}
	gt, wt := res.Tally, want
	gt.Types, wt.Types = nil, nil
	if !reflect.DeepEqual(gt, wt) {
		t.Fatalf("%s: tally %+v, want %+v", name, gt, wt)
	}
}

// skimSelections are the selections the tests skim with.
var skimSelections = map[string]Selection{
	"none":    {},
	"summary": summarySelection,
	"threads": {Kinds: []Kind{KindCreateThread, KindRunThread, KindStopThread, KindThreadLabel, KindUserMsg, KindBlockMarker}},
	"all":     {Kinds: allKinds()},
	"ends":    {Ends: allKinds()},
	"mixed":   {Kinds: []Kind{KindRunThread, KindHeapAllocated}, Ends: []Kind{KindHeapAllocated, KindStopThread, KindSparkCounters, KindUserMsg}},
}

func allKinds() []Kind {
	ks := []Kind{KindUnknown}
	for id := range 1 << 16 {
		if _, ok := specs[Kind(id)]; ok {
			ks = append(ks, Kind(id))
		}
	}
	return ks
}

// withRangeBytes runs f with the smallest skim range set to n bytes.
func withRangeBytes(n int64, f func()) {
	old := rangeBytes
	rangeBytes = n
	defer func() { rangeBytes = old }()
	f()
}

// withWindowBytes runs f with files read through windows of n bytes.
func withWindowBytes(n int, f func()) {
	old := windowBytes
	windowBytes = n
	defer func() { windowBytes = old }()
	f()
}

// checkSkimFile checks that SkimFile over the file at path, holding data,
// gives exactly what Skim over data gives.
func checkSkimFile(t *testing.T, name, path string, data []byte, sel Selection) {
	t.Helper()
	var mem, file []Event
	want := Skim(data, sel, func(ev *Event) { mem = append(mem, ev.Clone()) })
	got, err := SkimFile(path, sel, func(ev *Event) { file = append(file, ev.Clone()) })
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(file) != len(mem) {
		t.Fatalf("%s: %d events from the file, %d from memory", name, len(file), len(mem))
	}
	for i := range mem {
		if !reflect.DeepEqual(file[i], mem[i]) {
			t.Fatalf("%s: event %d from the file\n%+v\nfrom memory\n%+v", name, i, file[i], mem[i])
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: file skim\n%+v\nmemory skim\n%+v", name, got, want)
	}
}

// withAheadBytes runs f with goroutines kept within n bytes of the first
// range not yet handed out.
func withAheadBytes(n int64, f func()) {
	old := aheadBytes
	aheadBytes = n
	defer func() { aheadBytes = old }()
	f()
}

// TestSkimMatchesDecoder: on every test log, for several selections, and
// cut into ranges of every block up to one range for the whole log (and
// with goroutines made to wait for the ranges before theirs to be handed
// out), Skim hands out exactly the Decoder's events of the wanted types,
// in order, tallies exactly the others, and ends with the Decoder's status.
func TestSkimMatchesDecoder(t *testing.T) {
	logs := skimTestLogs(t)
	names := slices.Sorted(maps.Keys(logs))
	kinds := slices.Sorted(maps.Keys(skimSelections))
	// Each log with each selection, skimmed with ranges of 1 byte, 4 KiB
	// and 1 MiB, and with goroutines that may not get ahead of the ranges.
	type variant struct {
		name       string
		rb, ahead  int64
		limitAhead bool
	}
	variants := []variant{{"range 1", 1, 0, false}, {"range 4096", 4096, 0, false}, {"range 1048576", 1 << 20, 0, false}, {"no read-ahead", 1, 1, true}}
	n := 0
	for _, name := range names {
		for _, kname := range kinds {
			for _, v := range variants {
				n++
				// Under the race detector every log, selection and variant
				// is still checked, but not every combination.
				if raceOn && n%7 != 0 {
					continue
				}
				run := func() { checkSkim(t, fmt.Sprintf("%s/%s/%s", name, kname, v.name), logs[name], skimSelections[kname]) }
				withRangeBytes(v.rb, func() {
					if v.limitAhead {
						withAheadBytes(v.ahead, run)
					} else {
						run()
					}
				})
			}
		}
	}
}

// blockMarkerOffsets returns where the block markers of data are.
func blockMarkerOffsets(t *testing.T, data []byte) []int64 {
	t.Helper()
	var out []int64
	_, _, err := readAll(bytes.NewReader(data), func(ev *Event) error {
		if ev.Kind == KindBlockMarker {
			out = append(out, ev.Offset)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// reblock rewrites an eventlog with its events in blocks of at most about
// size bytes, one capability per block, as GHC writes them, so that small
// logs have many blocks. Events decode as before.
func reblock(t testing.TB, data []byte, size int) []byte {
	t.Helper()
	return rewrite(t, data, size, nil)
}

// rewrite is reblock with each event's bytes replaced by what edit returns
// for it (if edit is not nil).
func rewrite(t testing.TB, data []byte, size int, edit func(ev *Event) []byte) []byte {
	t.Helper()
	d := NewDecoder()
	d.Feed(data)
	d.End()
	var ev Event
	if !d.Next(&ev) {
		t.Fatal("no events")
	}
	out := bytes.Clone(data[:ev.Offset]) // the header and the data begin marker
	var block []byte
	blockCap := int32(NoCap)
	var last uint64
	flush := func() {
		if len(block) == 0 {
			return
		}
		c := uint16(0xFFFF)
		if blockCap != NoCap {
			c = uint16(blockCap)
		}
		m := make([]byte, 24)
		binary.BigEndian.PutUint16(m, uint16(KindBlockMarker))
		binary.BigEndian.PutUint64(m[2:], 0)
		binary.BigEndian.PutUint32(m[10:], uint32(24+len(block)))
		binary.BigEndian.PutUint64(m[14:], last)
		binary.BigEndian.PutUint16(m[22:], c)
		out = append(append(out, m...), block...)
		block = block[:0]
	}
	for ok := true; ok; ok = d.Next(&ev) {
		if ev.Kind == KindBlockMarker {
			continue
		}
		raw := ev.Raw
		if edit != nil {
			raw = edit(&ev)
		}
		if ev.Cap != blockCap || len(block)+len(raw) > size {
			flush()
			blockCap = ev.Cap
		}
		block = append(block, raw...)
		last = ev.Time
	}
	flush()
	if d.Status().State != StateComplete {
		t.Fatalf("reblock: %v", d.Status())
	}
	return append(out, 0xFF, 0xFF)
}

// TestSkimShortVariableEvents: variable-size events too short for their
// kind (a thread label without a thread id, say) decode as unknown; the
// skim passes the others of their types on the spot and these through the
// Decoder, and its tally still gives each type the kind of its last event.
func TestSkimShortVariableEvents(t *testing.T) {
	orig, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	short := func(ev *Event) []byte { // id, time, length 2, two bytes
		return append(bytes.Clone(ev.Raw[:10]), 0, 2, 'x', 'y')
	}
	counts := map[Kind]int{}
	for _, tc := range []struct {
		name string
		cut  func(k Kind, i int) bool // shorten the i-th event of kind k
	}{
		{"every 7th label", func(k Kind, i int) bool { return k == KindThreadLabel && i%7 == 3 }},
		{"every other label and message", func(k Kind, i int) bool { return (k == KindThreadLabel || k == KindUserMsg) && i%2 == 1 }},
		{"all labels", func(k Kind, i int) bool { return k == KindThreadLabel }},
		{"first label", func(k Kind, i int) bool { return k == KindThreadLabel && i == 0 }},
	} {
		clear(counts)
		shortened := 0
		data := rewrite(t, orig, 2<<10, func(ev *Event) []byte {
			i := counts[ev.Kind]
			counts[ev.Kind]++
			if ev.Kind == KindThreadLabel || ev.Kind == KindUserMsg {
				if tc.cut(ev.Kind, i) {
					shortened++
					return short(ev)
				}
			}
			return ev.Raw
		})
		if shortened == 0 || counts[KindThreadLabel] < 10 {
			t.Fatalf("%s: %d events shortened of %d labels", tc.name, shortened, counts[KindThreadLabel])
		}
		for _, rb := range []int64{1, 4096, 1 << 20} {
			withRangeBytes(rb, func() {
				for kname, kinds := range skimSelections {
					checkSkim(t, fmt.Sprintf("%s/%s/range %d", tc.name, kname, rb), data, kinds)
				}
			})
		}
	}
	// The last label of the log is short: its type's kind is unknown.
	data := reblock(t, orig, 2<<10)
	var last int64 = -1
	_, _, _ = readAll(bytes.NewReader(data), func(ev *Event) error {
		if ev.Kind == KindThreadLabel {
			last = ev.Offset
		}
		return nil
	})
	if last < 0 {
		t.Fatal("no thread label")
	}
	data = rewrite(t, data, 2<<10, func(ev *Event) []byte {
		if ev.Offset == last {
			return short(ev)
		}
		return ev.Raw
	})
	res := Skim(data, Selection{}, func(*Event) {})
	id := binary.BigEndian.Uint16(data[last:])
	if got := res.Tally.Types[id].Kind; got != KindUnknown {
		t.Errorf("type %d after a short last label: kind %v, want unknown", id, got)
	}
	withRangeBytes(1, func() { checkSkim(t, "last label short", data, Selection{}) })
}

// TestSkimDamagedLogs: truncated logs, and logs with damaged bytes where
// the skim cuts them (block markers, their sizes) and elsewhere, give what
// the Decoder gives; whatever the damage, Skim neither panics nor hangs.
func TestSkimDamagedLogs(t *testing.T) {
	// Each case also goes through a file, read in small windows.
	path := filepath.Join(t.TempDir(), "damaged.eventlog")
	check := func(name string, data []byte, sel Selection) {
		t.Helper()
		if !sampled(name, 4) {
			return
		}
		checkSkim(t, name, data, sel)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		withWindowBytes(64, func() { checkSkimFile(t, name+" (file)", path, data, sel) })
	}
	orig, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	data := reblock(t, orig, 2<<10)
	blocks := blockMarkerOffsets(t, data)
	if len(blocks) < 50 {
		t.Fatalf("only %d blocks", len(blocks))
	}
	withRangeBytes(1, func() { check("reblocked", data, skimSelections["all"]) })
	rng := rand.New(rand.NewPCG(1, 2))
	withRangeBytes(1, func() {
		// Cuts around every block marker, and anywhere.
		for i := 0; i < len(blocks); i += 5 {
			b := blocks[i]
			for _, cut := range []int64{b - 1, b, b + 1, b + 5, b + 23} {
				if cut > 0 && cut < int64(len(data)) {
					check(fmt.Sprintf("cut at %d", cut), data[:cut], summarySelection)
				}
			}
		}
		for range 40 {
			cut := rng.IntN(len(data))
			check(fmt.Sprintf("cut at %d", cut), data[:cut], summarySelection)
		}
		// Block sizes that lie: shorter, longer, zero, past the end.
		for i := 1; i < len(blocks); i += 7 {
			b := blocks[i]
			for _, size := range []uint32{0, 7, 24, 1000, 1 << 30} {
				bad := bytes.Clone(data)
				binary.BigEndian.PutUint32(bad[b+10:], size)
				check(fmt.Sprintf("block %d size %d", i, size), bad, summarySelection)
			}
			old := binary.BigEndian.Uint32(data[b+10:])
			for _, delta := range []int{-3, -1, 1, 2, 14} {
				bad := bytes.Clone(data)
				binary.BigEndian.PutUint32(bad[b+10:], uint32(int(old)+delta))
				check(fmt.Sprintf("block %d size %+d", i, delta), bad, skimSelections["all"])
			}
		}
		// A block size that leads the skim to a false block marker in
		// the middle of an event (written into the top of its
		// timestamp): the piece before it overruns the cut.
		var inner []int64
		_, _, _ = readAll(bytes.NewReader(data), func(ev *Event) error {
			if ev.Kind != KindBlockMarker && ev.Offset > blocks[len(blocks)/2] {
				inner = append(inner, ev.Offset)
			}
			return nil
		})
		for _, e := range []int64{inner[3], inner[len(inner)/3], inner[len(inner)-9]} {
			bad := bytes.Clone(data)
			x := e + 2
			binary.BigEndian.PutUint16(bad[x:], uint16(KindBlockMarker))
			from := blocks[1]
			binary.BigEndian.PutUint32(bad[from+10:], uint32(x-from))
			check(fmt.Sprintf("false marker at %d", x), bad, skimSelections["all"])
		}
		// An undeclared event type, or the end marker, in a later block.
		for _, mark := range []uint16{0xFFFF, 0xFFF0} {
			bad := bytes.Clone(data)
			at := blocks[len(blocks)/2] + 24
			binary.BigEndian.PutUint16(bad[at:], mark)
			check(fmt.Sprintf("id %#x at %d", mark, at), bad, summarySelection)
		}
		// Random bytes anywhere.
		for range 60 {
			bad := bytes.Clone(data)
			for range 1 + rng.IntN(4) {
				bad[rng.IntN(len(bad))] = byte(rng.Uint32())
			}
			check("random damage", bad, summarySelection)
		}
	})
}

// TestSkimFile: the file skim equals the in-memory one; what is not a
// regular file, or not there, is an error.
func TestSkimFile(t *testing.T) {
	dir := t.TempDir()
	for name, data := range skimTestLogs(t) {
		path := filepath.Join(dir, filepath.Base(name))
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		for sname, sel := range skimSelections {
			for _, rb := range []int64{1, 1 << 20} {
				for _, wb := range []int{16, 1000, 256 << 10} {
					c := fmt.Sprintf("%s/%s/range %d/window %d", name, sname, rb, wb)
					if !sampled(c, 5) {
						continue
					}
					withRangeBytes(rb, func() {
						withWindowBytes(wb, func() {
							checkSkimFile(t, c, path, data, sel)
						})
					})
				}
			}
		}
	}
	if _, err := SkimFile(filepath.Join(t.TempDir(), "missing.eventlog"), Selection{}, func(*Event) {}); err == nil {
		t.Error("no error for a missing file")
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if _, err := SkimFile(fifo, Selection{}, func(*Event) {}); err == nil {
		t.Error("no error for a FIFO")
	}
	empty := filepath.Join(t.TempDir(), "empty.eventlog")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := SkimFile(empty, Selection{}, func(*Event) {})
	if err != nil || r.Status.State != StateTruncated || r.Status.Offset != 0 {
		t.Errorf("empty file: %v, %v; want truncated at 0", r.Status, err)
	}
}

// TestSkimFileShrinking: a file cut short while it is skimmed is an error,
// not a crash, unless every byte had been read before the cut (the ranges
// are read ahead of the events handed out, which a busy machine can let
// run to the end of this small file): then the result is the whole file's.
func TestSkimFileShrinking(t *testing.T) {
	orig, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "shrinking.eventlog")
	if err := os.WriteFile(path, reblock(t, orig, 2<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	whole, err := SkimFile(path, skimSelections["all"], func(*Event) {})
	if err != nil {
		t.Fatal(err)
	}
	withRangeBytes(1, func() {
		cut := false
		r, err := SkimFile(path, skimSelections["all"], func(*Event) {
			if !cut {
				cut = true
				if err := os.Truncate(path, 0); err != nil {
					t.Error(err)
				}
			}
		})
		if err == nil && (r.Status != whole.Status || !reflect.DeepEqual(r.Tally, whole.Tally)) {
			t.Fatalf("no error for a file that shrank, and %v, %+v instead of the whole file's %v, %+v", r.Status, r.Tally, whole.Status, whole.Tally)
		}
		t.Log(err)
	})
}

// FuzzSkim skims arbitrary bytes, cut into pieces at every block marker the
// chain of block sizes reaches, under a selection the input picks, both in
// memory and from a file read through 64-byte windows: the events handed
// out, the tally and the status must be the Decoder's, and nothing may
// panic. The seeds are small logs in blocks of a few hundred bytes.
func FuzzSkim(f *testing.F) {
	names := slices.Sorted(maps.Keys(skimSelections))
	for i, name := range []string{"corpus/ghc-events__trace-binary-event.eventlog", "corpus/ghc-events__nonmoving-gc.eventlog",
		"corpus/ghc-events-history__queens-ghc-6.12.1.eventlog", "corpus/ghc-events__ticky-ticky.eventlog"} {
		data, err := os.ReadFile("../testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(reblock(f, data, 300), uint8(i))
	}
	path := filepath.Join(f.TempDir(), "fuzz.eventlog")
	f.Fuzz(func(t *testing.T, data []byte, pick uint8) {
		sel := skimSelections[names[int(pick)%len(names)]]
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		withRangeBytes(1, func() {
			checkSkim(t, "fuzz", data, sel)
			withWindowBytes(64, func() { checkSkimFile(t, "fuzz (file)", path, data, sel) })
		})
	})
}

// sampled reports whether the test case called name runs: every case
// normally; under the race detector, whose cost is in the tens, one in
// every k, the same ones each time (chosen by a hash of the name), so that
// CI stays fast while every kind of case is still run somewhere.
func sampled(name string, k uint32) bool {
	if !raceOn {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return h.Sum32()%k == 0
}
