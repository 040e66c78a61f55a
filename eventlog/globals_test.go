package eventlog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// TestGlobalsBuildsAsInPlace: the builder's own part fed through the
// globals builder, in batches, with settling and previews asked for
// between them, makes the model it makes fed in place: every thread,
// label, message, marker and user span, on a grid and without.
func TestGlobalsBuildsAsInPlace(t *testing.T) {
	for _, name := range []string{"parwork-N2", "userheavy-N2", "gcstorm-N2"} {
		path := filepath.Join("..", "testdata", "ghc-9.0.2", name+".eventlog")
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		ix, err := ingest.NewIndex(f, st.Size())
		if err != nil {
			t.Fatal(err)
		}
		_, to := span(ix)
		for _, g := range []timeline.Grid{{}, timeline.GridFor(to, 1<<10)} {
			direct, batched := timeline.NewOverviewBuilder(g), timeline.NewOverviewBuilder(g)
			gb := startGlobals(batched)
			previews, messages := 0, 0
			m := ingest.NewMerge(f, ix, ingest.MergeOptions{})
			k := 0
			for e := m.Next(); e != nil; e = m.Next() {
				if !timeline.GlobalKind(e.Kind) {
					continue
				}
				if len(e.Data) > 0 {
					messages++
				}
				direct.AddGlobal(e)
				gb.add(e)
				switch k++; {
				case k%500 == 0:
					direct.Settle()
					gb.settle()
				case k%797 == 0:
					direct.SetExtent(int64(k), 0, e.Time)
					want := direct.Preview()
					got := gb.preview(int64(k), 0, e.Time)
					if got.Events != want.Events || got.End != want.End || got.NumMarkers() != want.NumMarkers() || got.NumUserSpans() != want.NumUserSpans() {
						t.Fatalf("%s: preview at %d events: %d events to %d, %d markers, %d spans; want %d to %d, %d, %d", name, k,
							got.Events, got.End, got.NumMarkers(), got.NumUserSpans(), want.Events, want.End, want.NumMarkers(), want.NumUserSpans())
					}
					previews++
				}
			}
			m.Close()
			gb.stop()
			if previews == 0 || messages == 0 {
				t.Fatalf("%s: %d previews, %d events with data: the test proves nothing", name, previews, messages)
			}
			direct.Finish()
			batched.Finish()
			sameGlobals(t, name, batched.Final(), direct.Final())
		}
		f.Close()
	}
}

// sameGlobals fails the test unless got's threads, strings, markers and
// user spans are want's.
func sameGlobals(t *testing.T, name string, got, want *timeline.Model) {
	t.Helper()
	if got.NumThreads() != want.NumThreads() || got.NumMarkers() != want.NumMarkers() || got.NumUserSpans() != want.NumUserSpans() ||
		len(got.Labels) != len(want.Labels) || got.Anomalies != want.Anomalies {
		t.Fatalf("%s: %d threads, %d markers, %d spans, %d labels, %d anomalies; want %d, %d, %d, %d, %d", name,
			got.NumThreads(), got.NumMarkers(), got.NumUserSpans(), len(got.Labels), got.Anomalies,
			want.NumThreads(), want.NumMarkers(), want.NumUserSpans(), len(want.Labels), want.Anomalies)
	}
	for i := range want.NumThreads() {
		g, w := got.Thread(i), want.Thread(i)
		if g.ID != w.ID || got.String(g.Label) != want.String(w.Label) || g.Created != w.Created || g.Finished != w.Finished || g.Track.Len() != w.Track.Len() {
			t.Fatalf("%s: thread %d: %+v, want %+v", name, i, g.ThreadRecord, w.ThreadRecord)
		}
		for j := range w.Track.Len() {
			if g.Track.Mark(j) != w.Track.Mark(j) {
				t.Fatalf("%s: thread %d mark %d: %+v, want %+v", name, w.ID, j, g.Track.Mark(j), w.Track.Mark(j))
			}
		}
	}
	for i := range want.NumMarkers() {
		if g, w := got.Marker(i), want.Marker(i); g != w || got.String(int32(g.Arg)) != want.String(int32(w.Arg)) {
			t.Fatalf("%s: marker %d: %+v, want %+v", name, i, g, w)
		}
	}
	for i := range want.NumUserSpans() {
		if g, w := got.UserSpan(i), want.UserSpan(i); g != w {
			t.Fatalf("%s: user span %d: %+v, want %+v", name, i, g, w)
		}
	}
	for i, l := range want.Labels {
		if g := got.Labels[i]; got.String(g.Label) != want.String(l.Label) || g.Count != l.Count || g.Total != l.Total {
			t.Fatalf("%s: label %d: %+v, want %+v", name, i, g, l)
		}
	}
}
