package eventlog

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// grow writes a real log into a new file piece by piece, following it as it
// grows, and returns the followed log once the whole file is there.
func grow(t *testing.T, src string, pieces int) *Log {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "growing.eventlog")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	ctx := context.Background()
	var l *Log
	step := len(data)/pieces + 1
	for at := 0; at < len(data); at += step {
		if _, err := out.Write(data[at:min(at+step, len(data))]); err != nil {
			t.Fatal(err)
		}
		if l == nil {
			if l, err = Follow(ctx, path, Options{}); err != nil {
				l = nil // not even the header yet
				continue
			}
			t.Cleanup(func() { l.Close() })
			continue
		}
		if _, err := l.Poll(ctx); err != nil {
			t.Fatal(err)
		}
		if l.Overview() == nil {
			t.Fatal("no overview while following")
		}
	}
	if l == nil {
		t.Fatal("never followed")
	}
	return l
}

// TestFollowMatchesOpen: a log followed while it is written, in pieces cut
// anywhere, ends with what opening the whole file gives: the events, every
// HEC's time per state, the threads' time, the markers, labels and heap,
// and the event list.
func TestFollowMatchesOpen(t *testing.T) {
	for _, tc := range []struct {
		path   string
		pieces int
		span   uint64
	}{
		{testLogs[0], 7, followSpan},
		{testLogs[0], 23, 1e6}, // outgrows its grid again and again
		{testLogs[2], 5, followSpan},
		{testLogs[1], 9, 3e6},
	} {
		name := filepath.Base(tc.path)
		old := followSpan
		followSpan = tc.span
		l := grow(t, tc.path, tc.pieces)
		followSpan = old
		o := open(t, tc.path, Options{ExactBelow: -1})
		fm, om := l.Overview(), o.Overview()
		if l.Following() || l.Status.State != ingest.StateComplete || l.Events != o.Events {
			t.Fatalf("%s: following %v, status %v, %d events; opened: %d", name, l.Following(), l.Status, l.Events, o.Events)
		}
		if fm.Start != om.Start || fm.End != om.End || len(fm.HECs) != len(om.HECs) || fm.NumThreads() != om.NumThreads() {
			t.Fatalf("%s: followed [%d, %d] %d HECs %d threads; opened [%d, %d] %d, %d", name, fm.Start, fm.End,
				len(fm.HECs), fm.NumThreads(), om.Start, om.End, len(om.HECs), om.NumThreads())
		}
		for c := range om.HECs {
			if a, b := fm.HECs[c].Track.Durations(0, om.End), om.HECs[c].Track.Durations(0, om.End); a != b {
				t.Errorf("%s: HEC %d: followed %v, opened %v", name, c, a, b)
			}
		}
		var ft, ot timeline.Durations
		for i := range om.NumThreads() {
			j := fm.ThreadIndex(om.Thread(i).ID)
			if j < 0 {
				t.Fatalf("%s: thread %d not followed", name, om.Thread(i).ID)
			}
			a, b := new(fm.Thread(j).Track).Durations(0, om.End), new(om.Thread(i).Track).Durations(0, om.End)
			for s := range a {
				ft[s] += a[s]
				ot[s] += b[s]
			}
		}
		if ft != ot {
			t.Errorf("%s: threads' time followed %v, opened %v", name, ft, ot)
		}
		if fm.NumMarkers() != om.NumMarkers() || len(fm.Labels) != len(om.Labels) || fm.NumUserSpans() != om.NumUserSpans() {
			t.Errorf("%s: markers, labels or user spans differ", name)
		}
		if len(l.Heap.GCs) != len(o.Heap.GCs) || l.Heap.Size.Len() != o.Heap.Size.Len() || (l.Profile == nil) != (o.Profile == nil) {
			t.Errorf("%s: heap differs: %d GCs, %d sizes; opened %d, %d", name, len(l.Heap.GCs), l.Heap.Size.Len(), len(o.Heap.GCs), o.Heap.Size.Len())
		}
		fl, ol := l.EventList(), o.EventList()
		if fl.Len() != ol.Len() {
			t.Fatalf("%s: event list of %d, opened %d", name, fl.Len(), ol.Len())
		}
		for _, i := range []int64{0, fl.Len() / 2, fl.Len() - 1} {
			a, err := fl.Get(i)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := ol.Get(i)
			if a.Offset != b.Offset {
				t.Errorf("%s: event list row %d is at byte %d, opened %d", name, i, a.Offset, b.Offset)
			}
		}
	}
}

// BenchmarkFollowGrowing follows a big log (HECSCOPE_BIG) written into a
// file 4 MiB at a time, as a live session's recording grows, polling after
// each write: the rate the models keep up with.
func BenchmarkFollowGrowing(b *testing.B) {
	src := os.Getenv("HECSCOPE_BIG")
	if src == "" {
		b.Skip("set HECSCOPE_BIG to a big eventlog")
	}
	data, err := os.ReadFile(src)
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(data)))
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		path := filepath.Join(b.TempDir(), "growing.eventlog")
		out, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		const step = 4 << 20
		var l *Log
		for at := 0; at < len(data); at += step {
			out.Write(data[at:min(at+step, len(data))])
			if l == nil {
				if l, err = Follow(ctx, path, Options{NoSummary: true}); err != nil {
					b.Fatal(err)
				}
				continue
			}
			if _, err := l.Poll(ctx); err != nil {
				b.Fatal(err)
			}
		}
		if l.Following() {
			b.Fatalf("still following after the end: %v", l.Status)
		}
		l.Close()
		out.Close()
	}
}

// TestFollowAbsurdBlockEndKeepsTheGrids: a followed log (a live session's
// recording) with a block marker declaring an absurd end gets the grids of
// the same log without it, as an opened one does.
func TestFollowAbsurdBlockEndKeepsTheGrids(t *testing.T) {
	ctx := context.Background()
	healthy, err := Follow(ctx, "../testdata/ghc-9.0.2/parwork-N2.eventlog", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer healthy.Close()
	damaged, err := Follow(ctx, absurdBlockEnd(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer damaged.Close()
	hg, dg := healthy.Overview().Grid, damaged.Overview().Grid
	if !hg.On() || dg != hg {
		t.Errorf("overview grid: %d ns a bucket, want %d as without the damage", dg.Width(), hg.Width())
	}
	if hl, dl := healthy.EventList().grid, damaged.EventList().grid; dl != hl {
		t.Errorf("event list grid: %d ns a bucket, want %d", dl.Width(), hl.Width())
	}
	if damaged.Events != healthy.Events {
		t.Errorf("%d events, want %d", damaged.Events, healthy.Events)
	}
}

// TestFollowAbsurdBlockStartKeepsTheGrids: a followed log whose block
// marker declares an absurd start (after its end) keeps the grids and span
// of the same log without it, while it grows and once it is whole: the
// follower took the marker's time as the run's, and sized its grid for
// 4 × 2^56 ns.
func TestFollowAbsurdBlockStartKeepsTheGrids(t *testing.T) {
	// Capability 1's block, a third into the file, in small pieces: the
	// marker comes while following, not in the first reading.
	healthy := grow(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", 40)
	damaged := grow(t, absurdBlockTime(t, 1, 2), 40)
	h, d := healthy.Overview(), damaged.Overview()
	if d.Grid != h.Grid || d.Start != h.Start || d.End != h.End {
		t.Errorf("run %d–%d ns on a %d ns grid, want %d–%d on %d", d.Start, d.End, d.Grid.Width(), h.Start, h.End, h.Grid.Width())
	}
}

// TestEndFollowCutsTheLog: a followed log whose stream ends before its end
// marker (parwork-N2's first 100,000 bytes: HEC 1's events stop at 25.3 ms
// of 112.9 ms) shows HEC 1 as not received yet while it is followed, and,
// once EndFollow says no more will come, as a cut log, truncated, each
// capability known exactly as far as opening the cut file says — where
// it stayed "still coming" for ever.
func TestEndFollowCutsTheLog(t *testing.T) {
	data, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.eventlog")
	if err := os.WriteFile(cut, data[:100_000], 0o644); err != nil {
		t.Fatal(err)
	}
	l := grow(t, cut, 7)
	m := l.Overview()
	if !l.Following() || !m.Growing || m.Cut || !m.Partial() {
		t.Fatalf("while followed: following %v, growing %v, cut %v, partial %v", l.Following(), m.Growing, m.Cut, m.Partial())
	}
	l.EndFollow()
	m = l.Overview()
	if l.Following() || m.Growing || !m.Cut || l.Status.State != ingest.StateTruncated {
		t.Fatalf("ended: following %v, growing %v, cut %v, status %v", l.Following(), m.Growing, m.Cut, l.Status)
	}
	o, err := Open(context.Background(), cut, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	want := o.Overview()
	for c := range want.HECs {
		if got, w := m.HECs[c].Frontier(), want.HECs[c].Frontier(); got != w {
			t.Errorf("HEC %d's frontier %d, opening the file says %d", want.HECs[c].Cap, got, w)
		}
	}
	if m.HECs[1].Frontier()+50_000_000 > m.End {
		t.Errorf("HEC 1 known up to %d of %d", m.HECs[1].Frontier(), m.End)
	}
}
