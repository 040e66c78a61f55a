package eventlog

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// joinLogs writes the logs at paths one after another into a new file, as
// a program that restarts its logging does, and returns its path and where
// each one begins.
func joinLogs(t *testing.T, paths ...string) (string, []int64) {
	t.Helper()
	var all []byte
	var at []int64
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		at = append(at, int64(len(all)))
		all = append(all, b...)
	}
	joined := filepath.Join(t.TempDir(), "joined.eventlog")
	if err := os.WriteFile(joined, all, 0o644); err != nil {
		t.Fatal(err)
	}
	return joined, at
}

// TestOpenSegment (issue 16.9): each segment of a file holding several real
// eventlogs loads as that eventlog does on its own — its events, threads,
// duration, heap and summary — with byte offsets counted in the file; the
// segments are listed with their programs; the default is the first.
func TestOpenSegment(t *testing.T) {
	for _, parts := range [][]string{
		// GHC 9.0: the end marker after the last block.
		{"../testdata/ghc-9.0.2/parwork-N2.eventlog", "../testdata/ghc-9.0.2/heap-hc.eventlog", "../testdata/corpus/ghc-events__sleep.hy.eventlog"},
		// GHC 9.2: the end marker counted in the last block.
		{"../testdata/corpus/ghc-events__ghc-9.2-events.eventlog", "../testdata/ghc-9.0.2/parwork-N1.eventlog"},
	} {
		joined, at := joinLogs(t, parts...)
		for k, part := range parts {
			name := filepath.Base(part)
			alone := open(t, part, Options{})
			r := open(t, joined, Options{Segment: k})
			if len(r.Segments) != len(parts) || r.Segment != k {
				t.Fatalf("%s: segment %d of %d segments, want %d of %d", name, r.Segment, len(r.Segments), k, len(parts))
			}
			g := r.Segments[k]
			if g.Offset != at[k] || g.End != at[k]+alone.Size || r.Size != alone.Size {
				t.Errorf("%s: segment bytes %d–%d (size %d), want %d–%d", name, g.Offset, g.End, r.Size, at[k], at[k]+alone.Size)
			}
			if g.Program != alone.Summary.Program || g.Program == "" {
				t.Errorf("%s: segment's program %q, alone %q", name, g.Program, alone.Summary.Program)
			}
			if _, to := span(alone.Index()); g.Duration != to {
				t.Errorf("%s: segment's duration %d, alone %d", name, g.Duration, to)
			}
			m, am := r.Overview(), alone.Overview()
			if r.Events != alone.Events || m.Events != am.Events || m.Start != am.Start || m.End != am.End || m.NumThreads() != am.NumThreads() || len(m.HECs) != len(am.HECs) {
				t.Errorf("%s: segment %d: %d events (model %d in [%d, %d], %d threads, %d HECs); alone %d (%d in [%d, %d], %d threads, %d HECs)",
					name, k, r.Events, m.Events, m.Start, m.End, m.NumThreads(), len(m.HECs), alone.Events, am.Events, am.Start, am.End, am.NumThreads(), len(am.HECs))
			}
			s, as := r.Summary, alone.Summary
			if r.SummaryErr != nil || s.Events != as.Events || s.Threads != as.Threads || s.TotalNS != as.TotalNS || s.Program != as.Program || s.Heap != as.Heap {
				t.Errorf("%s: segment %d summary %d events, %d threads, %d ns, %q (err %v); alone %d, %d, %d ns, %q",
					name, k, s.Events, s.Threads, s.TotalNS, s.Program, r.SummaryErr, as.Events, as.Threads, as.TotalNS, as.Program)
			}
			if r.Heap.Size.Len() != alone.Heap.Size.Len() || len(r.Heap.GCs) != len(alone.Heap.GCs) {
				t.Errorf("%s: segment %d heap %d sizes, %d GCs; alone %d, %d", name, k, r.Heap.Size.Len(), len(r.Heap.GCs), alone.Heap.Size.Len(), len(alone.Heap.GCs))
			}
			// Offsets in the file: the status ends where the segment does.
			if r.Status.State != ingest.StateComplete || r.Status.Offset != g.End || s.Status.Offset != g.End {
				t.Errorf("%s: segment %d status %v (summary's %v), want complete at byte %d", name, k, r.Status, s.Status, g.End)
			}
			if l := r.EventList(); l == nil || l.Len() != alone.EventList().Len() {
				t.Errorf("%s: segment %d event list differs from the log's alone", name, k)
			} else if e, err := l.Get(l.Len() - 1); err != nil {
				t.Errorf("%s: segment %d last event: %v", name, k, err)
			} else if ae, _ := alone.EventList().Get(l.Len() - 1); e.Time != ae.Time || e.Kind != ae.Kind {
				t.Errorf("%s: segment %d last event %v at %d, alone %v at %d", name, k, e.Kind, e.Time, ae.Kind, ae.Time)
			}
		}
		first := open(t, joined, Options{})
		if first.Segment != 0 || len(first.Segments) != len(parts) || first.Size != first.Segments[0].End {
			t.Errorf("default load: segment %d of %d, %d bytes", first.Segment, len(first.Segments), first.Size)
		}
		_, err := Open(context.Background(), joined, Options{Segment: len(parts)})
		if err == nil || !strings.Contains(err.Error(), "no segment") {
			t.Errorf("segment %d of %d: error %v, want no such segment", len(parts)+1, len(parts), err)
		}
		if _, err := Open(context.Background(), joined, Options{Segment: -1}); err == nil {
			t.Errorf("segment -1: no error")
		}
	}
	// A last segment cut short: truncated, at a byte of the file within it.
	joined, at := joinLogs(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", "../testdata/ghc-9.0.2/parwork-N1.eventlog")
	st, err := os.Stat(joined)
	if err != nil {
		t.Fatal(err)
	}
	cut := at[1] + (st.Size()-at[1])/2
	if err := os.Truncate(joined, cut); err != nil {
		t.Fatal(err)
	}
	r := open(t, joined, Options{Segment: 1})
	if len(r.Segments) != 2 || r.Status.State != ingest.StateTruncated || r.Status.Offset <= at[1] || r.Status.Offset > cut ||
		r.Summary.Status.State != ingest.StateTruncated || r.Summary.Status.Offset <= at[1] || r.Summary.Status.Offset > cut {
		t.Errorf("segment 2 of 2 cut at byte %d (it begins at %d): %d segments, status %v, summary's %v", cut, at[1], len(r.Segments), r.Status, r.Summary.Status)
	}
	if g := r.Segments[1]; g.Status.State != ingest.StateTruncated || g.End != cut {
		t.Errorf("segment 2 of 2 cut at byte %d: %+v", cut, g)
	}

	// An ordinary log has no segments, and no second one.
	one := open(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", Options{})
	if len(one.Segments) > 1 || one.Segment != 0 {
		t.Errorf("an ordinary log: %d segments", len(one.Segments))
	}
	if _, err := Open(context.Background(), "../testdata/ghc-9.0.2/parwork-N2.eventlog", Options{Segment: 1}); err == nil {
		t.Errorf("segment 2 of an ordinary log: no error")
	}
}
