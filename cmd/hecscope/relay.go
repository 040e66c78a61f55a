package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/hecscope/hecscope/ingest"
)

const relayUsage = "usage: hecscope relay --from URL [--listen 127.0.0.1:4242] [--buffer BYTES] [--record FILE] [--allow-control-from CIDR,…] [--exit-at-end] [--keep-trying]"

// runRelay reads a program's live eventlog streams and serves them over TCP
// to any number of viewers (hecscope --attach tcp://ADDR): one stream after
// another, each time the program runs, until Ctrl+C (or, with
// --exit-at-end, until the first stream ends). Between connections it
// pauses as ingest.Retry says, and it stops (exit 1) once five attempts in
// a row failed the same way, unless --keep-trying.
func runRelay(args []string) int {
	fs := flag.NewFlagSet("relay", flag.ContinueOnError)
	from := fs.String("from", "", "the stream to read: fifo:///PATH, unix:///PATH, tcp://HOST:PORT or follow:///PATH")
	listen := fs.String("listen", "127.0.0.1:4242", "address to serve viewers on (loopback unless you say otherwise)")
	buffer := fs.Int("buffer", ingest.DefaultViewerBuffer, "bytes queued for one viewer before it is dropped, and the most kept for viewers that join late")
	record := fs.String("record", "", "write the streams to this eventlog file (the second to FILE-2.eventlog, …); without it they go to a temporary directory removed at exit")
	controlFrom := fs.String("allow-control-from", "", "comma-separated addresses or CIDR ranges of non-loopback viewers whose control commands are passed on to the program (loopback viewers always are)")
	exitAtEnd := fs.Bool("exit-at-end", false, "exit when the first stream ends instead of waiting for the program's next run")
	keepTrying := fs.Bool("keep-trying", false, "keep trying (pausing up to 5 s between attempts) when the source fails the same way five times in a row, instead of exiting")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *from == "" || fs.NArg() != 0 {
		fmt.Fprintln(os.Stderr, relayUsage)
		return 2
	}
	if err := ingest.CheckSource(*from); err != nil {
		fmt.Fprintf(os.Stderr, "hecscope relay: %v\n", err)
		return 1
	}
	say := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "hecscope relay: "+format+"\n", args...)
	}
	recordings := *record
	if recordings == "" {
		dir, err := os.MkdirTemp("", "hecscope-relay-")
		if err != nil {
			say("%v", err)
			return 1
		}
		defer os.RemoveAll(dir)
		recordings = filepath.Join(dir, "stream.eventlog")
	}
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		say("%v", err)
		return 1
	}
	defer l.Close()
	if host, _, err := net.SplitHostPort(l.Addr().String()); err == nil {
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			say("warning: serving on %s, reachable from other machines", l.Addr())
		}
	}
	relay := ingest.NewRelay()
	relay.ViewerBuffer = *buffer
	if relay.ControlFrom, err = controlAllowed(*controlFrom); err != nil {
		say("--allow-control-from: %v", err)
		return 2
	}
	relay.Logf = func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "hecscope "+format+"\n", args...)
	}
	go relay.Serve(l)
	say("serving viewers on tcp://%s; reading %s (Ctrl+C stops)", l.Addr(), *from)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	code := 0
	retry := &ingest.Retry{}
	// failed notes an attempt that failed, says so, and waits before the
	// next one; it returns false when the relay stops instead.
	failed := func(why string) bool {
		if err := retry.Failed(why); err != nil {
			var stopped *ingest.StoppedError
			errors.As(err, &stopped)
			if !*keepTrying {
				say("%v; exiting (--keep-trying would keep trying)", err)
				code = 1
				return false
			}
			if stopped.Attempts == ingest.RetrySameLimit {
				say("%v; trying on (--keep-trying), pausing up to %v between attempts, without saying so each time", err, ingest.RetryMax)
			}
		}
		if !retry.Stopped() {
			say("connection failed: %s; trying again in %v", why, retry.Pause())
		}
		return retry.Wait(ctx) == nil
	}
	var prev *ingest.Source
	for n := 1; ; { // n numbers the streams, which have a header
		src, err := ingest.Reopen(ctx, *from, prev, retry, func(what string) { say("%s", what) })
		if err != nil {
			if ctx.Err() != nil || !failed(err.Error()) {
				break
			}
			continue
		}
		name := streamFile(recordings, n)
		rec, err := ingest.NewRecorder(name)
		if err != nil {
			src.Close()
			say("%v", err)
			code = 1
			break
		}
		if !retry.Stopped() {
			say("reading %s, recording stream %d to %s", src.Desc, n, name)
		}
		w := ingest.NewWatcher(src)
		silent := time.AfterFunc(ingest.SilentAfter, func() {
			if why := src.SilentReason(); why != "" && w.Bytes() == 0 {
				say("%s. Let this relay be the program's one client, and attach every viewer to it: hecscope --attach tcp://%s", why, l.Addr())
			}
		})
		closeOnStop := context.AfterFunc(ctx, func() { src.Close() })
		st, err := relay.Run(w, rec)
		closeOnStop()
		silent.Stop()
		src.Close()
		prev = src
		a := w.Attempt()
		if a.Header {
			bytes, events, _, viewers := relay.Stats()
			if err != nil && ctx.Err() == nil && !errors.Is(err, ingest.ErrRewritten) {
				say("stream %d: %v", n, err)
			}
			say("stream %d %s after %d bytes, %d events; %d viewers", n, st, bytes, events, viewers)
			if rerr := rec.Err(); rerr != nil {
				say("%v", rerr)
				code = 1
			}
			n++
		}
		if ctx.Err() != nil {
			break
		}
		if *exitAtEnd && a.Header {
			if st.State == ingest.StateCorrupt {
				code = 1
			}
			break
		}
		if why := a.Failure(); why != "" {
			if !failed(why) {
				break
			}
			continue
		}
		retry.Reset()
		say("stream %d is served whole to viewers that join now; waiting for the program's next run (Ctrl+C stops)", n-1)
		if retry.Wait(ctx) != nil {
			break
		}
	}
	if err := relay.Close(); err != nil {
		say("%v", err)
		code = 1
	}
	return code
}

// streamFile is where the relay records its nth stream: the file named
// for the first, the same with "-n" before its extension for later ones.
func streamFile(name string, n int) string {
	if n == 1 {
		return name
	}
	ext := filepath.Ext(name)
	return fmt.Sprintf("%s-%d%s", strings.TrimSuffix(name, ext), n, ext)
}

// controlAllowed reads --allow-control-from: the viewers, besides loopback
// ones, whose control commands the relay passes on to the program.
func controlAllowed(list string) (func(net.Addr) bool, error) {
	var nets []*net.IPNet
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if !strings.Contains(f, "/") {
			ip := net.ParseIP(f)
			if ip == nil {
				return nil, fmt.Errorf("%q is neither an IP address nor a CIDR range", f)
			}
			bits := 8 * len(ip.To16())
			if ip.To4() != nil {
				ip, bits = ip.To4(), 32
			}
			f = fmt.Sprintf("%s/%d", ip, bits)
		}
		_, n, err := net.ParseCIDR(f)
		if err != nil {
			return nil, err
		}
		nets = append(nets, n)
	}
	return func(addr net.Addr) bool {
		a, ok := addr.(*net.TCPAddr)
		if !ok {
			return false
		}
		if a.IP.IsLoopback() {
			return true
		}
		for _, n := range nets {
			if n.Contains(a.IP) {
				return true
			}
		}
		return false
	}, nil
}
