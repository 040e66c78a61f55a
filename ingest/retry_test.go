package ingest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// TestRetryPauses: the pauses start at 0.1 s and double up to 5 s, at
// least 1 s from the third failure in a row on; a delivered stream starts
// them again; attempts that fail in different ways never stop, five that
// fail the same way do, with a sentence that says how they failed.
func TestRetryPauses(t *testing.T) {
	var r Retry
	if p := r.Pause(); p != RetryFirst {
		t.Fatalf("pause before any failure: %v", p)
	}
	ways := []string{"corrupt at byte 0: header begin marker not found (not an eventlog)", "the connection closed before anything arrived"}
	want := []time.Duration{100, 200, 1000, 1000, 1600, 3200, 5000, 5000, 5000}
	for i, w := range want {
		if err := r.Failed(ways[i%2]); err != nil {
			t.Fatalf("failure %d of alternating ways: %v", i+1, err)
		}
		if p := r.Pause(); p != w*time.Millisecond {
			t.Fatalf("pause after %d failures: %v, want %v", i+1, p, w*time.Millisecond)
		}
	}
	if r.Ended(Attempt{Bytes: 500, Header: true, Events: true}) != nil || r.Pause() != RetryFirst {
		t.Fatalf("a delivered stream left the pause at %v", r.Pause())
	}

	// Nobody listening lengthens the pause, neither stops nor breaks a
	// run of the same failure.
	for i := 1; i <= RetrySameLimit; i++ {
		err := r.Failed(ways[0])
		r.NobodyListens()
		if i < RetrySameLimit && err != nil {
			t.Fatalf("stopped after %d failures: %v", i, err)
		}
		if i == RetrySameLimit {
			var stopped *StoppedError
			if !errors.As(err, &stopped) || !r.Stopped() {
				t.Fatalf("not stopped after %d same failures: %v", i, err)
			}
			const sentence = "stopped after 5 attempts that each ended the same way: corrupt at byte 0: header begin marker not found (not an eventlog); the program is not serving an eventlog there, or serves it to another client"
			if err.Error() != sentence {
				t.Fatalf("stop sentence %q", err)
			}
		}
	}
	if p := r.Pause(); p != RetryMax {
		t.Fatalf("pause after ten failures: %v", p)
	}
	r.Reset()
	if r.Stopped() || r.Pause() != RetryFirst {
		t.Fatal("Reset did not start afresh")
	}
}

// TestRetryWaitsOnItsClock: Wait asks the clock for the pause, and ctx
// ends it.
func TestRetryWaitsOnItsClock(t *testing.T) {
	var asked []time.Duration
	r := Retry{After: func(d time.Duration) <-chan time.Time {
		asked = append(asked, d)
		c := make(chan time.Time, 1)
		c <- time.Time{}
		return c
	}}
	r.Failed("x")
	r.Failed("x")
	if err := r.Wait(context.Background()); err != nil || len(asked) != 1 || asked[0] != 200*time.Millisecond {
		t.Fatalf("Wait: %v, asked %v", err, asked)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r.After = func(time.Duration) <-chan time.Time { return nil }
	if err := r.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait with an ended context: %v", err)
	}
}

// TestWatcherJudgesConnections: what a connection brought, read in small
// pieces, is judged as the reconnection policy needs.
func TestWatcherJudgesConnections(t *testing.T) {
	data := readGHC902(t, "parwork-N1.eventlog")
	all, _ := decodeChunks(data, []int{len(data)})
	hdr := all[0].Offset
	empty := append(append([]byte(nil), data[:hdr]...), 0xFF, 0xFF) // a header and the end marker
	broken := errors.New("connection reset by peer")
	for _, c := range []struct {
		name    string
		r       io.Reader
		failure string
	}{
		{"whole log", bytes.NewReader(data), ""},
		{"cut after some events", bytes.NewReader(data[:len(data)/2]), ""},
		{"header and end marker", bytes.NewReader(empty), ""},
		{"nothing", bytes.NewReader(nil), "the connection closed before anything arrived"},
		{"garbage", strings.NewReader("HTTP/1.1 400 Bad Request\r\n"), "corrupt at byte 0: header begin marker not found (not an eventlog)"},
		{"part of the header", bytes.NewReader(data[:100]), "the connection closed inside the eventlog header"},
		{"header only", bytes.NewReader(data[:hdr]), "the connection closed after the eventlog header, before any event"},
		{"reset at once", iotest.ErrReader(broken), "reading failed before anything arrived: connection reset by peer"},
		{"reset inside the header", io.MultiReader(bytes.NewReader(data[:100]), iotest.ErrReader(broken)), "reading failed inside the eventlog header: connection reset by peer"},
	} {
		w := NewWatcher(iotest.OneByteReader(c.r))
		io.Copy(io.Discard, w)
		a := w.Attempt()
		if got := a.Failure(); got != c.failure {
			t.Errorf("%s: failure %q, want %q (%+v)", c.name, got, c.failure, a)
		}
	}
	// A delivered stream is judged from its first event on: the rest is
	// only counted.
	w := NewWatcher(bytes.NewReader(data))
	buf := make([]byte, hdr+100)
	w.Read(buf)
	if w.d != nil {
		t.Fatal("the watcher still decodes after the first event")
	}
	io.Copy(io.Discard, w)
	if a := w.Attempt(); a.Bytes != int64(len(data)) || a.Failure() != "" {
		t.Fatalf("whole log: %+v", a)
	}
}

// TestRelayForgetsHeaderlessSource: a Run whose source sends no eventlog
// takes no stream number and leaves no recording; the next stream is
// number 1 and what viewers and Ended see.
func TestRelayForgetsHeaderlessSource(t *testing.T) {
	data := readGHC902(t, "parwork-N1.eventlog")
	dir := t.TempDir()
	relay := NewRelay()
	defer relay.Close()
	for _, junk := range []string{"", "not an eventlog", string(data[:100])} {
		name := filepath.Join(dir, "junk.eventlog")
		rec, err := NewRecorder(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := relay.Run(strings.NewReader(junk), rec); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(name); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("after %q: the recording is still there (%v)", junk, err)
		}
		if _, _, streams, _ := relay.Stats(); streams != 0 {
			t.Fatalf("after %q: %d streams", junk, streams)
		}
		if _, ended := relay.Ended(); ended {
			t.Fatalf("after %q: a stream has ended", junk)
		}
	}
	rec, _ := NewRecorder(filepath.Join(dir, "one.eventlog"))
	if st, err := relay.Run(bytes.NewReader(data), rec); err != nil || st.State != StateComplete {
		t.Fatalf("the stream after: %s, %v", st, err)
	}
	relay.mu.Lock()
	n, kept := relay.cur.n, len(relay.streams)
	relay.mu.Unlock()
	if _, _, streams, _ := relay.Stats(); streams != 1 || n != 1 || kept != 1 {
		t.Fatalf("the stream after is number %d of %d (%d kept)", n, streams, kept)
	}
}
