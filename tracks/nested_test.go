package tracks

import (
	"image"
	"math"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// nestedView returns a view, 1000 plot pixels for the run's 2000 ns, of a
// run whose thread 1 (on HEC 0) nests phase1 ⊃ phase1.step ⊃ phase1.inner,
// then a second phase1.step beside the first, and whose thread 2 (on
// HEC 1) has spans a and b that overlap without nesting, then c after a.
func nestedView(t *testing.T) *View {
	t.Helper()
	b := timeline.NewOverviewBuilder(timeline.Grid{})
	add := func(tm uint64, c int32, k ingest.Kind, arg uint64, text string) {
		e := ingest.Event{Time: tm, Cap: c, Kind: k, Data: []byte(text)}
		e.Args[0] = arg
		b.Add(&e)
	}
	add(0, 0, ingest.KindCreateThread, 1, "")
	add(0, 1, ingest.KindCreateThread, 2, "")
	add(0, 0, ingest.KindRunThread, 1, "")
	add(0, 1, ingest.KindRunThread, 2, "")
	for _, m := range []struct {
		t    uint64
		c    int32
		text string
	}{
		{100, 0, "START phase1"}, {100, 1, "START a"},
		{150, 0, "START phase1.step"},
		{200, 0, "START phase1.inner"},
		{300, 0, "STOP phase1.inner"}, {300, 1, "START b"},
		{400, 0, "STOP phase1.step"},
		{450, 0, "START phase1.step"},
		{500, 1, "STOP a"},
		{600, 0, "STOP phase1.step"},
		{700, 1, "STOP b"},
		{800, 1, "START c"},
		{850, 1, "STOP c"},
		{900, 0, "STOP phase1"},
	} {
		add(m.t, m.c, ingest.KindUserMsg, 0, m.text)
	}
	add(2000, 0, ingest.KindStopThread, 1, "")
	add(2000, 1, ingest.KindStopThread, 2, "")
	b.Finish()
	v := New(timeline.Exact(b.Snapshot()))
	v.SetSize(1000+px(headerWidth, 1)+px(scrollbarW, 1), 700, 1)
	if ax := v.Axis(); ax.Width != 1000 || ax.To != 2000 {
		t.Fatalf("axis %+v", ax)
	}
	return v
}

// TestSpansNestedByThread checks that each thread's spans are one track,
// a row per depth: nested spans a row below the span they are in,
// siblings on one row, spans that overlap without nesting on two; and
// that a hit in a row answers with that row's span.
func TestSpansNestedByThread(t *testing.T) {
	v := nestedView(t)
	want := []TrackID{{KindUserThread, 1}, {KindUserThread, 2}}
	if got := v.trackSet(GroupUser); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("user tracks %v, want %v", got, want)
	}
	for _, c := range []struct {
		id   TrackID
		rows int
	}{{want[0], 3}, {want[1], 2}} {
		r, ok := v.TrackRect(c.id)
		if !ok || r.Dy() != c.rows*userRowPt {
			t.Errorf("%v: rect %v, want %d rows of %d px", c.id, r, c.rows, userRowPt)
		}
	}
	ax := v.Axis()
	// at hits row k of track id at time tm.
	at := func(id TrackID, k int, tm uint64) Hit {
		r, _ := v.TrackRect(id)
		return v.Hit(ax.X(tm)+0.25, float64(r.Min.Y+k*userRowPt+userRowPt/2))
	}
	for _, c := range []struct {
		id       TrackID
		row      int
		tm       uint64
		label    string // "" for nothing there
		from, to uint64
		in       string // the tip's last line ends so: the span it is nested in
	}{
		{want[0], 0, 250, "phase1", 100, 900, ""},
		{want[0], 1, 250, "phase1.step", 150, 400, "in phase1"},
		{want[0], 2, 250, "phase1.inner", 200, 300, "in phase1.step"},
		{want[0], 2, 350, "", 0, 0, ""},
		{want[0], 1, 500, "phase1.step", 450, 600, "in phase1"},
		{want[0], 2, 500, "", 0, 0, ""},
		{want[1], 0, 400, "a", 100, 500, ""},
		{want[1], 1, 400, "b", 300, 700, "thread's spans"}, // overlaps a, not in it
		{want[1], 0, 820, "c", 800, 850, ""},
		{want[1], 1, 820, "", 0, 0, ""},
	} {
		h := at(c.id, c.row, c.tm)
		if c.label == "" {
			if h.Element != ElemNone {
				t.Errorf("thread %d row %d at %d: %+v, want nothing", c.id.ID, c.row, c.tm, h)
			}
			continue
		}
		if h.Element != ElemUserSpan || h.Tip[0] != c.label || h.From != c.from || h.To != c.to ||
			h.Depth != c.row || h.Thread != c.id.ID || h.Track != c.id {
			t.Errorf("thread %d row %d at %d: %+v, want %s [%d, %d] at depth %d", c.id.ID, c.row, c.tm, h, c.label, c.from, c.to, c.row)
		}
		if nested := strings.Contains(strings.Join(h.Tip, "|"), "nested "); nested != (c.row > 0) || !strings.HasSuffix(h.Tip[len(h.Tip)-1], c.in) {
			t.Errorf("thread %d row %d: tip %q, want it nested in %q", c.id.ID, c.row, h.Tip, c.in)
		}
	}
	// Each row is drawn in its span's label's colour (one pixel in from
	// the span's left edge, before its name).
	img := v.Render()
	for _, c := range []struct {
		row   int
		tm    uint64
		label string
	}{{0, 100, "phase1"}, {1, 150, "phase1.step"}, {2, 200, "phase1.inner"}} {
		r, _ := v.TrackRect(want[0])
		x := int(math.Floor(ax.X(c.tm))) + 1
		if got := img.RGBAAt(x, r.Min.Y+c.row*userRowPt+userRowPt/2); got != paint.BandColorFor(c.label) {
			t.Errorf("row %d at %d ns: %v, want %s's %v", c.row, c.tm, got, c.label, paint.BandColorFor(c.label))
		}
	}
}

// TestSpansByLabel checks the other way to show spans: a track per label,
// one row high, hit as before.
func TestSpansByLabel(t *testing.T) {
	v := nestedView(t)
	v.SetSpansByLabel(true)
	ids := v.trackSet(GroupUser)
	var names []string
	for _, id := range ids {
		if id.Kind != KindUserLabel {
			t.Fatalf("track %v by label", id)
		}
		names = append(names, v.Name(id))
	}
	if got := strings.Join(names, " "); got != "phase1 a phase1.step phase1.inner b c" {
		t.Fatalf("label tracks %q", got)
	}
	step := TrackID{KindUserLabel, uint32(labelOf(t, v, "phase1.step"))}
	r, ok := v.TrackRect(step)
	if !ok || r.Dy() != userRowPt {
		t.Fatalf("phase1.step's track %v", r)
	}
	h := v.Hit(v.Axis().X(500)+0.25, float64(r.Min.Y+r.Dy()/2))
	if h.Element != ElemUserSpan || h.From != 450 || h.To != 600 || h.Thread != 1 || h.Depth != 1 {
		t.Errorf("hit in phase1.step's track: %+v", h)
	}
	v.SetSpansByLabel(false)
	if _, ok := v.TrackRect(step); ok {
		t.Error("label track still shown by thread")
	}
}

// TestSpansSwitch checks the switch on the User events title: a click
// on it is PartSpans, and it names the way the spans are shown.
func TestSpansSwitch(t *testing.T) {
	v := nestedView(t)
	l := v.ensureLayout()
	var title row
	for _, r := range l.rows {
		if r.title && r.group == GroupUser {
			title = r
		}
	}
	g := v.geometry()
	f := v.hitFrame(g, 0, 2000)
	y0 := g.tracks.Min.Y + title.y - v.scrollY
	sw := f.spansPart(y0, y0+title.h)
	if sw.Empty() {
		t.Fatal("no switch on the User events title")
	}
	mid := image.Pt((sw.Min.X+sw.Max.X)/2, (sw.Min.Y+sw.Max.Y)/2)
	h := v.Hit(float64(mid.X), float64(mid.Y))
	if h.Part != PartSpans || h.Group != GroupUser || !strings.Contains(h.Tip[0], "by thread") {
		t.Errorf("hit on the switch: %+v", h)
	}
	if h := v.Hit(float64(g.header.Min.X+px(30, 1)), float64(mid.Y)); h.Part != PartToggle {
		t.Errorf("hit on the title's name: %+v", h)
	}
}
