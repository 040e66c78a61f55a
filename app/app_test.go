package app

import (
	"bufio"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/app/trackcanvas"
	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/internal/testlog"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/tracks"
)

const corpus = "../testdata/corpus/"

// newTestApp returns an App on Fyne's test driver with Fyne's own dialogs,
// and a channel that receives each window whose load has finished.
func newTestApp(t *testing.T) (*App, chan *Window) {
	t.Helper()
	// The saved-profiles library lives under XDG_DATA_HOME: a test's own.
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	fa := test.NewApp()
	a := New(fa)
	t.Cleanup(func() {
		// Close every window, so that nothing a test started (a load, a
		// live session's refreshes) outlives it, and wait for the live
		// sessions to finish.
		fyne.DoAndWait(func() {
			for _, w := range a.Windows() {
				w.win.Close()
			}
		})
		if !a.finishLive(10 * time.Second) {
			t.Error("a live view still runs 10 s after its window closed")
		}
		fa.Quit()
	})
	a.useNative = false
	done := make(chan *Window, 8)
	a.loaded = func(w *Window) { done <- w }
	return a, done
}

// await waits for the next finished load.
func await(t *testing.T, done chan *Window) *Window {
	t.Helper()
	select {
	case w := <-done:
		return w
	case <-time.After(20 * time.Second):
		t.Fatal("load did not finish")
	}
	return nil
}

// valueAfter returns the text that follows label in list, as a facts grid
// lays them out.
func valueAfter(list []string, label string) (string, bool) {
	for i, s := range list {
		if s == label && i+1 < len(list) {
			return list[i+1], true
		}
	}
	return "", false
}

func contains(list []string, pred func(string) bool) bool {
	for _, s := range list {
		if pred(s) {
			return true
		}
	}
	return false
}

func TestStartPageListsRecents(t *testing.T) {
	a, _ := newTestApp(t)
	dir := t.TempDir()
	older, newer := filepath.Join(dir, "older.eventlog"), filepath.Join(dir, "newer.eventlog")
	a.Recent().Add(older)
	a.Recent().Add(newer)
	w := a.ShowStart()

	got := texts(w.Fyne().Content())
	var files []string
	for _, s := range got {
		if strings.HasSuffix(s, dir) {
			files = append(files, s)
		}
	}
	want := []string{"newer.eventlog   " + dir, "older.eventlog   " + dir}
	if strings.Join(files, "|") != strings.Join(want, "|") {
		t.Errorf("start page recent entries = %q, want %q", files, want)
	}
	if contains(got, func(s string) bool { return s == "No recent files yet." }) {
		t.Error("start page says there are no recent files")
	}
	if !contains(got, func(s string) bool { return s == "Open…" }) {
		t.Error("start page has no Open button")
	}

	// Clearing the list updates the page that shows it.
	a.Recent().Clear()
	got = texts(w.Fyne().Content())
	if !contains(got, func(s string) bool { return s == "No recent files yet." }) {
		t.Errorf("after Clear, start page shows %q", got)
	}
}

func TestRecentOrderAndLimit(t *testing.T) {
	a, _ := newTestApp(t)
	r := a.Recent()
	for i := range MaxRecent + 3 {
		r.Add(filepath.Join("/x", strings.Repeat("a", i+1)))
	}
	r.Add("/x/aaa") // again: moves to the top, no duplicate
	list := r.List()
	if len(list) != MaxRecent {
		t.Fatalf("len = %d, want %d", len(list), MaxRecent)
	}
	if list[0] != "/x/aaa" || list[1] != "/x/"+strings.Repeat("a", MaxRecent+3) {
		t.Errorf("order = %q", list[:2])
	}
	seen := map[string]bool{}
	for _, p := range list {
		if seen[p] {
			t.Errorf("duplicate %q", p)
		}
		seen[p] = true
	}
	r.Remove("/x/aaa")
	if len(r.List()) != MaxRecent-1 || r.List()[0] == "/x/aaa" {
		t.Errorf("after Remove: %q", r.List())
	}
}

// referenceFacts reads a `ghc-events show` reference: its event count
// (block markers left out), its block markers and the program's arguments
// line.
func referenceFacts(t *testing.T, path string) (events, blockMarkers int, args string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line := regexp.MustCompile(`^\s*\d+: `)
	inEvents := false
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		s := sc.Text()
		if s == "Events:" {
			inEvents = true
			continue
		}
		if !inEvents || !line.MatchString(s) {
			continue
		}
		if strings.Contains(s, ": event block: ") {
			blockMarkers++
			continue
		}
		events++
		if i := strings.Index(s, ": args: "); i >= 0 && args == "" {
			args = s[i+len(": args: "):]
		}
	}
	return events, blockMarkers, args
}

func TestLoadShowsSummary(t *testing.T) {
	a, done := newTestApp(t)
	for _, name := range []string{"ghc-events__ghc-9.2-events", "ghc-events__parallelTest", "ghc-events__hello-ghc-8.6.5"} {
		path, _ := filepath.Abs(corpus + name + ".eventlog")
		w := a.Open(path)
		if got := await(t, done); got != w {
			t.Fatalf("%s: another window finished loading", name)
		}
		v, ok := w.view.(*eventlogView)
		if !ok {
			t.Fatalf("%s: view is %T, want an eventlog view", name, w.view)
		}
		events, blockMarkers, args := referenceFacts(t, corpus+name+".eventlog.reference")
		shown := texts(w.Fyne().Content())
		for _, c := range []struct{ label, want string }{
			// As ghc-events' show lists them: block markers included.
			{"Events", paint.EventCount(uint64(events), uint64(blockMarkers))},
			{"Total", strconv.Itoa(v.log.Summary.GC.Reported.Collections)}, // the GC table's Total row
			{"State", "complete"},
		} {
			if got, _ := valueAfter(shown, c.label); got != c.want {
				t.Errorf("%s: %s shows %q, want %q", name, c.label, got, c.want)
			}
		}
		if args != "" {
			var quoted []string
			for _, s := range append([]string{v.log.Summary.Program}, v.log.Summary.Args...) {
				quoted = append(quoted, `"`+s+`"`)
			}
			if got := "[" + strings.Join(quoted, ",") + "]"; got != args {
				t.Errorf("%s: program and args %s, reference %s", name, got, args)
			}
			if prog, _ := valueAfter(shown, "Program"); prog != v.log.Summary.Program {
				t.Errorf("%s: Program shows %q, want %q", name, prog, v.log.Summary.Program)
			}
		}
		if !contains(shown, func(s string) bool { return s == path }) {
			t.Errorf("%s: the view does not show the path", name)
		}
		if !strings.Contains(w.Fyne().Title(), filepath.Base(path)) {
			t.Errorf("%s: title %q does not name the file", name, w.Fyne().Title())
		}
		if contains(shown, func(s string) bool { return strings.HasPrefix(s, "This eventlog is") }) {
			t.Errorf("%s: a complete log shows a notice", name)
		}
		if a.Recent().List()[0] != path {
			t.Errorf("%s: not at the top of the recent files: %q", name, a.Recent().List())
		}
	}
	if n := len(a.Windows()); n != 3 {
		t.Errorf("%d windows open, want 3", n)
	}
}

// notices returns the texts of the window that start like a load notice.
func notices(w *Window) []string {
	var out []string
	for _, s := range texts(w.Fyne().Content()) {
		if strings.HasPrefix(s, "This eventlog is") || strings.HasPrefix(s, "This heap profile is") {
			out = append(out, s)
		}
	}
	return out
}

func TestDamagedLogShowsNotice(t *testing.T) {
	a, done := newTestApp(t)
	src, err := os.ReadFile(corpus + "ghc-events__ghc-9.2-events.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cut := len(src) - 1000

	truncated := filepath.Join(dir, "truncated.eventlog")
	if err := os.WriteFile(truncated, src[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	w := a.Open(truncated)
	await(t, done)
	n := notices(w)
	if len(n) != 1 || !strings.Contains(n[0], "truncated at byte ") || !strings.Contains(n[0], "of "+strconv.Itoa(cut)+" bytes") {
		t.Errorf("truncated log: notices %q", n)
	}
	ev := w.view.(*eventlogView).log
	if ev.Events == 0 || ev.Status.Offset > int64(cut) || ev.Status.Offset < int64(cut)-200 {
		t.Errorf("truncated log: %d events, stopped at %d of %d", ev.Events, ev.Status.Offset, cut)
	}

	// Overwrite the data-begin marker: decoding stops right after the header.
	corrupt := append([]byte(nil), src...)
	at := strings.Index(string(corrupt), "datb")
	copy(corrupt[at:], "XXXX")
	bad := filepath.Join(dir, "corrupt.eventlog")
	if err := os.WriteFile(bad, corrupt, 0o644); err != nil {
		t.Fatal(err)
	}
	// The loader cannot index it: the window says why, with ways on.
	w = a.Open(bad)
	await(t, done)
	if shown := strings.Join(texts(w.Fyne().Content()), "\n"); w.view != nil || !strings.Contains(shown, "data begin marker") || !strings.Contains(shown, "Try Again") {
		t.Errorf("corrupt log: view %v, shows %q", w.view != nil, shown)
	}

	// Not an eventlog at all.
	junk := filepath.Join(dir, "junk.eventlog")
	if err := os.WriteFile(junk, []byte("this is not an eventlog\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w = a.Open(junk)
	await(t, done)
	if shown := strings.Join(texts(w.Fyne().Content()), "\n"); w.view != nil || !strings.Contains(shown, "not an eventlog") {
		t.Errorf("junk file: view %v, shows %q", w.view != nil, shown)
	}
}

func TestMissingFileShowsErrorAndLeavesRecent(t *testing.T) {
	a, done := newTestApp(t)
	missing := filepath.Join(t.TempDir(), "gone.eventlog")
	w := a.Open(missing)
	await(t, done)
	if w.view != nil {
		t.Errorf("missing file has a view %T", w.view)
	}
	shown := texts(w.Fyne().Content())
	if !contains(shown, func(s string) bool { return strings.Contains(s, missing) && strings.Contains(s, "no such file") }) {
		t.Errorf("error page shows %q", shown)
	}
	for _, p := range a.Recent().List() {
		if p == missing {
			t.Error("missing file stays in the recent files")
		}
	}
}

func TestHeapProfileShowsFacts(t *testing.T) {
	a, done := newTestApp(t)
	path, _ := filepath.Abs("../ingest/testdata/hp/hc.hp")
	w := a.Open(path)
	await(t, done)
	if _, ok := w.view.(*heapProfileView); !ok {
		t.Fatalf("view is %T, want a heap profile view", w.view)
	}
	// The facts are the file's own: read its JOB line and samples directly.
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	job := regexp.MustCompile(`(?m)^JOB "(.*)"`).FindSubmatch(raw)
	samples := len(regexp.MustCompile(`(?m)^BEGIN_SAMPLE `).FindAll(raw, -1))
	shown := texts(w.Fyne().Content())
	if got, _ := valueAfter(shown, "Job"); job == nil || got != strings.ReplaceAll(string(job[1]), `""`, `"`) {
		t.Errorf("Job shows %q, file has %q", got, job)
	}
	if got, _ := valueAfter(shown, "Samples"); got != strconv.Itoa(samples) {
		t.Errorf("Samples shows %q, file has %d", got, samples)
	}
	if len(notices(w)) != 0 {
		t.Errorf("complete profile shows notices %q", notices(w))
	}
	if menuItem(w, "Export View as PNG…") == nil || menuItem(w, "View as PNG at ×2 (HiDPI)…") == nil {
		t.Error("no Export items for a heap profile with a chart")
	}
	if menuItem(w, "All Tracks as PNG…") != nil {
		t.Error("a heap profile offers to export tracks")
	}
	w.Fyne().Resize(fyne.NewSize(900, 700))
	img := w.view.Picture(1)
	if img == nil || colourCount(img) < 4 {
		t.Fatal("the heap profile's chart is missing or blank")
	}
	if img2 := w.view.Picture(2); img2 == nil || img2.Bounds().Dx() != 2*img.Bounds().Dx() {
		t.Errorf("the chart at ×2 is not twice as wide as at ×1 (%v)", img.Bounds())
	}

	killed, _ := filepath.Abs("../ingest/testdata/hp/killed.hp")
	w = a.Open(killed)
	await(t, done)
	if n := notices(w); len(n) != 1 || !strings.Contains(n[0], "cut off") {
		t.Errorf("killed profile: notices %q", n)
	}
}

func TestBandsByPeak(t *testing.T) {
	p := strings.NewReader("JOB \"x\"\nBEGIN_SAMPLE 0.5\na\t10\nb\t30\nEND_SAMPLE 0.5\nBEGIN_SAMPLE 1.0\na\t50\nc\t5\nEND_SAMPLE 1.0\n")
	prof, err := ingest.ParseHeapProfile(p)
	if err != nil {
		t.Fatal(err)
	}
	facts, bands := heapFacts("x.hp", prof)
	var got []string
	for _, b := range bands {
		got = append(got, b.label+"="+strconv.FormatUint(b.peak, 10)+"@"+strconv.FormatFloat(b.at, 'g', -1, 64))
	}
	if want := "a=50@1|b=30@0.5|c=5@1"; strings.Join(got, "|") != want {
		t.Errorf("bands %q, want %q", got, want)
	}
	var list []string
	for _, f := range facts {
		list = append(list, f.Label, f.Value)
	}
	if v, _ := valueAfter(list, "Peak total"); !strings.HasPrefix(v, "55 B at 1 ") {
		t.Errorf("peak total %q", v)
	}
}

func TestDropOpensInStartWindowThenNewWindows(t *testing.T) {
	a, done := newTestApp(t)
	w := a.ShowStart()
	first, _ := filepath.Abs(corpus + "ghc-events__sleep.h.eventlog")
	second, _ := filepath.Abs(corpus + "ghc-events__sleep.hd.eventlog")
	w.dropped([]fyne.URI{storage.NewFileURI(first)})
	await(t, done)
	if w.Path() != first || len(a.Windows()) != 1 {
		t.Fatalf("after the first drop: window shows %q, %d windows", w.Path(), len(a.Windows()))
	}
	w.dropped([]fyne.URI{storage.NewFileURI(second)})
	await(t, done)
	if w.Path() != first || len(a.Windows()) != 2 || a.Windows()[1].Path() != second {
		t.Errorf("after the second drop: first window shows %q, %d windows", w.Path(), len(a.Windows()))
	}
}

// TestOpenFillsAnEmptyWindow: a file opened from a window whose file could
// not be opened replaces the error page; one opened from a window showing
// a file opens in a new window.
func TestOpenFillsAnEmptyWindow(t *testing.T) {
	a, done := newTestApp(t)
	w := a.Open("../testdata/no-such-file.eventlog")
	await(t, done)
	if !w.empty() {
		t.Fatal("the error page is not an empty window")
	}
	sample, _ := filepath.Abs(parworkN2)
	w.openHere(sample)
	if len(a.Windows()) != 1 {
		t.Errorf("opening from the error page: %d windows", len(a.Windows()))
	}
	await(t, done)
	if w.Path() != sample {
		t.Fatalf("the window shows %q", w.Path())
	}
	w.openHere(sample)
	await(t, done)
	if len(a.Windows()) != 2 || a.Windows()[1].Path() != sample {
		t.Errorf("opening from a window showing a file: %d windows, want 2", len(a.Windows()))
	}
}

// menuItem finds a File menu item by label.
func menuItem(w *Window, label string) *fyne.MenuItem {
	return findMenuItem(w.Fyne().MainMenu().Items[0].Items, label)
}

// findMenuItem returns the item labelled label among items or in their
// submenus, nil if there is none.
func findMenuItem(items []*fyne.MenuItem, label string) *fyne.MenuItem {
	for _, it := range items {
		if it.Label == label {
			return it
		}
		if it.ChildMenu != nil {
			if sub := findMenuItem(it.ChildMenu.Items, label); sub != nil {
				return sub
			}
		}
	}
	return nil
}

func TestReloadAndMenus(t *testing.T) {
	a, done := newTestApp(t)
	w := a.ShowStart()
	if menuItem(w, "Reload") != nil {
		t.Error("the start page offers Reload")
	}
	if menuItem(w, "Export View as PNG…") != nil {
		t.Error("the start page offers Export")
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "growing.eventlog")
	src, err := os.ReadFile(corpus + "ghc-events__ghc-9.2-events.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, src[:len(src)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	w.openHere(path)
	await(t, done)
	before := w.view.(*eventlogView).log.Events

	// The file grows; Reload reads it again.
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	reload := menuItem(w, "Reload")
	if reload == nil {
		t.Fatal("no Reload item for an open file")
	}
	reload.Action()
	await(t, done)
	after := w.view.(*eventlogView).log
	if after.Events <= before || after.Status.String() != "complete" {
		t.Errorf("reload: %d events before, %d after (%s)", before, after.Events, after.Status)
	}
	recent := menuItem(w, "Open Recent")
	if recent == nil || len(recent.ChildMenu.Items) == 0 || recent.ChildMenu.Items[0].Label != path {
		t.Errorf("Open Recent menu does not list %s first", path)
	}
}

func TestFyneAppTomlMatches(t *testing.T) {
	raw, err := os.ReadFile("../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"ID": ID, "Name": Name, "Version": Version} {
		m := regexp.MustCompile(`(?m)^` + key + ` = "(.*)"$`).FindSubmatch(raw)
		if m == nil || string(m[1]) != want {
			t.Errorf("FyneApp.toml %s = %q, want %q", key, m, want)
		}
	}
	icon := regexp.MustCompile(`(?m)^Icon = "(.*)"$`).FindSubmatch(raw)
	if icon == nil {
		t.Fatal("FyneApp.toml has no Icon")
	}
	if _, err := os.Stat(filepath.Join("..", string(icon[1]))); err != nil {
		t.Errorf("FyneApp.toml icon: %v", err)
	}
}

func TestExportWritesTheTimeline(t *testing.T) {
	a, done := newTestApp(t)
	w := a.Open(corpus + "ghc-events__parallelTest.eventlog")
	await(t, done)
	if menuItem(w, "Export View as PNG…") == nil {
		t.Fatal("no Export item for a log with a timeline")
	}
	v := w.view.(*eventlogView)
	w.Fyne().Resize(fyne.NewSize(900, 700))
	size := v.canvas.Size()
	if size.Width < 100 || size.Height < 100 {
		t.Fatalf("timeline laid out at %v", size)
	}
	// At a pixel ratio of 2 the picture has twice the pixels of the
	// canvas's width, and the height of every track shown.
	img := v.Picture(2)
	if img == nil {
		t.Fatal("no picture")
	}
	b := img.Bounds()
	if b.Dx() != int(size.Width*2+0.5) || b.Dy() < 200 {
		t.Errorf("picture %v for a %v view at scale 2", b, size)
	}
	path := filepath.Join(t.TempDir(), "view.png")
	if err := trackcanvas.WritePNG(path, img); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	back, err := png.Decode(f)
	if err != nil {
		t.Fatalf("exported file: %v", err)
	}
	if back.Bounds() != b {
		t.Errorf("exported %v, drawn %v", back.Bounds(), b)
	}
	// The picture is not blank: it has more than the background colour.
	if n := colourCount(back); n < 4 {
		t.Errorf("exported picture has %d colours", n)
	}

	if err := trackcanvas.WritePNG(filepath.Join(t.TempDir(), "no", "such", "dir.png"), img); err == nil {
		t.Error("writing into a missing directory did not fail")
	}
}

// TestLoadingPageShowsProgressAndPartialTimeline: the loading page takes
// a report with a model of what has been read so far and shows its
// picture; not the loaded log's own model, which the view that replaces
// the page draws. (What the loader reports is loaded's test.)
func TestLoadingPageShowsProgressAndPartialTimeline(t *testing.T) {
	path := corpus + "ghc-events-history__warshall0-trace-7.8.2_8.eventlog"
	ev, err := loaded.LoadEventlog(context.Background(), path, eventlog.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	newTestApp(t)
	v := newLoadingView(path, "")
	if v.picture.Raster.Visible() {
		t.Error("picture shown before any model")
	}
	v.update(loaded.Progress{Bytes: 40, Total: 40, Model: ev.Model})
	if ev.Model.Growing || v.picture.Raster.Visible() || v.bar.Value != 1 {
		t.Errorf("the loaded model (growing %v) drawn on the loading page: picture visible %v, bar %g", ev.Model.Growing, v.picture.Raster.Visible(), v.bar.Value)
	}
	partial := *ev.Model
	partial.Growing = true
	v.update(loaded.Progress{Bytes: 10, Total: 40, Model: &partial})
	if v.bar.Value != 0.25 || !strings.HasPrefix(v.detail.Text, "10 B of 40 B") || !v.picture.Raster.Visible() {
		t.Errorf("after an update: bar %g, detail %q, picture visible %v", v.bar.Value, v.detail.Text, v.picture.Raster.Visible())
	}
}

func TestHeapTracksForLogsWithHeapData(t *testing.T) {
	a, done := newTestApp(t)
	for name, want := range map[string]bool{
		"ghc-events__sleep.hy":           true,  // a -hy heap profile in the eventlog
		"ghc-events__trace-binary-event": false, // no GC or heap events at all
		"ghc-events__ghc-9.2-events":     true,  // heap size and live counters
	} {
		w := a.Open(corpus + name + ".eventlog")
		await(t, done)
		v := w.view.(*eventlogView)
		if v.canvas == nil {
			if want {
				t.Errorf("%s: no timeline", name)
			}
			continue
		}
		got := false
		v.canvas.With(func(tv *tracks.View) {
			for _, id := range tv.Tracks() {
				if id.Kind == tracks.KindHeap || id.Kind == tracks.KindBands {
					got = true
				}
			}
		})
		if got != want {
			t.Errorf("%s: heap tracks %v, want %v", name, got, want)
		}
	}
}

// TestBlockOfImpossibleCapabilityShowsNotice: parwork-N2 with its first
// block of capability 0 rewritten to claim capability 4095 opens with a
// notice naming the block (its byte, events and the capability it
// claims), and the Summary tab counts the capabilities that occur. Before,
// the window showed no notice and "Capabilities 4096".
func TestBlockOfImpossibleCapabilityShowsNotice(t *testing.T) {
	a, done := newTestApp(t)
	path, _ := testlog.CapRewritten(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog", 4095)
	w := a.Open(path)
	await(t, done)
	n := notices(w)
	if len(n) != 1 || !strings.Contains(n[0], "the block at byte 2688 (4,099 events) claims capability 4095, which the log never created") {
		t.Errorf("notices %q", n)
	}
	if shown := strings.Join(texts(w.Fyne().Content()), "\n"); !strings.Contains(shown, "3 (numbers 0, 1, 4095)") {
		t.Errorf("the Summary tab does not list the capabilities 0, 1, 4095:\n%s", shown)
	}
}
