package tracks

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/internal/testlog"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// realModel builds the exact model of a log file.
func realModel(t *testing.T, path string) *timeline.Model {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b := timeline.NewOverviewBuilder(timeline.Grid{})
	if _, _, err := testlog.ReadAll(bytes.NewReader(data), func(ev *ingest.Event) error {
		b.Add(ev)
		return nil
	}); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	b.Finish()
	return b.Snapshot()
}

// TestHitRealLogHECsAndActivity draws a real two-HEC run, whole and zoomed
// in, at scales 1 and 2, and hits its HEC and activity tracks: a HEC span's
// hit names the state its pixel is drawn in and holds the pointer's time;
// a column of the activity graph is hit as the utilisation over that
// column's time, with some time in it; a START/STOP span is hit at its
// middle (what timeline's old HitTimeline and HitUserRows tests checked).
func TestHitRealLogHECsAndActivity(t *testing.T) {
	m := realModel(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if len(m.HECs) != 2 {
		t.Fatalf("HECs = %d, want 2", len(m.HECs))
	}
	mid := (m.Start + m.End) / 2
	for _, c := range []struct {
		scale    float64
		from, to uint64
	}{{1, m.Start, m.End}, {2, mid - 2_000_000, mid + 2_000_000}} {
		v := New(timeline.Exact(m))
		v.SetSize(int(1200*c.scale), int(700*c.scale), c.scale)
		v.SetRange(c.from, c.to)
		img := v.Render()
		spans, activity, crossed, users := 0, 0, 0, 0
		for hec := 0; hec < len(m.HECs); hec++ {
			id := TrackID{KindHEC, uint32(hec)}
			r, ok := v.TrackRect(id)
			if !ok {
				t.Fatalf("scale %v: HEC %d not in view", c.scale, hec)
			}
			y := r.Max.Y - px(3, c.scale) // below the instants' ticks
			for x := v.PlotRect().Min.X; x < v.PlotRect().Max.X; x += 3 {
				h := v.Hit(float64(x)+0.5, float64(y)+0.5)
				if h.Area != AreaPlot || h.Track != id || !h.HasTime {
					t.Fatalf("scale %v: hit at (%d, %d) on HEC %d: %+v", c.scale, x, y, hec, h)
				}
				if h.Element != ElemSpan {
					continue
				}
				if h.Time < h.From || h.Time >= h.To && h.To > h.From {
					t.Fatalf("scale %v HEC %d x %d: time %d outside span [%d, %d)", c.scale, hec, x, h.Time, h.From, h.To)
				}
				th := v.Theme()
				drawnInk := inkAt(th, img.RGBAAt(x, y))
				if drawnInk == paint.InkFinished && img.RGBAAt(x, y) != th.Ink(paint.InkFinished) {
					crossed++ // a line across the tracks (a user marker's) is drawn here
					continue
				}
				if want := spanInk(t, h); want != drawnInk && (drawn(want) || drawn(drawnInk)) {
					t.Fatalf("scale %v HEC %d x %d: drawn %s %v, hit says %q %d %d", c.scale, hec, x, drawnInk.Name(), img.RGBAAt(x, y), h.Tip, h.From, h.To)
				}
				spans++
			}
		}
		act := TrackID{KindActivity, 0}
		r, ok := v.TrackRect(act)
		if !ok {
			t.Fatalf("scale %v: no activity track", c.scale)
		}
		for x := v.PlotRect().Min.X; x < v.PlotRect().Max.X; x += 50 {
			h := v.Hit(float64(x)+0.5, float64(r.Min.Y+r.Max.Y)/2)
			if h.Track != act || h.Element != ElemActivity || h.From >= h.To || h.Time < h.From || h.Time > h.To {
				t.Fatalf("scale %v: activity hit at x %d: %+v", c.scale, x, h)
			}
			if len(h.Tip) < 2 || !strings.Contains(h.Tip[1], "HECs running") {
				t.Fatalf("scale %v: activity tip %q", c.scale, h.Tip)
			}
			activity++
		}
		// A START/STOP span a few pixels wide is hit as itself at its
		// middle, in its label's track.
		v.SetSpansByLabel(true)
		ax := v.Axis()
		for i := 0; i < m.NumUserSpans(); i++ {
			sp := m.UserSpan(i)
			if sp.Start < c.from || sp.End > c.to || ax.X(sp.End)-ax.X(sp.Start) < 4 {
				continue
			}
			id := TrackID{KindUserLabel, uint32(sp.Label)}
			if !v.Reveal(id) {
				t.Fatalf("scale %v: user track %q not shown", c.scale, m.String(sp.Label))
			}
			y := rowMid(t, v, id)
			h := v.Hit((ax.X(sp.Start)+ax.X(sp.End))/2, float64(y)+0.5)
			if h.Element != ElemUserSpan || h.From > h.Time || h.Time > h.To || len(h.Tip) == 0 || !strings.Contains(strings.Join(h.Tip, "|"), m.String(sp.Label)) {
				t.Fatalf("scale %v: hit at the middle of %q [%d, %d]: %+v", c.scale, m.String(sp.Label), sp.Start, sp.End, h)
			}
			users++
		}
		if c.scale == 1 && users == 0 {
			t.Error("no user span checked on the whole run")
		}
		if spans < 100 || activity == 0 || crossed > spans/20 {
			t.Errorf("scale %v: %d HEC spans (%d more under lines) and %d activity columns checked", c.scale, spans, crossed, activity)
		}
	}
}

// TestHitPastACutCapability: in a log cut short, where a capability's
// events stop early (timeline.Builder.EndCapabilities ends its track
// there), hovering its track past that point says the log ends there and
// how far behind the other capability it is; it described the last span,
// 16 ms away ("running thread 58 from 36.9 ms for 3.03 µs" at 53 ms).
func TestHitPastACutCapability(t *testing.T) {
	data, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	b := timeline.NewOverviewBuilder(timeline.Grid{})
	if _, _, err := testlog.ReadAll(bytes.NewReader(data[:120000]), func(ev *ingest.Event) error {
		b.Add(ev)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	b.EndCapabilities(b.Frontiers())
	b.Finish()
	m := b.Snapshot()
	end := m.HECs[1].Track.End()
	if end+10_000_000 > m.End {
		t.Fatalf("HEC 1 ends at %d of %d: the cut does not stop it early", end, m.End)
	}
	v := New(timeline.Exact(m))
	v.SetSize(1200, 700, 1)
	v.Render()
	id := TrackID{KindHEC, 1}
	r, ok := v.TrackRect(id)
	if !ok {
		t.Fatal("HEC 1 not in view")
	}
	past, before := 0, 0
	for x := v.PlotRect().Min.X; x < v.PlotRect().Max.X; x += 5 {
		h := v.Hit(float64(x)+0.5, float64(r.Max.Y-3)+0.5)
		if !h.HasTime {
			continue
		}
		tip := strings.Join(h.Tip, " / ")
		if h.Time >= end {
			past++
			if h.Element != ElemUnknown || !strings.Contains(tip, "log ends here: no data from HEC 1 after 36.9") || !strings.Contains(tip, "behind HEC 0") {
				t.Fatalf("at %d, past HEC 1's end at %d: %v %q", h.Time, end, h.Element, tip)
			}
		} else if h.Element != ElemNone && h.Element != ElemUnknown {
			before++
		}
	}
	if past == 0 || before == 0 {
		t.Errorf("hit %d points past HEC 1's end and %d spans before it", past, before)
	}
	// The activity graphs do not count HEC 1 as idle there: it said "1.00
	// of 2 HECs running (50%)" and, for HEC 1 alone, "0.00 of 1 HECs".
	for _, a := range []struct {
		id      TrackID
		want    string
		wantNot string
	}{
		{TrackID{KindActivity, 0}, "of 1 HEC with data running", "of 2 HECs"},
		{TrackID{KindHECActivity, 1}, "behind HEC 0 (log ends at 36.9", "running Haskell code"},
	} {
		r, ok := v.TrackRect(a.id)
		if !ok {
			t.Fatalf("%v not in view", a.id)
		}
		checked := 0
		for x := v.PlotRect().Min.X; x < v.PlotRect().Max.X; x += 5 {
			h := v.Hit(float64(x)+0.5, float64(r.Min.Y+r.Dy()/2)+0.5)
			if h.Element != ElemActivity || h.From < end {
				continue
			}
			checked++
			if tip := strings.Join(h.Tip, " / "); !strings.Contains(tip, a.want) || strings.Contains(tip, a.wantNot) {
				t.Fatalf("%v at %d, past HEC 1's end: %q", a.id, h.Time, tip)
			}
		}
		if checked == 0 {
			t.Errorf("%v: no activity hit past HEC 1's end", a.id)
		}
	}
}
