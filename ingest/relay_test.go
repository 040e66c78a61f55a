package ingest

import (
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"strings"
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
		var newest uint64
		seen := false
		for _, ev := range all[:join] {
			if ev.Kind != KindBlockMarker {
				newest, seen = max(newest, ev.Time), true
			}
		}
		if at, ok := JoinMark(&got[0]); ok != seen || (seen && at != newest+1) {
			t.Fatalf("join at %d: first event %v %q, want a join mark at %d", join, got[0].Kind, got[0].Data, newest)
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

// TestReplayForgetsFinishedThreads: a thread's end can come before its
// creation and its label (another capability's block was written first);
// the replay then keeps neither, and holds nothing for a million threads
// that all ended.
func TestReplayForgetsFinishedThreads(t *testing.T) {
	data := readGHC902(t, "parwork-N2.eventlog")
	all, _ := decodeChunks(data, []int{len(data)})
	r := NewReplay(mustHeader(t, data), data[:all[0].Offset])
	ev := func(k Kind, th uint32, args ...uint64) *Event {
		e := &Event{Kind: k, Time: uint64(th) * 1000, Cap: int32(th % 2), Raw: make([]byte, 20)}
		e.Args[0] = uint64(th)
		copy(e.Args[1:], args)
		return e
	}
	for th := uint32(1); th <= 1e6; th++ {
		stop := ev(KindStopThread, th, uint64(StopFinished))
		switch th % 3 {
		case 0: // in order
			r.Add(ev(KindCreateThread, th))
			r.Add(ev(KindThreadLabel, th))
			r.Add(stop)
		case 1: // the end first
			r.Add(stop)
			r.Add(ev(KindCreateThread, th))
			r.Add(ev(KindThreadLabel, th))
		case 2: // labelled after its end
			r.Add(ev(KindCreateThread, th))
			r.Add(stop)
			r.Add(ev(KindThreadLabel, th))
		}
	}
	t.Logf("after a million finished threads the replay keeps %d events, %d bytes", r.Events(), r.Size())
	if r.Events() != 0 || r.Size() > 2<<20 {
		t.Fatalf("after a million finished threads the replay keeps %d events, %d bytes", r.Events(), r.Size())
	}
}

// TestReplayBudget: with many threads alive, the replay stays within its
// budget by forgetting the oldest threads; the process's state is kept and
// the prefix still decodes with the newest threads in it.
func TestReplayBudget(t *testing.T) {
	data := readGHC902(t, "parwork-N2.eventlog")
	all, _ := decodeChunks(data, []int{len(data)})
	var state []Event
	for _, e := range all {
		if defines(e.Kind) && e.Kind != KindCreateThread && e.Kind != KindThreadLabel {
			state = append(state, e)
		}
	}
	r := NewReplay(mustHeader(t, data), data[:all[0].Offset])
	r.Budget = 64 << 10
	for _, e := range state {
		r.Add(&e)
	}
	raw := make([]byte, 14)
	binary.BigEndian.PutUint16(raw, uint16(KindCreateThread))
	const threads = 100000
	for th := uint32(1); th <= threads; th++ {
		binary.BigEndian.PutUint64(raw[2:], uint64(th))
		binary.BigEndian.PutUint32(raw[10:], th)
		e := Event{Kind: KindCreateThread, Time: uint64(th), Cap: NoCap, Raw: raw}
		e.Args[0] = uint64(th)
		r.Add(&e)
		if r.Size() > r.Budget {
			t.Fatalf("after %d threads the replay holds %d bytes, budget %d", th, r.Size(), r.Budget)
		}
	}
	kept := threads - r.Forgotten()
	if r.Forgotten() == 0 || kept < 100 {
		t.Fatalf("forgot %d of %d threads", r.Forgotten(), threads)
	}
	p := r.Prefix(int64(len(data)))
	p = binary.BigEndian.AppendUint16(p, idDataEnd)
	got, st := decodeChunks(p, []int{len(p)})
	if st.State != StateComplete {
		t.Fatalf("prefix: %s", st)
	}
	var created []uint32
	kinds := map[Kind]int{}
	for _, e := range got {
		kinds[e.Kind]++
		if e.Kind == KindCreateThread {
			created = append(created, e.Thread())
		}
	}
	if len(created) != kept || created[len(created)-1] != threads || created[0] != uint32(threads-kept+1) {
		t.Fatalf("prefix creates %d threads (%d…%d), want the newest %d", len(created), created[0], created[len(created)-1], kept)
	}
	for _, k := range []Kind{KindCapsetCreate, KindProgramArgs, KindCapCreate, KindWallClockTime} {
		if kinds[k] == 0 {
			t.Fatalf("the prefix lost the process's %v", k)
		}
	}
}

func mustHeader(t *testing.T, data []byte) *Header {
	t.Helper()
	d := NewDecoder()
	d.Feed(data)
	var ev Event
	if !d.Next(&ev) {
		t.Fatal("no events")
	}
	return d.Header()
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
				if strings.HasPrefix(m, "relay: viewer %s joined") {
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
	st, err := relay.Run(pr, nil)
	if err != nil || st.State != StateComplete {
		t.Fatalf("relay.Run: %s, %v", st, err)
	}
	relay.Close()
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
