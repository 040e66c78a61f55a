package ingest

import (
	"bytes"
	"io"
	"math/rand"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// strayMarker is the block marker a GHC 9.0.2 RTS writes before the header
// when logging starts again (capability 0xFFFF; its size covers the header
// that follows, as closeBlockMarker later sets it).
func strayMarker(t uint64) []byte {
	return appendBlockMarker(nil, t, 900, t, NoCap)
}

// TestStrayMarkersBeforeHeader: a stream that begins with GHC's block
// marker before "hdrb" decodes to the same events as without it, however
// it is chunked; what is not such a marker, or too many, is still corrupt.
func TestStrayMarkersBeforeHeader(t *testing.T) {
	data := readGHC902(t, "parwork-N2.eventlog")
	want, wst := decodeChunks(data, []int{len(data)})
	stream := append(strayMarker(5_000_000), data...)
	for _, sizes := range [][]int{{len(stream)}, {1}, {3, 7, 24, 1000}} {
		got, st := decodeChunks(stream, sizes)
		if st.State != StateComplete || st.Offset != wst.Offset+strayMarkerLen {
			t.Fatalf("chunks %v: %v, want complete at %d", sizes, st, wst.Offset+strayMarkerLen)
		}
		if len(got) != len(want) {
			t.Fatalf("chunks %v: %d events, want %d", sizes, len(got), len(want))
		}
		for i := range got {
			if got[i].Offset != want[i].Offset+strayMarkerLen || !bytes.Equal(got[i].Raw, want[i].Raw) {
				t.Fatalf("chunks %v: event %d differs", sizes, i)
			}
		}
	}
	two := append(append(strayMarker(1), strayMarker(2)...), data...)
	if _, st := decodeChunks(two, []int{97}); st.State != StateComplete {
		t.Errorf("two markers: %v", st)
	}
	for name, bad := range map[string][]byte{
		"marker then garbage":   append(strayMarker(1), []byte("not an eventlog at all")...),
		"too many markers":      append(bytes.Repeat(strayMarker(1), MaxStrayMarkers+1), data...),
		"other event first":     append([]byte{0, 19}, data...),
		"marker then cut event": append(strayMarker(1), data[100:]...),
	} {
		if _, st := decodeChunks(bad, []int{len(bad)}); st.State != StateCorrupt {
			t.Errorf("%s: %v, want corrupt", name, st)
		}
	}
	if _, st := decodeChunks(strayMarker(1)[:10], []int{10}); st.State != StateTruncated {
		t.Errorf("half a marker: %v, want truncated", st)
	}
}

// restartedLog is what a FIFO reader gets from a GHC 9.0.2 program that
// restarts its logging n-1 times: n eventlogs, each after the first
// preceded by a stray block marker.
func restartedLog(data []byte, n int) []byte {
	var out []byte
	for i := 0; i < n; i++ {
		if i > 0 {
			out = append(out, strayMarker(uint64(i)*1_000_000)...)
		}
		out = append(out, data...)
	}
	return out
}

// TestFindSegmentsAfterStrayMarkers: the segments of a restarted stream are
// found where a block marker stands between one eventlog's end marker and
// the next one's header, for GHC 9.0 logs (end marker after the blocks) and
// 9.2 ones (end marker in the last block).
func TestFindSegmentsAfterStrayMarkers(t *testing.T) {
	for _, p := range []string{"../testdata/ghc-9.0.2/parwork-N2.eventlog", "../testdata/corpus/ghc-events__ghc-9.2-events.eventlog"} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lone, err := FindSegments(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		file := restartedLog(data, 4)
		segs, err := FindSegments(bytes.NewReader(file), int64(len(file)))
		if err != nil || len(segs) != 4 {
			t.Fatalf("%s: %d segments (%v): %+v", p, len(segs), err, segs)
		}
		for i, s := range segs {
			// The marker before a header belongs to the segment it
			// begins (9.0), or ends the one before as an empty block (9.2).
			header := int64(i * (len(data) + strayMarkerLen))
			at, ok := HeaderAt(bytes.NewReader(file), s.Offset, int64(len(file)))
			if !ok || at != header || s.End < header+int64(len(data)) || s.End > header+int64(len(data)+strayMarkerLen) {
				t.Errorf("%s: segment %d is %+v, want its header at %d", p, i+1, s, header)
			}
			want := StateComplete
			if i == len(segs)-1 {
				want = lone[0].Status.State
			}
			if s.Status.State != want {
				t.Errorf("%s: segment %d is %v, want %v", p, i+1, s.Status, want)
			}
		}
	}
}

// TestRecordingAndRelayDropStrayMarkers: a recording of a stream that
// begins with a stray block marker, and what a relay's viewer receives of
// it, are the well-formed eventlog without the marker, byte for byte.
func TestRecordingAndRelayDropStrayMarkers(t *testing.T) {
	data := readGHC902(t, "parwork-N2.eventlog")
	stream := append(strayMarker(1), data...)
	path := filepath.Join(t.TempDir(), "rec.eventlog")
	r, err := NewRecorder(path)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(2))
	for off := 0; off < len(stream); {
		n := min(len(stream)-off, 1+rng.Intn(40))
		if off > 100 {
			n = min(len(stream)-off, 1+rng.Intn(5000))
		}
		if _, err := r.Write(stream[off : off+n]); err != nil {
			t.Fatal(err)
		}
		off += n
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
		t.Errorf("recording is %d bytes, want the %d of the log without the marker", len(got), len(data))
	}

	relay := NewRelay()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go relay.Serve(l)
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() { got <- readAllFrom(c, 0); c.Close() }()
	for i := 0; ; i++ {
		if _, _, _, v := relay.Stats(); v == 1 {
			break
		}
		if i == 1000 {
			t.Fatal("the viewer did not join")
		}
		time.Sleep(5 * time.Millisecond)
	}
	pr, pw := io.Pipe()
	go func() { writeSlowly(pw, stream); pw.Close() }()
	if st, err := relay.Run(pr, nil); err != nil || st.State != StateComplete {
		t.Fatalf("relay: %v %v", st, err)
	}
	relay.Close()
	if b := <-got; !bytes.Equal(b, data) {
		t.Errorf("the viewer got %d bytes, want the %d of the log without the marker", len(b), len(data))
	}
}
