package ingest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"
)

// TestEachMatchesReadAll: Each hands out every event of a real log, in
// time order when asked, with the log's status; stopping early and a
// cancelled context end it as they say.
func TestEachMatchesReadAll(t *testing.T) {
	const path = "../testdata/ghc-9.0.2/parwork-N2.eventlog"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want int
	_, st, err := readAll(bytes.NewReader(data), func(*Event) error { want++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	var got int
	var last uint64
	s, err := EachFile(context.Background(), path, MergeOptions{Sorted: true}, func(ev *Event) bool {
		if ev.Time < last {
			t.Fatalf("event %d at %d after one at %d", got, ev.Time, last)
		}
		last = ev.Time
		got++
		return true
	})
	if err != nil || got != want || s.State != st.State {
		t.Fatalf("streamed %d events, %v, %v; ReadAll: %d, %v", got, s, err, want, st)
	}

	got = 0
	if _, err := Each(context.Background(), bytes.NewReader(data), int64(len(data)), MergeOptions{}, func(*Event) bool {
		got++
		return got < 10
	}); err != nil || got != 10 {
		t.Fatalf("stopped after %d events (%v), want 10", got, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Each(ctx, bytes.NewReader(data), int64(len(data)), MergeOptions{}, func(*Event) bool { return true }); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if _, err := EachFile(context.Background(), "testdata/no-such.eventlog", MergeOptions{}, func(*Event) bool { return true }); err == nil {
		t.Fatal("a missing file streamed")
	}
}
