package app

import (
	"bytes"
	"context"
	"net"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// serveAll sends data to the first client over loopback TCP as fast as it
// takes it.
func serveAll(b *testing.B, data []byte) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go func() {
		defer l.Close()
		c, err := l.Accept()
		if err != nil {
			return
		}
		c.Write(data)
		c.Close()
	}()
	return "tcp://" + l.Addr().String()
}

// BenchmarkLiveIngestLoopback streams the big GHC 9.0.2 log over loopback
// TCP into a live feed (timeline.Live and the heap collector), without and
// with recording.
func BenchmarkLiveIngestLoopback(b *testing.B) {
	data, err := os.ReadFile(bigLog)
	if err != nil {
		b.Skipf("no big eventlog: %v", err)
	}
	for _, recording := range []bool{false, true} {
		name := "plain"
		if recording {
			name = "recording"
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			b.SetBytes(int64(len(data)))
			var events int64
			for i := 0; i < b.N; i++ {
				var rec func() (*ingest.Recorder, error)
				if recording {
					rec = func() (*ingest.Recorder, error) { return ingest.NewRecorder(dir + "/rec.eventlog") }
				}
				feed := newLiveFeed(serveAll(b, data), rec)
				if err := feed.run(context.Background()); err != nil {
					b.Fatal(err)
				}
				events = feed.stats().Events
				if feed.live.Snapshot().Events != events {
					b.Fatal("model misses events")
				}
			}
			b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkLiveLatency measures the time from bytes being written into the
// socket to a drawn picture containing their last event: a writer sends a
// real log in 4 KiB chunks every 2 ms, and a refresher does what the live
// window does every liveRefresh — snapshot, then render 1600×600. It reports
// the median and worst latency over the chunks.
func BenchmarkLiveLatency(b *testing.B) {
	data, err := os.ReadFile(liveLog)
	if err != nil {
		b.Fatal(err)
	}
	var ends []int64
	ingest.ReadAll(bytes.NewReader(data), func(ev *ingest.Event) error {
		ends = append(ends, ev.Offset+int64(len(ev.Raw)))
		return nil
	})
	const chunk = 4096
	var all []time.Duration
	for i := 0; i < b.N; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		type sent struct {
			at     time.Time
			events int64 // events complete once this chunk is in
		}
		var mu sync.Mutex
		var chunks []sent
		go func() {
			defer l.Close()
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
			for off := 0; off < len(data); off += chunk {
				end := min(off+chunk, len(data))
				n, _ := slices.BinarySearch(ends, int64(end)+1)
				mu.Lock()
				chunks = append(chunks, sent{time.Now(), int64(n)})
				mu.Unlock()
				c.Write(data[off:end])
				time.Sleep(2 * time.Millisecond)
			}
		}()
		feed := newLiveFeed("tcp://"+l.Addr().String(), nil)
		done := make(chan struct{})
		go func() { feed.run(context.Background()); close(done) }()
		type drawn struct {
			at     time.Time
			events int64
		}
		var draws []drawn
		tick := time.NewTicker(liveRefresh)
		for running := true; running; {
			select {
			case <-done:
				running = false
			case <-tick.C:
			}
			m := feed.live.Snapshot()
			if m.End == 0 {
				continue
			}
			if _, err := timeline.Render(m, timeline.Options{Width: 1600, Height: 600}); err != nil {
				b.Fatal(err)
			}
			draws = append(draws, drawn{time.Now(), m.Events})
		}
		tick.Stop()
		mu.Lock()
		for _, c := range chunks {
			for _, d := range draws {
				if d.events >= c.events && d.at.After(c.at) {
					all = append(all, d.at.Sub(c.at))
					break
				}
			}
		}
		mu.Unlock()
	}
	slices.Sort(all)
	if len(all) == 0 {
		b.Fatal("no latencies measured")
	}
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "ms-p99")
	b.ReportMetric(float64(all[len(all)-1].Microseconds())/1000, "ms-max")
}
