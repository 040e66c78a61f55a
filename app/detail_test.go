package app

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/timeline"
	"github.com/hecscope/hecscope/tracks"
)

// parworkView loads parwork-N2 with opt, as a window loads a file, into a
// file window's view, under a test app; the log is closed when the test
// ends.
func parworkView(t *testing.T, opt eventlog.Options) (*eventlogView, *eventlog.Log) {
	t.Helper()
	test.NewTempApp(t)
	ev, err := loaded.LoadEventlog(context.Background(), "../testdata/ghc-9.0.2/parwork-N2.eventlog", opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ev.Log.Close() })
	return newEventlogView(ev), ev.Log
}

// TestFileViewZoomsIntoDetail: zoomed in past the buckets of a big log's
// overview, the file window draws the range decoded from the file, not
// the overview's summarised stretches ("N changes … zoom in for detail"
// wherever the pointer goes). The window used to give its canvas the
// overview alone.
func TestFileViewZoomsIntoDetail(t *testing.T) {
	// An overview as a big log gets one: summarised per bucket.
	v, l := parworkView(t, eventlog.Options{ExactBelow: -1, Buckets: 16})
	if v.canvas == nil {
		t.Fatal("no canvas")
	}
	summarised := func(tv *tracks.View) (n int) {
		tv.Render()
		plot := tv.PlotRect()
		for y := plot.Min.Y; y < plot.Max.Y; y += 4 {
			for x := plot.Min.X; x < plot.Max.X; x += 8 {
				if tv.Hit(float64(x), float64(y)).Element == tracks.ElemSummary {
					n++
				}
			}
		}
		return n
	}
	w := l.Overview().Grid.Width()
	// Two buckets in the middle of the run, at 1400 pixels.
	from := l.Overview().End / 2 / w * w
	place := func(tv *tracks.View) {
		tv.SetSize(1400, 900, 1)
		tv.SetRange(from, from+2*w)
	}
	// What the overview alone shows there.
	ov := tracks.New(timeline.Exact(l.Overview()))
	place(ov)
	if n := summarised(ov); n == 0 {
		t.Fatal("the overview shows no summarised stretch there: the test proves nothing")
	}
	var after int
	v.canvas.With(func(tv *tracks.View) {
		place(tv)
		tv.Render() // asks for the detail
	})
	l.WaitDetail()
	v.canvas.With(func(tv *tracks.View) { after = summarised(tv) })
	if after != 0 {
		t.Errorf("zoomed in, %d points of the window still show the overview's summaries", after)
	}
}

// TestSelectionTabFilledWhenShown: the Selection tab is filled when first
// shown (filling it when the view is made cost the opening of a log a
// tenth of a second), and then shows the whole run's figures.
func TestSelectionTabFilledWhenShown(t *testing.T) {
	v, _ := parworkView(t, eventlog.Options{})
	if v.canvas == nil {
		t.Fatal("no canvas")
	}
	if len(v.selection.Objects) != 0 {
		t.Errorf("the Selection tab was filled before it was shown: %q", texts(v.selection))
	}
	v.tabs.Select(v.selTab)
	got := strings.Join(texts(v.selection), "\n")
	if !strings.Contains(got, "Whole run: ") || !strings.Contains(got, "Running %") {
		t.Errorf("the Selection tab shown holds %q; want the whole run's figures per HEC", got)
	}
}

// TestSelectionWrittenAlike: the status line and the Selection tab write a
// selection's ends alike; they said "10.2 ms – 26.1 ms" and "10.2 ms –
// 26.2 ms" for one selection (found by a helper).
func TestSelectionWrittenAlike(t *testing.T) {
	v, _ := parworkView(t, eventlog.Options{})
	// A selection is summarised again in the background (reading the file)
	// and put in from another goroutine: the test acts under ui, as Fyne's
	// loop would, and waits for each summary.
	summarised := make(chan struct{}, 1)
	v.onSelSummary = func() { summarised <- struct{}{} }
	ui(func() { v.tabs.Select(v.selTab) })
	for _, r := range [][2]uint64{{10_216_000, 26_149_000}, {1_234_567, 98_765_432}, {50_000_123, 50_004_567}} {
		ui(func() { v.canvas.SetSelection(r[0], r[1], true) })
		select {
		case <-summarised:
		case <-time.After(30 * time.Second):
			t.Fatal("the selection was not summarised within 30 s")
		}
		var status, title string
		ui(func() { status, title = v.status.Text, texts(v.selection)[0] })
		_, after, ok := strings.Cut(status, "selected ")
		ends, _, ok2 := strings.Cut(after, " (")
		if !ok || !ok2 {
			t.Fatalf("status line %q names no selection", status)
		}
		if !strings.Contains(title, ": "+ends+" (") {
			t.Errorf("selection %v: the status line says %q, the Selection tab %q", r, ends, title)
		}
	}
}

// TestSelectionFiguresAreTheRanges: with a range selected, the Selection
// tab's figures are the range's, as `hecscope summary --from --to` gives
// them (timeline.SummarizeRange): its GC time, the threads that ran in it;
// what is the run's (the file) says so, and the whole run's size and load
// time are gone. It said GC time 0 beside a HEC table with GC in it,
// Threads 1 where three ran, and the file's size.
func TestSelectionFiguresAreTheRanges(t *testing.T) {
	v, _ := parworkView(t, eventlog.Options{})
	summarised := make(chan struct{}, 1)
	v.onSelSummary = func() { summarised <- struct{}{} }
	ui(func() { v.tabs.Select(v.selTab) })
	const from, to = 30_000_000, 60_000_000
	ui(func() { v.canvas.SetSelection(from, to, true) })
	select {
	case <-summarised:
	case <-time.After(30 * time.Second):
		t.Fatal("the selection was not summarised within 30 s")
	}
	var got []string
	ui(func() { got = texts(v.selection) })
	want, err := loaded.SummarizeLogRange(v.log, from, to)
	if err != nil {
		t.Fatal(err)
	}
	gc, ok := want.GCTime()
	if !ok || gc == 0 || want.ThreadsRan == 0 {
		t.Fatalf("the range has GC time %d (%v) and %d threads that ran: the test proves nothing", gc, ok, want.ThreadsRan)
	}
	value := func(label string) string {
		v, _ := valueAfter(got, label)
		return v
	}
	if g := value("GC time (pauses)"); g != timeline.FormatDuration(gc) {
		t.Errorf("GC time %q, the range's %s", g, timeline.FormatDuration(gc))
	}
	if r := value("Threads ran"); !strings.HasPrefix(r, strconv.FormatUint(want.ThreadsRan, 10)) {
		t.Errorf("Threads ran %q, the range's %d", r, want.ThreadsRan)
	}
	if value("File (the run's)") == "" || value("Size") != "" || value("Loaded in") != "" {
		t.Errorf("the run's figures among the range's: %q", got)
	}
}
