package ingest

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hecscope/hecscope/internal/testfile"
)

// readSource decodes a source to its end and returns the events (cloned).
func readSource(t *testing.T, src io.Reader) ([]Event, Status) {
	t.Helper()
	r := NewReader(src)
	var out []Event
	var ev Event
	for r.Next(&ev) {
		out = append(out, ev.Clone())
	}
	if r.Err() != nil {
		t.Fatalf("reading source: %v", r.Err())
	}
	return out, r.Status()
}

// writeSlowly writes data to w in uneven chunks with short pauses.
func writeSlowly(w io.Writer, data []byte) error { return testfile.WriteSlowly(w, data, 3) }

func TestSourceSockets(t *testing.T) {
	data := readGHC902(t, "parwork-N1.eventlog")
	want, _ := decodeChunks(data, []int{len(data)})
	sock := filepath.Join(t.TempDir(), "ev.sock")
	for _, c := range []struct{ network, addr, url string }{
		{"tcp", "127.0.0.1:0", ""},
		{"unix", sock, "unix://" + sock},
	} {
		l, err := net.Listen(c.network, c.addr)
		if err != nil {
			t.Fatal(err)
		}
		url := c.url
		if url == "" {
			url = "tcp://" + l.Addr().String()
		}
		go func() {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			writeSlowly(conn, data)
			conn.Close()
		}()
		src, err := OpenSource(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		got, st := readSource(t, src)
		src.Close()
		l.Close()
		sameEvents(t, got, want)
		if st.State != StateComplete {
			t.Fatalf("%s: %s", src.Desc, st)
		}
	}
}

func TestSourceFIFO(t *testing.T) {
	data := readGHC902(t, "parwork-N1.eventlog")
	want, _ := decodeChunks(data, []int{len(data)})
	fifo := filepath.Join(t.TempDir(), "prog.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // blocks until the reader opens
		if err != nil {
			return
		}
		writeSlowly(w, data)
		w.Close()
	}()
	src, err := OpenSource(context.Background(), "fifo://"+fifo)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	got, st := readSource(t, src)
	sameEvents(t, got, want)
	if st.State != StateComplete {
		t.Fatal(st)
	}

	// Waiting for a writer is said, and can be cancelled (once the writer
	// above has closed its end: the reader may see the end marker first).
	<-wrote
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var said []string
	if _, err := OpenSourceNotify(ctx, "fifo://"+fifo, func(s string) { said = append(said, s) }); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("open with no writer: %v, want deadline exceeded", err)
	}
	if len(said) != 1 || said[0] != "waiting for a writer on "+fifo {
		t.Fatalf("while waiting, said %q", said)
	}
	// A regular file is not a FIFO.
	if _, err := OpenSource(context.Background(), "fifo://"+filepath.Join("..", "testdata", "ghc-9.0.2", "parwork-N1.eventlog")); err == nil {
		t.Fatal("a regular file opened as a FIFO")
	}
}

func TestSourceFollow(t *testing.T) {
	data := readGHC902(t, "parwork-N1.eventlog")
	want, _ := decodeChunks(data, []int{len(data)})
	path := filepath.Join(t.TempDir(), "growing.eventlog")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(data[:1000])
	go func() {
		time.Sleep(20 * time.Millisecond)
		writeSlowly(f, data[1000:])
		f.Close()
	}()
	src, err := OpenSource(context.Background(), "follow://"+path)
	if err != nil {
		t.Fatal(err)
	}
	got, st := readSource(t, src) // returns at the end marker
	src.Close()
	sameEvents(t, got, want)
	if st.State != StateComplete {
		t.Fatal(st)
	}

	// A file that stops growing without its end marker is followed until Close.
	os.WriteFile(path, data[:5000], 0o644)
	src, err = OpenSource(context.Background(), "follow://"+path)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan Status)
	go func() {
		_, st := readSource(t, src)
		done <- st
	}()
	select {
	case st := <-done:
		t.Fatalf("following ended on its own: %s", st)
	case <-time.After(100 * time.Millisecond):
	}
	src.Close()
	select {
	case st := <-done:
		if st.State != StateTruncated {
			t.Fatalf("closed follow: %s, want truncated", st)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Close did not stop the follower")
	}
}

func TestSourceBadURLs(t *testing.T) {
	for _, u := range []string{"", "http://x", "tcp://", "unix://", "fifo://", "follow:///no/such/file", "tcp://127.0.0.1:1", "::"} {
		if src, err := OpenSource(context.Background(), u); err == nil {
			src.Close()
			t.Errorf("OpenSource(%q) succeeded", u)
		}
	}
}

// TestSourceFollowRewritten: a followed file that the program rewrites (it
// started again with the same -ol file) ends the stream read so far as
// truncated, with ErrRewritten, never as a corrupt mix of the two runs:
// whether the file shrank, was rewritten past the point read while the
// follower waited, or was replaced by another file.
func TestSourceFollowRewritten(t *testing.T) {
	first := readGHC902(t, "parwork-N1.eventlog")
	second := readGHC902(t, "parwork-N2.eventlog")
	all, _ := decodeChunks(first, []int{len(first)})
	const part = 50000
	for _, how := range []string{"shrink", "overwrite", "replace"} {
		t.Run(how, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "prog.eventlog")
			os.WriteFile(path, first[:part], 0o644)
			src, err := OpenSource(context.Background(), "follow://"+path)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			r := NewReader(src)
			var got []Event
			var ev Event
			done := make(chan struct{})
			go func() {
				for r.Next(&ev) {
					got = append(got, ev.Clone())
				}
				close(done)
			}()
			time.Sleep(100 * time.Millisecond) // the follower waits at the end
			switch how {
			case "shrink":
				os.WriteFile(path, second[:100], 0o644)
			case "overwrite":
				os.WriteFile(path, second, 0o644)
			case "replace":
				tmp := path + ".new"
				os.WriteFile(tmp, second[:20000], 0o644)
				os.Rename(tmp, path)
			}
			select {
			case <-done:
			case <-time.After(3 * time.Second):
				t.Fatal("the rewrite was not noticed")
			}
			st := r.Status()
			if st.State != StateTruncated || !errors.Is(r.Err(), ErrRewritten) {
				t.Fatalf("after the file was rewritten: %s, error %v; want truncated and ErrRewritten", st, r.Err())
			}
			sameEvents(t, got, eventsBefore(all, part))
		})
	}
}

// TestSourceReopen: Reopen waits for the next stream of each kind of
// source and says what it waits for: a followed file written again by the
// next run, a Unix socket the program has not made yet, a FIFO's next
// writer.
func TestSourceReopen(t *testing.T) {
	first := readGHC902(t, "parwork-N1.eventlog")
	second := readGHC902(t, "parwork-N2.eventlog")
	want, _ := decodeChunks(second, []int{len(second)})
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	reopen := func(url string, prev *Source, then func()) (*Source, []string) {
		t.Helper()
		said := make(chan string, 10)
		go func() {
			time.Sleep(300 * time.Millisecond)
			then()
		}()
		src, err := Reopen(ctx, url, prev, nil, func(s string) { said <- s })
		if err != nil {
			t.Fatalf("Reopen %s: %v", url, err)
		}
		close(said)
		var out []string
		for s := range said {
			out = append(out, s)
		}
		return src, out
	}

	path := filepath.Join(dir, "prog.eventlog")
	os.WriteFile(path, first, 0o644)
	src, err := OpenSource(ctx, "follow://"+path)
	if err != nil {
		t.Fatal(err)
	}
	readSource(t, src)
	src.Close()
	next, said := reopen("follow://"+path, src, func() { os.WriteFile(path, second, 0o644) })
	got, st := readSource(t, next)
	next.Close()
	sameEvents(t, got, want)
	if st.State != StateComplete || len(said) != 1 || said[0] != "waiting for "+path+" to be written again by the program's next run" {
		t.Fatalf("follow: %s, said %q", st, said)
	}

	sock := filepath.Join(dir, "prog.sock")
	next, said = reopen("unix://"+sock, nil, func() {
		l, err := net.Listen("unix", sock)
		if err != nil {
			t.Error(err)
			return
		}
		go func() {
			defer l.Close()
			c, err := l.Accept()
			if err == nil {
				c.Write(second)
				c.Close()
			}
		}()
	})
	got, _ = readSource(t, next)
	next.Close()
	sameEvents(t, got, want)
	// Between the listener's bind and its listen a dial is refused: a busy
	// machine can show both "no such file" and "connection refused".
	if len(said) == 0 || len(said) > 2 {
		t.Fatalf("unix: said %q", said)
	}
	for _, s := range said {
		if !strings.HasPrefix(s, "waiting for the program to listen") {
			t.Fatalf("unix: said %q", said)
		}
	}

	fifo := filepath.Join(dir, "prog.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	next, said = reopen("fifo://"+fifo, nil, func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			w.Write(second)
			w.Close()
		}
	})
	got, _ = readSource(t, next)
	next.Close()
	sameEvents(t, got, want)
	if len(said) != 1 || said[0] != "waiting for a writer on "+fifo {
		t.Fatalf("fifo: said %q", said)
	}
}
