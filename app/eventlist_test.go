package app

import (
	"context"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/app/panels"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
)

// showEvents returns every event of the file at path, stable-sorted by
// time as `ghc-events show` prints them, and its header.
func showEvents(t *testing.T, path string) ([]ingest.Event, *ingest.Header) {
	t.Helper()
	f, err := ingest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []ingest.Event
	var ev ingest.Event
	for f.Next(&ev) {
		evs = append(evs, ev.Clone())
	}
	slices.SortStableFunc(evs, func(a, b ingest.Event) int {
		switch {
		case a.Time < b.Time:
			return -1
		case a.Time > b.Time:
			return 1
		}
		return 0
	})
	return evs, f.Header()
}

// openEvents opens path in a test app and returns its view with an event
// list.
func openEvents(t *testing.T, path string) *eventlogView {
	t.Helper()
	_, v, _ := openNav(t, path)
	if v.events == nil {
		t.Fatalf("%s: no event list", path)
	}
	return v
}

func TestEventListRowsAreTheShowTextInTimeOrder(t *testing.T) {
	v := openEvents(t, parworkN2)
	want, h := showEvents(t, parworkN2)
	l := v.events
	// Block markers are rows too, as ghc-events show prints them.
	if l.List.Length() != len(want) || int64(len(want)) != v.log.Events {
		t.Fatalf("list has %d rows, want %d events (load counted %d)", l.List.Length(), len(want), v.log.Events)
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
		tm, hec, text := l.RowTexts(i)
		wantText := string(ingest.AppendEventText(nil, h, &want[i]))
		if text != wantText && want[i].Kind != ingest.KindBlockMarker {
			t.Errorf("row %d: %q, want %q", i, text, wantText)
		}
		if got := l.Time(i); got != want[i].Time {
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
	tm, hec, text := l.RowTexts(global)
	wantText := "event block: cap —, end time: " + paint.Time(want[global].Args[1], 1)
	if hec != "—" || text != wantText || tm != paint.Time(want[global].Time, 1) {
		t.Errorf("global block marker: %q %q %q, want — and %q", tm, hec, text, wantText)
	}
	// The search finds what the rows show.
	hits, _, _, err := panels.FindEvents(l.X, h, &panels.EventQuery{Text: []byte("cap —")}, nil, nil)
	if err != nil || len(hits) == 0 || hits[0] != int64(global) {
		t.Errorf("searching %q: %v, %v; the global block marker is row %d", "cap —", hits[:min(len(hits), 3)], err, global)
	}
	// Every row, with its capability, in order.
	for i := range want {
		ev, err := l.X.Get(int64(i))
		if err != nil {
			t.Fatal(err)
		}
		if ev.Time != want[i].Time || ev.Cap != want[i].Cap || ev.Offset != want[i].Offset {
			t.Fatalf("row %d: time %d cap %d offset %d, want %d %d %d", i, ev.Time, ev.Cap, ev.Offset, want[i].Time, want[i].Cap, want[i].Offset)
		}
	}
}

func TestEventListFollowsAndMovesTheTimeline(t *testing.T) {
	v := openEvents(t, parworkN2)
	l := v.events
	end := v.log.Model.End
	v.canvas.ShowRange(end/2, end/2+end/10)
	from, to := v.canvas.View()
	first := l.RowAt(from)
	if first == 0 || l.Time(first) < from || l.Time(first-1) >= from {
		t.Fatalf("Search(%d) = row %d", from, first)
	}
	// With the tab shown, the list follows the view: moving it later
	// scrolls the list further down.
	for _, ti := range v.tabs.Items {
		if ti.Text == "Events" {
			v.tabs.Select(ti)
		}
	}
	at0 := l.List.GetScrollOffset()
	if at0 <= 0 {
		t.Fatalf("list at offset %v with the view at row %d", at0, first)
	}
	v.canvas.ShowRange(end/2+end/5, end/2+end/5+end/10)
	if at1 := l.List.GetScrollOffset(); at1 <= at0 {
		t.Errorf("view moved later but the list went from offset %v to %v", at0, at1)
	}
	// Selecting a row centres the view on it and keeps the zoom.
	from, to = v.canvas.View()
	row := l.Len() / 5
	l.List.Select(row)
	f2, t2 := v.canvas.View()
	tm := l.Time(row)
	if t2-f2 != to-from || (f2+t2)/2 > tm+1 || (f2+t2)/2+1 < tm {
		t.Errorf("after selecting row %d at %d, view %d–%d (width %d, was %d)", row, tm, f2, t2, t2-f2, to-from)
	}
}

// findViaBar types a query into the search bar, presses Enter and runs
// the search's UI callbacks on the test goroutine (as Fyne's loop would)
// until it has finished.
func findViaBar(t *testing.T, s *panels.EventSearch, thread string) {
	t.Helper()
	calls := make(chan func(), 64)
	s.Do = func(f func()) { calls <- f }
	done := false
	s.OnDone = func() { done = true }
	s.Thread.SetText(thread)
	test.Type(s.Text, "running")
	s.Text.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
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
	v := openEvents(t, parworkN2)
	want, h := showEvents(t, parworkN2)
	var rows []int64
	for i := range want {
		if th, ok := panels.ThreadOf(&want[i]); ok && th == 5 && want[i].Kind == ingest.KindRunThread {
			rows = append(rows, int64(i))
		}
	}
	if len(rows) < 10 {
		t.Fatalf("only %d runs of thread 5", len(rows))
	}
	s := v.events.Search
	v.canvas.TypedRune('0') // fits the whole run
	findViaBar(t, s, "5")
	if !slices.Equal(s.Hits, rows) {
		t.Fatalf("%d hits, want %d (first %v, want %v)", len(s.Hits), len(rows), s.Hits[:min(3, len(s.Hits))], rows[:3])
	}
	// Next walks the hits in order; each moves the timeline onto it.
	for k := 1; k < 4; k++ {
		s.Step(true)
		if v.events.Selected != int(rows[k]) {
			t.Fatalf("Next %d selected row %d, want %d", k, v.events.Selected, rows[k])
		}
		from, to := v.canvas.View()
		if tm := want[rows[k]].Time; tm < from || tm > to {
			t.Errorf("hit at %d outside the view %d–%d", tm, from, to)
		}
		if got := string(ingest.AppendEventText(nil, h, &want[rows[k]])); got != "running thread 5" {
			t.Errorf("hit %d is %q", k, got)
		}
		if s.Status.Text != strconv.Itoa(k+1)+" of "+strconv.Itoa(len(rows))+" hits" {
			t.Errorf("status %q", s.Status.Text)
		}
	}
	s.Step(false)
	if v.events.Selected != int(rows[2]) {
		t.Errorf("Previous selected row %d, want %d", v.events.Selected, rows[2])
	}
}

func TestEventListWindowMovesAlongTheIndex(t *testing.T) {
	v := openEvents(t, parworkN2)
	want, h := showEvents(t, parworkN2)
	l := v.events
	if len(want) < 5000 {
		t.Fatalf("only %d events", len(want))
	}
	l.Window = 1000
	l.ShowPages()
	// The count is the Summary tab's, block markers named: the list shows
	// them (as ghc-events' show does), the Summary's Events leaves them out.
	s := &v.log.Summary
	if s.ListedEvents() != uint64(len(want)) || s.BlockMarkers != 3 {
		t.Fatalf("summary: %d events and %d block markers; the list has %d", s.Events, s.BlockMarkers, len(want))
	}
	if l.List.Length() != 1000 || l.Pages.Text != "rows 1–1,000 of 14,392 events (3 block markers)" {
		t.Fatalf("window of %d rows, %q", l.List.Length(), l.Pages.Text)
	}
	// Selecting a row beyond the window moves the window onto it.
	l.SelectRow(4321)
	if l.Base > 4321 || l.Base+l.Window <= 4321 || l.Selected != 4321 {
		t.Fatalf("row 4321 selected: window at %d, selected %d", l.Base, l.Selected)
	}
	o := l.List.CreateItem()
	l.UpdateRow(4321-l.Base, o)
	shown := texts(o)
	wantText := string(ingest.AppendEventText(nil, h, &want[4321]))
	if !slices.Contains(shown, wantText) || !slices.Contains(shown, paint.Time(want[4321].Time, 1)) {
		t.Errorf("row 4321 shows %q, want time %d and %q", shown, want[4321].Time, wantText)
	}
	// Following the timeline to the start moves it back.
	l.ViewChanged(0, 1)
	if l.Base != 0 {
		t.Errorf("view at the start: window at %d", l.Base)
	}
	l.Later.OnTapped()
	if l.Base != 500 {
		t.Errorf("Later rows: window at %d", l.Base)
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
		ev, err := loaded.LoadEventlogSegment(context.Background(), path, 0, nil)
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
	ev, err := loaded.LoadEventlogSegment(context.Background(), path, 0, nil)
	if err != nil || ev.List == nil {
		t.Fatalf("%v, list %v", err, ev != nil && ev.List != nil)
	}
	defer ev.Log.Close()
	x := ev.List
	q := &panels.EventQuery{Text: []byte("thread")}
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
	hits, _, ok, err := panels.FindEvents(x, ev.Log.Header, q, nil, nil)
	if !ok || err == nil || len(hits) > 0 {
		t.Errorf("search of a cut file: %d hits, ok %v, err %v", len(hits), ok, err)
	}
}
