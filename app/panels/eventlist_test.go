package panels

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"github.com/hecscope/hecscope/app/internal/apptest"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/tracks"
)

var (
	parworkN2  = apptest.Log("parwork-N2")
	showEvents = apptest.ShowEvents
)

// eventsOn returns the Events tab of the log at path linked to a track
// canvas of it, as a file window links them, both in a test window; and
// the log.
func eventsOn(t *testing.T, path string) (*EventList, *trackcanvas.Canvas, *loaded.Eventlog) {
	t.Helper()
	test.NewApp()
	ev, err := loaded.LoadEventlog(context.Background(), path, eventlog.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ev.Log.Close() })
	c := trackcanvas.New(ev.Log, ev.Heap, ev.Profile)
	l := NewEventList(ev.List, ev.Log.Header, ev.Summary.BlockMarkers, c)
	c.OnView = l.ViewChanged
	w := test.NewWindow(container.NewVSplit(c, l.Root))
	t.Cleanup(w.Close)
	w.Resize(fyne.NewSize(1200, 800))
	return l, c, ev
}

func TestEventListRowsAreTheShowTextInTimeOrder(t *testing.T) {
	l, _, ev := eventsOn(t, parworkN2)
	want, h := showEvents(t, parworkN2)
	// Block markers are rows too, as ghc-events show prints them.
	if l.list.Length() != len(want) || int64(len(want)) != ev.Events {
		t.Fatalf("list has %d rows, want %d events (load counted %d)", l.list.Length(), len(want), ev.Events)
	}
	global, cap1 := -1, -1 // the first rows of the global block marker and of cap 1
	for i := range want {
		if global < 0 && want[i].Kind == ingest.KindBlockMarker && want[i].Cap == ingest.NoCap {
			global = i
		}
		if cap1 < 0 && want[i].Kind != ingest.KindBlockMarker && want[i].Cap == 1 {
			cap1 = i
		}
	}
	if global < 0 || cap1 < 0 {
		t.Fatalf("no global block marker (%d) or event of cap 1 (%d)", global, cap1)
	}
	for _, i := range []int{1, 2, 100, cap1, len(want) / 2, len(want) - 2, len(want) - 1} {
		tm, hec, text := l.rowTexts(i)
		wantText := string(ingest.AppendEventText(nil, h, &want[i]))
		if text != wantText && want[i].Kind != ingest.KindBlockMarker {
			t.Errorf("row %d: %q, want %q", i, text, wantText)
		}
		if got := l.rowTime(i); got != want[i].Time {
			t.Errorf("row %d: time %d, want %d", i, got, want[i].Time)
		}
		// The time as the axis writes it (to the ns), the capability as
		// "cap N".
		wantCap := "cap " + strconv.Itoa(int(want[i].Cap))
		if want[i].Cap == ingest.NoCap {
			wantCap = "—"
		}
		if tm != paint.Time(want[i].Time, 1) || hec != wantCap {
			t.Errorf("row %d at %d ns on cap %d: time %q, %q", i, want[i].Time, want[i].Cap, tm, hec)
		}
	}
	// The RTS's global block: no capability, written "—" (not "cap
	// 65535"), its end time as the axis writes times.
	tm, hec, text := l.rowTexts(global)
	wantText := "event block: cap —, end time: " + paint.Time(want[global].Args[1], 1)
	if hec != "—" || text != wantText || tm != paint.Time(want[global].Time, 1) {
		t.Errorf("global block marker: %q %q %q, want — and %q", tm, hec, text, wantText)
	}
	// The search finds what the rows show.
	hits, _, _, err := findEvents(l.x, h, &eventQuery{text: []byte("cap —")}, nil, nil)
	if err != nil || len(hits) == 0 || hits[0] != int64(global) {
		t.Errorf("searching %q: %v, %v; the global block marker is row %d", "cap —", hits[:min(len(hits), 3)], err, global)
	}
	// Every row, with its capability, in order.
	for i := range want {
		ev, err := l.x.Get(int64(i))
		if err != nil {
			t.Fatal(err)
		}
		if ev.Time != want[i].Time || ev.Cap != want[i].Cap || ev.Offset != want[i].Offset {
			t.Fatalf("row %d: time %d cap %d offset %d, want %d %d %d", i, ev.Time, ev.Cap, ev.Offset, want[i].Time, want[i].Cap, want[i].Offset)
		}
	}
}

func TestEventListFollowsAndMovesTheTimeline(t *testing.T) {
	l, c, ev := eventsOn(t, parworkN2)
	end := ev.Model.End
	c.ShowRange(end/2, end/2+end/10)
	from, to := c.View()
	first := l.rowAt(from)
	if first == 0 || l.rowTime(first) < from || l.rowTime(first-1) >= from {
		t.Fatalf("Search(%d) = row %d", from, first)
	}
	// Shown, the list follows the view: moving it later scrolls the list
	// further down.
	at0 := l.list.GetScrollOffset()
	if at0 <= 0 {
		t.Fatalf("list at offset %v with the view at row %d", at0, first)
	}
	c.ShowRange(end/2+end/5, end/2+end/5+end/10)
	if at1 := l.list.GetScrollOffset(); at1 <= at0 {
		t.Errorf("view moved later but the list went from offset %v to %v", at0, at1)
	}
	// Selecting a row centres the view on it and keeps the zoom.
	from, to = c.View()
	row := l.rows() / 5
	l.list.Select(row)
	f2, t2 := c.View()
	tm := l.rowTime(row)
	if t2-f2 != to-from || (f2+t2)/2 > tm+1 || (f2+t2)/2+1 < tm {
		t.Errorf("after selecting row %d at %d, view %d–%d (width %d, was %d)", row, tm, f2, t2, t2-f2, to-from)
	}
}

// findViaBar types a query into the search bar, presses Enter and runs
// the search's UI callbacks on the test goroutine (as Fyne's loop would)
// until it has finished.
func findViaBar(t *testing.T, s *eventSearch, thread string) {
	t.Helper()
	calls := make(chan func(), 64)
	s.do = func(f func()) { calls <- f }
	done := false
	s.onDone = func() { done = true }
	s.thread.SetText(thread)
	test.Type(s.text, "running")
	s.text.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	for !done {
		select {
		case f := <-calls:
			f()
		case <-time.After(20 * time.Second):
			t.Fatal("search did not finish")
		}
	}
}

func TestEventSearchFindsAThreadsEventsInOrder(t *testing.T) {
	l, c, _ := eventsOn(t, parworkN2)
	want, h := showEvents(t, parworkN2)
	var rows []int64
	for i := range want {
		if th, ok := threadOf(&want[i]); ok && th == 5 && want[i].Kind == ingest.KindRunThread {
			rows = append(rows, int64(i))
		}
	}
	if len(rows) < 10 {
		t.Fatalf("only %d runs of thread 5", len(rows))
	}
	s := l.search
	c.TypedRune('0') // fits the whole run
	findViaBar(t, s, "5")
	if !slices.Equal(s.hits, rows) {
		t.Fatalf("%d hits, want %d (first %v, want %v)", len(s.hits), len(rows), s.hits[:min(3, len(s.hits))], rows[:3])
	}
	// Next walks the hits in order; each moves the timeline onto it.
	for k := 1; k < 4; k++ {
		s.step(true)
		if l.selected != int(rows[k]) {
			t.Fatalf("Next %d selected row %d, want %d", k, l.selected, rows[k])
		}
		from, to := c.View()
		if tm := want[rows[k]].Time; tm < from || tm > to {
			t.Errorf("hit at %d outside the view %d–%d", tm, from, to)
		}
		if got := string(ingest.AppendEventText(nil, h, &want[rows[k]])); got != "running thread 5" {
			t.Errorf("hit %d is %q", k, got)
		}
		if s.status.Text != strconv.Itoa(k+1)+" of "+strconv.Itoa(len(rows))+" hits" {
			t.Errorf("status %q", s.status.Text)
		}
	}
	s.step(false)
	if l.selected != int(rows[2]) {
		t.Errorf("Previous selected row %d, want %d", l.selected, rows[2])
	}
}

func TestEventListWindowMovesAlongTheIndex(t *testing.T) {
	l, _, ev := eventsOn(t, parworkN2)
	want, h := showEvents(t, parworkN2)
	if len(want) < 5000 {
		t.Fatalf("only %d events", len(want))
	}
	l.window = 1000
	l.showPages()
	// The count is the Summary tab's, block markers named: the list shows
	// them (as ghc-events' show does), the Summary's Events leaves them out.
	s := &ev.Summary
	if s.ListedEvents() != uint64(len(want)) || s.BlockMarkers != 3 {
		t.Fatalf("summary: %d events and %d block markers; the list has %d", s.Events, s.BlockMarkers, len(want))
	}
	if l.list.Length() != 1000 || l.pages.Text != "rows 1–1,000 of 14,392 events (3 block markers)" {
		t.Fatalf("window of %d rows, %q", l.list.Length(), l.pages.Text)
	}
	// Selecting a row beyond the window moves the window onto it.
	l.selectRow(4321)
	if l.base > 4321 || l.base+l.window <= 4321 || l.selected != 4321 {
		t.Fatalf("row 4321 selected: window at %d, selected %d", l.base, l.selected)
	}
	o := l.list.CreateItem()
	l.updateRow(4321-l.base, o)
	shown := texts(o)
	wantText := string(ingest.AppendEventText(nil, h, &want[4321]))
	if !slices.Contains(shown, wantText) || !slices.Contains(shown, paint.Time(want[4321].Time, 1)) {
		t.Errorf("row 4321 shows %q, want time %d and %q", shown, want[4321].Time, wantText)
	}
	// Following the timeline to the start moves it back.
	l.ViewChanged(0, 1)
	if l.base != 0 {
		t.Errorf("view at the start: window at %d", l.base)
	}
	l.later.OnTapped()
	if l.base != 500 {
		t.Errorf("Later rows: window at %d", l.base)
	}
}

// TestEventListMatchesShowOnOldLogs decodes every row of logs whose
// headers need the decoder's quirks (GHC 6.12's wrong sizes, 7.8.2's stop
// statuses, pre-7.7 stops) and of a GHC 9.2 log, against the show order.
func TestEventListMatchesShowOnOldLogs(t *testing.T) {
	for _, name := range []string{
		"ghc-events-history__queens-ghc-6.12.1.eventlog",
		"ghc-events-history__warshall0-trace-7.8.2_8.eventlog",
		"ghc-events-history__pre77stop.eventlog",
		"ghc-events__ghc-9.2-events.eventlog",
	} {
		path := corpus + name
		ev, err := loaded.LoadEventlog(context.Background(), path, eventlog.Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ev.List == nil {
			t.Fatalf("%s: no event list", name)
		}
		want, h := showEvents(t, path)
		x := ev.List
		if x.Len() != int64(len(want)) {
			t.Fatalf("%s: %d rows, want %d", name, x.Len(), len(want))
		}
		i := 0
		err = x.Scan(0, true, func(_ int64, got *ingest.Event) bool {
			g := string(ingest.AppendEventText(nil, ev.Log.Header, got))
			w := string(ingest.AppendEventText(nil, h, &want[i]))
			if g != w || got.Time != want[i].Time || got.Cap != want[i].Cap {
				t.Fatalf("%s row %d: %d cap %d %q, want %d cap %d %q", name, i, got.Time, got.Cap, g, want[i].Time, want[i].Cap, w)
			}
			i++
			return true
		})
		if err != nil || i != len(want) {
			t.Fatalf("%s: scanned %d rows of %d: %v", name, i, len(want), err)
		}
		ev.Log.Close()
	}
}

func TestEventListSurvivesTheFileCutShort(t *testing.T) {
	data, err := os.ReadFile(parworkN2)
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/cut.eventlog"
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err := loaded.LoadEventlog(context.Background(), path, eventlog.Options{}, nil)
	if err != nil || ev.List == nil {
		t.Fatalf("%v, list %v", err, ev != nil && ev.List != nil)
	}
	defer ev.Log.Close()
	x := ev.List
	q := &eventQuery{text: []byte("thread")}
	last := x.Len() - 1
	// The program rewrites its eventlog: what lay past the new end is gone.
	if err := os.Truncate(path, 100); err != nil {
		t.Fatal(err)
	}
	if _, err := x.Get(last); err == nil {
		t.Errorf("row %d decoded from a file cut to 100 bytes", last)
	}
	if _, err := x.Search(1 << 40); err == nil {
		t.Log("Search past the end needs no read")
	}
	hits, _, ok, err := findEvents(x, ev.Log.Header, q, nil, nil)
	if !ok || err == nil || len(hits) > 0 {
		t.Errorf("search of a cut file: %d hits, ok %v, err %v", len(hits), ok, err)
	}
}

// TestShowAtSelectsATracksFirstEvent: ShowAt with a track's events (the
// track menu's Show in Events) selects the track's first event at or
// after the time, in `ghc-events show` order: a thread's, a HEC's; and
// leaves the timeline where it is.
func TestShowAtSelectsATracksFirstEvent(t *testing.T) {
	l, c, ev := eventsOn(t, parworkN2)
	want, h := showEvents(t, parworkN2)
	th := ev.Model.ThreadByID(5)
	tm := th.First + (th.Finished-th.First)/80
	from, to := c.View()
	for _, track := range []struct {
		id   tracks.TrackID
		text *regexp.Regexp
	}{
		{tracks.TrackID{Kind: tracks.KindThread, ID: 5}, regexp.MustCompile(`\bthread 5\b`)},
		{tracks.TrackID{Kind: tracks.KindHEC, ID: 1}, nil},
	} {
		match := TrackEvents(track.id)
		k := slices.IndexFunc(want, func(e ingest.Event) bool { return e.Time >= tm && match(&e) })
		if k < 0 {
			t.Fatalf("%v has no event from %d ns", track.id, tm)
		}
		if i := l.ShowAt(tm, match); i != k || l.selected != k {
			t.Errorf("%v from %d ns: ShowAt picked row %d, selected %d; want %d", track.id, tm, i, l.selected, k)
		}
		e := want[k]
		if track.text != nil && !track.text.Match(ingest.AppendEventText(nil, h, &e)) || track.text == nil && e.Cap != 1 {
			t.Errorf("%v: row %d is %q on cap %d", track.id, k, ingest.AppendEventText(nil, h, &e), e.Cap)
		}
		if e.Time < tm || want[k-1].Time >= tm && match(&want[k-1]) {
			t.Errorf("%v: row %d at %d ns is not the first from %d ns", track.id, k, e.Time, tm)
		}
	}
	if f, tt := c.View(); f != from || tt != to {
		t.Errorf("ShowAt moved the timeline from [%d, %d] to [%d, %d]", from, to, f, tt)
	}
}
