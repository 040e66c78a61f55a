package tracks

import (
	"bytes"
	"os"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/internal/testlog"
	"github.com/hecscope/hecscope/timeline"
)

// TestWokenByMatchesTheEvents: on a real run, what WokenBy says woke each
// thread agrees with the raw events — the ThreadWakeup of that thread at
// that time was on that HEC, and the thread that HEC last started running
// (and had not stopped) is the waker. The link is then drawn between the
// two tracks at the wakeup's time.
func TestWokenByMatchesTheEvents(t *testing.T) {
	data, err := os.ReadFile("../testdata/ghc-9.0.2/parwork-N2.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	b := timeline.NewOverviewBuilder(timeline.Grid{})
	type wake struct {
		time   uint64
		thread uint32
	}
	wakers := map[wake]struct {
		cap int32
		by  uint32
	}{}
	running := map[int32]uint32{}
	if _, _, err := testlog.ReadAll(bytes.NewReader(data), func(ev *ingest.Event) error {
		b.Add(ev)
		switch ev.Kind {
		case ingest.KindRunThread:
			running[ev.Cap] = ev.Thread()
		case ingest.KindStopThread:
			running[ev.Cap] = 0
		case ingest.KindThreadWakeup:
			wakers[wake{ev.Time, ev.Thread()}] = struct {
				cap int32
				by  uint32
			}{ev.Cap, running[ev.Cap]}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	b.Finish()
	m := b.Snapshot()

	checked, byThread := 0, 0
	var link Wakeup
	for i := range m.NumThreads() {
		th := new(m.Thread(i))
		for j := 0; j < th.Track.Len(); j++ {
			mk := th.Track.Mark(j)
			if mk.State != timeline.StateRunnable {
				continue
			}
			w, ok := WokenBy(m, th.ID, mk.Time+1)
			want, woken := wakers[wake{mk.Time, th.ID}]
			if !ok {
				if woken {
					t.Fatalf("thread %d runnable at %d: a ThreadWakeup on cap %d, but WokenBy found none", th.ID, mk.Time, want.cap)
				}
				continue
			}
			if w.Created {
				continue
			}
			if !woken || int32(w.HEC) != want.cap || w.By != want.by || w.Time != mk.Time {
				t.Fatalf("thread %d runnable at %d: WokenBy says %+v, the events say cap %d, thread %d (%v)", th.ID, mk.Time, w, want.cap, want.by, woken)
			}
			checked++
			if w.By != 0 && w.By != th.ID {
				byThread++
				link = w
			}
		}
	}
	t.Logf("%d wakeups checked against the events, %d by a thread", checked, byThread)
	if checked < 20 || byThread < 5 {
		t.Fatalf("only %d wakeups checked (%d by a thread)", checked, byThread)
	}
	if got := link.Text(m); got == "" || !bytes.Contains([]byte(got), []byte("woken by thread")) {
		t.Errorf("text %q", got)
	}

	// Drawn: around the wakeup, so that both tracks are laid out.
	v := New(timeline.Exact(m))
	v.SetSize(1600, 4000, 1)
	v.SetRange(link.Time-50_000, link.Time+50_000)
	plain := v.Render()
	if _, ok := v.ShowWakeup(Hit{Track: TrackID{Kind: KindThread, ID: link.Thread}, Element: ElemSpan, Time: link.Time + 1}); !ok {
		t.Fatal("ShowWakeup found nothing")
	}
	linked := v.Render()
	x := int(v.X(link.Time))
	src, dst := rowMid(t, v, TrackID{Kind: KindThread, ID: link.By}), rowMid(t, v, TrackID{Kind: KindThread, ID: link.Thread})
	lo, hi := min(src, dst), max(src, dst)
	changed := 0
	for y := lo + 8; y < hi-8; y++ {
		if plain.RGBAAt(x, y) != linked.RGBAAt(x, y) || plain.RGBAAt(x+1, y) != linked.RGBAAt(x+1, y) {
			changed++
		}
	}
	if changed < (hi-lo-16)/2 {
		t.Errorf("the link changed %d of the %d pixels between the tracks at x=%d", changed, hi-lo-16, x)
	}
	if _, ok := v.ShowWakeup(Hit{}); ok || v.Wakeup() != nil {
		t.Error("a click elsewhere kept the link")
	}
}
