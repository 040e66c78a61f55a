package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
)

const controlUsage = `usage: hecscope control [--wait D] [--watch D] URL COMMAND

Sends a control command to a running program that serves its eventlog with
Well-Typed's eventlog-socket library (built with its control feature), at
unix:///PATH or tcp://HOST:PORT, or through a hecscope relay (tcp://), which
passes it on. The library serves one client: while a viewer holds the
program's socket, send commands through a relay that all of them share.

COMMAND is one of eventlog-socket's built-in commands:
%s
or NAMESPACE:ID for a command the program registered itself (my-app:3).
The program answers nothing; --watch says what the eventlog shows after it.`

// runControl sends one control command and reports what the stream shows
// after it. Exit codes: 0 sent, 1 not sent (no stream came, a source that
// takes no commands), 2 usage.
func runControl(args []string) int {
	fs := flag.NewFlagSet("control", flag.ContinueOnError)
	wait := fs.Duration("wait", 5*time.Second, "how long to wait for the stream's header before giving up (the program, or the relay, must be serving this connection)")
	watch := fs.Duration("watch", 3*time.Second, "how long to read the stream after sending, to report what the command did (0: not at all)")
	var builtins strings.Builder
	for _, b := range ingest.BuiltinCommands {
		fmt.Fprintf(&builtins, "  %-19s %s\n", b.Name, b.Does)
	}
	fs.Usage = func() { fmt.Fprintf(os.Stderr, controlUsage+"\n", strings.TrimRight(builtins.String(), "\n")) }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return 2
	}
	url := fs.Arg(0)
	cmd, err := ingest.ParseCommand(fs.Arg(1))
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope control: %v\n", err)
		return 2
	}
	if err := ingest.CheckSource(url); err != nil {
		fmt.Fprintf(os.Stderr, "hecscope control: %v\n", err)
		return 2
	}
	if why := ingest.ControlRefusal(url); why != "" {
		fmt.Fprintf(os.Stderr, "hecscope control: cannot send %s to %s: %s\n", cmd, url, why)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), *wait)
	defer cancel()
	src, err := ingest.OpenSource(ctx, url)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope control: %v\n", err)
		return 1
	}
	defer src.Close()
	w := newStreamWatch(src)
	// The library reads commands from the client it serves: wait until the
	// stream shows that this connection is that client.
	if err := w.readUntil(time.Now().Add(*wait), func() bool { return w.d.Header() != nil }); err != nil {
		fmt.Fprintf(os.Stderr, "hecscope control: %s %s: %v\n", cmd, url, err)
		return 1
	}
	sent := w.latest
	if err := src.Send(cmd); err != nil {
		fmt.Fprintf(os.Stderr, "hecscope control: %v\n", err)
		return 1
	}
	fmt.Printf("sent %s to %s (eventlog-socket control protocol version %d)\n", cmd, src.Desc, ingest.ControlProtocolVersion)
	if *watch <= 0 {
		return 0
	}
	w.censuses = 0
	w.readUntil(time.Now().Add(*watch), func() bool { return false })
	fmt.Println(w.effect(cmd, sent, *watch))
	return 0
}

// streamWatch reads a live stream for hecscope control: its header, then
// what shows a command's effect.
type streamWatch struct {
	src      *ingest.Source
	d        *ingest.Decoder
	ev       ingest.Event
	got      int64
	latest   uint64 // the newest event time so far
	events   int64  // events read so far
	censuses int    // heap censuses begun since the count was reset
	firstAt  uint64 // the first of them's time
	ended    ingest.Status
}

func newStreamWatch(src *ingest.Source) *streamWatch {
	return &streamWatch{src: src, d: ingest.NewDecoder()}
}

// readUntil reads until done says so, the deadline passes (an error before
// the header, else none), or the stream ends.
func (w *streamWatch) readUntil(deadline time.Time, done func() bool) error {
	buf := make([]byte, 64<<10)
	type deadliner interface{ SetReadDeadline(time.Time) error }
	dl, _ := w.src.ReadCloser.(deadliner)
	for !done() {
		if dl != nil {
			dl.SetReadDeadline(deadline)
		} else if time.Now().After(deadline) {
			break
		}
		n, err := w.src.Read(buf)
		w.got += int64(n)
		w.d.Feed(buf[:n])
		for w.d.Next(&w.ev) {
			w.latest = max(w.latest, w.ev.Time)
			w.events++
			if w.ev.Kind == ingest.KindHeapProfSampleBegin {
				if w.censuses == 0 {
					w.firstAt = w.ev.Time
				}
				w.censuses++
			}
		}
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				break
			}
			w.d.End()
			for w.d.Next(&w.ev) {
			}
			w.ended = w.d.Status()
			if w.d.Header() == nil {
				if errors.Is(err, io.EOF) {
					return fmt.Errorf("the connection ended after %d bytes, before an eventlog header (%v)", w.got, w.ended)
				}
				return fmt.Errorf("reading the stream: %w", err)
			}
			return nil
		}
		if st := w.d.Status(); st.State == ingest.StateCorrupt {
			return fmt.Errorf("the stream is %v", st)
		}
	}
	if w.d.Header() == nil && !done() {
		if w.got == 0 {
			return errors.New("connected, but nothing came: the program serves one client at a time (eventlog-socket), and another one holds it. Send commands through a relay that all viewers share: hecscope relay --from URL, then hecscope control tcp://127.0.0.1:4242 COMMAND")
		}
		return fmt.Errorf("no eventlog header in the %d bytes that came", w.got)
	}
	return nil
}

// effect says what the stream showed in the watch after cmd was sent
// (sent: the newest event time then).
func (w *streamWatch) effect(cmd ingest.Command, sent uint64, watch time.Duration) string {
	if w.ended.State != ingest.StateDecoding {
		return fmt.Sprintf("the stream ended (%v) while watching", w.ended)
	}
	if !cmd.MakesCensus() {
		return fmt.Sprintf("read the stream for %v after sending (the protocol has no reply; see the program's eventlog for the effect)", watch)
	}
	if w.censuses > 0 {
		return fmt.Sprintf("%d heap census(es) arrived in the %v after sending, the first at %s", w.censuses, watch, paint.Time(w.firstAt, 1000))
	}
	newest := "no event had arrived after the header yet"
	if w.events > 0 {
		newest = "the stream's newest event was at " + paint.Time(w.latest, 1000)
	}
	return fmt.Sprintf("no heap census arrived in the %v after sending (%s). %s", watch, newest, ingest.WhyNoCensus)
}
