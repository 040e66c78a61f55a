package tracks

import (
	"image"
	"image/color"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/hecscope/hecscope/advise"
	"github.com/hecscope/hecscope/paint"
)

// findingFlag is one finding flagged on the axis: at its start, with its
// index in the list SetFindings was given.
type findingFlag struct {
	f     advise.Finding
	index int
}

// SetFindings flags fs (package advise's findings, in the order a list
// shows them) along the top of the time axis: a flag at each finding's
// start coloured by its severity, those within a few pixels of each other
// one flag with their count, in the colour of the most severe. Hit tells
// which findings a flag holds; nil removes the flags.
func (v *View) SetFindings(fs []advise.Finding) {
	v.findings = v.findings[:0]
	for i, f := range fs {
		v.findings = append(v.findings, findingFlag{f: f, index: i})
	}
	sort.SliceStable(v.findings, func(i, j int) bool { return v.findings[i].f.From < v.findings[j].f.From })
}

// severityInk is the ink of a finding's severity.
func severityInk(s advise.Severity) paint.Ink {
	switch s {
	case advise.Problem:
		return paint.InkFindingProblem
	case advise.Warning:
		return paint.InkFindingWarning
	}
	return paint.InkFindingInfo
}

// findingClusters returns the flags of the findings.
func (f *frame) findingClusters() []cluster {
	fs := f.v.findings
	if len(fs) == 0 {
		return nil
	}
	return f.clusters(len(fs), func(i int) uint64 { return fs[i].f.From },
		func(t uint64) int { return sort.Search(len(fs), func(i int) bool { return fs[i].f.From >= t }) }, clusterGap*f.s)
}

// findingBand returns the strip along the top of the axis where the
// findings' flags go, above the tick labels.
func (f *frame) findingBand() image.Rectangle {
	a := f.g.axis
	return image.Rect(f.g.plot.Min.X, a.Min.Y, f.g.plot.Max.X, a.Min.Y+max(px(9, f.s), 6))
}

// findingRect returns where the flag of a cluster of n findings at x is
// drawn in band: a pennant a little larger than a marker's, or a box wide
// enough for the count.
func (f *frame) findingRect(x float64, n int, band image.Rectangle) image.Rectangle {
	w := px(9, f.s)
	if n > 1 {
		w = max(w, f.small.Width(paint.CountShort(float64(n)))+px(6, f.s))
	}
	xi := int(math.Floor(x))
	return image.Rect(xi, band.Min.Y, xi+w, band.Max.Y)
}

// worst returns the most severe of cluster c's findings.
func (f *frame) worst(c cluster) advise.Severity {
	var s advise.Severity
	for _, ff := range f.v.findings[c.first : c.first+c.n] {
		s = max(s, ff.f.Severity)
	}
	return s
}

// drawFindingFlags draws a flag per cluster of findings in the axis's top
// band: a pennant off a staff at the finding's start, or a box with the
// count of a cluster, in the colour of the most severe finding, with a
// darker rim so that the amber stands out on a light axis too.
func (f *frame) drawFindingFlags() {
	cs := f.findingClusters()
	if len(cs) == 0 {
		return
	}
	band := f.findingBand()
	f.c.PushClip(image.Rect(band.Min.X, f.g.axis.Min.Y, band.Max.X, f.g.axis.Max.Y))
	defer f.c.PopClip()
	y0, y1 := band.Min.Y, band.Max.Y
	for _, c := range cs {
		col := f.th.Ink(severityInk(f.worst(c)))
		rim := paint.Mix(col, color.RGBA{A: 0xff}, 0.35)
		r := f.findingRect(c.x, c.n, band)
		x0, x1 := float64(r.Min.X), float64(r.Max.X)
		if c.n > 1 {
			f.c.Fill(r, col)
			edge := []paint.Point{{X: x0 + 0.5, Y: float64(y0) + 0.5}, {X: x1 - 0.5, Y: float64(y0) + 0.5},
				{X: x1 - 0.5, Y: float64(y1) - 0.5}, {X: x0 + 0.5, Y: float64(y1) - 0.5}, {X: x0 + 0.5, Y: float64(y0) + 0.5}}
			f.c.Polyline(edge, 1, rim)
			paint.TextCentered(f.c, f.small, paint.CountShort(float64(c.n)), (x0+x1)/2, float64(y0+y1)/2, paint.TextOn(col))
			continue
		}
		pennant := []paint.Point{{X: x0, Y: float64(y0)}, {X: x1, Y: float64(y0+y1) / 2}, {X: x0, Y: float64(y1)}}
		f.c.Polygon(pennant, col)
		f.c.Polyline(append(pennant, pennant[0]), 1, rim)
		f.c.Fill(image.Rect(r.Min.X, y0, r.Min.X+1, y1), rim)
	}
}

// hitFindings fills in the flag of findings under x, if any: its
// findings' indices (in the list SetFindings was given, in that order),
// their extent, and a tooltip with the title of each.
func (f *frame) hitFindings(h *Hit, x int) bool {
	band := f.findingBand()
	for _, c := range f.findingClusters() {
		r := f.findingRect(c.x, c.n, band)
		if x < r.Min.X-px(2, f.s) || x >= r.Max.X+px(1, f.s) {
			continue
		}
		// In the list's order: the most severe first.
		members := slices.Clone(f.v.findings[c.first : c.first+c.n])
		slices.SortFunc(members, func(a, b findingFlag) int { return a.index - b.index })
		h.Element, h.Anchor, h.Findings = ElemFinding, r, nil
		h.From, h.To = members[0].f.From, members[0].f.To
		for _, m := range members {
			h.Findings = append(h.Findings, m.index)
			h.From, h.To = min(h.From, m.f.From), max(h.To, m.f.To)
		}
		if c.n == 1 {
			fd := members[0].f
			h.Tip = []string{fd.Title, findingLine(fd, f.when), "click to see its evidence"}
			return true
		}
		h.Tip = []string{paint.Count(int64(c.n)) + " findings"}
		for _, m := range members[:min(len(members), maxTipFindings)] {
			h.Tip = append(h.Tip, "· "+strings.ToUpper(m.f.Severity.String())+": "+m.f.Title)
		}
		if c.n > maxTipFindings {
			h.Tip = append(h.Tip, "…")
		}
		h.Tip = append(h.Tip, "click to see the most severe, again for the next")
		return true
	}
	return false
}

// maxTipFindings is how many findings a cluster's tooltip names.
const maxTipFindings = 8

// findingLine says a finding's severity, kind and range: "problem ·
// sequential · 222 ms – 774 ms".
func findingLine(fd advise.Finding, when func(uint64) string) string {
	return fd.Severity.String() + " · " + string(fd.Kind) + " · " + when(fd.From) + " – " + when(fd.To)
}

// FindingTracks returns the tracks of the run that show finding fd (its
// Tracks), the one to reveal first: the heap's, the GC pauses, the HECs'
// sparks, the HECs' states and activity, then its threads.
func (v *View) FindingTracks(fd *advise.Finding) []TrackID {
	t := &fd.Tracks
	var want []TrackID
	if t.Heap {
		want = append(want, TrackID{KindHeap, 0})
	}
	if t.GC {
		want = append(want, TrackID{KindGC, 0})
	}
	for _, k := range []Kind{KindSparks, KindHEC, KindHECActivity} {
		if k == KindSparks && !t.Sparks {
			continue
		}
		for _, c := range t.Caps {
			want = append(want, TrackID{k, uint32(c)})
		}
	}
	for _, id := range t.Threads {
		want = append(want, TrackID{KindThread, id})
	}
	var out []TrackID
	sets := map[Group][]TrackID{}
	ov := v.overview()
	for _, id := range want {
		if id.Kind == KindThread {
			if ov != nil && ov.ThreadByID(id.ID) != nil {
				out = append(out, id)
			}
			continue
		}
		g := id.Kind.group()
		if _, ok := sets[g]; !ok {
			sets[g] = v.trackSet(g)
		}
		if slices.Contains(sets[g], id) {
			out = append(out, id)
		}
	}
	return out
}
