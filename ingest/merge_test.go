package ingest

import (
	"bytes"
	"encoding/binary"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// mergeLogs returns every small real log of the repository.
func mergeLogs(t testing.TB) []string {
	files := corpusFiles(t)
	for _, g := range []string{"../testdata/ghc-9.0.2/*.eventlog", "../testdata/generated/*.eventlog"} {
		more, _ := filepath.Glob(g)
		files = append(files, more...)
	}
	return files
}

// mergeAll indexes data and merges all of it, returning the events (cloned)
// and the merge's status.
func mergeAll(t testing.TB, data []byte, opt MergeOptions) ([]Event, *Index, Status) {
	t.Helper()
	ix, err := NewIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("NewIndex: %v", err)
	}
	m := NewMerge(bytes.NewReader(data), ix, opt)
	return drain(t, m), ix, m.Status()
}

// drain returns every event m hands out, cloned, failing the test if the
// merge ends in an error.
func drain(t testing.TB, m *Merge) []Event {
	t.Helper()
	var out []Event
	for e := m.Next(); e != nil; e = m.Next() {
		out = append(out, e.Clone())
	}
	if err := m.Err(); err != nil {
		t.Fatalf("merge: %v", err)
	}
	return out
}

// checkMerged checks that merged holds exactly the events of seq (by
// offset, with equal contents), each stream's events in file order, and
// that whenever the merge switches streams time does not go back.
func checkMerged(t *testing.T, name string, seq, merged []Event) {
	t.Helper()
	if len(merged) != len(seq) {
		t.Fatalf("%s: merged %d events, the decoder %d", name, len(merged), len(seq))
	}
	byOff := make(map[int64]*Event, len(seq))
	for i := range seq {
		byOff[seq[i].Offset] = &seq[i]
	}
	lastOff := map[int32]int64{}
	for i := range merged {
		e := &merged[i]
		s, ok := byOff[e.Offset]
		if !ok {
			t.Fatalf("%s: merged event at byte %d is not one of the decoder's", name, e.Offset)
		}
		delete(byOff, e.Offset)
		if !reflect.DeepEqual(*s, *e) {
			t.Fatalf("%s: event at byte %d differs:\n decoder %+v\n merged  %+v", name, e.Offset, *s, *e)
		}
		if o, ok := lastOff[e.Cap]; ok && o > e.Offset && e.Cap != NoCap {
			t.Fatalf("%s: capability %d's event at byte %d merged after its event at byte %d", name, e.Cap, e.Offset, o)
		}
		lastOff[e.Cap] = e.Offset
		if i > 0 {
			p := &merged[i-1]
			if p.Cap != e.Cap && e.Time < p.Time {
				t.Fatalf("%s: time goes back from %d (cap %d) to %d (cap %d) across streams", name, p.Time, p.Cap, e.Time, e.Cap)
			}
		}
	}
}

func TestMergeMatchesDecoder(t *testing.T) {
	for _, f := range mergeLogs(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		seq, st := decodeChunks(data, []int{1 << 20})
		merged, ix, mst := mergeAll(t, data, MergeOptions{Learn: true})
		name := filepath.Base(f)
		checkMerged(t, name, seq, merged)
		if mst.State != st.State || (st.State != StateComplete && mst.Offset != st.Offset) {
			t.Errorf("%s: merge status %v, decoder %v", name, mst, st)
		}
		var n int64
		for _, p := range ix.Pieces {
			if !p.Known {
				t.Errorf("%s: piece at %d not learned", name, p.Offset)
			}
			n += p.Events
		}
		if n != int64(len(seq)) {
			t.Errorf("%s: pieces count %d events, the decoder %d", name, n, len(seq))
		}
	}
}

// TestMergeTruncated cuts real logs at many places: the merge delivers the
// events before the cut that the decoder does, with the same status.
func TestMergeTruncated(t *testing.T) {
	for _, f := range []string{"../testdata/ghc-9.0.2/parwork-N2.eventlog", "../testdata/corpus/ghc-events-history__queens-ghc-6.12.1.eventlog"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, cut := range []int{len(data) - 1, len(data) - 7, len(data) * 2 / 3, len(data) / 2, len(data) / 5, 5000, 1201} {
			part := data[:cut]
			seq, st := decodeChunks(part, []int{1 << 20})
			ix, err := NewIndex(bytes.NewReader(part), int64(len(part)))
			if err != nil {
				if len(seq) == 0 {
					continue
				}
				t.Fatalf("%s cut at %d: %v", f, cut, err)
			}
			m := NewMerge(bytes.NewReader(part), ix, MergeOptions{})
			var merged []Event
			for e := m.Next(); e != nil; e = m.Next() {
				merged = append(merged, e.Clone())
			}
			checkMerged(t, filepath.Base(f), seq, merged)
			if got := m.Status(); got != st {
				t.Errorf("%s cut at %d: merge status %v, decoder %v", filepath.Base(f), cut, got, st)
			}
		}
	}
}

// TestMergeBoundsAndTap: bounds keep only the events in range; a tap sees
// each stream's events in its own goroutine and can keep them out.
func TestMergeBoundsAndTap(t *testing.T) {
	data, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	all, ix, _ := mergeAll(t, data, MergeOptions{Learn: true})
	from, to := all[len(all)/3].Time, all[2*len(all)/3].Time
	tapped := make([]int, 8)
	m := NewMerge(bytes.NewReader(data), ix, MergeOptions{From: from, To: to, Tap: func(c int32) func(*Event) bool {
		k := int(c) + 1
		return func(e *Event) bool {
			tapped[k]++
			return e.Kind != KindSparkCreate
		}
	}})
	var got, want int
	for e := m.Next(); e != nil; e = m.Next() {
		if e.Time < from || e.Time > to || e.Kind == KindSparkCreate {
			t.Fatalf("merged an event at %d of kind %v outside [%d, %d] or tapped out", e.Time, e.Kind, from, to)
		}
		got++
	}
	inRange := 0
	for i := range all {
		if all[i].Time >= from && all[i].Time <= to {
			inRange++
			if all[i].Kind != KindSparkCreate {
				want++
			}
		}
	}
	if got != want {
		t.Errorf("merged %d events in range, want %d", got, want)
	}
	sum := 0
	for _, n := range tapped {
		sum += n
	}
	if sum != inRange {
		t.Errorf("taps saw %d events, %d are in range", sum, inRange)
	}
}

func TestIndexRejectsNonEventlogs(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("hello, world"), []byte("hdrbhet")} {
		if _, err := NewIndex(bytes.NewReader(data), int64(len(data))); err == nil {
			t.Errorf("NewIndex(%q) succeeded", data)
		}
	}
}

// TestShowFileMatchesShowBuffer: the streamed show document of every test
// log, whole and cut short, is byte for byte the one a ShowBuffer holding
// every event writes (ghc-events show's stable sort by time).
func TestShowFileMatchesShowBuffer(t *testing.T) {
	for _, f := range mergeLogs(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, cut := range []int{len(data), len(data) * 2 / 3, len(data)/3 + 17} {
			part := data[:cut]
			var want, got bytes.Buffer
			wst, werr := showBuffered(&want, bytes.NewReader(part), int64(len(part)))
			gst, gerr := ShowFile(&got, bytes.NewReader(part), int64(len(part)))
			if (werr == nil) != (gerr == nil) && gerr == nil {
				t.Errorf("%s cut at %d: buffered error %v, streamed none", filepath.Base(f), cut, werr)
			}
			if gerr != nil {
				continue
			}
			if !bytes.Equal(want.Bytes(), got.Bytes()) {
				t.Fatalf("%s cut at %d: streamed show differs from the buffered one", filepath.Base(f), cut)
			}
			if wst != gst {
				t.Errorf("%s cut at %d: status %v, buffered %v", filepath.Base(f), cut, gst, wst)
			}
		}
	}
}

// TestCorruptBlockSizeTakesTheBlockNoFurther: a block marker whose size is
// wrong — pointing inside an event, or 4 GiB — leaves the block where its
// events end (the next marker), as a decoder reading the file in order
// does, and one pointing at an event boundary inside the block ends it
// there, as that decoder does too: the index and the in-order decoder give
// every capability the same events. Before, a size pointing inside an event
// made the index stop there (the app and render said the log was cut at
// that byte, the summary read on), and a size of 4 GiB swallowed every
// later block of the file into one capability.
func TestCorruptBlockSizeTakesTheBlockNoFurther(t *testing.T) {
	data, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	ix, err := NewIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var block Piece
	for _, p := range ix.Pieces {
		if p.Block && p.Cap == 0 {
			block = p
			break
		}
	}
	if block.End >= int64(len(data)) {
		t.Fatal("no block of capability 0 followed by another")
	}
	// perCap counts the events of each capability, merged from the index
	// and read in order.
	perCap := func(log []byte) (merged, inOrder map[int32]int, st Status) {
		evs, _, st := mergeAll(t, log, MergeOptions{})
		merged, inOrder = map[int32]int{}, map[int32]int{}
		for i := range evs {
			merged[evs[i].Cap]++
		}
		rd := NewReader(bytes.NewReader(log))
		var ev Event
		for rd.Next(&ev) {
			inOrder[ev.Cap]++
		}
		return merged, inOrder, st
	}
	healthy, _, _ := perCap(data)
	for _, c := range []struct {
		name  string
		size  uint32
		whole bool // the block keeps all its events
	}{
		{"inside its last event", uint32(block.End-block.Offset) - 1, true},
		{"4 GiB", 0xFFFFFFFF, true},
		{"at its first event's end", 0, false}, // filled in below
	} {
		log := bytes.Clone(data)
		size := c.size
		if size == 0 {
			// The marker and the block's first event.
			d := ix.DecoderAt(block.Offset, NoCap, 0)
			d.Feed(data[block.Offset:block.End])
			var ev Event
			if !d.Next(&ev) || ev.Kind != KindBlockMarker || !d.Next(&ev) {
				t.Fatal("no event after the block's marker")
			}
			size = uint32(ev.Offset + int64(len(ev.Raw)) - block.Offset)
		}
		binary.BigEndian.PutUint32(log[block.Offset+10:], size)
		merged, inOrder, st := perCap(log)
		if st.State != StateComplete {
			t.Errorf("%s: the merge ended %v", c.name, st)
		}
		if !maps.Equal(merged, inOrder) {
			t.Errorf("%s: merged %v, read in order %v", c.name, merged, inOrder)
		}
		if c.whole && !maps.Equal(merged, healthy) {
			t.Errorf("%s: %v, want the healthy log's %v", c.name, merged, healthy)
		}
	}
}

// TestMergeStretches: a merge with bounds that starts a block at one of its
// stretches and stops at the end of another hands out exactly the events,
// in the same order and with the same times (an impossible one given the
// same), as one that decodes every block whole; and it decodes fewer.
func TestMergeStretches(t *testing.T) {
	defer func(n int64) { stretchEvents = n }(stretchEvents)
	merge := func(data []byte, ix *Index, opt MergeOptions) ([]Event, int64) {
		m := NewMerge(bytes.NewReader(data), ix, opt)
		return drain(t, m), m.Events()
	}
	var resumed, stretched int
	for _, f := range mergeLogs(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		stretchEvents = 1 << 40
		all, whole, _ := mergeAll(t, data, MergeOptions{Learn: true})
		stretchEvents = 50
		_, cut, _ := mergeAll(t, data, MergeOptions{Learn: true})
		for _, p := range cut.Pieces {
			if len(p.Stretches) > 0 {
				stretched++
				if p.Stretches[0].Offset != p.Offset {
					t.Fatalf("%s: the block at byte %d has its first stretch at byte %d", name, p.Offset, p.Stretches[0].Offset)
				}
			}
		}
		if len(all) == 0 {
			continue
		}
		for k := range 12 {
			// Narrow and wide ranges at places spread over the log, and
			// one open at the end.
			at := all[(k*7919)%len(all)].Time
			width := []uint64{0, 1000, 100_000, 10_000_000}[k%4]
			from, to := at, at+width
			if k == 11 {
				to = 0
			}
			for _, sorted := range []bool{false, true} {
				opt := MergeOptions{From: from, To: to, Sorted: sorted}
				want, decodedWhole := merge(data, whole, opt)
				got, decoded := merge(data, cut, opt)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s [%d, %d] sorted %v: %d events from the stretches, %d from whole blocks, or they differ", name, from, to, sorted, len(got), len(want))
				}
				if decoded < decodedWhole {
					resumed++
				}
			}
		}
	}
	if stretched == 0 || resumed == 0 {
		t.Errorf("%d blocks cut into stretches, %d merges decoded less for them: the test tries nothing", stretched, resumed)
	}
}
