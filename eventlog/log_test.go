package eventlog

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// exactModel builds a log's exact model the plain way: every event in file
// order into one Builder, and its heap from every event.
func exactModel(t testing.TB, path string) (*timeline.Model, *heapview.Heap, *heapview.Profile) {
	t.Helper()
	f, err := ingest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := timeline.NewOverviewBuilder(timeline.Grid{})
	c := heapview.NewCollector()
	var ev ingest.Event
	for f.Next(&ev) {
		b.Add(&ev)
		c.Add(&ev)
	}
	h, p := c.Result()
	b.Finish()
	return b.Snapshot(), h, p
}

var testLogs = []string{
	"../testdata/ghc-9.0.2/parwork-N2.eventlog",
	"../testdata/ghc-9.0.2/heap-hc.eventlog",
	"../testdata/corpus/ThreadScope__SumEulerPar1_sparks_detailed.eventlog",
	"../testdata/corpus/ghc-events-history__queens-ghc-6.12.1.eventlog",
	"../testdata/generated/hy.eventlog",
}

func open(t testing.TB, path string, opt Options) *Log {
	t.Helper()
	r, err := Open(context.Background(), path, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestOpenMatchesExact: loading through the index and the capabilities'
// goroutines gives the heap and summary of a plain read, and a timeline
// whose HECs hold the exact model's time per state at every bucket
// boundary (exactly, when exact).
func TestOpenMatchesExact(t *testing.T) {
	for _, path := range testLogs {
		name := filepath.Base(path)
		em, eh, ep := exactModel(t, path)
		sum, err := timeline.SummarizeFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range []Options{{}, {ExactBelow: -1, Buckets: 1024}} {
			r := open(t, path, opt)
			m := r.Overview()
			if m.Events != em.Events || m.Start != em.Start || m.End != em.End {
				t.Errorf("%s %+v: %d events in [%d, %d], exact %d in [%d, %d]", name, opt, m.Events, m.Start, m.End, em.Events, em.Start, em.End)
			}
			if r.Events != em.Events {
				t.Errorf("%s: Log.Events %d, want %d", name, r.Events, em.Events)
			}
			if !reflect.DeepEqual(r.Heap, eh) || !reflect.DeepEqual(r.Profile, ep) {
				t.Errorf("%s: heap or heap profile differs from a plain read", name)
			}
			if r.SummaryErr != nil || !reflect.DeepEqual(r.Summary, sum) {
				t.Errorf("%s: summary differs from SummarizeFile's (%v)", name, r.SummaryErr)
			}
			if len(m.HECs) != len(em.HECs) || m.NumThreads() != em.NumThreads() {
				t.Fatalf("%s: %d HECs, %d threads; exact %d, %d", name, len(m.HECs), m.NumThreads(), len(em.HECs), em.NumThreads())
			}
			step := m.Grid.Width()
			if step == 0 {
				step = max((em.End-em.Start)/997, 1)
			}
			for c := range em.HECs {
				for at := em.Start / step * step; at <= em.End+step; at += step {
					if a, b := em.HECs[c].Track.Durations(0, at), m.HECs[c].Track.Durations(0, at); a != b {
						t.Fatalf("%s %+v: HEC %d up to %d: %v, exact %v", name, opt, c, at, b, a)
					}
				}
			}
			if m.NumMarkers() != em.NumMarkers() || len(m.Labels) != len(em.Labels) {
				t.Errorf("%s: markers or labels differ", name)
			}
			// In time order every STOP finds its START; in file order a STOP
			// logged on one capability can come before the START logged on
			// another (parwork-N2 has 3 such).
			for _, l := range m.Labels {
				if l.Open != 0 || l.Unmatched != 0 {
					t.Errorf("%s: label %q has %d open and %d unmatched spans", name, m.String(l.Label), l.Open, l.Unmatched)
				}
			}
		}
	}
}

// TestWindowMatchesExact: a range decoded from the file, seeded from an
// overview, holds the time per state within the range that the exact model
// of the whole run (loaded the same way, in time order) has, for every HEC
// and every thread.
func TestWindowMatchesExact(t *testing.T) {
	for _, path := range testLogs[:3] {
		name := filepath.Base(path)
		em := open(t, path, Options{ExactBelow: 1 << 40}).Overview()
		if em.Grid.On() {
			t.Fatal("the exact model has a grid")
		}
		r := open(t, path, Options{ExactBelow: -1, Buckets: 64})
		g := r.Overview().Grid
		span := em.End - em.Start
		for _, frac := range [][2]uint64{{1, 3}, {1, 2}, {3, 4}} {
			from := (em.Start + span*frac[0]/frac[1]) / g.Width() * g.Width()
			to := from + 3*g.Width()
			w, err := r.Window(context.Background(), from, to, timeline.Grid{})
			if err != nil {
				t.Fatal(err)
			}
			if w.Grid.On() {
				t.Fatalf("%s: an exact window has a grid", name)
			}
			for c := range em.HECs {
				for _, at := range []uint64{from + 1, from + (to-from)/3, to - 7} {
					if a, b := em.HECs[c].Track.Durations(from, at), w.HECs[c].Track.Durations(from, at); a != b {
						t.Fatalf("%s: window [%d, %d] HEC %d to %d: %v, exact %v", name, from, to, c, at, b, a)
					}
				}
			}
			checked := 0
			for i := range em.NumThreads() {
				th := new(em.Thread(i))
				if !aliveIn(th, from, to) {
					continue
				}
				wi := w.ThreadIndex(th.ID)
				if wi < 0 {
					t.Fatalf("%s: thread %d alive in [%d, %d] is not in the window", name, th.ID, from, to)
				}
				if a, b := th.Track.Durations(from, to), new(w.Thread(wi).Track).Durations(from, to); a != b {
					t.Errorf("%s: thread %d in [%d, %d]: %v, exact %v", name, th.ID, from, to, b, a)
				}
				if th.Label >= 0 && w.String(w.Thread(wi).Label) != em.String(th.Label) {
					t.Errorf("%s: thread %d labelled %q in the window, %q exact", name, th.ID, w.String(w.Thread(wi).Label), em.String(th.Label))
				}
				checked++
			}
			if checked == 0 {
				t.Errorf("%s: no thread alive in [%d, %d]", name, from, to)
			}
		}
	}
}

// TestDetail: zoomed in past the overview, Detail gives nothing at first,
// calls ready once it has a window, then serves it; zoomed out it gives
// nothing (the overview serves).
func TestDetail(t *testing.T) {
	r := open(t, testLogs[0], Options{ExactBelow: -1, Buckets: 256})
	ov := r.Overview()
	w := ov.Grid.Width()
	if m := r.Detail(ov.Start, ov.End, float64(ov.End-ov.Start)/1000, true, nil); m != nil {
		t.Fatal("Detail at the whole run's zoom gave a model")
	}
	from := ov.Start + (ov.End-ov.Start)/2
	to := from + 4*w
	nsPerPx := float64(to-from) / 1000
	var once sync.WaitGroup
	once.Add(1)
	if m := r.Detail(from, to, nsPerPx, true, once.Done); m != nil {
		t.Fatal("Detail gave a model at once")
	}
	done := make(chan struct{})
	go func() { once.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("ready was never called")
	}
	m := r.Detail(from, to, nsPerPx, true, nil)
	if m == nil {
		t.Fatal("no detail after ready")
	}
	if m.Start > from || m.End < min(to, ov.End) || (m.Grid.On() && float64(m.Grid.Width()) > nsPerPx) {
		t.Errorf("detail spans [%d, %d] on %d ns buckets; asked [%d, %d] at %.0f ns a pixel", m.Start, m.End, m.Grid.Width(), from, to, nsPerPx)
	}
	// A pan within the window is served at once.
	if r.Detail(from+w/2, to+w/2, nsPerPx, true, nil) != m {
		t.Error("a small pan needed a new window")
	}
}

// TestDetailThreads: a window made without the threads holds none and does
// not serve a view that shows them; one made with them serves both.
func TestDetailThreads(t *testing.T) {
	r := open(t, testLogs[0], Options{ExactBelow: -1, Buckets: 256})
	ov := r.Overview()
	from := ov.Start + (ov.End-ov.Start)/2
	to := from + 4*ov.Grid.Width()
	nsPerPx := float64(to-from) / 1000
	detail := func(threads bool) *timeline.Model {
		t.Helper()
		if m := r.Detail(from, to, nsPerPx, threads, nil); m != nil {
			return m
		}
		r.WaitDetail()
		m := r.Detail(from, to, nsPerPx, threads, nil)
		if m == nil {
			t.Fatalf("no detail (threads %v) once made", threads)
		}
		return m
	}
	bare := detail(false)
	if bare.NumThreads() != 0 {
		t.Errorf("a window without threads holds %d", bare.NumThreads())
	}
	if r.Detail(from, to, nsPerPx, true, nil) != nil {
		t.Error("a window without threads served a view that shows them")
	}
	full := detail(true)
	if full.NumThreads() == 0 {
		t.Fatal("a window with threads holds none")
	}
	if got := r.Detail(from, to, nsPerPx, false, nil); got != full {
		t.Error("a window with threads did not serve a view that shows none")
	}
}

// TestWindowStops: a window whose making is stopped (a wider window that a
// new request stops) is not made, with the threads or without them.
func TestWindowStops(t *testing.T) {
	r := open(t, testLogs[0], Options{ExactBelow: -1, Buckets: 256})
	ov := r.Overview()
	ctx, stop := context.WithCancel(context.Background())
	stop()
	for _, parts := range []windowParts{{}, {threads: true}} {
		if w, err := r.makeWindow(ctx, ov.Start, ov.End, timeline.Grid{}, parts); !errors.Is(err, context.Canceled) || w != nil {
			t.Errorf("%+v: a stopped window gave %v, %v", parts, w != nil, err)
		}
	}
}

// TestDetailWidens: once a view has stayed put, a window twice as wide as
// it is made in the background, and a pan by half the view's width is then
// served at once; the window made for the view itself reaches past it by
// only windowMargin.
func TestDetailWidens(t *testing.T) {
	r := open(t, testLogs[0], Options{ExactBelow: -1, Buckets: 256})
	ov := r.Overview()
	w := ov.Grid.Width()
	from := ov.Start + (ov.End-ov.Start)/3/w*w
	to := from + 8*w
	nsPerPx := float64(to-from) / 1000
	ready := make(chan struct{}, 1)
	if m := r.Detail(from, to, nsPerPx, true, func() { ready <- struct{}{} }); m != nil {
		t.Fatal("Detail gave a model at once")
	}
	select {
	case <-ready:
	case <-time.After(20 * time.Second):
		t.Fatal("ready was never called")
	}
	m := r.Detail(from, to, nsPerPx, true, nil)
	if m == nil {
		t.Fatal("no detail after ready")
	}
	if wide := from - m.Start; m.Start > from || wide > 2*w {
		t.Errorf("the view's window starts %d ns before it, want at most %d", wide, 2*w)
	}
	half := (to - from) / 2
	covered := func() bool {
		r.detail.mu.Lock()
		defer r.detail.mu.Unlock()
		for _, win := range r.detail.windows {
			if win.from <= from-half && to+half <= win.to {
				return true
			}
		}
		return false
	}
	deadline := time.Now().Add(20 * time.Second)
	for !covered() {
		if time.Now().After(deadline) {
			t.Fatal("no wider window was made after the view stayed put")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if r.Detail(from+half, to+half, nsPerPx, true, nil) == nil || r.Detail(from-half, to-half, nsPerPx, true, nil) == nil {
		t.Error("a pan by half the view's width needed a new window")
	}
}

// TestWindowSparkSamplesEitherSide: a window holds, besides the spark
// samples in its range, each capability's last sample before it and first
// after it, as the whole run has them: the pool and rates are drawn towards
// them whatever the window's width.
func TestWindowSparkSamplesEitherSide(t *testing.T) {
	for _, path := range []string{testLogs[0], testLogs[2]} {
		exact := open(t, path, Options{})
		r := open(t, path, Options{ExactBelow: -1, Buckets: 64})
		ov := r.Overview()
		w := ov.Grid.Width()
		tried := 0
		for k := 1; k < 9; k++ {
			from := (ov.Start + (ov.End-ov.Start)*uint64(k)/10) / w * w
			to := from + w
			win, err := r.makeWindow(context.Background(), from, to, timeline.Grid{}, windowParts{})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range exact.Overview().HECs {
				n := e.NumSparkSamples()
				before := sort.Search(n, func(i int) bool { return e.SparkSample(i).Time >= from }) - 1
				after := sort.Search(n, func(i int) bool { return e.SparkSample(i).Time > to })
				h := win.model.HEC(e.Cap)
				if h == nil {
					t.Fatalf("%s: the window has no capability %d", path, e.Cap)
				}
				var got []timeline.SparkSample
				for i := range h.NumSparkSamples() {
					got = append(got, h.SparkSample(i))
				}
				if before >= 0 {
					tried++
					if len(got) == 0 || got[0] != e.SparkSample(before) {
						t.Errorf("%s [%d, %d] cap %d: the window's samples begin %v, want the last before it %v", path, from, to, e.Cap, got[:min(len(got), 1)], e.SparkSample(before))
					}
				}
				if after < n {
					tried++
					i := slices.IndexFunc(got, func(s timeline.SparkSample) bool { return s.Time > to })
					if i < 0 || got[i] != e.SparkSample(after) {
						t.Errorf("%s [%d, %d] cap %d: the window's first sample after it is at %d, want %v", path, from, to, e.Cap, i, e.SparkSample(after))
					}
				}
			}
		}
		if tried == 0 {
			t.Errorf("%s: no sample either side of any window: the test tries nothing", path)
		}
	}
}

// TestFirstOverviewShowsSomething: the overviews a load reports while it
// reads (the loading page's pictures) hold events, the first one too; it
// used to be asked for before the streams had published anything, so the
// first picture was empty and the next came half a second later. The
// report sleeps so that a small log is read slowly enough to be reported.
func TestFirstOverviewShowsSomething(t *testing.T) {
	var models []*timeline.Model
	l, err := Open(context.Background(), "../testdata/ghc-9.0.2/parwork-N2.eventlog", Options{Progress: func(p Progress) {
		if p.Model != nil {
			models = append(models, p.Model)
		}
		time.Sleep(progressEvery + 10*time.Millisecond)
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if len(models) == 0 {
		t.Fatal("no overview was reported while loading")
	}
	for i, m := range models {
		if m.Events == 0 || m.End <= m.Start {
			t.Errorf("overview %d of %d is empty: %d events in [%d, %d]", i+1, len(models), m.Events, m.Start, m.End)
		}
	}
}

// BenchmarkOpen loads a big log (HECSCOPE_BIG) with its overview and heap,
// reporting the heap the models hold afterwards.
func BenchmarkOpen(b *testing.B) {
	path := os.Getenv("HECSCOPE_BIG")
	if path == "" {
		b.Skip("set HECSCOPE_BIG to a big eventlog")
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(st.Size())
	var r *Log
	// As the app opens a log: with progress reports, whose first overview
	// is the first picture.
	var firsts []time.Duration
	for i := 0; i < b.N; i++ {
		if r != nil {
			r.Close()
		}
		first := time.Duration(-1)
		r, err = Open(context.Background(), path, Options{Progress: func(p Progress) {
			if p.Model != nil && p.Model.Events > 0 && first < 0 {
				first = p.Elapsed
			}
		}})
		if err != nil {
			b.Fatal(err)
		}
		firsts = append(firsts, first)
	}
	b.StopTimer()
	slices.Sort(firsts)
	b.ReportMetric(float64(firsts[len(firsts)/2].Milliseconds()), "ms-first-picture")
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/1e6, "MB-held")
	b.ReportMetric(float64(r.Events), "events")
	b.ReportMetric(float64(ms.HeapAlloc)/float64(max(r.Events, 1)), "B-held/event")
	b.ReportMetric(float64(ms.HeapAlloc)/float64(st.Size()), "held/file")
	r.Close()
}

// TestOpenTellsInputsApart: an eventlog, a .hp heap profile, junk, a
// missing file, an empty one; cut eventlogs and .hp files give what is there.
func TestOpenTellsInputsApart(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ctx := context.Background()
	if _, err := Open(ctx, filepath.Join(dir, "missing"), Options{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Open(ctx, write("junk", []byte("version https://git-lfs.github.com/spec/v1\n")), Options{}); err == nil ||
		!errors.Is(err, ingest.ErrHeapProfileMalformed) || !strings.Contains(err.Error(), "junk") {
		t.Errorf("junk: %v", err)
	}
	if _, err := Open(ctx, write("empty", nil), Options{}); err == nil || !strings.Contains(err.Error(), "empty file: not an eventlog") {
		t.Errorf("empty file: %v", err)
	}

	full, err := os.ReadFile("../testdata/generated/hc.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	whole := open(t, "../testdata/generated/hc.eventlog", Options{})
	cut := open(t, write("cut.eventlog", full[:len(full)*3/4]), Options{})
	if cut.Status.State != ingest.StateTruncated || cut.Heap.Size.Len() == 0 || cut.Heap.Size.Len() >= whole.Heap.Size.Len() {
		t.Errorf("cut log: %v, %d of %d heap sizes", cut.Status, cut.Heap.Size.Len(), whole.Heap.Size.Len())
	}

	hp, err := os.ReadFile("../testdata/generated/hc.hp")
	if err != nil {
		t.Fatal(err)
	}
	wholeHP := open(t, "../testdata/generated/hc.hp", Options{})
	if !wholeHP.HeapProfileOnly() || wholeHP.Overview() != nil || wholeHP.Profile == nil || wholeHP.Status.State != ingest.StateComplete {
		t.Fatalf(".hp: profile %v, status %v", wholeHP.Profile, wholeHP.Status)
	}
	// A .hp file cut inside a census keeps the censuses before it.
	i := strings.LastIndex(string(hp), "END_SAMPLE")
	i = strings.LastIndex(string(hp[:i]), "END_SAMPLE")
	d := open(t, write("cut.hp", hp[:i]), Options{})
	if d.Status.State != ingest.StateTruncated || d.Profile == nil || !d.Heap.Empty() || d.Profile.Len() != wholeHP.Profile.Len()-1 {
		t.Errorf("cut .hp: %v, %d samples of %d", d.Status, d.Profile.Len(), wholeHP.Profile.Len())
	}
}

// TestEventListIsTheShowOrder: the event list's rows are the events in the
// order ghc-events show prints them, got at random, searched by time and
// scanned both ways; with an overview and without.
func TestEventListIsTheShowOrder(t *testing.T) {
	for _, path := range testLogs {
		name := filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// The show order: a stable sort by time of the decoded events.
		var all []ingest.Event
		rd := ingest.NewReader(bytes.NewReader(data))
		var ev ingest.Event
		for rd.Next(&ev) {
			all = append(all, ev.Clone())
		}
		sort.SliceStable(all, func(i, j int) bool { return all[i].Time < all[j].Time })
		for _, opt := range []Options{{}, {ExactBelow: -1, Buckets: 512}} {
			l := open(t, path, opt).EventList()
			if l.Len() != int64(len(all)) {
				t.Fatalf("%s: %d rows, %d events", name, l.Len(), len(all))
			}
			for _, i := range []int64{0, l.Len() / 3, l.Len() - 1, 7, l.Len() / 2} {
				got, err := l.Get(i)
				if err != nil {
					t.Fatal(err)
				}
				if got.Offset != all[i].Offset {
					t.Fatalf("%s: row %d is the event at byte %d, want %d", name, i, got.Offset, all[i].Offset)
				}
			}
			var fwd []int64
			if err := l.Scan(0, true, func(i int64, e *ingest.Event) bool {
				if e.Offset != all[i].Offset {
					t.Fatalf("%s: scanned row %d is the event at byte %d, want %d", name, i, e.Offset, all[i].Offset)
				}
				fwd = append(fwd, i)
				return true
			}); err != nil {
				t.Fatal(err)
			}
			if len(fwd) != len(all) {
				t.Fatalf("%s: a forward scan saw %d rows of %d", name, len(fwd), len(all))
			}
			back := int64(len(all) - 1)
			if err := l.Scan(back, false, func(i int64, e *ingest.Event) bool {
				if i != back {
					t.Fatalf("%s: backward scan gave row %d after %d", name, i, back+1)
				}
				back--
				return true
			}); err != nil || back != -1 {
				t.Fatalf("%s: backward scan stopped at %d (%v)", name, back, err)
			}
			mid := all[len(all)/2].Time
			at, err := l.Search(mid)
			if err != nil {
				t.Fatal(err)
			}
			if at > 0 && all[at-1].Time >= mid || all[at].Time < mid {
				t.Errorf("%s: Search(%d) = row %d", name, mid, at)
			}
		}
	}
}

// TestEachRereads: a loaded log's events can be read again through its
// index, as many as it loaded; a closed log refuses.
func TestEachRereads(t *testing.T) {
	l, err := Open(context.Background(), "../testdata/ghc-9.0.2/parwork-N2.eventlog", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	st, err := l.Each(context.Background(), ingest.MergeOptions{Sorted: true}, func(*ingest.Event) bool { n++; return true })
	if err != nil || n != l.Events || st.State != l.Status.State {
		t.Fatalf("read %d events again (%v, %v); loaded %d (%v)", n, st, err, l.Events, l.Status)
	}
	l.Close()
	if _, err := l.Each(context.Background(), ingest.MergeOptions{}, func(*ingest.Event) bool { return true }); err == nil {
		t.Fatal("a closed log read on")
	}
}

// TestCutLogEndsEachCapabilityAtItsLastEvent: a log cut short (parwork-N2's
// first 120,000 bytes: capability 1's events stop at 36.9 ms, capability
// 0's go on to 113 ms) draws no capability, and no thread, running past
// what the log says of it (issue 16.2: HEC 1 was drawn running thread 58
// to the run's end). The models of zoomed-in ranges end there too.
func TestCutLogEndsEachCapabilityAtItsLastEvent(t *testing.T) {
	data, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cut.eventlog")
	if err := os.WriteFile(path, data[:120000], 0o644); err != nil {
		t.Fatal(err)
	}
	// Each capability's last event, read the plain way.
	var last [2]uint64
	f, err := ingest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var ev ingest.Event
	for f.Next(&ev) {
		if ev.Cap >= 0 && int(ev.Cap) < len(last) {
			last[ev.Cap] = max(last[ev.Cap], ev.Time)
		}
	}
	f.Close()
	if last[1] == 0 || last[1]+10_000_000 > last[0] {
		t.Fatalf("capabilities end at %v: the cut does not leave capability 1 well short of 0", last)
	}
	// Summarised as a big log's overview is, so that zoomed-in ranges
	// are decoded from the file.
	l, err := Open(context.Background(), path, Options{ExactBelow: -1, Buckets: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Status.State != ingest.StateTruncated {
		t.Fatalf("status %v, want truncated", l.Status)
	}
	check := func(what string, m *timeline.Model) {
		t.Helper()
		for c := range last {
			if got := m.HECs[c].Track.End(); got > max(last[c], m.Start) {
				t.Errorf("%s: HEC %d's track ends at %d, past its last event at %d", what, c, got, last[c])
			}
		}
		running := 0
		for i := range m.NumThreads() {
			tr := new(m.Thread(i).Track)
			n := tr.Len()
			if n == 0 {
				continue
			}
			if mk := tr.Mark(n - 1); mk.State == timeline.StateRunning && int(mk.Arg) < len(last) {
				running++
				if got := tr.End(); got > max(last[mk.Arg], mk.Time, m.Start) {
					t.Errorf("%s: thread %d, last seen running on HEC %d, runs to %d, past the HEC's last event at %d",
						what, m.Thread(i).ID, mk.Arg, got, last[mk.Arg])
				}
			}
		}
		if what == "overview" && running == 0 {
			t.Errorf("%s: no thread was running when the log was cut: the test proves nothing for threads", what)
		}
	}
	check("overview", l.Overview())
	// A range past capability 1's end, decoded from the file.
	from := last[1] + 5_000_000
	ready := make(chan struct{}, 1)
	detail := func() *timeline.Model {
		return l.Detail(from, from+10_000_000, 1000, true, func() { ready <- struct{}{} })
	}
	m := detail()
	if m == nil {
		select {
		case <-ready:
		case <-time.After(30 * time.Second):
			t.Fatal("the range was not decoded within 30 s")
		}
		m = detail()
	}
	if m == nil {
		t.Fatal("no model of the range")
	}
	check("range", m)
}

// TestAbsurdBlockEndCostsNothing: a block marker declaring an absurd end
// time (one corrupt marker) does not size the event list by it: the list
// kept a bucket per 2^32 ns up to that end in every capability's stream,
// which a corrupt stream in the live tests took to 24 GB.
func TestAbsurdBlockEndCostsNothing(t *testing.T) {
	path := absurdBlockEnd(t)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	l, err := Open(context.Background(), path, Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("loading a 196 KiB log whose one block claims to end at 2^56 ns allocated %d MiB", alloc>>20)
	}
	if l.Events == 0 {
		t.Error("no events loaded")
	}
}

// absurdBlockEnd writes parwork-N2 with its first block marker of
// capability 0 declaring an end at 2^56 ns (the run lasts 113 ms) and
// returns the file's path.
func absurdBlockEnd(t *testing.T) string {
	t.Helper()
	return absurdBlockTime(t, 0, 14)
}

// absurdBlockTime writes parwork-N2 with the time at byte at of capability
// c's first block marker (2: its start, 14: its end) set to 2^56 ns, and
// returns the file's path.
func absurdBlockTime(t *testing.T, c int32, at int64) string {
	t.Helper()
	data, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	ix, err := ingest.NewIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	patched := false
	for _, p := range ix.Pieces {
		if p.Block && p.Cap == c {
			// The marker: type (2), time (8), size (4), end time (8), cap (2).
			binary.BigEndian.PutUint64(data[p.Offset+at:], 1<<56)
			patched = true
			break
		}
	}
	if !patched {
		t.Fatalf("no block of capability %d", c)
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("absurd-%d-%d.eventlog", c, at))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAbsurdBlockEndKeepsTheGrids: the overview's and the event list's
// grids of a log with one block marker declaring an absurd end are those
// of the same log without it, so that views draw from the overview instead
// of decoding the whole file for every picture. They were sized by the
// marker: 2^32 ns buckets for a run of 113 ms (the same damage to a 47 MB
// log made a snapshot of its window take three minutes instead of one
// second).
func TestAbsurdBlockEndKeepsTheGrids(t *testing.T) {
	opt := Options{ExactBelow: -1} // an overview, as for a big log
	healthy := open(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", opt)
	damaged := open(t, absurdBlockEnd(t), opt)
	hg, dg := healthy.Overview().Grid, damaged.Overview().Grid
	if !hg.On() || dg != hg {
		t.Errorf("overview grid: %d ns a bucket, want %d as without the damage", dg.Width(), hg.Width())
	}
	if hl, dl := healthy.EventList().grid, damaged.EventList().grid; dl != hl {
		t.Errorf("event list grid: %d ns a bucket, want %d", dl.Width(), hl.Width())
	}
	if damaged.Events != healthy.Events || damaged.Overview().Events != healthy.Overview().Events {
		t.Errorf("%d events (overview %d), want %d (%d)", damaged.Events, damaged.Overview().Events, healthy.Events, healthy.Overview().Events)
	}
	// What the overview says of the run is what it says without the damage.
	if d, h := damaged.Overview().HECs[0].Track.Len(), healthy.Overview().HECs[0].Track.Len(); d != h {
		t.Errorf("HEC 0's overview has %d marks, want %d", d, h)
	}
}

// TestLoadingCountsTheFileWhileItLoads: Loading gives the size of the file
// being opened while Open runs (the app's heap limit leaves that much room
// to the models being built), and nothing once it has returned.
func TestLoadingCountsTheFileWhileItLoads(t *testing.T) {
	const path = "../testdata/ghc-9.0.2/parwork-N2.eventlog"
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var during []int64
	l, err := Open(context.Background(), path, Options{Progress: func(Progress) { during = append(during, Loading()) }})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if len(during) == 0 {
		t.Fatal("no progress reported")
	}
	for _, n := range during {
		if n != st.Size() {
			t.Fatalf("Loading() = %d while the %d-byte file loaded", n, st.Size())
		}
	}
	if n := Loading(); n != 0 {
		t.Errorf("Loading() = %d after Open returned", n)
	}
	if _, err := Open(context.Background(), filepath.Join(t.TempDir(), "missing"), Options{}); err == nil {
		t.Fatal("opened a missing file")
	}
	if n := Loading(); n != 0 {
		t.Errorf("Loading() = %d after a failed Open", n)
	}
}

// TestAbsurdBlockStartStretchesNothing: a block marker declaring an absurd
// start (2^56 ns, after its end) leaves the run as long as it is: the
// marker's own time counted as an event's, and the window's time axis ran
// to 72,057,594 s with the whole run in one pixel column.
func TestAbsurdBlockStartStretchesNothing(t *testing.T) {
	path := absurdBlockTime(t, 0, 2)
	for _, opt := range []Options{{}, {ExactBelow: -1}} {
		healthy := open(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", opt)
		damaged := open(t, path, opt)
		h, d := healthy.Overview(), damaged.Overview()
		if d.Start != h.Start || d.End != h.End || d.Grid != h.Grid {
			t.Errorf("exact below %d: the run is %d–%d ns on a %d ns grid, want %d–%d on %d",
				opt.ExactBelow, d.Start, d.End, d.Grid.Width(), h.Start, h.End, h.Grid.Width())
		}
		if damaged.Events != healthy.Events {
			t.Errorf("%d events, want %d", damaged.Events, healthy.Events)
		}
	}
}

// TestEmptyBlockWithImpossibleRangeStretchesNothing: a block holding only
// its marker, whose marker declares a start after its end, does not
// stretch the run: the piece had no time, and the run was taken to start at
// 0. (The run now starts at its first event with a time it can trust; the
// healthy log's starts at that marker.)
func TestEmptyBlockWithImpossibleRangeStretchesNothing(t *testing.T) {
	const src = "../testdata/corpus/ghc-events__ghc-9.2-events.eventlog"
	healthy := open(t, src, Options{})
	var empty *ingest.Piece
	for i, p := range healthy.ix().Pieces {
		if p.Block && p.Events == 1 {
			empty = &healthy.ix().Pieces[i]
			break
		}
	}
	if empty == nil {
		t.Fatal("no block of only its marker in the log")
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	// The marker: type (2), start (8), size (4), end (8), capability (2).
	binary.BigEndian.PutUint64(data[empty.Offset+2:], empty.BlockEnd+1)
	path := filepath.Join(t.TempDir(), "empty-block.eventlog")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []Options{{}, {ExactBelow: -1}} {
		damaged := open(t, path, opt)
		h, d := healthy.Overview(), damaged.Overview()
		if d.Start < h.Start || d.End != h.End {
			t.Errorf("exact below %d: the run is %d–%d ns, want within %d–%d", opt.ExactBelow, d.Start, d.End, h.Start, h.End)
		}
	}
}

// aliveIn reports whether a thread had a row in a view of [from, to]: it
// has marks, the first before to, and did not finish before from.
func aliveIn(th *timeline.Thread, from, to uint64) bool {
	return th.Track.Len() > 0 && th.First < to && (th.Finished == 0 || th.Finished > from)
}

// TestWindowKeepsEachMessage: an overview of a log of user events keeps
// its busy buckets of messages as summaries, but a window decoded from the
// file keeps each message, even on a grid as coarse as the overview's: a
// view zoomed in on shows each, as the exact model has them.
func TestWindowKeepsEachMessage(t *testing.T) {
	path := "../testdata/ghc-9.0.2/userheavy-N2.eventlog"
	em := open(t, path, Options{ExactBelow: 1 << 40}).Overview()
	r := open(t, path, Options{ExactBelow: -1, Buckets: 64})
	ov := r.Overview()
	g := ov.Grid
	texts := func(m *timeline.Model, from, to uint64) ([]string, bool) {
		var out []string
		summarised := false
		for c := range m.HECs {
			m.HECs[c].InstantsIn(from, to, func(in timeline.Instant) bool {
				if in.Summary() {
					summarised = true
				} else if in.Kind == timeline.InstantUserMessage {
					out = append(out, strconv.FormatUint(in.Time, 10)+" "+m.String(int32(in.Arg)))
				}
				return true
			})
		}
		return out, summarised
	}
	from := (em.Start + (em.End-em.Start)/3) / g.Width() * g.Width()
	to := from + 2*g.Width()
	if _, summarised := texts(ov, from, to); !summarised {
		t.Fatalf("the overview summarises no messages in [%d, %d]: the test says nothing", from, to)
	}
	w, err := r.Window(context.Background(), from, to, g)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := texts(em, from, to)
	got, summarised := texts(w, from, to)
	if summarised || !slices.Equal(got, want) || len(want) == 0 {
		t.Fatalf("the window of [%d, %d] has %d messages (summaries: %v), the exact model %d", from, to, len(got), summarised, len(want))
	}
}

// TestOverviewKeepsEachSpan: an overview of a log of user events (its
// messages summarised per bucket) keeps every START/STOP span as the exact
// model has it, with the same sums per label, and every marker.
func TestOverviewKeepsEachSpan(t *testing.T) {
	path := "../testdata/ghc-9.0.2/userheavy-N2.eventlog"
	em := open(t, path, Options{ExactBelow: 1 << 40}).Overview()
	ov := open(t, path, Options{ExactBelow: -1, Buckets: 64}).Overview()
	if !ov.Grid.On() || em.Grid.On() {
		t.Fatal("want an overview and an exact model")
	}
	spans := func(m *timeline.Model) []string {
		out := make([]string, m.NumUserSpans())
		for i := range out {
			sp := m.UserSpan(i)
			out[i] = fmt.Sprint(sp.Start, sp.End, m.String(sp.Label), sp.ID, sp.Cap, sp.Thread)
		}
		slices.Sort(out)
		return out
	}
	if e, o := spans(em), spans(ov); !slices.Equal(e, o) || len(e) < 1000 {
		t.Fatalf("the overview has %d spans, the exact model %d, not all alike", len(o), len(e))
	}
	labels := func(m *timeline.Model) map[string]timeline.LabelStats {
		out := map[string]timeline.LabelStats{}
		for _, l := range m.Labels {
			name := m.String(l.Label)
			l.Label = 0
			out[name] = l
		}
		return out
	}
	if e, o := labels(em), labels(ov); !reflect.DeepEqual(e, o) {
		t.Fatalf("labels %v, exact %v", o, e)
	}
	markers := func(m *timeline.Model) []string {
		out := make([]string, m.NumMarkers())
		for i := range out {
			mk := m.Marker(i)
			out[i] = fmt.Sprint(mk.Time, m.String(int32(mk.Arg)), mk.Arg2)
		}
		return out
	}
	if e, o := markers(em), markers(ov); !slices.Equal(e, o) || len(e) == 0 {
		t.Fatalf("the overview has %d markers, the exact model %d, not all alike", len(o), len(e))
	}
	for _, text := range []string{"job3", "job0"} {
		et, eok := timeline.FindSpanStart(em, text)
		ot, ook := timeline.FindSpanStart(ov, text)
		if et != ot || eok != ook || !eok {
			t.Fatalf("the first %s starts at %d (%v), exact %d (%v)", text, ot, ook, et, eok)
		}
	}
	if et, _ := timeline.FindMarker(em, "tick 64"); et == 0 {
		t.Fatal("no marker tick 64")
	} else if ot, _ := timeline.FindMarker(ov, "tick 64"); ot != et {
		t.Fatalf("marker tick 64 at %d, exact %d", ot, et)
	}
}
