package ingest

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hecscope/hecscope/internal/fakesocket"
)

// readURL reads a live source to its end: the events and the status.
func readURL(t *testing.T, url string) ([]Event, Status) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	src, err := OpenSource(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	context.AfterFunc(ctx, func() { src.Close() })
	return readSource(t, src)
}

// TestFakeLibraryStreams: a stream as eventlog-socket serves it (the block
// marker before the header, written in blocks) reads whole, on Unix and
// TCP sockets; one whose last flush was lost reads as truncated, with
// every event before, never as complete.
func TestFakeLibraryStreams(t *testing.T) {
	data := readGHC902(t, "parwork-N2.eventlog")
	want, _ := decodeChunks(data, []int{len(data)})
	for _, drop := range []bool{false, true} {
		for _, unix := range []bool{true, false} {
			o := fakesocket.Options{Log: data, Chunk: 40 << 10, Pause: time.Millisecond, DropLastFlush: drop}
			var p *fakesocket.Program
			var err error
			if unix {
				p, err = fakesocket.ListenUnix(t.TempDir(), o)
			} else {
				p, err = fakesocket.ListenTCP(o)
			}
			if err != nil {
				t.Fatal(err)
			}
			time.AfterFunc(200*time.Millisecond, p.Exit)
			got, st := readURL(t, p.URL())
			p.Exit()
			if !drop {
				if st.State != StateComplete || len(got) != len(want) {
					t.Errorf("%s: %v with %d events, want complete with %d", p.URL(), st, len(got), len(want))
				}
				continue
			}
			if st.State != StateTruncated || len(got) == 0 || len(got) >= len(want) {
				t.Errorf("%s, last flush lost: %v with %d events, want truncated with fewer than %d", p.URL(), st, len(got), len(want))
			}
		}
	}
}

// TestRelayPassesControlCommands: commands that viewers send the relay
// reach the program (loopback viewers, or those ControlFrom allows), whole
// and in order, on the relay's one connection; a refused viewer's do not.
func TestRelayPassesControlCommands(t *testing.T) {
	data := readGHC902(t, "parwork-N2.eventlog")
	p, err := fakesocket.ListenUnix(t.TempDir(), fakesocket.Options{Log: data, Chunk: 4 << 10, Pause: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Exit()
	relay := NewRelay()
	var mu sync.Mutex
	var logs []string
	relay.Logf = func(format string, args ...any) {
		mu.Lock()
		logs = append(logs, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	refuse := false
	relay.ControlFrom = func(addr net.Addr) bool { return !refuse }
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go relay.Serve(l)
	src, err := OpenSource(context.Background(), p.URL())
	if err != nil {
		t.Fatal(err)
	}
	ran := make(chan Status, 1)
	go func() { st, _ := relay.Run(src, nil); ran <- st }()

	viewer := func() net.Conn {
		c, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		go readAllFrom(c, 0)
		return c
	}
	census, _ := ParseCommand("requestHeapCensus")
	own := Command{Namespace: "my-app", ID: 7}
	a, b := viewer(), viewer()
	// Whole commands, split across writes and interleaved between viewers.
	msg := census.Encode()
	a.Write(msg[:3])
	b.Write(append([]byte("noise"), own.Encode()...))
	time.Sleep(20 * time.Millisecond)
	a.Write(msg[3:])
	waitFor(t, func() bool { return len(p.Commands()) == 2 })
	refuse = true
	c := viewer()
	c.Write(census.Encode())
	waitFor(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return strings.Contains(strings.Join(logs, "\n"), "refused requestHeapCensus")
	})
	got := map[fakesocket.Command]int{}
	for _, g := range p.Commands() {
		got[g]++
	}
	if len(got) != 2 || got[fakesocket.Command{Namespace: BuiltinNamespace, ID: 5}] != 1 || got[fakesocket.Command{Namespace: "my-app", ID: 7}] != 1 {
		t.Errorf("the program got %v, want requestHeapCensus and my-app:7 once each", p.Commands())
	}
	a.Close()
	b.Close()
	c.Close()
	p.Exit()
	if st := <-ran; st.State != StateComplete {
		t.Errorf("the relayed stream is %v", st)
	}
	relay.Close()
}

// waitFor waits up to 10 s for cond.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for i := 0; !cond(); i++ {
		if i == 2000 {
			t.Fatal("timed out")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
