package ingest

import (
	"bytes"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRelayHeaderAloneFirst: a GHC 9.0 RTS writes the header at once and
// its first block only when a capability's buffer fills, so the relay
// reads the header alone, long before the first event. A viewer that joins
// then, and one that joins after the first events, each get a clean
// stream from its header (the header was lost to them: they got a stream
// starting mid-way, "header begin marker not found").
func TestRelayHeaderAloneFirst(t *testing.T) {
	data := readGHC902(t, "parwork-N2.eventlog")
	all, _ := decodeChunks(data, []int{len(data)})
	hlen := int(all[0].Offset) // the header, "datb" included
	relay := NewRelay()
	var logMu sync.Mutex
	joined := 0
	relay.Logf = func(format string, args ...any) {
		if strings.HasPrefix(format, "relay: viewer %s joined") {
			logMu.Lock()
			joined++
			logMu.Unlock()
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go relay.Serve(l)
	dial := func(n int) chan []byte {
		c, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Error(err)
			return nil
		}
		out := make(chan []byte, 1)
		go func() { out <- readAllFrom(c, 0); c.Close() }()
		for i := 0; i < 400; i++ {
			logMu.Lock()
			ok := joined >= n
			logMu.Unlock()
			if ok {
				return out
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Errorf("viewer %d did not join", n)
		return out
	}

	pr, pw := io.Pipe()
	var afterHeader, afterEvents chan []byte
	go func() {
		defer pw.Close()
		if _, err := pw.Write(data[:hlen]); err != nil {
			return
		}
		afterHeader = dial(1)
		third := hlen + (len(data)-hlen)/3
		writeSlowly(pw, data[hlen:third])
		afterEvents = dial(2)
		writeSlowly(pw, data[third:])
	}()
	st, err := relay.Run(pr, nil)
	if err != nil || st.State != StateComplete {
		t.Fatalf("relay.Run: %s, %v", st, err)
	}
	relay.Close()
	for _, v := range []struct {
		name string
		got  chan []byte
		full bool
	}{{"joined after the header", afterHeader, true}, {"joined after the first events", afterEvents, false}} {
		if v.got == nil {
			t.Fatalf("%s: no viewer", v.name)
		}
		got := <-v.got
		if v.full && !bytes.Equal(got, data) {
			t.Errorf("%s: got %d bytes that differ from the %d-byte stream", v.name, len(got), len(data))
		}
		evs, st := decodeChunks(got, []int{len(got)})
		if !bytes.HasPrefix(got, data[:hlen]) || st.State != StateComplete || len(evs) == 0 {
			t.Errorf("%s: %d bytes, %s, %d events; starts with the header: %v", v.name, len(got), st, len(evs), bytes.HasPrefix(got, data[:hlen]))
		}
	}
}
