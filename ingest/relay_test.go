package ingest

import (
	"bytes"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// TestReplayPrefix joins a real log at many event boundaries: the state
// prefix followed by the rest of the stream decodes cleanly, the events after
// the prefix are the original ones with their capabilities, and the prefix
// holds the process's identity and the capability sets.
func TestReplayPrefix(t *testing.T) {
	data := readGHC902(t, "parwork-N2.eventlog")
	all, _ := decodeChunks(data, []int{len(data)})
	d := NewDecoder()
	d.Feed(data)
	var ev Event
	if !d.Next(&ev) {
		t.Fatal("no events")
	}
	hdr := data[:all[0].Offset]
	// GHC 9.0 writes the process's events (capsets, arguments, wall clock)
	// from its global buffer, which it flushes only at the end.
	heapInfo := -1
	for i, ev := range all {
		if ev.Kind == KindHeapInfoGHC {
			heapInfo = i
		}
	}
	if heapInfo < 0 {
		t.Fatal("no heap info event")
	}
	for _, join := range []int{0, 1, 2, 10, 100, len(all) / 3, len(all) / 2, heapInfo + 1, heapInfo + 5, len(all) - 5, len(all) - 1} {
		r := NewReplay(d.Header(), hdr)
		for i := 0; i < join; i++ {
			r.Add(&all[i])
		}
		at := all[join].Offset
		stream := append(r.Prefix(at), data[at:]...)
		got, st := decodeChunks(stream, []int{len(stream)})
		if st.State != StateComplete {
			t.Fatalf("join at event %d: %s", join, st)
		}
		rest := all[join:]
		if len(got) < len(rest) {
			t.Fatalf("join at event %d: %d events, want at least %d", join, len(got), len(rest))
		}
		tail := got[len(got)-len(rest):]
		for i := range rest {
			if !bytes.Equal(tail[i].Raw, rest[i].Raw) && rest[i].Kind != KindBlockMarker {
				t.Fatalf("join at %d: event %d differs", join, i)
			}
			if tail[i].Cap != rest[i].Cap {
				t.Fatalf("join at %d: event %d (%v) on cap %d, want %d", join, i, rest[i].Kind, tail[i].Cap, rest[i].Cap)
			}
		}
		kinds := map[Kind]int{}
		for _, ev := range got[:len(got)-len(rest)] {
			kinds[ev.Kind]++
			if ev.Kind == KindCreateThread || ev.Kind == KindProgramArgs {
				// Replayed state events keep their capability.
				found := false
				for _, o := range all[:join] {
					if bytes.Equal(o.Raw, ev.Raw) && o.Cap == ev.Cap {
						found = true
					}
				}
				if !found {
					t.Fatalf("join at %d: replayed %v %x lost its capability", join, ev.Kind, ev.Raw)
				}
			}
		}
		if join > heapInfo {
			for _, k := range []Kind{KindCapsetCreate, KindProgramArgs, KindRTSIdentifier, KindOSProcessPid, KindWallClockTime, KindCapCreate} {
				if kinds[k] == 0 {
					t.Fatalf("join at %d: prefix has no %v; has %v", join, k, kinds)
				}
			}
		}
		created, finished := map[uint32]bool{}, map[uint32]bool{}
		for _, ev := range all[:join] {
			if ev.Kind == KindCreateThread {
				created[ev.Thread()] = true
			}
			if ev.Kind == KindStopThread && ev.StopStatus() == StopFinished {
				finished[ev.Thread()] = true
			}
		}
		alive := 0
		for id := range created {
			if !finished[id] {
				alive++
			}
		}
		if kinds[KindCreateThread] != alive {
			t.Fatalf("join at %d: %d thread creations replayed, %d threads alive", join, kinds[KindCreateThread], alive)
		}
	}
}

// readAllFrom reads a viewer's connection to its end, slowly if pause > 0.
func readAllFrom(c net.Conn, pause time.Duration) []byte {
	var out bytes.Buffer
	buf := make([]byte, 1024)
	for {
		n, err := c.Read(buf)
		out.Write(buf[:n])
		if err != nil {
			return out.Bytes()
		}
		if pause > 0 {
			time.Sleep(pause)
		}
	}
}

// TestRelayViewers: an early viewer gets the whole stream, a late one a
// clean stream ending with the same events, and a slow one is dropped on an
// event boundary without holding up the others.
func TestRelayViewers(t *testing.T) {
	data := readGHC902(t, "parwork-N2.eventlog")
	all, _ := decodeChunks(data, []int{len(data)})
	relay := NewRelay()
	relay.ViewerBuffer = 100 << 10
	var logMu sync.Mutex
	var logs []string
	relay.Logf = func(format string, args ...any) {
		logMu.Lock()
		logs = append(logs, format)
		logMu.Unlock()
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go relay.Serve(l)

	dial := func(pause time.Duration) chan []byte {
		c, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		out := make(chan []byte, 1)
		go func() { out <- readAllFrom(c, pause); c.Close() }()
		return out
	}
	waitViewers := func(n int) bool {
		for i := 0; i < 400; i++ {
			logMu.Lock()
			joined := 0
			for _, m := range logs {
				if m == "relay: viewer %s joined" {
					joined++
				}
			}
			logMu.Unlock()
			if joined >= n {
				return true
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Errorf("viewers did not join")
		return false
	}
	early := dial(0)
	slowServer, slowClient := net.Pipe()
	slow := make(chan []byte, 1)
	go func() { slow <- readAllFrom(slowClient, 20*time.Millisecond) }()
	relay.Add(slowServer)
	waitViewers(2)

	pr, pw := io.Pipe()
	go func() {
		half := len(data) / 2
		writeSlowly(pw, data[:half])
		late := dial(0)
		if !waitViewers(3) {
			pw.Close()
			return
		}
		writeSlowly(pw, data[half:])
		pw.Close()
		lateGot := <-late
		got, st := decodeChunks(lateGot, []int{len(lateGot)})
		if st.State != StateComplete || len(got) == 0 {
			t.Errorf("late viewer: %s, %d events", st, len(got))
			return
		}
		n := 0
		for n < len(got) && n < len(all) && bytes.Equal(got[len(got)-1-n].Raw, all[len(all)-1-n].Raw) {
			n++
		}
		if n < len(all)-len(all)/2-50 {
			t.Errorf("late viewer: only the last %d of %d events match", n, len(all))
		}
	}()
	st, err := relay.Run(pr)
	if err != nil || st.State != StateComplete {
		t.Fatalf("relay.Run: %s, %v", st, err)
	}
	earlyGot := <-early
	if !bytes.Equal(earlyGot, data) {
		t.Fatalf("early viewer got %d bytes that differ from the %d-byte stream", len(earlyGot), len(data))
	}
	slowGot := <-slow
	got, sst := decodeChunks(slowGot, []int{len(slowGot)})
	if sst.State != StateTruncated || sst.Offset != int64(len(slowGot)) {
		t.Fatalf("slow viewer's stream: %s after %d bytes, want cut on an event boundary", sst, len(slowGot))
	}
	sameEvents(t, got, all[:len(got)])
	logMu.Lock()
	defer logMu.Unlock()
	dropped := false
	for _, m := range logs {
		dropped = dropped || bytes.HasPrefix([]byte(m), []byte("relay: dropped"))
	}
	if !dropped {
		t.Fatalf("no drop reported: %q", logs)
	}
}
