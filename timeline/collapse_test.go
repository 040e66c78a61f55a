package timeline

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/internal/testlog"
)

// overview builds the overview model of a log with the given number of
// buckets over its span: sequentially, or with each capability's part fed
// from its own goroutine as a parallel loader does.
func overview(t testing.TB, data []byte, buckets int, parallel bool) *Model {
	t.Helper()
	return overviewBuilder(t, data, buckets, parallel).Snapshot()
}

// overviewBuilder is overview's finished builder, before its model is made.
func overviewBuilder(t testing.TB, data []byte, buckets int, parallel bool) *Builder {
	t.Helper()
	ix, err := ingest.NewIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	// The span: a first pass, as the loader learns it from the index.
	var last uint64
	m0 := ingest.NewMerge(bytes.NewReader(data), ix, ingest.MergeOptions{Learn: true})
	for e := m0.Next(); e != nil; e = m0.Next() {
		last = max(last, e.Time)
	}
	b := NewOverviewBuilder(GridFor(last, buckets))
	opt := ingest.MergeOptions{}
	var hbs map[int32]*HECBuilder
	var mu sync.Mutex
	var counted int64
	var first, end uint64
	if parallel {
		var caps []int32
		for _, s := range ix.Streams() {
			if s.Cap != ingest.NoCap {
				caps = append(caps, s.Cap)
			}
		}
		hbs = map[int32]*HECBuilder{}
		for i, h := range b.Parallel(caps) {
			hbs[caps[i]] = h
		}
		opt.Tap = func(c int32) func(*ingest.Event) bool {
			h := hbs[c]
			var n int64
			var lo, hi uint64
			return func(e *ingest.Event) bool {
				if n == 0 || e.Time < lo {
					lo = e.Time
				}
				hi = max(hi, e.Time)
				n++
				if h != nil {
					h.Add(e)
					if n%5000 == 0 {
						h.Publish(e.Time, false)
					}
				}
				mu.Lock()
				if counted == 0 || lo < first {
					first = lo
				}
				counted++
				end = max(end, hi)
				mu.Unlock()
				return GlobalKind(e.Kind)
			}
		}
	}
	m := ingest.NewMerge(bytes.NewReader(data), ix, opt)
	for e := m.Next(); e != nil; e = m.Next() {
		if parallel {
			b.AddGlobal(e)
		} else {
			b.Add(e)
		}
	}
	if parallel {
		for _, h := range hbs {
			h.Publish(0, true)
		}
		b.SetExtent(counted, first, end)
	}
	b.Finish()
	return b
}

// overviewLogs are real logs with several HECs, many threads and sparks.
var overviewLogs = []string{
	"../testdata/ghc-9.0.2/parwork-N2.eventlog",
	"../testdata/corpus/ThreadScope__SumEulerPar1_sparks_detailed.eventlog",
	"../testdata/ghc-9.0.2/heap-hT.eventlog",
}

// TestOverviewMatchesExact: an overview keeps, at every bucket boundary,
// exactly the time per state that the exact model has, for every HEC; whole
// counts of instants and sparks are kept; threads keep their time per state
// (up to the events GHC back-dates, which the exact model inserts in the
// past and the overview keeps at the time they arrive).
func TestOverviewMatchesExact(t *testing.T) {
	for _, f := range overviewLogs {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		exact, _ := build(t, f)
		name := filepath.Base(f)
		for _, parallel := range []bool{false, true} {
			ov := overview(t, data, 2048, parallel)
			if ov.Start != exact.Start || ov.End != exact.End || ov.Events != exact.Events {
				t.Fatalf("%s: overview spans [%d, %d] with %d events, exact [%d, %d] with %d", name, ov.Start, ov.End, ov.Events, exact.Start, exact.End, exact.Events)
			}
			if len(ov.HECs) != len(exact.HECs) || ov.NumThreads() != exact.NumThreads() {
				t.Fatalf("%s: %d HECs and %d threads, exact %d and %d", name, len(ov.HECs), ov.NumThreads(), len(exact.HECs), exact.NumThreads())
			}
			g := ov.Grid
			summaries := 0
			for c := range exact.HECs {
				eh, oh := &exact.HECs[c], &ov.HECs[c]
				for i := 0; i < oh.Track.Len(); i++ {
					if oh.Track.Mark(i).Summary() {
						summaries++
					}
				}
				for b := g.bucket(exact.Start); g.start(b) <= exact.End+g.Width(); b++ {
					at := g.start(b)
					if e, o := eh.Track.Durations(0, at), oh.Track.Durations(0, at); e != o {
						t.Fatalf("%s parallel=%v: HEC %d to %d: overview %v, exact %v", name, parallel, c, at, o, e)
					}
				}
				if e, o := eh.CountInstants(0, exact.End+1), oh.CountInstants(0, exact.End+1); e != o {
					t.Errorf("%s: HEC %d has %d instants, exact %d", name, c, o, e)
				}
				for k := SparkKind(0); k < NumSparkKinds; k++ {
					if e, o := eh.Sparks(k, 0, exact.End+1), oh.Sparks(k, 0, exact.End+1); e != o {
						t.Errorf("%s: HEC %d has %d %v sparks, exact %d", name, c, o, k, e)
					}
				}
			}
			if summaries == 0 {
				t.Errorf("%s: no HEC bucket was summarised: the test says nothing", name)
			}
			var te, to Durations
			for i := range exact.NumThreads() {
				th := new(exact.Thread(i))
				oi := ov.ThreadIndex(th.ID)
				if oi < 0 {
					t.Fatalf("%s: thread %d missing from the overview", name, th.ID)
				}
				ot := new(ov.Thread(oi))
				if ot.Label != th.Label && ov.String(ot.Label) != exact.String(th.Label) {
					t.Errorf("%s: thread %d labelled %q, exact %q", name, th.ID, ov.String(ot.Label), exact.String(th.Label))
				}
				e, o := th.Track.Durations(0, exact.End), ot.Track.Durations(0, exact.End)
				te.add(&e)
				to.add(&o)
			}
			for s := range te {
				if d := absDiff(te[s], to[s]); float64(d) > 0.01*float64(te.Total()/uint64(NumStates)) {
					t.Errorf("%s: threads spent %d ns %v in the overview, %d in the exact model", name, to[s], State(s), te[s])
				}
			}
		}
	}
}

func absDiff(a, b uint64) uint64 {
	if a > b {
		return a - b
	}
	return b - a
}

// TestOverviewColumns: drawn at a zoom where a pixel spans several buckets,
// an overview's columns hold the exact model's time per state up to the
// buckets cut by the column's two edges.
func TestOverviewColumns(t *testing.T) {
	f := overviewLogs[0]
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	exact, _ := build(t, f)
	ov := overview(t, data, 4096, true)
	w := ov.Grid.Width()
	for _, n := range []int{200, 700} {
		ax := NewAxis(exact.Start, exact.End, 0, float64(n))
		for c := range exact.HECs {
			ec := exact.HECs[c].Track.Columns(ax, n, nil)
			oc := ov.HECs[c].Track.Columns(ax, n, nil)
			for i := range ec {
				for s := range ec[i].Time {
					if d := absDiff(ec[i].Time[s], oc[i].Time[s]); d > 2*w {
						t.Fatalf("%d columns, HEC %d column %d: %v %d ns, exact %d (bucket %d ns)", n, c, i, State(s), oc[i].Time[s], ec[i].Time[s], w)
					}
				}
			}
		}
	}
}

// TestOverviewIsSmaller: on a busy log the overview holds far fewer marks
// than the exact model.
func TestOverviewIsSmaller(t *testing.T) {
	f := overviewLogs[0]
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	exact, _ := build(t, f)
	ov := overview(t, data, 512, true)
	count := func(m *Model) (n int) {
		for c := range m.HECs {
			n += m.HECs[c].Track.Len() + m.HECs[c].NumInstants()
		}
		for i := range m.NumThreads() {
			n += new(m.Thread(i).Track).Len()
		}
		return n
	}
	if e, o := count(exact), count(ov); o*2 > e {
		t.Errorf("overview holds %d marks and instants, exact %d: not much smaller", o, e)
	}
}

// digest sums what a model shows: every track's time per state up to its
// end, and its marks, instants and sparks.
func digest(m *Model) [NumStates + 3]uint64 {
	var d [NumStates + 3]uint64
	add := func(tr *Track) {
		t := tr.Durations(0, m.End)
		for s := range t {
			d[s] += t[s]
		}
		d[NumStates] += uint64(tr.Len())
		for i := 0; i < tr.Len(); i++ {
			d[NumStates+1] += tr.Mark(i).Time & 0xffff
		}
	}
	for c := range m.HECs {
		add(&m.HECs[c].Track)
		d[NumStates+2] += uint64(m.HECs[c].CountInstants(0, m.End+1) + m.HECs[c].Sparks(SparkCreated, 0, m.End+1))
	}
	for i := range m.NumThreads() {
		add(new(m.Thread(i).Track))
	}
	return d
}

// TestSnapshotsStayPut: snapshots taken while an overview is built do not
// change as the builder goes on (it reuses the storage of retired threads).
func TestSnapshotsStayPut(t *testing.T) {
	data, err := os.ReadFile(overviewLogs[0])
	if err != nil {
		t.Fatal(err)
	}
	ix, err := ingest.NewIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	b := NewOverviewBuilder(Grid{Shift: 14})
	m := ingest.NewMerge(bytes.NewReader(data), ix, ingest.MergeOptions{})
	var snaps []*Model
	var digests [][NumStates + 3]uint64
	n := 0
	for e := m.Next(); e != nil; e = m.Next() {
		b.Add(e)
		if n++; n%997 == 0 {
			s := b.Snapshot()
			snaps, digests = append(snaps, s), append(digests, digest(s))
		}
	}
	b.Finish()
	last := b.Snapshot()
	// Made from the snapshots before it, the last holds what one made at
	// once does.
	fresh := NewOverviewBuilder(Grid{Shift: 14})
	m = ingest.NewMerge(bytes.NewReader(data), ix, ingest.MergeOptions{})
	for e := m.Next(); e != nil; e = m.Next() {
		fresh.Add(e)
	}
	fresh.Finish()
	if digest(fresh.Snapshot()) != digest(last) {
		t.Fatal("the last of many snapshots differs from one taken at once")
	}
	for i, s := range snaps {
		if digest(s) != digests[i] {
			t.Fatalf("snapshot %d (of %d events) changed after it was taken", i, s.Events)
		}
	}
	if len(snaps) < 10 {
		t.Fatalf("only %d snapshots", len(snaps))
	}
}

// TestPreviewsLeaveThreadsToSnapshot: previews taken while an overview is
// built have the snapshot's HECs and no threads, and the snapshot after
// them holds every thread, as one taken at once does.
func TestPreviewsLeaveThreadsToSnapshot(t *testing.T) {
	data, err := os.ReadFile(overviewLogs[0])
	if err != nil {
		t.Fatal(err)
	}
	ix, err := ingest.NewIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	build := func(preview bool) *Model {
		b := NewOverviewBuilder(Grid{Shift: 14})
		m := ingest.NewMerge(bytes.NewReader(data), ix, ingest.MergeOptions{})
		n := 0
		for e := m.Next(); e != nil; e = m.Next() {
			b.Add(e)
			if n++; preview && n%997 == 0 {
				p := b.Preview()
				if p.NumThreads() != 0 || len(p.HECs) == 0 {
					t.Fatalf("preview of %d events: %d threads, %d HECs", n, p.NumThreads(), len(p.HECs))
				}
				// Now and then a snapshot too (as a live view takes them).
				if n%(997*7) == 0 && digest(withoutThreads(b.Snapshot())) != digest(p) {
					t.Fatalf("preview of %d events differs from the snapshot's HECs", n)
				}
			}
		}
		b.Finish()
		return b.Snapshot()
	}
	want, got := build(false), build(true)
	if got.NumThreads() == 0 || got.NumThreads() != want.NumThreads() || digest(got) != digest(want) {
		t.Fatalf("snapshot after previews: %d threads, want %d (or the tracks differ)", got.NumThreads(), want.NumThreads())
	}
}

// withoutThreads returns a copy of m without its threads.
func withoutThreads(m *Model) *Model {
	c := *m
	c.threads = threadTable{}
	return &c
}

// TestImpossibleIdsCostNothing: a block marker rewritten to capability 4095
// and a thread id rewritten to 4,194,303 in a real log cost what the
// capabilities and threads that occur cost, not their numbers.
func TestImpossibleIdsCostNothing(t *testing.T) {
	data, err := os.ReadFile(overviewLogs[0])
	if err != nil {
		t.Fatal(err)
	}
	ix, err := ingest.NewIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), data...)
	for _, p := range ix.Pieces {
		if p.Block && p.Cap == 1 {
			bad[p.Offset+22], bad[p.Offset+23] = 0x0f, 0xff
			break
		}
	}
	rd := ingest.NewReader(bytes.NewReader(bad))
	var ev ingest.Event
	rewrote := false
	for rd.Next(&ev) {
		if ev.Kind == ingest.KindCreateThread && ev.Thread() > 3 && !rewrote {
			binary.BigEndian.PutUint32(bad[ev.Offset+10:], 4194303)
			rewrote = true
		}
	}
	b := NewOverviewBuilder(Grid{})
	rd = ingest.NewReader(bytes.NewReader(bad))
	for rd.Next(&ev) {
		b.Add(&ev)
	}
	m := b.Snapshot()
	if len(m.HECs) > capSlack || len(b.hecs) > capSlack {
		t.Errorf("%d HECs for a log of 2 capabilities and a corrupt block", len(m.HECs))
	}
	if n := len(b.threadDense.pages) * idPageSize; n > 1<<16 {
		t.Errorf("the thread table has %d entries for %d threads", n, m.NumThreads())
	}
	if !rewrote || m.ThreadIndex(4194303) < 0 {
		t.Errorf("the rewritten thread is not in the model")
	}
}

// TestPreviewStopsWhereACapabilityHasGot: while a parallel load goes on, a
// capability's track in a preview ends where that capability's reading
// has got (its last publication), not at the time the load as a whole
// has reached: a capability that lags is not drawn running all the way.
// Once finished, every track of a complete log lasts until the run's end
// (of a cut one, until its capability's last event: EndCapabilities).
func TestPreviewStopsWhereACapabilityHasGot(t *testing.T) {
	b := NewOverviewBuilder(Grid{})
	hs := b.Parallel([]int32{0, 1})
	run := func(h *HECBuilder, tm uint64, th uint32) {
		e := ingest.Event{Time: tm, Kind: ingest.KindRunThread, Args: [9]uint64{uint64(th)}}
		h.Add(&e)
	}
	run(hs[0], 100, 1)
	hs[0].Publish(200, false) // capability 0 has been read up to 200
	run(hs[1], 100, 2)
	hs[1].Publish(900, false) // capability 1 up to 900
	b.SetExtent(2, 100, 900)
	p := b.Preview()
	if got := p.HECs[0].Track.End(); got != 200 {
		t.Errorf("capability 0's track in a preview ends at %d, want 200 (where its reading got)", got)
	}
	if got := p.HECs[1].Track.End(); got != 900 {
		t.Errorf("capability 1's track in a preview ends at %d, want 900", got)
	}
	hs[0].Publish(0, true)
	hs[1].Publish(0, true)
	b.Finish()
	m := b.Snapshot()
	for c := range m.HECs {
		if got := m.HECs[c].Track.End(); got != 900 {
			t.Errorf("capability %d's finished track ends at %d, want the run's end 900", c, got)
		}
	}
}

// TestFarCapabilityKeepsItsEvents: parwork-N2 with its first block of
// capability 0 rewritten to claim capability 4095. The block's events are
// on a HEC 4095 (before they were dropped: HEC 0 drawn empty and no 4095
// anywhere), with the HECs in order of number, and the cost follows the
// three capabilities that occur.
func TestFarCapabilityKeepsItsEvents(t *testing.T) {
	data, err := os.ReadFile(overviewLogs[0])
	if err != nil {
		t.Fatal(err)
	}
	path, _ := testlog.CapRewritten(t, overviewLogs[0], 4095)
	bad, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	model := func(log []byte) (*Model, *Builder) {
		b := NewOverviewBuilder(Grid{})
		rd := ingest.NewReader(bytes.NewReader(log))
		var ev ingest.Event
		for rd.Next(&ev) {
			b.Add(&ev)
		}
		b.Finish()
		return b.Snapshot(), b
	}
	orig, _ := model(data)
	m, b := model(bad)
	var caps []int32
	for i := range m.HECs {
		caps = append(caps, m.HECs[i].Cap)
	}
	if !slices.Equal(caps, []int32{0, 1, 4095}) {
		t.Fatalf("HECs %v, want 0, 1, 4095", caps)
	}
	far := m.HEC(4095)
	if far == nil || far.Track.Len() == 0 || far.Track.Len() != orig.HECs[0].Track.Len() || far.NumInstants() != orig.HECs[0].NumInstants() {
		t.Errorf("HEC 4095 has %v; HEC 0 of the original log %d marks, %d instants", far, orig.HECs[0].Track.Len(), orig.HECs[0].NumInstants())
	}
	if m.HECs[0].Used() || m.HEC(0).Track.Len() > 1 {
		t.Errorf("HEC 0, which has no block left, has %d marks", m.HEC(0).Track.Len())
	}
	if m.HECIndex(4095) != 2 || m.HECIndex(2) != -1 || m.HECIndex(-1) != -1 {
		t.Errorf("HECIndex: 4095 at %d, 2 at %d, -1 at %d", m.HECIndex(4095), m.HECIndex(2), m.HECIndex(-1))
	}
	if len(b.hecs) > capSlack {
		t.Errorf("%d HECs held for 3 capabilities", len(b.hecs))
	}
}

// TestFarCapabilityCreatedMakesNoTracksBetween: a CAP_CREATE naming
// capability 4095 in a log of two (a corrupt number) does not make the
// 4,093 tracks in between: a render took 554 MB instead of 25 MB and drew
// 4,097 activity tracks.
func TestFarCapabilityCreatedMakesNoTracksBetween(t *testing.T) {
	data, err := os.ReadFile(overviewLogs[0])
	if err != nil {
		t.Fatal(err)
	}
	rd := ingest.NewReader(bytes.NewReader(data))
	var ev ingest.Event
	at := int64(-1)
	for rd.Next(&ev) {
		if ev.Kind == ingest.KindCapCreate {
			at = ev.Offset
			break
		}
	}
	if at < 0 {
		t.Fatal("no CAP_CREATE in the log")
	}
	// The event: type (2), time (8), capability (2).
	binary.BigEndian.PutUint16(data[at+10:], 4095)
	b := NewOverviewBuilder(Grid{})
	rd = ingest.NewReader(bytes.NewReader(data))
	for rd.Next(&ev) {
		b.Add(&ev)
	}
	b.Finish()
	m := b.Snapshot()
	var caps []int32
	for i := range m.HECs {
		caps = append(caps, m.HECs[i].Cap)
	}
	if len(caps) > 3 {
		t.Fatalf("%d HEC tracks (%v …), want the log's two and at most the far one", len(caps), caps[:3])
	}
	if !slices.Contains(caps, 0) || !slices.Contains(caps, 1) {
		t.Errorf("HECs %v, want 0 and 1 among them", caps)
	}
}

// TestMarkListResetEmpties: a mark list that built a track, summarised
// buckets, checkpoints and a bucket still open among it, is once reset as
// a new one but for the storage it keeps.
func TestMarkListResetEmpties(t *testing.T) {
	g := Grid{Shift: 4}
	var l markList
	for i := range 100 {
		// Sixteen changes a bucket, then one every other bucket.
		at := uint64(i)
		if i >= 64 {
			at = 64 + uint64(i-64)*32
		}
		l.add(g, Mark{Time: at, State: State(i%3) + 1, Arg: uint32(i), Reason: uint8(i % 5), woken: i%2 == 0})
	}
	l.track(2000)
	if l.sums.len() == 0 || l.cps.len() == 0 || !l.open || !l.hasOwed && l.npend == 0 {
		t.Fatalf("the list has %d stretches, %d checkpoints, open %v: the test proves nothing", l.sums.len(), l.cps.len(), l.open)
	}
	l.reset()
	if l.marks.len() != 0 || l.sums.len() != 0 || l.cps.len() != 0 {
		t.Fatalf("reset list holds %d marks, %d stretches, %d checkpoints", l.marks.len(), l.sums.len(), l.cps.len())
	}
	got := l
	got.marks, got.sums, got.cps, got.pend = chunkList[Mark]{}, stretchList{}, checkpointList{}, [collapseAt]Mark{}
	if !reflect.DeepEqual(got, markList{}) {
		t.Fatalf("reset list: %+v", got)
	}
}
