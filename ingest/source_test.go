package ingest

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
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
func writeSlowly(w io.Writer, data []byte) error {
	sizes := []int{1, 7, 300, 4096, 17, 65536, 999}
	for i, off := 0, 0; off < len(data); i++ {
		n := min(sizes[i%len(sizes)], len(data)-off)
		if _, err := w.Write(data[off : off+n]); err != nil {
			return err
		}
		off += n
		if i%3 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	return nil
}

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
	go func() {
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

	// Waiting for a writer can be cancelled.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := OpenSource(ctx, "fifo://"+fifo); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("open with no writer: %v, want deadline exceeded", err)
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
