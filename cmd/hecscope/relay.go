package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/hecscope/hecscope/ingest"
)

// runRelay reads one live eventlog stream and serves it over TCP to any
// number of viewers (hecscope --attach tcp://ADDR) until the stream ends.
func runRelay(args []string) int {
	fs := flag.NewFlagSet("relay", flag.ContinueOnError)
	from := fs.String("from", "", "the stream to read: fifo:///PATH, unix:///PATH, tcp://HOST:PORT or follow:///PATH")
	listen := fs.String("listen", "127.0.0.1:4242", "address to serve viewers on (loopback unless you say otherwise)")
	buffer := fs.Int("buffer", ingest.DefaultViewerBuffer, "bytes queued for one viewer before it is dropped")
	record := fs.String("record", "", "also write the stream to this eventlog file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *from == "" || fs.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: hecscope relay --from URL [--listen 127.0.0.1:4242] [--buffer BYTES] [--record FILE]")
		return 2
	}
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope relay: %v\n", err)
		return 1
	}
	defer l.Close()
	if host, _, err := net.SplitHostPort(l.Addr().String()); err == nil {
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			fmt.Fprintf(os.Stderr, "hecscope relay: warning: serving on %s, reachable from other machines\n", l.Addr())
		}
	}
	relay := ingest.NewRelay()
	relay.ViewerBuffer = *buffer
	relay.Logf = func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "hecscope "+format+"\n", args...)
	}
	go relay.Serve(l)
	fmt.Fprintf(os.Stderr, "hecscope relay: serving viewers on tcp://%s; waiting for %s\n", l.Addr(), *from)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	src, err := ingest.OpenSource(ctx, *from)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope relay: %v\n", err)
		return 1
	}
	go func() {
		<-ctx.Done()
		src.Close()
	}()
	var in io.Reader = src
	var rec *ingest.Recorder
	if *record != "" {
		if rec, err = ingest.NewRecorder(*record); err != nil {
			fmt.Fprintf(os.Stderr, "hecscope relay: %v\n", err)
			return 1
		}
		in = &teeReader{r: src, rec: rec}
	}
	fmt.Fprintf(os.Stderr, "hecscope relay: reading %s\n", src.Desc)
	st, err := relay.Run(in)
	src.Close()
	bytes, events, _ := relay.Stats()
	code := 0
	if rec != nil {
		if cerr := rec.Close(); cerr != nil {
			fmt.Fprintf(os.Stderr, "hecscope relay: %v\n", cerr)
			code = 1
		}
	}
	if err != nil && !strings.Contains(err.Error(), "closed") {
		fmt.Fprintf(os.Stderr, "hecscope relay: %v\n", err)
		code = 1
	}
	fmt.Fprintf(os.Stderr, "hecscope relay: stream %s after %d bytes, %d events\n", st, bytes, events)
	if st.State == ingest.StateCorrupt {
		code = 1
	}
	return code
}

// teeReader passes what it reads to a recorder too.
type teeReader struct {
	r   io.Reader
	rec *ingest.Recorder
}

func (t *teeReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		if _, werr := t.rec.Write(p[:n]); werr != nil {
			return n, werr
		}
	}
	return n, err
}
