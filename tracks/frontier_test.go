package tracks

import (
	"context"
	"encoding/binary"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// synthLog writes an eventlog of GHC 9.0.2's format (the header of a real
// 9.0.2 log, then events in blocks), remembering where each event ends and
// up to when each event shows its capability known, so that a test can
// tell what a reader of its first n bytes knows.
type synthLog struct {
	h     *ingest.Header
	b     []byte
	block int // offset of the open block's marker, -1 if none
	cap   int32
	// evs are the events written so far: where each ends, its capability
	// and the time up to which it shows that capability known.
	evs []synthEvent
}

type synthEvent struct {
	end   int
	cap   int32
	known uint64
}

// newSynthLog starts a log with the header of parwork-N2 (GHC 9.0.2).
func newSynthLog(t *testing.T) *synthLog {
	t.Helper()
	data, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	ix, err := ingest.NewIndex(strings.NewReader(string(data)), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return &synthLog{h: ix.Header, b: append([]byte(nil), data[:ix.Data]...), block: -1}
}

// ev writes an event of kind k at time tm with its fields: fixed-size
// fields as big-endian integers of the widths the kind's layout has, a
// variable one's text as data.
func (l *synthLog) ev(t *testing.T, k ingest.Kind, tm uint64, args ...uint64) {
	t.Helper()
	l.raw(t, k, tm, "", args...)
}

// msg writes a user message.
func (l *synthLog) msg(t *testing.T, tm uint64, text string) {
	t.Helper()
	l.raw(t, ingest.KindUserMsg, tm, text)
}

func (l *synthLog) raw(t *testing.T, k ingest.Kind, tm uint64, text string, args ...uint64) {
	t.Helper()
	et, ok := l.h.Lookup(uint16(k))
	if !ok {
		t.Fatalf("the header has no event type %d", k)
	}
	be := binary.BigEndian
	l.b = be.AppendUint16(l.b, uint16(k))
	l.b = be.AppendUint64(l.b, tm)
	if et.Size == ingest.VariableSize {
		l.b = be.AppendUint16(l.b, uint16(len(text)))
		l.b = append(l.b, text...)
	} else {
		widths := map[ingest.Kind][]int{ingest.KindCreateThread: {4}, ingest.KindRunThread: {4},
			ingest.KindStopThread: {4, 2, 4}, ingest.KindCapCreate: {2}}[k]
		if len(widths) != len(args) {
			t.Fatalf("event type %d: %d fields given, %d wanted", k, len(args), len(widths))
		}
		for i, w := range widths {
			switch w {
			case 2:
				l.b = be.AppendUint16(l.b, uint16(args[i]))
			case 4:
				l.b = be.AppendUint32(l.b, uint32(args[i]))
			}
		}
	}
	l.evs = append(l.evs, synthEvent{end: len(l.b), cap: l.cap, known: tm})
}

// blockOf opens a block of capability c (-1: none) starting at from and
// declaring its end at to; endBlock closes it.
func (l *synthLog) blockOf(c int32, from, to uint64) {
	be := binary.BigEndian
	l.block, l.cap = len(l.b), c
	l.b = be.AppendUint16(l.b, uint16(ingest.KindBlockMarker))
	l.b = be.AppendUint64(l.b, from)
	l.b = be.AppendUint32(l.b, 0) // the size, once the block is written
	l.b = be.AppendUint64(l.b, to)
	l.b = be.AppendUint16(l.b, uint16(c))
	// The marker is the capability's first event there.
	l.evs = append(l.evs, synthEvent{end: len(l.b), cap: c, known: from})
}

// endBlock writes the open block's size; a reader that has its last byte
// knows its capability up to the end its marker declares.
func (l *synthLog) endBlock() {
	binary.BigEndian.PutUint32(l.b[l.block+10:], uint32(len(l.b)-l.block))
	end := binary.BigEndian.Uint64(l.b[l.block+14:])
	l.evs[len(l.evs)-1].known = max(l.evs[len(l.evs)-1].known, end)
	l.block, l.cap = -1, ingest.NoCap
}

// knownUpTo returns, per capability, the time up to which a reader of the
// first n bytes has all its events (0: none).
func (l *synthLog) knownUpTo(n int) map[int32]uint64 {
	out := map[int32]uint64{}
	for _, e := range l.evs {
		if e.end <= n && e.cap != ingest.NoCap {
			out[e.cap] = max(out[e.cap], e.known)
		}
	}
	return out
}

// hecStateColours are the colours of the states a HEC row is drawn in.
func hecStateColours(th paint.Theme) map[color.RGBA]string {
	out := map[color.RGBA]string{}
	for _, s := range []timeline.State{timeline.StateRunning, timeline.StateGCSync, timeline.StateGCWork,
		timeline.StateGCIdle, timeline.StateGCDone} {
		out[th.Ink(hecInk(s))] = stateName(s)
	}
	return out
}

// checkUnknownRow checks the pixels of a HEC's row from time from to the
// plot's end: none in a state's colour, and some in the hatch's.
func checkUnknownRow(t *testing.T, what string, v *View, img *image.RGBA, id TrackID, from uint64) {
	t.Helper()
	r, ok := v.TrackRect(id)
	if !ok {
		t.Fatalf("%s: %v not in view", what, id)
	}
	a, b := v.Range()
	f := v.hitFrame(v.geometry(), a, b)
	x0 := int(f.ax.X(from)) + 2
	inks := hecStateColours(v.theme)
	hatch := 0
	for x := x0; x < v.PlotRect().Max.X; x++ {
		for y := r.Min.Y + 3; y < r.Max.Y-3; y++ {
			c := img.RGBAAt(x, y)
			if s, ok := inks[c]; ok {
				t.Fatalf("%s: %v drawn %s at x %d (%d ns), past its frontier at %d", what, id, s, x, f.ax.Time(float64(x)), from)
			}
			if c == v.theme.Unknown || c == v.theme.UnknownHatch {
				hatch++
			}
		}
	}
	if x0 < v.PlotRect().Max.X-4 && hatch == 0 {
		t.Errorf("%s: %v not hatched past its frontier at %d", what, id, from)
	}
}

// TestLiveFrontierNeverGuesses follows a stream as GHC 9.0 writes it, in
// 2 MiB blocks per capability flushed when full: HEC 0's block of the
// first 6 s comes first, HEC 1's block of its first 5 s (ending with HEC 1
// running a thread, and a span begun) after it, then HEC 0's up to 11 s,
// and HEC 1's last block 5 s of run time after HEC 0's. The file is read
// as it grows, a few bytes at a time, and at every snapshot no capability
// is known past what has been received (nor short of it by more than the
// overview's bucket being filled, whose marks are not shown yet: the end
// of a block read whole counts), HEC 1's columns past its frontier
// count as unknown (not in the last state, and not idle), the activity
// leaves HEC 1 out there, and the picture draws no state for HEC 1 there
// but the hatch; hovering it says "not received yet". Before the frontier
// the live picture drew HEC 1 running from 4.8 s to the latest event, and,
// before its first block, idle.
func TestLiveFrontierNeverGuesses(t *testing.T) {
	const s = uint64(1e9)
	l := newSynthLog(t)
	// runAcrossGC creates thread th at t0 and runs it, but for the GC
	// from 1 s to 1.02 s.
	runAcrossGC := func(t0 uint64, th uint64) {
		l.ev(t, ingest.KindCreateThread, t0, th)
		l.ev(t, ingest.KindRunThread, t0, th)
		l.ev(t, ingest.KindStopThread, s, th, 3, 0)
		l.ev(t, ingest.KindGCStart, s)
		l.ev(t, ingest.KindGCWork, s)
		l.ev(t, ingest.KindGCDone, s+s/100)
		l.ev(t, ingest.KindGCEnd, s+2*s/100)
		l.ev(t, ingest.KindRunThread, s+3*s/100, th)
	}
	l.blockOf(-1, 1000, 1000)
	l.ev(t, ingest.KindCapCreate, 1000, 0)
	l.ev(t, ingest.KindCapCreate, 1000, 1)
	l.endBlock()
	// HEC 0 up to 6 s: thread 1 runs, a GC at 1 s, another begins at 5.9 s
	// and HEC 0 waits in it for HEC 1.
	l.blockOf(0, s/100, 6*s)
	runAcrossGC(s/100, 1)
	l.ev(t, ingest.KindStopThread, 59*s/10, 1, 3, 0)
	l.ev(t, ingest.KindGCStart, 59*s/10)
	l.ev(t, ingest.KindGCWork, 59*s/10)
	l.ev(t, ingest.KindGCDone, 595*s/100)
	l.endBlock()
	// HEC 1 up to 5 s: thread 2 runs, and is running at the block's end;
	// a span "work" begins.
	l.blockOf(1, s/5, 5*s)
	runAcrossGC(s/5, 2)
	l.ev(t, ingest.KindStopThread, 47*s/10, 2, 3, 0)
	l.ev(t, ingest.KindRunThread, 48*s/10, 2)
	l.msg(t, 485*s/100, "START work")
	l.endBlock()
	// HEC 0 from 6 s to 11 s.
	l.blockOf(0, 6*s, 11*s)
	l.ev(t, ingest.KindGCEnd, 61*s/10)
	l.ev(t, ingest.KindRunThread, 62*s/10, 1)
	l.ev(t, ingest.KindStopThread, 109*s/10, 1, 3, 0)
	l.endBlock()
	// HEC 1 from 5 s to 11 s: 5 s after HEC 0's block of that time.
	l.blockOf(1, 5*s, 11*s)
	l.msg(t, 55*s/10, "STOP work")
	l.ev(t, ingest.KindStopThread, 59*s/10, 2, 3, 0)
	l.ev(t, ingest.KindGCStart, 59*s/10)
	l.ev(t, ingest.KindGCWork, 59*s/10)
	l.ev(t, ingest.KindGCDone, 605*s/100)
	l.ev(t, ingest.KindGCEnd, 61*s/10)
	l.ev(t, ingest.KindRunThread, 62*s/10, 2)
	l.ev(t, ingest.KindStopThread, 1095*s/100, 2, 5, 0)
	l.endBlock()
	l.b = binary.BigEndian.AppendUint16(l.b, 0xffff)

	path := filepath.Join(t.TempDir(), "live.eventlog")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	ctx := context.Background()
	var lg *eventlog.Log
	snapshots, behind := 0, 0
	const step = 23
	for n := step; n < len(l.b)+step; n += step {
		n = min(n, len(l.b))
		if _, err := out.WriteAt(l.b[n-min(step, n):n], int64(n-min(step, n))); err != nil {
			t.Fatal(err)
		}
		if lg == nil {
			if lg, err = eventlog.Follow(ctx, path, eventlog.Options{}); err != nil {
				lg = nil // not even the header yet
				continue
			}
			t.Cleanup(func() { lg.Close() })
		} else if _, err := lg.Poll(ctx); err != nil {
			t.Fatal(err)
		}
		m := lg.Overview()
		if m == nil || m.End <= m.Start || len(m.HECs) < 2 {
			continue
		}
		snapshots++
		known := l.knownUpTo(n)
		what := "after " + itoa(uint32(n)) + " bytes"
		for c := range m.HECs {
			// Known up to what was received, less at most the overview's
			// bucket still being filled (its marks are not shown yet).
			h := &m.HECs[c]
			if fr, k := h.Frontier(), known[h.Cap]; fr > max(k, m.Start) || fr+m.Grid.Width() < min(k, m.End) {
				t.Fatalf("%s: HEC %d known up to %d, received up to %d (buckets of %d)", what, h.Cap, fr, k, m.Grid.Width())
			}
		}
		if n < len(l.b) && !m.Growing {
			t.Fatalf("%s: the model of a stream still coming is not Growing", what)
		}
		k1 := known[1]
		if k1 >= m.End {
			continue
		}
		behind++
		// The columns and the activity past HEC 1's frontier.
		const cols = 400
		ax := timeline.NewAxis(m.Start, m.End, 0, cols)
		hc := m.HECs[1].Track.Columns(ax, cols, nil)
		act := m.Activity(ax, cols)
		for i := range hc {
			a, b := ax.ColumnTime(i), min(ax.ColumnTime(i+1), m.End)
			if a < k1 || b <= a {
				continue
			}
			if c := &hc[i]; c.Time.Total() != 0 || c.Unknown != b-a || !c.MostlyUnknown() {
				t.Fatalf("%s: HEC 1's column %d [%d, %d), past its frontier %d: %v, unknown %d", what, i, a, b, k1, c.Time, c.Unknown)
			}
			if u := act[i]; u.Unknown < b-a || u.Known > b-a || u.Running > u.Known {
				t.Fatalf("%s: activity of column %d [%d, %d), past HEC 1's frontier %d: %+v", what, i, a, b, k1, u)
			}
		}
		// The picture.
		v := New(lg)
		v.SetSize(1000, 600, 1)
		img := v.Render()
		if !hasHatchItem(v, "not received yet") {
			t.Fatalf("%s: the legend has no entry for the hatch: %v", what, v.legendItems())
		}
		checkUnknownRow(t, what, v, img, TrackID{KindHEC, 1}, k1)
		checkUnknownRow(t, what, v, img, TrackID{KindHECActivity, 1}, k1)
		r, _ := v.TrackRect(TrackID{KindHEC, 1})
		x := float64(v.PlotRect().Max.X - 3)
		h := v.Hit(x, float64(r.Min.Y+r.Dy()/2))
		if tip := strings.Join(h.Tip, " / "); h.Element != ElemUnknown || !strings.Contains(tip, "not received yet") ||
			(k1 > 0 && !strings.Contains(tip, "behind HEC 0")) {
			t.Fatalf("%s: HEC 1 past its frontier hit as %v %q", what, h.Element, tip)
		}
	}
	if snapshots < 20 || behind < 10 {
		t.Fatalf("%d snapshots checked, %d with HEC 1 behind", snapshots, behind)
	}
	// Once the end marker is in, every capability is known to the end.
	m := lg.Overview()
	if m.Growing || m.Partial() || m.NumOpenSpans() != 0 || m.NumUserSpans() != 1 {
		t.Errorf("the whole stream: growing %v, partial %v, %d open spans, %d spans", m.Growing, m.Partial(), m.NumOpenSpans(), m.NumUserSpans())
	}
}

// hasHatchItem reports whether the view's legend has the hatch's entry,
// called name.
func hasHatchItem(v *View, name string) bool {
	for _, it := range v.legendItems() {
		if it.hatch && it.name == name {
			return true
		}
	}
	return false
}

// cutParwork writes parwork-N2 cut at byte n to a temporary file and opens
// it.
func cutParwork(t *testing.T, n int) *eventlog.Log {
	t.Helper()
	data, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cut.eventlog")
	if err := os.WriteFile(path, data[:n], 0o644); err != nil {
		t.Fatal(err)
	}
	lg, err := eventlog.Open(context.Background(), path, eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lg.Close() })
	return lg
}

// TestCutLogDrawsItsFrontier: parwork-N2 cut at 100,000 bytes keeps all of
// HEC 0's block and HEC 1's events up to 25.3 ms of 113 ms. HEC 1's row
// and activity are hatched from there, with the frontier's mark, light and
// dark; its activity counts HEC 0 alone ("of 1 HEC with data", where it
// said "of 2 HECs" and drew HEC 1 as idle); hovering HEC 1 says the log
// ends there and how far behind HEC 0 it is; and the span phase-2 that
// HEC 1 began at 22.5 ms and the cut left without a STOP is drawn to HEC
// 1's frontier, marked open (it was not drawn at all).
func TestCutLogDrawsItsFrontier(t *testing.T) {
	lg := cutParwork(t, 100_000)
	m := lg.Overview()
	if !m.Cut || m.Growing || len(m.HECs) != 2 {
		t.Fatalf("cut %v, growing %v, %d HECs", m.Cut, m.Growing, len(m.HECs))
	}
	fr := m.HECs[1].Frontier()
	if fr+50_000_000 > m.End || m.HECs[0].Frontier() != m.End {
		t.Fatalf("frontiers %d and %d of %d: the cut does not stop HEC 1 early", m.HECs[0].Frontier(), fr, m.End)
	}
	const cols = 600
	ax := timeline.NewAxis(m.Start, m.End, 0, cols)
	for i, a := range m.Activity(ax, cols) {
		t0, t1 := ax.ColumnTime(i), min(ax.ColumnTime(i+1), m.End)
		if t0 < fr || t1 <= t0 {
			continue
		}
		if a.Known != t1-t0 || a.Unknown != t1-t0 {
			t.Fatalf("activity of [%d, %d), past HEC 1's frontier %d: %+v (HEC 0 alone known)", t0, t1, fr, a)
		}
	}
	for _, dark := range []bool{false, true} {
		v := New(timeline.Exact(m))
		v.SetDark(dark)
		v.SetSize(1200, 800, 1)
		img := v.Render()
		what := "light"
		if dark {
			what = "dark"
		}
		checkUnknownRow(t, what, v, img, TrackID{KindHEC, 1}, fr)
		checkUnknownRow(t, what, v, img, TrackID{KindHECActivity, 1}, fr)
		from, to := v.Range()
		f := v.hitFrame(v.geometry(), from, to)
		r, _ := v.TrackRect(TrackID{KindHEC, 1})
		if x := int(f.ax.X(fr)); img.RGBAAt(x, r.Min.Y+r.Dy()/2) != v.theme.Frontier {
			t.Errorf("%s: no frontier mark at x %d: %v", what, x, img.RGBAAt(x, r.Min.Y+r.Dy()/2))
		}
	}
	v := New(timeline.Exact(m))
	v.SetSize(1200, 800, 1)
	v.Render()
	from, to := v.Range()
	f := v.hitFrame(v.geometry(), from, to)
	xPast := f.ax.X(fr + (m.End-fr)/2)
	r, _ := v.TrackRect(TrackID{KindHEC, 1})
	h := v.Hit(xPast, float64(r.Min.Y+r.Dy()/2))
	if tip := strings.Join(h.Tip, " / "); h.Element != ElemUnknown || !strings.Contains(tip, "log ends here: no data from HEC 1 after 25.3") ||
		!strings.Contains(tip, "HEC 1: 87.6 ms behind HEC 0") {
		t.Errorf("HEC 1 past its frontier hit as %v %q", h.Element, tip)
	}
	r, _ = v.TrackRect(TrackID{KindActivity, 0})
	h = v.Hit(xPast, float64(r.Min.Y+r.Dy()/2))
	if tip := strings.Join(h.Tip, " / "); !strings.Contains(tip, "of 1 HEC with data running") || strings.Contains(tip, "of 2 HECs") {
		t.Errorf("activity past HEC 1's frontier: %q", tip)
	}

	if !hasHatchItem(v, "no data (log cut)") {
		t.Errorf("the legend has no entry for the hatch: %v", v.legendItems())
	}

	// The open span.
	var open timeline.UserSpan
	for i := 0; i < m.NumOpenSpans(); i++ {
		if sp := m.OpenSpan(i); m.String(sp.Label) == "phase-2" {
			open = sp
		}
	}
	if !open.Open || open.Cap != 1 || open.End != fr || open.Start >= fr {
		t.Fatalf("phase-2 left open by the cut: %+v, HEC 1's frontier %d", open, fr)
	}
	// It is drawn with its ragged end and hit as open in its label's
	// track and in its row of its thread's.
	for _, byLabel := range []bool{true, false} {
		v.SetSpansByLabel(byLabel)
		id := v.SpanTrack(open)
		r, ok := v.TrackRect(id)
		if !ok {
			t.Fatalf("by label %v: no phase-2 track %v", byLabel, id)
		}
		if !byLabel {
			u := v.userIndex()
			for i := 0; i < u.n; i++ {
				if userSpan(m, i) == open {
					r.Min.Y, r.Max.Y = userRow(u.depth(i, open), u.rows(id.ID), r.Min.Y, r.Max.Y)
				}
			}
		}
		img := v.Render()
		col := paint.BandColorFor("phase-2")
		mid := (open.Start + open.End) / 2
		if x := int(f.ax.X(mid)); img.RGBAAt(x, r.Min.Y+r.Dy()/2) != col {
			t.Errorf("by label %v: the open phase-2 span is not drawn at %d (x %d): %v", byLabel, mid, x, img.RGBAAt(x, r.Min.Y+r.Dy()/2))
		}
		// Its right end is ragged: the corner of its bar left empty.
		if x := int(f.ax.X(open.End)) - 1; img.RGBAAt(x, r.Min.Y+px(2, 1)) == col {
			t.Errorf("by label %v: the open span's end is square at x %d", byLabel, x)
		}
		h = v.Hit(f.ax.X(mid), float64(r.Min.Y+r.Dy()/2))
		if tip := strings.Join(h.Tip, " / "); h.Element != ElemUserSpan || h.To != fr || !strings.Contains(tip, "open: log cut before its STOP") {
			t.Errorf("by label %v: the open span hit as %v to %d: %q", byLabel, h.Element, h.To, tip)
		}
	}
}
