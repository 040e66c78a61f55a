package tracks

import (
	"image"
	"image/color"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// legendMaxLines is how many lines of legend a frame shows at most (an
// export shows all of them); what does not fit is counted in a "+N more".
const legendMaxLines = 2

// legendLines is how many lines of legend the frame shows: legendMaxLines,
// fewer when they would take more than an eighth of its height (a small
// window, or a large scale), at least one.
func (v *View) legendLines() int {
	lineH := paint.FaceFor(paint.Regular, smallPt, v.scale).Height() + px(6, v.scale)
	return max(1, min(legendMaxLines, v.h/(8*max(lineH, 1))))
}

// legendItem is one entry of the legend: a swatch and its one name.
type legendItem struct {
	ink  paint.Ink // paint.NumInks for the hatch
	name string
	col  color.RGBA
	line bool // a line's swatch, not a box's
	// hatch: the hatch of time not known (past a capability's frontier),
	// not a colour.
	hatch bool
}

// legendCache keeps the legend's items for a layout version.
type legendCache struct {
	version int
	ov      *timeline.Model
	dark    bool
	unknown string // the name of the hatch's entry, "" without one
	items   []legendItem
}

// presentCache keeps which inks a model holds (presentInks), which a
// change of layout (a group opened) does not change: finding them reads
// every thread's track, 1.6 M of them in storm170.
type presentCache struct {
	ov      *timeline.Model
	present [paint.NumInks]bool
}

// legendItems returns the legend's entries: every state and event the log
// holds once, by its one name, for the groups shown.
func (v *View) legendItems() []legendItem {
	if v.noLegend {
		return nil
	}
	l := v.ensureLayout()
	ov := v.overview()
	unknown := unknownName(ov)
	if c := &v.legendCache; c.items != nil && c.version == l.version && c.ov == ov && c.dark == v.theme.Dark && c.unknown == unknown {
		return c.items
	}
	if v.present.ov != ov || ov == nil {
		v.present = presentCache{ov: ov, present: presentInks(ov)}
	}
	present := v.present.present
	shown := [NumGroups]bool{}
	for _, r := range l.rows {
		shown[r.group] = shown[r.group] || !r.title
	}
	for _, r := range l.pinned {
		shown[r.group] = true
	}
	var items []legendItem
	add := func(line bool, inks ...paint.Ink) {
		for _, k := range inks {
			items = append(items, legendItem{ink: k, name: k.Name(), col: v.theme.Ink(k), line: line})
		}
	}
	// addPresent adds the inks of states and instants the log holds.
	addPresent := func(inks ...paint.Ink) {
		for _, k := range inks {
			if present[k] {
				add(false, k)
			}
		}
	}
	if shown[GroupActivity] || shown[GroupHECs] || shown[GroupThreads] {
		addPresent(paint.InkRunning)
	}
	if shown[GroupThreads] {
		addPresent(paint.InkRunnable, paint.InkBlockedMVar, paint.InkBlockedBlackHole, paint.InkBlockedSTM,
			paint.InkBlockedIO, paint.InkForeignCall, paint.InkBlockedThrowTo, paint.InkBlocked)
	}
	if shown[GroupActivity] || shown[GroupHECs] {
		addPresent(paint.InkGCSync, paint.InkGCWork, paint.InkGCIdle, paint.InkGCDone)
	}
	if unknown != "" && (shown[GroupActivity] || shown[GroupHECs] || shown[GroupThreads] || shown[GroupGC]) {
		items = append(items, legendItem{ink: paint.NumInks, name: unknown, hatch: true})
	}
	if shown[GroupHECs] {
		addPresent(paint.InkCreateThread, paint.InkMigrate, paint.InkWakeup, paint.InkSeqGCRequest,
			paint.InkParGCRequest, paint.InkShutdown, paint.InkUserMessage, paint.InkLogMessage)
	}
	if shown[GroupSparks] {
		curves, pool := presentSparks(ov)
		for i, k := range sparkCurves {
			if curves[i] {
				add(true, sparkInk(k))
			}
		}
		if pool {
			add(false, paint.InkSparkPool)
		}
	}
	if shown[GroupUser] {
		if ov := v.overview(); ov != nil && ov.NumMarkers() > 0 {
			add(false, paint.InkMarker)
		}
		if len(v.bookmarks) > 0 {
			add(false, paint.InkBookmark)
		}
	}
	if shown[GroupHeap] {
		for _, hl := range v.heapLines() {
			add(true, hl.ink)
		}
		if v.heap != nil && v.heap.Allocated.Len() > 1 && !v.hidden[TrackID{KindAlloc, 0}] {
			add(true, paint.InkHeapAllocated)
		}
		// The heap profile's bands are named beside their track
		// (drawBandLegend).
	}
	if shown[GroupGC] {
		add(false, paint.InkMinorGC, paint.InkMajorGC)
	}
	v.legendCache = legendCache{version: l.version, ov: ov, dark: v.theme.Dark, unknown: unknown, items: items}
	return items
}

// markScanLimit bounds the marks of thread tracks presentInks reads to
// find on what threads blocked; past it, every reason of blocking counts
// as present where a thread spent time blocked.
const markScanLimit = 1 << 20

// presentSparks reports which of the spark curves some HEC of m counts
// at least one spark of (from its spark events when it has any, else from
// its counters' last sample), and whether some HEC's spark pool ever held
// a spark (past markScanLimit samples, assumed so).
func presentSparks(m *timeline.Model) (curves [len(sparkCurves)]bool, pool bool) {
	if m == nil {
		return curves, false
	}
	budget := markScanLimit
	for i := range m.HECs {
		h := &m.HECs[i]
		n := h.NumSparkSamples()
		for ki, k := range sparkCurves {
			switch {
			case h.HasSparkEvents():
				c := h.Sparks(k, m.Start, m.End+1)
				if k == timeline.SparkConverted {
					c += h.Sparks(timeline.SparkStolen, m.Start, m.End+1)
				}
				curves[ki] = curves[ki] || c > 0
			case n > 0:
				last := h.SparkSample(n - 1)
				curves[ki] = curves[ki] || sampleCount(&last, k) > 0
			}
		}
		if pool || n == 0 {
			continue
		}
		if n > budget {
			pool = true
			continue
		}
		budget -= n
		for j := 0; j < n && !pool; j++ {
			pool = h.SparkSample(j).Pool > 0
		}
	}
	return curves, pool
}

// presentInks reports which state and instant inks m holds: the states
// its HECs and threads spend time in (blocked ones by their reason) and
// the kinds of instant events on its HECs.
func presentInks(m *timeline.Model) [paint.NumInks]bool {
	in, _ := inksOf(m, true, markScanLimit)
	return in
}

// inksOf is presentInks, which reads the sum of the settled threads
// instead of their tracks if it may (settled; it reports whether it did),
// with limit for markScanLimit.
func inksOf(m *timeline.Model, settled bool, limit int) (in [paint.NumInks]bool, summed bool) {
	if m == nil {
		return in, false
	}
	states := func(d timeline.Durations) {
		for s := timeline.State(0); s < timeline.NumStates; s++ {
			if d[s] > 0 && s != timeline.StateBlocked {
				in[stateInk(s, 0)] = true
			}
		}
	}
	for i := range m.HECs {
		h := &m.HECs[i]
		states(h.Track.Durations(m.Start, m.End))
		ax := timeline.NewAxis(m.Start, m.End+1, 0, 1024)
		for _, c := range h.InstantColumns(ax, 1024, nil) {
			for k := timeline.InstantKind(0); k < timeline.NumInstantKinds; k++ {
				if c.Kinds&(1<<k) != 0 && k != timeline.InstantUserMarker {
					in[instantInk(k)] = true
				}
			}
		}
	}
	budget := limit
	threads := m.Threads()
	if settled && settledInks(m, &in) {
		threads, summed = m.UnsettledThreads(), true
	}
	for _, th := range threads {
		tr := &th.Track
		d := tr.Durations(m.Start, m.End)
		states(d)
		if d[timeline.StateBlocked] == 0 {
			continue
		}
		if tr.Len() > budget {
			for k := paint.InkBlockedMVar; k <= paint.InkBlocked; k++ {
				in[k] = true
			}
			continue
		}
		budget -= tr.Len()
		for j := 0; j < tr.Len(); j++ {
			if mk := tr.Mark(j); mk.State == timeline.StateBlocked {
				in[blockedInk(mk.Stop())] = true
			}
		}
	}
	return in, summed
}

// settledInks adds to in the inks of m's settled threads
// (timeline.SettledStates): what a walk over all of their tracks finds,
// however many blocked marks they hold, since the sum kept the reason of
// each (storm170's 1.55 M blocked marks, past markScanLimit, made the
// walk name every reason of blocking where the log has one). It reports
// false, adding nothing, where the sum cannot stand for those tracks: in
// a model not known to its end (a track's end is then its capability's
// frontier), or where some of their time lies outside the run or after a
// last mark other than their finish.
func settledInks(m *timeline.Model, in *[paint.NumInks]bool) bool {
	st := m.SettledStates()
	if st.Threads == 0 || m.Partial() || st.FirstMin < m.Start || st.LastMax > m.End || st.Last != 1<<timeline.StateFinished {
		return false
	}
	// Each track's time: from the run's start idle until its first mark,
	// between its marks what Spent says, then finished until the run's end.
	for s := timeline.State(0); s < timeline.NumStates; s++ {
		if st.Spent&(1<<s) != 0 && s != timeline.StateBlocked {
			in[stateInk(s, 0)] = true
		}
	}
	if st.FirstMax > m.Start {
		in[stateInk(timeline.StateIdle, 0)] = true
	}
	if st.LastMin < m.End {
		in[stateInk(timeline.StateFinished, 0)] = true
	}
	if st.Spent&(1<<timeline.StateBlocked) == 0 {
		return true
	}
	for r := range 256 {
		if st.HasStop(uint8(r)) {
			in[blockedInk(ingest.StopStatus(r))] = true
		}
	}
	return true
}

// unknownName names the hatch in the legend of a model some of whose
// capabilities are not known to its end: "not received yet" while the log
// is still read, "no data (log cut)" for a cut log; "" for a model known
// to the end.
func unknownName(m *timeline.Model) string {
	switch {
	case m == nil || !m.Partial():
		return ""
	case m.Growing:
		return "not received yet"
	}
	return "no data (log cut)"
}

// legendLayout places the legend's items in rows across width w at scale
// s, and returns each item's box (relative to the legend's top left) and
// the number of lines.
func legendLayout(items []legendItem, w int, s float64) ([]image.Rectangle, int) {
	face := paint.FaceFor(paint.Regular, smallPt, s)
	lineH := face.Height() + px(6, s)
	box := px(10, s)
	x, y := px(8, s), px(4, s)
	lines := 0
	if len(items) > 0 {
		lines = 1
	}
	out := make([]image.Rectangle, len(items))
	for i, it := range items {
		iw := box + px(4, s) + face.Width(it.name)
		if x+iw > w-px(8, s) && x > px(8, s) {
			x = px(8, s)
			y += lineH
			lines++
		}
		out[i] = image.Rect(x, y, x+iw, y+lineH)
		x += iw + px(14, s)
	}
	return out, lines
}

// legendHeight returns the height of a legend of at most maxLines lines
// (0 for no limit) across width w.
func (v *View) legendHeight(w, maxLines int) int {
	items := v.legendItems()
	if len(items) == 0 {
		return 0
	}
	_, lines := legendLayout(items, w, v.scale)
	if maxLines > 0 {
		lines = min(lines, maxLines)
	}
	face := paint.FaceFor(paint.Regular, smallPt, v.scale)
	return lines*(face.Height()+px(6, v.scale)) + px(8, v.scale)
}

// legendShown lays the legend out in its strip: the items and their boxes
// (in device pixels), how many of them are shown, and, when some do not
// fit, the "+N more" that ends the last line shown and its box. Only whole
// lines are shown (an export shows them all).
func (f *frame) legendShown() (items []legendItem, boxes []image.Rectangle, shown int, more string, moreBox image.Rectangle) {
	return f.v.legendIn(f.g.legend, f.s, f.small)
}

// legendIn lays the legend out in strip a at scale s, its names in face
// small: see frame.legendShown.
func (v *View) legendIn(a image.Rectangle, s float64, small *paint.Face) (items []legendItem, boxes []image.Rectangle, shown int, more string, moreBox image.Rectangle) {
	items = v.legendItems()
	boxes, _ = legendLayout(items, a.Dx(), s)
	for i := range boxes {
		boxes[i] = boxes[i].Add(a.Min)
	}
	shown = len(items)
	for shown > 0 && boxes[shown-1].Max.Y > a.Max.Y {
		shown--
	}
	if shown == len(items) {
		return items, boxes, shown, "", image.Rectangle{}
	}
	for ; shown > 0; shown-- {
		more = "+" + itoa(uint32(len(items)-shown)) + " more"
		last := boxes[shown-1]
		x := last.Max.X + px(14, s)
		if x+small.Width(more) <= a.Max.X-px(8, s) {
			return items, boxes, shown, more, image.Rect(x, last.Min.Y, x+small.Width(more), last.Max.Y)
		}
	}
	return items, boxes, 0, "", image.Rectangle{}
}

// LegendShown returns the legend as the frame shows it: its entries' names
// in the order drawn, a "+N more" last when some do not fit, and the
// number of lines they take.
func (v *View) LegendShown() (lines int, entries []string) {
	g := v.geometry()
	items, boxes, shown, more, _ := v.legendIn(g.legend, v.scale, paint.FaceFor(paint.Regular, smallPt, v.scale))
	lastY := -1 << 30
	for i, it := range items[:shown] {
		entries = append(entries, it.name)
		if boxes[i].Min.Y != lastY {
			lines++
			lastY = boxes[i].Min.Y
		}
	}
	if more != "" {
		entries = append(entries, more)
		if shown == 0 {
			lines = 1
		}
	}
	return lines, entries
}

// drawLegend draws the legend in its strip.
func (f *frame) drawLegend() {
	a := f.g.legend
	if a.Empty() {
		return
	}
	c := f.c
	c.PushClip(a)
	defer c.PopClip()
	c.Fill(a, f.th.Header)
	c.Fill(image.Rect(a.Min.X, a.Min.Y, a.Max.X, a.Min.Y+1), f.th.Rule)
	items, boxes, shown, more, moreBox := f.legendShown()
	box := px(10, f.s)
	if more != "" {
		mid := float64(moreBox.Min.Y+moreBox.Max.Y) / 2
		c.Text(f.small, more, moreBox.Min.X, f.small.Baseline(mid), f.th.Dim)
	}
	for i, it := range items[:shown] {
		r := boxes[i]
		mid := float64(r.Min.Y+r.Max.Y) / 2
		sw := image.Rect(r.Min.X, int(mid)-box/2, r.Min.X+box, int(mid)-box/2+box)
		if it.hatch {
			paint.Hatch(c, sw, f.th.Unknown, f.th.UnknownHatch, px(3, f.s))
			paint.StrokeRect(c, sw, paint.WithAlpha(f.th.Text, 0x40))
		} else if it.line {
			c.Fill(image.Rect(sw.Min.X, int(mid)-max(1, px(1, f.s)), sw.Max.X, int(mid)+max(1, px(1, f.s))), it.col)
		} else {
			c.Fill(sw, it.col)
			paint.StrokeRect(c, sw, paint.WithAlpha(f.th.Text, 0x40))
		}
		c.Text(f.small, it.name, sw.Max.X+px(4, f.s), f.small.Baseline(mid), f.th.Text)
	}
}
