package tracks

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"image"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// tinyUser is the tiny run with a user span "load" over [100, 400) begun
// by thread 1 on HEC 0, ten markers two by two over [300, 305), and one at
// 800.
func tinyUser() *timeline.Model {
	b := timeline.NewOverviewBuilder(timeline.Grid{})
	msg := func(t uint64, k ingest.Kind, text string) {
		e := ingest.Event{Time: t, Cap: 0, Kind: k, Data: []byte(text)}
		b.Add(&e)
	}
	for _, e := range tinyEvents() {
		b.Add(&e)
		if e.Time == 0 && e.Kind == ingest.KindRunThread {
			msg(100, ingest.KindUserMsg, "START load")
			for i := uint64(0); i < 10; i++ {
				msg(300+i/2, ingest.KindUserMarker, "tick "+string(rune('a'+i)))
			}
			msg(400, ingest.KindUserMsg, "STOP load")
		}
	}
	e := ingest.Event{Time: 800, Cap: 1, Kind: ingest.KindUserMarker, Data: []byte("late")}
	b.Add(&e)
	b.Finish()
	return b.Snapshot()
}

// tinyHeap is a heap whose one GC matches the tiny run's, with sizes
// measured around it.
func tinyHeap() *heapview.Heap {
	return &heapview.Heap{
		Size:      heapview.Series{Time: []uint64{0, 500, 600}, Value: []uint64{1 << 20, 2 << 20, 2 << 20}},
		Live:      heapview.Series{Time: []uint64{600}, Value: []uint64{512 << 10}},
		Allocated: heapview.Series{Time: []uint64{0, 500, 1000}, Value: []uint64{0, 4 << 20, 6 << 20}},
		GCs:       []heapview.GC{{Start: 500, End: 600, Gen: 1, HasStats: true, Copied: 300 << 10}},
	}
}

// tinyView returns a view of the tiny run with its heap, 1000 pixels of
// plot for its 1000 ns, tall enough for every track.
func tinyView(t *testing.T) *View {
	v := New(timeline.Exact(tinyUser()))
	v.SetHeap(tinyHeap(), nil)
	v.SetSize(1000+px(headerWidth, 1)+px(scrollbarW, 1), 1400, 1)
	if ax := v.Axis(); ax.Width != 1000 || ax.To != 1000 {
		t.Fatalf("axis %+v", ax)
	}
	return v
}

// TestHeapLinesUp checks that the GC track draws the GC over the same
// columns as the HEC track, and the heap and user tracks at the same x.
func TestHeapLinesUp(t *testing.T) {
	v := tinyView(t)
	v.SetSpansByLabel(true)
	img := v.Render()
	ax := v.Axis()
	x := func(tm uint64) int { return int(math.Floor(ax.X(tm))) }
	yHEC := rowMid(t, v, TrackID{KindHEC, 0})
	gc, ok := v.TrackRect(TrackID{KindGC, 0})
	if !ok {
		t.Fatal("no GC track")
	}
	yGC := gc.Max.Y - 4
	major := paint.InkMajorGC.Color()
	for px := x(490); px < x(610); px++ {
		inHEC := img.RGBAAt(px, yHEC)
		inGC := img.RGBAAt(px, yGC) == major
		hecGC := inkAt(v.Theme(), inHEC).GC()
		if inGC != hecGC {
			t.Errorf("x %d (%d ns): GC track %v, HEC track %v", px, ax.Time(float64(px)), inGC, hecGC)
		}
	}
	// The user span starts and ends where thread 1's run says.
	yUser := rowMid(t, v, TrackID{KindUserLabel, uint32(labelOf(t, v, "load"))})
	for _, c := range []struct {
		tm   uint64
		span bool
	}{{99, false}, {100, true}, {250, true}, {399, true}, {401, false}} {
		got := img.RGBAAt(x(c.tm), yUser) == paint.BandColorFor("load") || img.RGBAAt(x(c.tm), yUser) == paint.Mix(paint.BandColorFor("load"), v.Theme().Text, 0.35)
		if got != c.span {
			t.Errorf("user span at %d ns: drawn %v, want %v", c.tm, got, c.span)
		}
	}
	// The heap line steps at the GC's start.
	h := v.Hit(float64(x(550))+0.5, float64(rowMid(t, v, TrackID{KindHeap, 0})))
	if h.Element != ElemHeap || !strings.Contains(strings.Join(h.Tip, "|"), "heap size: 2.00 MiB") {
		t.Errorf("heap hit %q", h.Tip)
	}
	h = v.Hit(float64(x(550))+0.5, float64(yGC))
	if h.Element != ElemGC || h.From != 500 || h.To != 600 || !strings.Contains(strings.Join(h.Tip, "|"), "major GC (gen 1), pause 100 ns") {
		t.Errorf("GC hit %+v", h)
	}
	h = v.Hit(float64(x(250))+0.5, float64(yUser))
	if h.Element != ElemUserSpan || h.From != 100 || h.To != 400 || h.Thread != 1 || !strings.Contains(strings.Join(h.Tip, "|"), "load|from 100 ns for 300 ns") {
		t.Errorf("user span hit %+v", h)
	}
}

// labelOf returns the string index of a user span label.
func labelOf(t *testing.T, v *View, name string) int32 {
	ov := v.overview()
	for _, l := range ov.Labels {
		if ov.String(l.Label) == name {
			return l.Label
		}
	}
	t.Fatalf("no label %q", name)
	return -1
}

// TestClustering checks that crowded markers share a flag with their
// count, at every zoom, and come apart zoomed in.
func TestClustering(t *testing.T) {
	v := tinyView(t)
	v.SetBookmarks([]Bookmark{{Time: 700, Name: "here"}, {Time: 702, Name: "there"}})
	g := v.geometry()
	f := v.newFrame(paint.NewSVG(v.w, v.h), g, 0, 1000, 0, false, true)
	cs := f.markerClusters()
	if len(cs) != 2 || cs[0].n != 10 || cs[1].n != 1 || cs[0].from != 300 || cs[0].to != 304 {
		t.Fatalf("clusters %+v", cs)
	}
	if bs := f.bookmarkClusters(); len(bs) != 1 || bs[0].n != 2 {
		t.Fatalf("bookmark clusters %+v", bs)
	}
	// Hitting the cluster's flag on the axis.
	mr, _ := f.axisFlags()
	h := v.Hit(cs[0].x+2, float64(mr.Min.Y+1))
	if h.Element != ElemMarker || h.From != 300 || h.To != 304 || !strings.HasPrefix(h.Tip[0], "10 markers") {
		t.Errorf("cluster hit %+v", h)
	}
	// Zoomed in, they come apart (those at one time stay together).
	v.SetRange(295, 395)
	f = v.newFrame(paint.NewSVG(v.w, v.h), v.geometry(), 295, 395, 0, false, true)
	if cs := f.markerClusters(); len(cs) != 5 || cs[4].n != 2 {
		t.Errorf("zoomed in: flags %+v, want 5 of 2", cs)
	}
	many := make([]Bookmark, 100_000)
	for i := range many {
		many[i] = Bookmark{Time: uint64(i) / 100, Name: "b"}
	}
	v.SetBookmarks(many)
	v.Fit()
	f = v.newFrame(paint.NewSVG(v.w, v.h), v.geometry(), 0, 1000, 0, false, true)
	total := 0
	bs := f.bookmarkClusters()
	for _, c := range bs {
		total += c.n
	}
	if total != len(many) || len(bs) > 1000/clusterGap+1 {
		t.Errorf("%d flags for %d of %d bookmarks", len(bs), total, len(many))
	}
	// Flags of hundreds: no flag is drawn over the count of the one before,
	// and the pointer over a flag's count gets that flag's tooltip.
	_, br := f.axisFlags()
	hit := 0
	for k, c := range bs {
		r := f.flagRect(c.x, br.Min.Y, br.Max.Y, c.n, f.small)
		if k+1 < len(bs) && int(math.Floor(bs[k+1].x)) < r.Max.X-px(3, f.s) {
			t.Fatalf("flag %d of %d bookmarks at x %g–%d, the next at %g: drawn over its count", k, c.n, c.x, r.Max.X, bs[k+1].x)
		}
		if c.n < 100 {
			continue
		}
		hit++
		h := v.Hit(float64(r.Min.X+r.Max.X)/2, float64(br.Min.Y+1))
		if h.Element != ElemBookmark || h.From != c.from || !strings.HasPrefix(h.Tip[0], paint.Count(int64(c.n))+" bookmarks") {
			t.Fatalf("the pointer over flag %d (%d bookmarks from %d) got %+v", k, c.n, c.from, h)
		}
	}
	if hit == 0 {
		t.Fatal("no flag of a hundred bookmarks or more: the test proves little")
	}
}

// svgTexts returns the texts of an SVG document, failing if it is not
// well-formed.
func svgTexts(t *testing.T, doc []byte) map[string]bool {
	t.Helper()
	texts := map[string]bool{}
	d := xml.NewDecoder(bytes.NewReader(doc))
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return texts
		}
		if err != nil {
			t.Fatalf("SVG export is not well-formed: %v", err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			inText = tk.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts[string(tk)] = true
			}
		}
	}
}

// colours counts the colours of img, up to 100.
func colours(img *image.RGBA) int {
	seen := map[uint32]bool{}
	for i := 0; i+3 < len(img.Pix) && len(seen) < 100; i += 4 * 97 {
		seen[uint32(img.Pix[i])<<16|uint32(img.Pix[i+1])<<8|uint32(img.Pix[i+2])] = true
	}
	return len(seen)
}

// exportSVG exports page p of opt as SVG and returns its texts.
func exportSVG(t *testing.T, v *View, opt ExportOptions, p ExportPage) map[string]bool {
	t.Helper()
	s := paint.NewSVG(p.Width, p.Height)
	v.Export(s, opt, p)
	return svgTexts(t, s.Bytes())
}

// TestExportAllTracks exports every track, not just those in view, as SVG
// and PNG, on one page and cut into pages.
func TestExportAllTracks(t *testing.T) {
	m := synthModel(2, 300, 60_000)
	v := New(timeline.Exact(m))
	v.SetHeap(tinyHeap(), nil)
	v.SetSize(1000, 500, 1)
	_, content, viewport := v.Scroll()
	if content <= viewport {
		t.Fatal("the tracks fit the view: nothing to test")
	}
	all := ExportOptions{All: true, PageHeight: 1 << 30}
	w, h, n := v.ExportSize(all)
	if w != 1000 || h < content+v.AxisRect().Dy() || n < 300 {
		t.Fatalf("export %d×%d of %d tracks for content %d", w, h, n, content)
	}
	pages, err := v.ExportPages(all)
	if err != nil || len(pages) != 1 || pages[0].Width != w || pages[0].Height != h || pages[0].Tracks != n {
		t.Fatalf("one page of %d×%d: %+v, %v", w, h, pages, err)
	}
	texts := exportSVG(t, v, all, pages[0])
	last := m.Thread(m.NumThreads() - 1)
	for _, want := range []string{"All HECs", "HEC 1", "thread " + itoa(last.ID), "GC pauses", "major GC", "heap size"} {
		if !texts[want] {
			t.Errorf("SVG export lacks %q", want)
		}
	}
	all2 := all
	all2.Zoom = 2
	p2, err := v.ExportPages(all2)
	if err != nil {
		t.Fatal(err)
	}
	if p2[0].Width != 2000 || p2[0].Height < 2*content {
		t.Errorf("export %d×%d at zoom 2", p2[0].Width, p2[0].Height)
	}
	img := image.NewRGBA(image.Rect(0, 0, p2[0].Width, p2[0].Height))
	v.Export(paint.NewRaster(img), all2, p2[0])
	if colours(img) < 4 {
		t.Error("the export at zoom 2 is blank")
	}
	// The view is as it was.
	if w, h, s := v.Size(); w != 1000 || h != 500 || s != 1 {
		t.Errorf("view left at %d×%d×%v", w, h, s)
	}

	// Cut into pages of at most 2,000 px: every track on one page, the
	// pages one after the other, each with the axis and the legend.
	paged := ExportOptions{All: true, PageHeight: 2000}
	pages, err = v.ExportPages(paged)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 3 {
		t.Fatalf("%d pages of 2,000 px for a picture %d px tall", len(pages), h)
	}
	sum := 0
	for i, p := range pages {
		sum += p.Tracks
		if p.Height > 2000 || p.Width != w || p.Tracks == 0 {
			t.Errorf("page %d: %+v", i, p)
		}
		if i > 0 && p.top != pages[i-1].bottom {
			t.Errorf("page %d starts at %d, page %d ends at %d", i, p.top, i-1, pages[i-1].bottom)
		}
	}
	if sum != n || pages[len(pages)-1].bottom != content {
		t.Errorf("the pages show %d of %d tracks, down to %d of %d", sum, n, pages[len(pages)-1].bottom, content)
	}
	first, lastPage := exportSVG(t, v, paged, pages[0]), exportSVG(t, v, paged, pages[len(pages)-1])
	if !first["All HECs"] || first["thread "+itoa(last.ID)] || !lastPage["thread "+itoa(last.ID)] || lastPage["All HECs"] {
		t.Error("the first page does not begin the tracks, or the last does not end them")
	}
	if !lastPage["major GC"] || !first["major GC"] {
		t.Error("a page lacks the legend")
	}

	// Too many pages: refused, saying how big it would be.
	_, err = v.ExportPages(ExportOptions{All: true, PageHeight: 300})
	var tooMany *ErrTooManyPages
	if !errors.As(err, &tooMany) || tooMany.Pages <= MaxPages || tooMany.Height != h || tooMany.Tracks != n {
		t.Errorf("pages of 300 px: %v", err)
	}
}

// TestExportView exports the frame as the view shows it: its size (twice
// it at zoom 2), its scroll, the tracks in view only, over a range given.
func TestExportView(t *testing.T) {
	m := synthModel(2, 300, 60_000)
	v := New(timeline.Exact(m))
	v.SetHeap(tinyHeap(), nil)
	v.SetSize(1000, 500, 1)
	last := "thread " + itoa(m.Thread(m.NumThreads()-1).ID)
	view := ExportOptions{}
	pages, err := v.ExportPages(view)
	if err != nil || len(pages) != 1 || pages[0].Width != 1000 || pages[0].Height != 500 {
		t.Fatalf("view export: %+v, %v", pages, err)
	}
	if w, h, _ := v.ExportSize(view); w != 1000 || h != 500 {
		t.Errorf("view export %d×%d", w, h)
	}
	texts := exportSVG(t, v, view, pages[0])
	if !texts["All HECs"] || texts[last] {
		t.Error("the view's export is not the tracks in view")
	}
	v.ScrollBy(1e9)
	pages, _ = v.ExportPages(view)
	if texts := exportSVG(t, v, view, pages[0]); texts["All HECs"] || !texts[last] {
		t.Error("the view's export does not follow its scroll")
	}
	// At zoom 2: twice the pixels, the same tracks (the scroll doubled).
	z2 := ExportOptions{Zoom: 2}
	pages, _ = v.ExportPages(z2)
	if pages[0].Width != 2000 || pages[0].Height != 1000 {
		t.Fatalf("zoom 2: %+v", pages[0])
	}
	img := image.NewRGBA(image.Rect(0, 0, 2000, 1000))
	v.Export(paint.NewRaster(img), z2, pages[0])
	if colours(img) < 4 {
		t.Error("the view's export at zoom 2 is blank")
	}
	if texts := exportSVG(t, v, z2, pages[0]); !texts[last] {
		t.Error("at zoom 2 the export does not keep the scroll")
	}
	if w, h, s := v.Size(); w != 1000 || h != 500 || s != 1 {
		t.Errorf("view left at %d×%d×%v", w, h, s)
	}
	if off, content, viewport := v.Scroll(); off != content-viewport {
		t.Errorf("scroll left at %d, was %d", off, content-viewport)
	}
	// A range given is the range exported: its ticks are on the axis.
	from, to := v.Range()
	sel := ExportOptions{From: m.End / 4, To: m.End / 2}
	pages, _ = v.ExportPages(sel)
	texts = exportSVG(t, v, sel, pages[0])
	wide := exportSVG(t, v, view, pages[0])
	if maps.Equal(texts, wide) {
		t.Error("the export over a quarter of the run writes what the whole view does")
	}
	if f, tt := v.Range(); f != from || tt != to {
		t.Errorf("the view's range moved to [%d, %d]", f, tt)
	}
}

// TestLegendSaysWhatItLeavesOut: a frame too narrow for its legend draws
// whole lines only, and the last ends with how many items are left out;
// a wide one draws every item and no such count.
func TestLegendSaysWhatItLeavesOut(t *testing.T) {
	count := func(w int) (names int, more string) {
		v := tinyView(t)
		v.SetSize(w, 1400, 1)
		svg := paint.NewSVG(w, 1400)
		v.Draw(svg)
		doc := string(svg.Bytes())
		for _, it := range v.legendItems() {
			if strings.Contains(doc, ">"+it.name+"<") {
				names++
			}
		}
		if i := strings.Index(doc, " more<"); i >= 0 {
			more = doc[strings.LastIndex(doc[:i], ">")+1 : i+len(" more")]
		}
		return names, more
	}
	all := len(tinyView(t).legendItems())
	if n, more := count(4000); n != all || more != "" {
		t.Errorf("wide frame: %d of %d legend items, %q", n, all, more)
	}
	n, more := count(420)
	if n == 0 || n >= all {
		t.Fatalf("narrow frame: %d of %d legend items drawn", n, all)
	}
	if want := "+" + itoa(uint32(all-n)) + " more"; more != want {
		t.Errorf("narrow frame says %q, want %q", more, want)
	}
	// Its tooltip lists what is left out; the strip's bottom edge, where
	// the next line would begin, belongs to no item.
	v := tinyView(t)
	v.SetSize(420, 1400, 1)
	f := v.newFrame(paint.NewSVG(v.w, v.h), v.geometry(), 0, 1000, 0, false, true)
	items, _, shown, _, moreBox := f.legendShown()
	h := v.Hit(float64(moreBox.Min.X+1), float64(moreBox.Min.Y+moreBox.Dy()/2))
	if len(h.Tip) != 1+len(items)-shown || h.Tip[len(h.Tip)-1] != items[len(items)-1].name {
		t.Errorf("tooltip of %q = %q, want the %d items left out", more, h.Tip, len(items)-shown)
	}
	lg := v.LegendRect()
	for x := lg.Min.X; x < lg.Max.X; x += 3 {
		if h := v.Hit(float64(x), float64(lg.Max.Y-1)); h.Name != "" || h.HasTime {
			t.Fatalf("the legend's bottom edge at x %d is item %q, or has a time (%v)", x, h.Name, h.HasTime)
		}
	}
}

// TestLegendNamesOnlyWhatTheLogHolds checks the legend's state and event
// entries against the marks and instants of the model, read one by one:
// each entry occurs in the log, and each state and event kind that occurs
// has its entry.
func TestLegendNamesOnlyWhatTheLogHolds(t *testing.T) {
	for name, v := range map[string]*View{"tiny": tinyView(t), "synth": New(timeline.Exact(synthModel(3, 40, 4000)))} {
		v.SetSize(4000, 1400, 1)
		m := v.overview()
		held := map[paint.Ink]bool{}
		marks := func(tr *timeline.Track) {
			for j := 0; j < tr.Len(); j++ {
				if mk := tr.Mark(j); j+1 < tr.Len() || mk.Time < m.End {
					held[stateInk(mk.State, mk.Reason)] = true
				}
			}
		}
		for i := range m.HECs {
			marks(&m.HECs[i].Track)
			m.HECs[i].InstantsIn(0, m.End+1, func(in timeline.Instant) bool {
				held[instantInk(in.Kind)] = true
				return true
			})
		}
		for i := range m.NumThreads() {
			marks(new(m.Thread(i).Track))
		}
		listed := map[paint.Ink]bool{}
		for _, it := range v.legendItems() {
			if it.ink < paint.NumInks && (it.ink.State() || it.ink < paint.InkMarker) {
				listed[it.ink] = true
				if !held[it.ink] {
					t.Errorf("%s: the legend names %q, which the log does not hold", name, it.name)
				}
			}
		}
		for k := range held {
			if drawn(k) && k != paint.InkMarker && !listed[k] {
				t.Errorf("%s: the log holds %q, which the legend does not name", name, k.Name())
			}
		}
		if len(listed) < 3 {
			t.Errorf("%s: the legend names %d states and events", name, len(listed))
		}
	}
}

// heapProfileView returns a 1600×1000 view of the log at path with its
// heap and heap profile.
func heapProfileView(t *testing.T, path string) *View {
	t.Helper()
	lg, err := eventlog.Open(context.Background(), path, eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lg.Close() })
	v := New(lg)
	v.SetHeap(lg.Heap, lg.Profile)
	v.SetSize(1600, 1000, 1)
	return v
}

// TestBandOrder opens a heap profile, stacks its bands by name and by
// growth, and checks the bands are stacked (names sorted, or
// the fastest-growing first), and that going back by size gives the first
// order again.
func TestBandOrder(t *testing.T) {
	v := heapProfileView(t, "../testdata/ghc-9.0.2/heap-hT.eventlog")
	bands := func() (names []string) {
		for b := range v.bands.Len() {
			names = append(names, v.bands.Name(b))
		}
		return names
	}
	bySize := bands()
	if len(bySize) < 5 || v.BandOrder() != heapview.BySize {
		t.Fatalf("bands %q, order %v", bySize, v.BandOrder())
	}
	v.SetBandOrder(heapview.ByName)
	byName := bands()
	named := byName[:len(byName)-1] // OTHER last
	if !slices.IsSorted(named) || byName[len(byName)-1] != heapview.OtherName || slices.Equal(byName, bySize) {
		t.Errorf("by name: %q (by size %q)", byName, bySize)
	}
	v.SetBandOrder(heapview.ByGrowth)
	byGrowth := bands()
	for b := 1; b < v.bands.Len()-1; b++ {
		if v.bands.Growth(b) > v.bands.Growth(b-1) {
			t.Errorf("by growth: %q grows faster than %q before it", byGrowth[b], byGrowth[b-1])
		}
	}
	v.SetBandOrder(heapview.BySize)
	if again := bands(); !slices.Equal(again, bySize) {
		t.Errorf("by size again: %q, first %q", again, bySize)
	}
}

// TestBandModes draws a heap profile's bands in each mode and checks,
// through the hit-testing, that they are where the mode puts them: in the
// column of the smallest profile, normalised bands reach the top of the
// track while stacked ones stay low; drawn as lines, fewer pixels of the
// column belong to a band than when stacked.
func TestBandModes(t *testing.T) {
	v := heapProfileView(t, "../testdata/ghc-9.0.2/heap-hT.eventlog")
	id := TrackID{KindBands, 0}
	if !v.Reveal(id) {
		t.Fatal("no heap-profile track")
	}
	r, _ := v.TrackRect(id)
	// The column whose profile is smallest, and not empty.
	xs, least := -1, uint64(math.MaxUint64)
	for x := v.PlotRect().Min.X + 2; x < v.PlotRect().Max.X-2; x++ {
		vals, ok := v.bands.ValuesAt(v.Time(float64(x)+0.5), nil)
		var tot uint64
		for _, b := range vals {
			tot += b
		}
		if ok && tot > 0 && tot < least {
			xs, least = x, tot
		}
	}
	if xs < 0 {
		t.Fatal("no column with a profile")
	}
	// hits returns the first y of the column in a band, and how many are.
	hits := func(m heapview.Mode) (first, n int) {
		v.SetBandMode(m)
		first = -1
		for y := r.Min.Y; y < r.Max.Y; y++ {
			if h := v.Hit(float64(xs)+0.5, float64(y)+0.5); h.Element == ElemBand && len(h.Tip) == 3 {
				if first < 0 {
					first = y
				}
				n++
			}
		}
		return first, n
	}
	areaTop, areaN := hits(heapview.ModeArea)
	normTop, normN := hits(heapview.ModeNormalised)
	_, linesN := hits(heapview.ModeLines)
	if areaN == 0 || normTop < 0 || normTop > r.Min.Y+r.Dy()/6 || normTop >= areaTop {
		t.Errorf("the smallest profile's bands start at y %d stacked (%d px), %d normalised, in a track from %d to %d", areaTop, areaN, normTop, r.Min.Y, r.Max.Y)
	}
	if linesN == 0 || linesN >= normN {
		t.Errorf("as lines %d px of the column are a band's, normalised %d", linesN, normN)
	}
	if v.BandMode() != heapview.ModeLines {
		t.Errorf("mode %v", v.BandMode())
	}
}

// TestLegendNamesOnlyTheSparksTheLogCounts: parwork-N2's HECs count dud
// sparks but no overflowed ones (its Sparks tab: 700 and 0), so its legend
// names the first and not the second; advise-gc's HECs log the RTS's
// spark counters at each GC but count no spark, so its legend names none
// of the spark curves nor the pool.
func TestLegendNamesOnlyTheSparksTheLogCounts(t *testing.T) {
	names := func(v *View) map[string]bool {
		v.SetSize(4000, 1400, 1)
		v.SetCollapsed(GroupSparks, false)
		got := map[string]bool{}
		for _, it := range v.legendItems() {
			got[it.name] = true
		}
		return got
	}
	got := names(New(timeline.Exact(realModel(t, "../testdata/ghc-9.0.2/parwork-N2.eventlog"))))
	for _, k := range []timeline.SparkKind{timeline.SparkCreated, timeline.SparkDud} {
		if !got[sparkInk(k).Name()] {
			t.Errorf("parwork-N2's legend leaves out %q, which its HECs count", sparkInk(k).Name())
		}
	}
	if n := sparkInk(timeline.SparkOverflowed).Name(); got[n] {
		t.Errorf("parwork-N2's legend names %q, of which its HECs count none", n)
	}
	if !got[paint.InkSparkPool.Name()] {
		t.Errorf("parwork-N2's legend leaves out %q", paint.InkSparkPool.Name())
	}
	m := realModel(t, "../testdata/ghc-9.0.2/advise-gc.eventlog")
	if m.HECs[0].NumSparkSamples() == 0 {
		t.Fatal("advise-gc has no spark counters")
	}
	got = names(New(timeline.Exact(m)))
	for _, k := range sparkCurves {
		if n := sparkInk(k).Name(); got[n] {
			t.Errorf("advise-gc's legend names %q, of which its HECs count none", n)
		}
	}
	if got[paint.InkSparkPool.Name()] {
		t.Errorf("advise-gc's legend names %q", paint.InkSparkPool.Name())
	}
}

// TestGCTextWithoutStats: a GC whose statistics the log lacks (GHC before
// 7.6) is not called minor, gen 0: its generation is not in the log.
func TestGCTextWithoutStats(t *testing.T) {
	for _, c := range []struct {
		g    heapview.GC
		want string
	}{
		{heapview.GC{Start: 0, End: 100}, "GC (generation not logged), pause 100 ns"},
		{heapview.GC{Start: 0, End: 100, HasStats: true}, "minor GC (gen 0), pause 100 ns"},
		{heapview.GC{Start: 0, End: 100, HasStats: true, Gen: 1}, "major GC (gen 1), pause 100 ns"},
	} {
		if got := gcText(&c.g); got != c.want {
			t.Errorf("%+v: %q, want %q", c.g, got, c.want)
		}
	}
}
