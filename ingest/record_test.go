package ingest

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func readGHC902(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("../testdata/ghc-9.0.2/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
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

// TestRecorderCut cuts the stream at random bytes. Without Close (hecscope
// died) the file decodes as truncated with every whole event before the cut;
// with Close it decodes as complete with the same events.
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
			wantState := StateTruncated
			if closeIt {
				wantState = StateComplete
			}
			if st.State != wantState {
				t.Fatalf("cut %d, closed %v: recording is %s, want %s", cut, closeIt, st, wantState)
			}
		}
	}
}

// TestRecorderCorruptInput keeps the events before bad bytes and ends the
// file cleanly.
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
	if st.State != StateComplete {
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
