package live

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/internal/testlog"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// refreshEvery is how often the benchmarks take a snapshot, as the live
// window does.
const refreshEvery = 50 * time.Millisecond

// bigLog is a large real eventlog: $HECSCOPE_BIG, or the one
// testdata/haskell/gen.sh makes.
func bigLog(b *testing.B) []byte {
	path := os.Getenv("HECSCOPE_BIG")
	if path == "" {
		path = "/tmp/hecscope-gen/big.eventlog"
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("no big eventlog (set HECSCOPE_BIG): %v", err)
	}
	return data
}

// serveTCP sends data to the first client over loopback TCP as fast as it
// takes it.
func serveTCP(b *testing.B, data []byte) string {
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

// ingest streams data over loopback TCP into a session with the default
// models and a refresher taking timeline snapshots every 50 ms, and returns
// how long until the models had every event, and how many.
func ingestOnce(b *testing.B, data []byte) (time.Duration, int64) {
	start := time.Now()
	s := Start(serveTCP(b, data), Options{RecordDir: b.TempDir()})
	defer s.Close()
	var cur *Stream
	tick := time.NewTicker(refreshEvery)
	defer tick.Stop()
	for {
		<-tick.C
		if cur = s.Status().Stream; cur == nil {
			continue
		}
		cur.Models().Timeline()
		select {
		case <-cur.Done():
			return time.Since(start), cur.Stats().Events
		default:
		}
	}
}

// BenchmarkIngestLoopback streams the big log over loopback TCP into a
// session (recorded, then timeline, heap and summary models), with a
// snapshot taken every 50 ms as the window does.
func BenchmarkIngestLoopback(b *testing.B) {
	data := bigLog(b)
	b.SetBytes(int64(len(data)))
	var events int64
	for i := 0; i < b.N; i++ {
		_, events = ingestOnce(b, data)
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkLatency measures the time from bytes being written into the
// socket to a drawn picture containing their last event: a writer sends a
// real log in 4 KiB chunks every 2 ms, and a refresher does what the live
// window does every 50 ms — snapshot, then render 1600×600. It reports the
// median and worst latency over the chunks.
func BenchmarkLatency(b *testing.B) {
	data := readLog(b, "parwork-N2.eventlog")
	var ends []int64
	testlog.ReadAll(bytes.NewReader(data), func(ev *ingest.Event) error {
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
		s := Start("tcp://"+l.Addr().String(), Options{RecordDir: b.TempDir()})
		type drawn struct {
			at     time.Time
			events int64
		}
		var draws []drawn
		tick := time.NewTicker(refreshEvery)
		for running := true; running; {
			<-tick.C
			cur := s.Status().Stream
			if cur == nil {
				continue
			}
			select {
			case <-cur.Done():
				running = false
			default:
			}
			m := cur.Models().Timeline()
			if m.End == 0 {
				continue
			}
			v := tracks.New(timeline.Exact(m))
			v.SetSize(1600, 600, 1)
			v.Render()
			draws = append(draws, drawn{time.Now(), m.Events})
		}
		tick.Stop()
		s.Close()
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

// BenchmarkGHCProgram runs a real GHC 9.0.2 program that saturates both
// cores (LiveWork threads 1000000 1000 +RTS -N2: a million short threads,
// ~60 MB of eventlog) and reports, for it writing to a plain file and for
// it writing into a FIFO that a session reads (with a snapshot every
// 50 ms, as the window takes), the program's run time and its eventlog
// rate; for the FIFO, how long after the program's exit the model had
// every event. Skipped where ghc is not installed.
func BenchmarkGHCProgram(b *testing.B) {
	prog := buildLiveWork(b)
	dir := b.TempDir()
	run := func(out string) (time.Duration, int64) {
		cmd := exec.Command(prog, "threads", "1000000", "1000", "+RTS", "-N2", "-l", "-ol"+out, "-RTS")
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("LiveWork: %v\n%s", err, out)
		}
		return time.Since(start), 0
	}
	b.Run("file", func(b *testing.B) {
		var took time.Duration
		var size int64
		for i := 0; i < b.N; i++ {
			path := filepath.Join(dir, "file.eventlog")
			took, _ = run(path)
			st, _ := os.Stat(path)
			size = st.Size()
			os.Remove(path)
		}
		b.ReportMetric(took.Seconds(), "s-program")
		b.ReportMetric(float64(size)/took.Seconds()/1e6, "MB/s-eventlog")
	})
	b.Run("fifo-session", func(b *testing.B) {
		var took, catchUp time.Duration
		var size, maxBehind int64
		for i := 0; i < b.N; i++ {
			fifo := filepath.Join(dir, "prog.fifo")
			os.Remove(fifo)
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				b.Skip(err)
			}
			s := Start("fifo://"+fifo, Options{RecordDir: filepath.Join(dir, "rec")})
			stop := make(chan struct{})
			snapshots := make(chan int64, 1)
			go func() {
				tick := time.NewTicker(refreshEvery)
				defer tick.Stop()
				behind := int64(0)
				for {
					select {
					case <-stop:
						snapshots <- behind
						return
					case <-tick.C:
					}
					if cur := s.Status().Stream; cur != nil {
						cur.Models().Timeline()
						behind = max(behind, cur.Stats().Behind)
					}
				}
			}()
			took, _ = run(fifo)
			exited := time.Now()
			var cur *Stream
			waitFor := time.Now().Add(5 * time.Minute)
			for cur == nil || !cur.Stats().Done {
				if time.Now().After(waitFor) {
					b.Fatal("the model never caught up")
				}
				time.Sleep(time.Millisecond)
				cur = s.Status().Stream
			}
			catchUp = time.Since(exited)
			close(stop)
			maxBehind = <-snapshots
			size = cur.Stats().Bytes
			s.Close()
			os.RemoveAll(filepath.Join(dir, "rec"))
		}
		b.ReportMetric(took.Seconds(), "s-program")
		b.ReportMetric(float64(size)/took.Seconds()/1e6, "MB/s-eventlog")
		b.ReportMetric(float64(catchUp.Microseconds())/1000, "ms-model-after-exit")
		b.ReportMetric(float64(maxBehind)/1e6, "MB-model-behind-max")
	})
}

// BenchmarkModelUnderLoad streams the big log over loopback TCP into a
// session while a real GHC 9.0.2 program keeps both cores busy (LiveWork
// busy, its eventlog written to /dev/null), and reports the rate at which
// the models took the stream. Skipped where ghc is not installed.
func BenchmarkModelUnderLoad(b *testing.B) {
	prog := buildLiveWork(b)
	data := bigLog(b)
	b.SetBytes(int64(len(data)))
	load := exec.Command(prog, "busy", "100000", "+RTS", "-N2", "-l", "-ol/dev/null", "-RTS")
	if err := load.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { load.Process.Kill(); load.Wait() }()
	time.Sleep(500 * time.Millisecond)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ingestOnce(b, data)
	}
}
