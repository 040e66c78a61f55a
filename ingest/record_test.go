package ingest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hecscope/hecscope/internal/testfile"
)

// readGHC902 returns the test log called name.
func readGHC902(t testing.TB, name string) []byte {
	t.Helper()
	return testfile.Read(t, "../testdata/ghc-9.0.2/"+name)
}

// sameEvents fails unless got holds exactly the raw events of want.
func sameEvents(t *testing.T, got, want []Event) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].Offset != want[i].Offset || !bytes.Equal(got[i].Raw, want[i].Raw) {
			t.Fatalf("event %d differs: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// eventsBefore returns the events of all that end at or before byte cut.
func eventsBefore(all []Event, cut int64) []Event {
	var out []Event
	for _, ev := range all {
		if ev.Offset+int64(len(ev.Raw)) <= cut {
			out = append(out, ev)
		}
	}
	return out
}

// TestRecorderWholeStream: a stream recorded in uneven chunks is the same
// file, byte for byte.
func TestRecorderWholeStream(t *testing.T) {
	data := readGHC902(t, "parwork-N2.eventlog")
	path := filepath.Join(t.TempDir(), "rec.eventlog")
	r, err := NewRecorder(path)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	for off := 0; off < len(data); {
		n := min(len(data)-off, 1+rng.Intn(5000))
		if _, err := r.Write(data[off : off+n]); err != nil {
			t.Fatal(err)
		}
		off += n
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("recording is %d bytes and differs from the %d-byte stream", len(got), len(data))
	}
	if r.Written() != int64(len(data)) {
		t.Fatalf("Written = %d, want %d", r.Written(), len(data))
	}
}

// TestRecorderCut cuts the stream at random bytes. With or without Close
// (hecscope died) the file decodes as truncated with every whole event
// before the cut: a recording of a cut stream has no end marker. Closed
// inside the header, the recording is removed.
func TestRecorderCut(t *testing.T) {
	data := readGHC902(t, "parwork-N2.eventlog")
	all, _ := decodeChunks(data, []int{len(data)})
	hdrLen := all[0].Offset
	rng := rand.New(rand.NewSource(2))
	dir := t.TempDir()
	for i := 0; i < 40; i++ {
		cut := int64(rng.Intn(len(data)))
		if i == 0 {
			cut = hdrLen
		}
		for _, closeIt := range []bool{false, true} {
			path := filepath.Join(dir, "cut.eventlog")
			r, err := NewRecorder(path)
			if err != nil {
				t.Fatal(err)
			}
			for off := int64(0); off < cut; {
				n := min(cut-off, int64(1+rng.Intn(3000)))
				if _, err := r.Write(data[off : off+n]); err != nil {
					t.Fatal(err)
				}
				off += n
			}
			if closeIt {
				if err := r.Close(); err != nil {
					t.Fatal(err)
				}
			}
			rec, err := os.ReadFile(path)
			if cut < hdrLen && closeIt {
				// A recording that got no whole header is removed.
				if !errors.Is(err, os.ErrNotExist) {
					t.Fatalf("cut %d inside the header: the closed recording is still there (%d bytes, %v)", cut, len(rec), err)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if !closeIt {
				r.Close()
			}
			got, st := decodeChunks(rec, []int{len(rec)})
			if cut < hdrLen {
				if len(rec) != 0 {
					t.Fatalf("cut %d inside the header: %d bytes recorded", cut, len(rec))
				}
				continue
			}
			want := eventsBefore(all, cut)
			sameEvents(t, got, want)
			if st.State != StateTruncated || st.Offset != int64(len(rec)) {
				t.Fatalf("cut %d, closed %v: recording of %d bytes is %s, want truncated at its end", cut, closeIt, len(rec), st)
			}
		}
	}
}

// TestRecorderCorruptInput keeps the events before bad bytes; the file ends
// there, truncated.
func TestRecorderCorruptInput(t *testing.T) {
	data := readGHC902(t, "parwork-N1.eventlog")
	all, _ := decodeChunks(data, []int{len(data)})
	bad := append([]byte(nil), data[:all[50].Offset]...)
	bad = append(bad, 0xEE, 0xEE, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
	path := filepath.Join(t.TempDir(), "bad.eventlog")
	r, err := NewRecorder(path)
	if err != nil {
		t.Fatal(err)
	}
	r.Write(bad)
	if r.Status().State != StateCorrupt {
		t.Fatalf("status %s, want corrupt", r.Status())
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	rec, _ := os.ReadFile(path)
	got, st := decodeChunks(rec, []int{len(rec)})
	sameEvents(t, got, all[:50])
	if st.State != StateTruncated {
		t.Fatalf("recording is %s", st)
	}
}

// TestAutoRecorderNames: the file is named by time, then by the program once
// PROGRAM_ARGS arrives.
func TestAutoRecorderNames(t *testing.T) {
	data := readGHC902(t, "parwork-N2.eventlog")
	dir := t.TempDir()
	start := time.Date(2026, 11, 22, 6, 30, 5, 0, time.UTC)
	r, err := NewAutoRecorder(dir, start)
	if err != nil {
		t.Fatal(err)
	}
	if got := filepath.Base(r.Path()); got != "live-20261122-063005.eventlog" {
		t.Fatalf("first name %q", got)
	}
	r2, err := NewAutoRecorder(dir, start)
	if err != nil {
		t.Fatal(err)
	}
	if r2.Path() == r.Path() {
		t.Fatal("two recordings started in the same second share a name")
	}
	r2.Close()
	os.Remove(r2.Path())
	r.Write(data)
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	base := filepath.Base(r.Path())
	if !strings.HasSuffix(base, "-20261122-063005.eventlog") || strings.HasPrefix(base, "live-") {
		t.Fatalf("renamed to %q", base)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != base {
		t.Fatalf("directory holds %v", entries)
	}
	rec, _ := os.ReadFile(r.Path())
	if !bytes.Equal(rec, data) {
		t.Fatal("renamed recording differs from the stream")
	}
}

func TestRecordingsDir(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/x/data")
	d, err := RecordingsDir()
	if err != nil || d != "/x/data/hecscope/recordings" {
		t.Fatalf("RecordingsDir = %q, %v", d, err)
	}
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/u")
	d, err = RecordingsDir()
	if err != nil || d != "/home/u/.local/share/hecscope/recordings" {
		t.Fatalf("RecordingsDir = %q, %v", d, err)
	}
}

// shiftTimes returns a copy of an eventlog with every timestamp (and every
// block's end time) moved later by delta ns: the same run, as a stream that
// began delta after the program started would carry it.
func shiftTimes(t testing.TB, data []byte, delta uint64) []byte {
	t.Helper()
	out := append([]byte(nil), data...)
	evs, st := decodeChunks(data, []int{len(data)})
	if st.State != StateComplete {
		t.Fatalf("shifting a log that is %s", st)
	}
	for _, ev := range evs {
		at := ev.Offset + 2
		binary.BigEndian.PutUint64(out[at:], ev.Time+delta)
		if ev.Kind == KindBlockMarker {
			binary.BigEndian.PutUint64(out[ev.Offset+14:], ev.Args[1]+delta)
		}
	}
	return out
}

// feedRandomly writes data to r in chunks of 1–4000 bytes.
func feedRandomly(t *testing.T, r *Recorder, data []byte, seed int64) {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	for off := 0; off < len(data); {
		n := min(len(data)-off, 1+rng.Intn(4000))
		if _, err := r.Write(data[off : off+n]); err != nil {
			t.Fatal(err)
		}
		off += n
	}
}

// TestRecorderJoinMark: a stream whose first block begins 5 s into the run
// (a late join) is recorded with a join mark after its header, giving that
// time; the events follow unchanged. A stream from the start gets no mark,
// and a stream that already starts with a mark (a relay's) keeps its own.
func TestRecorderJoinMark(t *testing.T) {
	data := shiftTimes(t, readGHC902(t, "parwork-N2.eventlog"), 5e9)
	all, _ := decodeChunks(data, []int{len(data)})
	dir := t.TempDir()
	r, err := NewRecorder(filepath.Join(dir, "late.eventlog"))
	if err != nil {
		t.Fatal(err)
	}
	feedRandomly(t, r, data, 4)
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if at, ok := r.JoinedAt(); !ok || at != all[0].Time {
		t.Fatalf("JoinedAt = %d, %v; want %d", at, ok, all[0].Time)
	}
	rec, _ := os.ReadFile(r.Path())
	got, st := decodeChunks(rec, []int{len(rec)})
	if st.State != StateComplete {
		t.Fatalf("recording is %s", st)
	}
	at, ok := JoinMark(&got[0])
	if !ok || at != all[0].Time || got[0].Time != at || got[0].Cap != NoCap {
		t.Fatalf("first event %+v is not a join mark at %d", got[0], all[0].Time)
	}
	if len(got) != len(all)+1 {
		t.Fatalf("%d events recorded, want %d and the mark", len(got), len(all))
	}
	for i := range all {
		if !bytes.Equal(got[i+1].Raw, all[i].Raw) || got[i+1].Cap != all[i].Cap {
			t.Fatalf("event %d differs after the mark", i)
		}
	}

	// The recording, recorded again (a relay's viewer records what the
	// relay recorded): one mark, the same.
	r2, _ := NewRecorder(filepath.Join(dir, "again.eventlog"))
	feedRandomly(t, r2, rec, 5)
	r2.Close()
	again, _ := os.ReadFile(r2.Path())
	if !bytes.Equal(again, rec) {
		t.Fatal("recording a marked stream changed it")
	}

	early := readGHC902(t, "parwork-N2.eventlog")
	r3, _ := NewRecorder(filepath.Join(dir, "early.eventlog"))
	feedRandomly(t, r3, early, 6)
	r3.Close()
	if _, ok := r3.JoinedAt(); ok {
		t.Fatal("a stream from the program's start counts as joined late")
	}
}

// TestRecorderCutMark: a relay's cut mark and the end marker after it end
// the recording without either, so that it reads as truncated; Feed tells
// where the stream ended, and the next stream on the connection is whatever
// follows.
func TestRecorderCutMark(t *testing.T) {
	data := readGHC902(t, "parwork-N1.eventlog")
	all, _ := decodeChunks(data, []int{len(data)})
	cut := all[400].Offset
	stream := appendCutEnd(append([]byte(nil), data[:cut]...), all[399].Time)
	next := readGHC902(t, "parwork-N2.eventlog")
	wire := append(append([]byte(nil), stream...), next...)
	dir := t.TempDir()
	r, _ := NewRecorder(filepath.Join(dir, "cut.eventlog"))
	rest := feedUntilEnd(t, r, wire, 7)
	if len(rest) != len(next) || !bytes.Equal(rest, next) {
		t.Fatalf("%d bytes left after the cut stream, want the %d of the next", len(rest), len(next))
	}
	if st := r.Status(); st.State != StateTruncated || st.Offset != cut {
		t.Fatalf("status %s, want truncated at %d", st, cut)
	}
	r.Close()
	rec, _ := os.ReadFile(r.Path())
	if !bytes.Equal(rec, data[:cut]) {
		t.Fatalf("recording is %d bytes, want the %d before the cut", len(rec), cut)
	}
	r2, _ := NewRecorder(filepath.Join(dir, "next.eventlog"))
	if rest := feedUntilEnd(t, r2, rest, 8); len(rest) != 0 {
		t.Fatalf("%d bytes after the last stream", len(rest))
	}
	r2.Close()
	if rec2, _ := os.ReadFile(r2.Path()); !bytes.Equal(rec2, next) {
		t.Fatal("the second stream's recording differs from it")
	}
}

// feedUntilEnd feeds wire to r in random chunks until the stream ends, and
// returns the bytes after its end.
func feedUntilEnd(t *testing.T, r *Recorder, wire []byte, seed int64) []byte {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	for off := 0; off < len(wire); {
		n := min(len(wire)-off, 1+rng.Intn(3000))
		used, err := r.Feed(wire[off : off+n])
		if err != nil {
			t.Fatal(err)
		}
		if used < n {
			return wire[off+used:]
		}
		off += n
	}
	return nil
}

// TestRecorderReadAt reads the recording back while it is made: at every
// point, what ReadAt returns up to Size is a prefix of the stream that ends
// on an event boundary.
func TestRecorderReadAt(t *testing.T) {
	data := readGHC902(t, "parwork-N2.eventlog")
	all, _ := decodeChunks(data, []int{len(data)})
	bounds := map[int64]bool{all[0].Offset: true, int64(len(data)): true}
	for _, ev := range all {
		bounds[ev.Offset+int64(len(ev.Raw))] = true
	}
	r, _ := NewRecorder(filepath.Join(t.TempDir(), "rec.eventlog"))
	defer r.Close()
	rng := rand.New(rand.NewSource(9))
	for off := 0; off < len(data); {
		n := min(len(data)-off, 1+rng.Intn(7000))
		r.Write(data[off : off+n])
		off += n
		size := r.Size()
		if size > 0 && !bounds[size] {
			t.Fatalf("after %d bytes, Size %d is not on an event boundary", off, size)
		}
		got := make([]byte, size+10)
		k, err := r.ReadAt(got, 0)
		if int64(k) != size || (size > 0 && err != nil) || !bytes.Equal(got[:k], data[:size]) {
			t.Fatalf("after %d bytes: ReadAt read %d (%v), want the %d recorded", off, k, err, size)
		}
	}
}

// TestRecorderSpill: when the file cannot be written (a full disk), the
// recording goes on in memory; ReadAt still returns the whole stream and
// Err says why.
func TestRecorderSpill(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	data := readGHC902(t, "parwork-N1.eventlog")
	r, err := NewRecorder("/dev/full")
	if err != nil {
		t.Skip(err)
	}
	feedRandomly(t, r, data, 10)
	if r.Err() == nil {
		t.Fatal("no error writing to /dev/full")
	}
	got := make([]byte, len(data))
	if n, err := r.ReadAt(got, 0); n != len(data) || err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ReadAt: %d bytes (%v), want the %d of the stream", n, err, len(data))
	}
	if err := r.Close(); err == nil || !strings.Contains(err.Error(), "no space") {
		t.Fatalf("Close: %v, want the write error", err)
	}
}
