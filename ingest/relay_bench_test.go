package ingest

import (
	"bytes"
	"io"
	"net"
	"os"
	"sync"
	"testing"
	"time"
)

// BenchmarkRelayTwoViewers relays the big log from memory to two viewers
// reading over loopback TCP, and reports the stream's rate.
func BenchmarkRelayTwoViewers(b *testing.B) {
	data, err := os.ReadFile(bigLog(b))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	var events int64
	for i := 0; i < b.N; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		relay := NewRelay()
		relay.ViewerBuffer = 1 << 30 // measure throughput, not drops
		go relay.Serve(l)
		var wg sync.WaitGroup
		got := make([]int64, 2)
		for v := range got {
			c, err := net.Dial("tcp", l.Addr().String())
			if err != nil {
				b.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, _ := io.Copy(io.Discard, c)
				got[v] = n
				c.Close()
			}()
		}
		for {
			if _, _, _, n := relay.Stats(); n == 2 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		st, err := relay.Run(bytes.NewReader(data), nil)
		if err != nil || st.State != StateComplete {
			b.Fatal(st, err)
		}
		relay.Close()
		wg.Wait()
		l.Close()
		for _, n := range got {
			if n != int64(len(data)) {
				b.Fatalf("viewer got %d of %d bytes", n, len(data))
			}
		}
		_, events, _, _ = relay.Stats()
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
