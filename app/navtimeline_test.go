package app

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// openNav opens a log in a test window laid out at 1200×800 and returns
// its view and the timeline's position on the canvas.
func openNav(t *testing.T, path string) (*Window, *eventlogView, fyne.Position) {
	t.Helper()
	a, done := newTestApp(t)
	w := a.Open(path)
	await(t, done)
	w.Fyne().Resize(fyne.NewSize(1200, 800))
	v, ok := w.view.(*eventlogView)
	if !ok || v.nav == nil {
		t.Fatalf("%s: no navigable timeline", path)
	}
	if s := v.nav.Size(); s.Width < 600 || s.Height < 150 {
		t.Fatalf("timeline laid out at %v", s)
	}
	return w, v, fyne.CurrentApp().Driver().AbsolutePositionForObject(v.nav)
}

// scroll scrolls at widget point p as the desktop driver does.
func scroll(n *timelineNav, p fyne.Position, dx, dy float32) {
	n.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: p}, Scrolled: fyne.Delta{DX: dx, DY: dy}})
}

// drag drags from widget point p by dx in ten steps, as the desktop driver
// reports a drag (each event at the pointer's new place), then ends it.
func drag(n *timelineNav, p fyne.Position, dx float32) {
	for i := 0; i < 10; i++ {
		p.X += dx / 10
		n.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: p}, Dragged: fyne.Delta{DX: dx / 10}})
	}
	n.DragEnd()
}

// plotX returns the widget x of time tm in the nav's current view.
func plotX(n *timelineNav, tm uint64) float32 {
	return n.xAt(tm, n.options())
}

func TestNavWheelZoomsAtPointerAndDragPans(t *testing.T) {
	_, v, _ := openNav(t, parworkN2)
	n := v.nav
	from0, to0 := n.View()
	if from0 != 0 || to0 != v.log.Model.End {
		t.Fatalf("first view [%d, %d], want the run [0, %d]", from0, to0, v.log.Model.End)
	}
	x := n.Size().Width * 0.7
	at := n.timeAt(x)
	scroll(n, fyne.NewPos(x, 150), 0, 40) // four notches up: twice as close
	from, to := n.View()
	if got := float64(to-from) / float64(to0-from0); math.Abs(got-0.5) > 0.01 {
		t.Errorf("wheel up: span ×%.3f, want ×0.5", got)
	}
	if d := math.Abs(float64(n.timeAt(x)) - float64(at)); d > 2*n.nsPerUnit() {
		t.Errorf("the time under the pointer moved by %.0f ns", d)
	}
	// Dragging 100 units to the right shows earlier times by as much.
	per := n.nsPerUnit()
	drag(n, fyne.NewPos(x, 150), 100)
	from2, to2 := n.View()
	if to2-from2 != to-from {
		t.Errorf("pan changed the span: %d → %d", to-from, to2-from2)
	}
	if d := float64(from) - float64(from2); math.Abs(d-100*per) > per {
		t.Errorf("drag by 100 units moved the view by %.0f ns, want %.0f", d, 100*per)
	}
	// Horizontal scrolling (a trackpad) pans without zooming.
	scroll(n, fyne.NewPos(x, 150), -50, 0)
	from3, to3 := n.View()
	if to3-from3 != to2-from2 || from3 <= from2 {
		t.Errorf("horizontal scroll: [%d, %d] → [%d, %d], want the same span further right", from2, to2, from3, to3)
	}
	// Zoom stops at a microsecond and at the whole run.
	for i := 0; i < 60; i++ {
		scroll(n, fyne.NewPos(x, 150), 0, 200)
	}
	if f, tt := n.View(); tt-f != 1000 {
		t.Errorf("deepest zoom shows %d ns, want 1000", tt-f)
	}
	for i := 0; i < 60; i++ {
		scroll(n, fyne.NewPos(x, 150), 0, -200)
	}
	if f, tt := n.View(); f != 0 || tt != v.log.Model.End {
		t.Errorf("widest zoom shows [%d, %d], want the run", f, tt)
	}
	if !strings.Contains(v.status.Text, timeline.FormatDuration(v.log.Model.End)) {
		t.Errorf("status %q does not give the run's length", v.status.Text)
	}
}

func TestNavKeys(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	n := v.nav
	end := v.log.Model.End
	// The timeline has the keyboard from the start.
	if w.Fyne().Canvas().Focused() != n {
		t.Fatalf("focused: %v", w.Fyne().Canvas().Focused())
	}
	test.Type(w.Fyne().Canvas().Focused(), "+")
	from, to := n.View()
	if to-from != end/2 && to-from != end/2+1 {
		t.Fatalf("+ shows %d ns of %d", to-from, end)
	}
	if mid := from + (to-from)/2; math.Abs(float64(mid)-float64(end/2)) > 2 {
		t.Errorf("+ moved the centre to %d, want %d", mid, end/2)
	}
	n.TypedKey(&fyne.KeyEvent{Name: fyne.KeyHome})
	if f, tt := n.View(); f != 0 || tt-f != to-from {
		t.Errorf("Home shows [%d, %d]", f, tt)
	}
	n.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	if f, _ := n.View(); math.Abs(float64(f)-0.1*float64(to-from)) > 2 {
		t.Errorf("→ moved to %d, want a tenth of %d", f, to-from)
	}
	n.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
	if _, tt := n.View(); tt != end {
		t.Errorf("End shows up to %d, want %d", tt, end)
	}
	test.Type(n, "-")
	test.Type(n, "+")
	test.Type(n, "0")
	if f, tt := n.View(); f != 0 || tt != end {
		t.Errorf("0 shows [%d, %d], want the run", f, tt)
	}
}

func TestNavShiftDragSelects(t *testing.T) {
	_, v, _ := openNav(t, parworkN2)
	n := v.nav
	summarised := make(chan struct{}, 4)
	v.onSelSummary = func() { summarised <- struct{}{} }
	x0, x1 := n.Size().Width*0.3, n.Size().Width*0.6
	t0, t1 := n.timeAt(x0), n.timeAt(x1)
	n.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(x0, 150)}, Button: desktop.MouseButtonPrimary, Modifier: fyne.KeyModifierShift})
	drag(n, fyne.NewPos(x0, 150), x1-x0)
	from, to, ok := n.Selection()
	if !ok {
		t.Fatal("Shift+drag made no selection")
	}
	per := n.nsPerUnit()
	if math.Abs(float64(from)-float64(t0)) > per || math.Abs(float64(to)-float64(t1)) > per {
		t.Errorf("selection [%d, %d], want about [%d, %d]", from, to, t0, t1)
	}
	if vf, vt := n.View(); vf != 0 || vt != v.log.Model.End {
		t.Errorf("selecting moved the view to [%d, %d]", vf, vt)
	}
	// The summary of the selection follows from reading the file again.
	select {
	case <-summarised:
	case <-time.After(10 * time.Second):
		t.Fatal("no summary of the selection")
	}
	want, err := timeline.SummarizeRange(mustOpen(t, parworkN2), from, to)
	if err != nil {
		t.Fatal(err)
	}
	sel := strings.Join(texts(v.selection), "\n")
	for _, f := range []string{"Total time\n" + timeline.FormatDuration(want.TotalNS), "GC time\n" + timeline.FormatDuration(want.GC.Total.ElapsedNS)} {
		if !strings.Contains(sel, f) {
			t.Errorf("selection summary lacks %q:\n%s", f, sel)
		}
	}
	if want.TotalNS == v.log.Summary.TotalNS {
		t.Error("the selection's total time is the run's")
	}
	if !n.shade.Visible() || n.selLabel.Text != timeline.FormatDuration(to-from) {
		t.Errorf("selection shown: shade %v, label %q", n.shade.Visible(), n.selLabel.Text)
	}
	if !strings.Contains(sel, "Selection: ") || !strings.Contains(sel, timeline.FormatDuration(to-from)) {
		t.Errorf("Selection tab says %q", sel)
	}
	// Its per-HEC figures are the model's for the range.
	times := v.log.Model.RangeTimes(from, to)
	if !strings.Contains(sel, timeline.FormatDuration(times[1][timeline.StateRunning])) {
		t.Errorf("Selection tab lacks HEC 1's running time %s: %q", timeline.FormatDuration(times[1][timeline.StateRunning]), sel)
	}
	test.Type(n, "z")
	if vf, vt := n.View(); vf != from || vt != to {
		t.Errorf("Z shows [%d, %d], want the selection [%d, %d]", vf, vt, from, to)
	}
	n.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if _, _, ok := n.Selection(); ok || n.shade.Visible() {
		t.Error("Escape left the selection")
	}
	// A plain drag pans and selects nothing.
	drag(n, fyne.NewPos(x0, 150), 50)
	if _, _, ok := n.Selection(); ok {
		t.Error("a plain drag selected")
	}
}

// knownSpan finds, straight from the events, the longest run of a thread
// on capability 1 that a StopThread ends: thread, start, end, stop status.
func knownSpan(t *testing.T, path string) (thread uint32, start, end uint64, st ingest.StopStatus) {
	t.Helper()
	f, err := ingest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ev ingest.Event
	running := false
	var cur uint32
	var since uint64
	for f.Next(&ev) {
		if ev.Cap != 1 {
			continue
		}
		switch ev.Kind {
		case ingest.KindRunThread:
			running, cur, since = true, ev.Thread(), ev.Time
		case ingest.KindStopThread:
			if running && ev.Thread() == cur && ev.Time-since > end-start {
				thread, start, end, st = cur, since, ev.Time, ev.StopStatus()
			}
			running = false
		}
	}
	if end == 0 {
		t.Fatalf("%s: no run on cap 1", path)
	}
	return thread, start, end, st
}

func TestNavHoverClickAndDoubleClickOnAKnownSpan(t *testing.T) {
	w, v, abs := openNav(t, parworkN2)
	n, c := v.nav, w.Fyne().Canvas()
	thread, start, end, st := knownSpan(t, parworkN2)
	// Show the span with room either side, then point at its middle on HEC 1.
	n.showRange(start-(end-start), end+(end-start))
	opt := n.options()
	y0, y1, ok := timeline.HECRowBounds(v.log.Model, opt, 1)
	if !ok {
		t.Fatal("no room for HEC 1")
	}
	r := float32(n.ratio(opt))
	p := fyne.NewPos(plotX(n, start+(end-start)/2), float32(y0+y1)/2/r)
	test.MoveMouse(c, abs.Add(p))
	got := v.readout.Text
	for _, want := range []string{"HEC 1", "running thread " + itoa(thread), "from " + timeline.FormatDuration(start),
		"for " + timeline.FormatDuration(end-start), "stopped: " + stopText(st)} {
		if !strings.Contains(got, want) {
			t.Errorf("read-out %q lacks %q", got, want)
		}
	}
	// Clicking shows the details.
	test.TapCanvas(c, abs.Add(p))
	details := strings.Join(texts(v.details), "\n")
	if !strings.Contains(details, "thread "+itoa(thread)) || !strings.Contains(details, timeline.FormatDuration(end-start)) {
		t.Errorf("details %q", details)
	}
	if v.tabs.Selected() != v.detailsTab {
		t.Error("clicking a span did not show the Details tab")
	}
	// Double-clicking zooms to the span with a 5% margin.
	n.DoubleTapped(&fyne.PointEvent{Position: p})
	from, to := n.View()
	m := uint64(float64(end-start) * spanZoomMargin)
	if from != start-m || to != end+m {
		t.Errorf("double-click shows [%d, %d], want [%d, %d]", from, to, start-m, end+m)
	}
	// Off every span, it fits the run.
	n.DoubleTapped(&fyne.PointEvent{Position: fyne.NewPos(2, 2)})
	if f, tt := n.View(); f != 0 || tt != v.log.Model.End {
		t.Errorf("double-click off a span shows [%d, %d]", f, tt)
	}
	// Zoomed out, a pixel mixes many spans and the read-out says so.
	test.MoveMouse(c, abs.Add(fyne.NewPos(n.Size().Width/2, p.Y)))
	if !strings.Contains(v.readout.Text, "changes in this pixel") {
		t.Errorf("zoomed-out read-out %q", v.readout.Text)
	}
}

func itoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

func TestHelpListsShortcuts(t *testing.T) {
	w, _, _ := openNav(t, parworkN2)
	var item *fyne.MenuItem
	for _, menu := range w.Fyne().MainMenu().Items {
		for _, it := range menu.Items {
			if menu.Label == "Help" && it.Label == "Keyboard Shortcuts" {
				item = it
			}
		}
	}
	if item == nil {
		t.Fatal("no Help > Keyboard Shortcuts")
	}
	item.Action()
	ov := w.Fyne().Canvas().Overlays().Top()
	if ov == nil {
		t.Fatal("no dialog")
	}
	all := strings.Join(texts(ov), "\n")
	for _, want := range []string{"Shift+drag", "Home", "W", "clear the selection", "zoom in and out at the pointer"} {
		if !strings.Contains(all, want) {
			t.Errorf("shortcuts dialog lacks %q", want)
		}
	}
}

func TestNavRowsShareTheScaleAndToggle(t *testing.T) {
	w, v, _ := openNav(t, "../testdata/ghc-9.0.2/heap-hT.eventlog")
	var heap *navRow
	for _, r := range v.rows {
		if r.nav.heap != nil {
			heap = r
		}
	}
	if heap == nil || !heap.shown {
		t.Fatal("no heap row shown for a -hT log")
	}
	// Zooming on the heap row zooms the HEC timeline too.
	scroll(heap.nav, fyne.NewPos(heap.nav.Size().Width/2, 50), 0, 40)
	from, to := v.nav.View()
	if to-from > v.log.Model.End/2+1 {
		t.Errorf("after zooming the heap row the timeline shows [%d, %d] of %d", from, to, v.log.Model.End)
	}
	// The heap row's read-out at a census time gives that census's largest band.
	b := heap.nav.heap.Bands
	s := b.Samples() / 2
	tm := b.Time(s)
	heap.nav.sc.set(timeline.Viewport{EndA: v.log.Model.End, EndB: v.log.Model.End})
	best := 0
	for i := 0; i < b.Len(); i++ {
		if b.Value(i, s) > b.Value(best, s) {
			best = i
		}
	}
	x := plotX(heap.nav, tm)
	for heap.nav.timeAt(x) < tm {
		x += 0.05
	}
	got := heap.nav.hoverText(fyne.NewPos(x, 50))
	want := b.Name(best) + " " + formatBytes(int64(b.Value(best, s)))
	if !strings.Contains(got, want) {
		t.Errorf("heap read-out at %d: %q lacks %q", tm, got, want)
	}
	// Unticking the heap leaves only the HEC timeline, which grows.
	h0 := v.nav.Size().Height
	var check *keyCheck
	for _, o := range test.LaidOutObjects(w.Fyne().Content()) {
		if c, ok := o.(*keyCheck); ok && c.Text == "Heap" {
			check = c
		}
	}
	if check == nil {
		t.Fatal("no Heap check box")
	}
	check.SetChecked(false)
	if heap.shown || v.nav.Size().Height < 1.5*h0 {
		t.Errorf("unticking the heap: shown %v, timeline %v → %v high", heap.shown, h0, v.nav.Size().Height)
	}
}

func TestNavThreadRowsHoverAndSort(t *testing.T) {
	_, v, _ := openNav(t, parworkN2)
	var rows *navRow
	for _, r := range v.rows {
		if r.nav.view == "threads" {
			rows = r
		}
	}
	if rows == nil {
		t.Fatal("no thread rows")
	}
	rows.shown = true
	n := rows.nav
	n.Resize(fyne.NewSize(1200, 700))
	n.threadOrder = timeline.ThreadsByBusy
	thread, start, end, _ := knownSpan(t, parworkN2)
	n.showRange(start-(end-start), end+(end-start))
	opt := n.options()
	order := n.threadRows(opt.From, opt.To)
	row := -1
	for i, ti := range order {
		if v.log.Model.Threads[ti].ID == thread {
			row = i
		}
	}
	if row < 0 || row > 20 {
		t.Fatalf("thread %d is row %d of the busy order", thread, row)
	}
	y := (float32(24+2) + float32(row)*14 + 7) / float32(n.ratio(opt))
	p := fyne.NewPos(plotX(n, start+(end-start)/2), y)
	got := n.hoverText(p)
	for _, want := range []string{"thread " + itoa(thread), "running on HEC 1", "for " + timeline.FormatDuration(end-start)} {
		if !strings.Contains(got, want) {
			t.Errorf("thread row read-out %q lacks %q", got, want)
		}
	}
	n.Tapped(&fyne.PointEvent{Position: p})
	if d := strings.Join(texts(v.details), "\n"); !strings.Contains(d, "running on HEC 1") || !strings.Contains(d, "thread "+itoa(thread)) {
		t.Errorf("thread details %q", d)
	}
	n.DoubleTapped(&fyne.PointEvent{Position: p})
	m := uint64(float64(end-start) * spanZoomMargin)
	if from, to := v.nav.View(); from != start-m || to != end+m {
		t.Errorf("double-click on the thread's span shows [%d, %d], want [%d, %d]", from, to, start-m, end+m)
	}
}

func TestNavUserRow(t *testing.T) {
	_, v, _ := openNav(t, parworkN2)
	var user *navRow
	for _, r := range v.rows {
		if r.nav.view == userView {
			user = r
		}
	}
	if user == nil {
		t.Fatal("no user-event row for a log with START/STOP spans")
	}
	n := user.nav
	n.Resize(fyne.NewSize(1200, 300))
	m := v.log.Model
	var sp timeline.UserSpan
	for i := 0; i < m.NumUserSpans(); i++ {
		if s := m.UserSpan(i); s.End-s.Start > sp.End-sp.Start {
			sp = s
		}
	}
	row := -1
	for i := range m.Labels {
		if m.Labels[i].Label == sp.Label {
			row = i
		}
	}
	opt := n.options()
	p := fyne.NewPos(plotX(n, sp.Start+(sp.End-sp.Start)/2), (float32(24+4)+float32(row)*18+9)/float32(n.ratio(opt)))
	got := n.hoverText(p)
	if !strings.Contains(got, userSpanName(m, sp)) || !strings.Contains(got, "for "+timeline.FormatDuration(sp.End-sp.Start)) {
		t.Errorf("user row read-out %q for span %q of %s", got, userSpanName(m, sp), timeline.FormatDuration(sp.End-sp.Start))
	}
	n.DoubleTapped(&fyne.PointEvent{Position: p})
	mg := uint64(float64(sp.End-sp.Start) * spanZoomMargin)
	if from, to := v.nav.View(); from != sp.Start-mg || to != sp.End+mg {
		t.Errorf("double-click on the user span shows [%d, %d], want [%d, %d]", from, to, sp.Start-mg, sp.End+mg)
	}
}

// TestNavThreadRowsScroll checks paging through the thread rows: the rows
// drawn and hit-tested start further down the same order, never past the
// last row, and come back.
func TestNavThreadRowsScroll(t *testing.T) {
	_, v, _ := openNav(t, parworkN2)
	var n *timelineNav
	for _, r := range v.rows {
		if r.nav.view == "threads" {
			n = r.nav
		}
	}
	if n == nil {
		t.Fatal("no thread rows")
	}
	from, to := n.View()
	all := n.threadRows(from, to)
	if len(all) < 30 {
		t.Fatalf("only %d threads alive in the run", len(all))
	}
	if skip := n.scrollThreads(10); skip != 10 {
		t.Fatalf("scrolled to row %d, want 10", skip)
	}
	if got := n.threadRows(from, to); len(got) != len(all)-10 || got[0] != all[10] {
		t.Fatalf("after scrolling 10 rows the first row is thread index %d, want %d", got[0], all[10])
	}
	if skip := n.scrollThreads(1 << 20); skip != len(all)-1 {
		t.Errorf("scrolled past the end to row %d, want the last, %d", skip, len(all)-1)
	}
	if skip := n.scrollThreads(-1 << 20); skip != 0 {
		t.Errorf("scrolled back to row %d, want 0", skip)
	}
	if got := n.threadRows(from, to); got[0] != all[0] {
		t.Errorf("back at the top the first row is %d, want %d", got[0], all[0])
	}
}
