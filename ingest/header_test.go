package ingest

import (
	"bytes"
	"encoding/binary"
	"os"
	"runtime"
	"testing"
)

// endlessHeader returns the start of a real log's header followed by n more
// event type records of fresh ids (cycling through 65,536) and long
// descriptions, with no header end: a header that goes on for ever.
func endlessHeader(t testing.TB, n int) []byte {
	t.Helper()
	data, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N1.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	end := bytes.Index(data, []byte("hete"))
	out := bytes.Clone(data[:end])
	desc := bytes.Repeat([]byte("x"), 1000)
	for i := 0; i < n; i++ {
		out = binary.BigEndian.AppendUint32(out, markETBegin)
		out = binary.BigEndian.AppendUint16(out, uint16(1000+i))
		out = binary.BigEndian.AppendUint16(out, 8)
		out = binary.BigEndian.AppendUint32(out, uint32(len(desc)))
		out = append(out, desc...)
		out = binary.BigEndian.AppendUint32(out, 0)
		out = binary.BigEndian.AppendUint32(out, markETEnd)
	}
	return out
}

// TestEndlessHeaderIsCorrupt: a header that does not end (4 MB of type
// records) is reported corrupt once it passes MaxHeader, by a decoder fed
// it in pieces, which keeps far less than the input; an index and a skim
// say the same. Before, the decoder read the whole input into its header
// (about ten times its size in memory) and waited for more.
func TestEndlessHeaderIsCorrupt(t *testing.T) {
	data := endlessHeader(t, 4<<10)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	d := NewDecoder()
	var ev Event
	for i := 0; i < len(data) && d.Status().State == StateDecoding; i += 1 << 16 {
		d.Feed(data[i:min(i+1<<16, len(data))])
		for d.Next(&ev) {
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	st := d.Status()
	if st.State != StateCorrupt || st.Offset > MaxHeader || st.Offset < MaxHeader-2000 {
		t.Fatalf("decoder: %v, want corrupt just before byte %d", st, MaxHeader)
	}
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 8*MaxHeader {
		t.Errorf("decoder holds %d bytes for a header cut at %d", grew, MaxHeader)
	}
	if _, err := NewIndex(bytes.NewReader(data), int64(len(data))); err == nil {
		t.Error("index of an endless header: no error")
	}
	if r := Skim(data, Selection{}, nil); r.Status.State != StateCorrupt {
		t.Errorf("skim: %v", r.Status)
	}

	// A type declared twice is no GHC header either.
	twice := endlessHeader(t, 0)
	rec := twice[bytes.Index(twice, []byte("hetb"))+4:]
	rec = rec[:bytes.Index(rec, []byte{0x65, 0x74, 0x65, 0x00})+4]
	twice = append(twice, rec...)
	d = NewDecoder()
	d.Feed(twice)
	d.End()
	d.Next(&ev)
	if st := d.Status(); st.State != StateCorrupt || !bytes.Contains([]byte(st.Reason), []byte("declared twice")) {
		t.Errorf("a type declared twice: %v", st)
	}
}
