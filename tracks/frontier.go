package tracks

import (
	"image"
	"math"

	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// This file draws and describes what the model does not know: each
// capability is known up to its frontier (timeline.HEC.Frontier), and from
// there to the run's end its HEC, the threads last on it, the activity
// and the GC track show a hatch (paint.Hatch) rather than its last state.

// hatch draws the hatch of unknown time over [x0, x1) × [y0, y1).
func (f *frame) hatch(x0, x1, y0, y1 int) {
	paint.Hatch(f.c, image.Rect(x0, y0, x1, y1), f.th.Unknown, f.th.UnknownHatch, px(paint.HatchStep, f.s))
}

// hatchColumns hatches each plot column i from top down to bottom(i)
// (paint.HatchColumns).
func (f *frame) hatchColumns(top int, bottom func(i int) int) {
	paint.HatchColumns(f.c, f.g.plot.Min.X, f.n, top, bottom, f.th.Unknown, f.th.UnknownHatch, px(paint.HatchStep, f.s))
}

// hatchRuns hatches [top, bottom) of each plot column i for which
// unknown(i) holds.
func (f *frame) hatchRuns(top, bottom int, unknown func(i int) bool) {
	f.hatchColumns(top, func(i int) int {
		if unknown(i) {
			return bottom
		}
		return top
	})
}

// drawFrontier marks, on a row from y0 to y1, where a cut log's data for a
// capability ends (its frontier fr), when that lies in view before the
// run's end. A log still being read has no mark: its hatch says that more
// is to come.
func (f *frame) drawFrontier(fr uint64, y0, y1 int) {
	if !f.m.Cut || fr >= f.m.End || fr < f.from || fr > f.to {
		return
	}
	x := math.Round(f.ax.X(fr))
	w := float64(max(px(2, f.s), 1))
	f.c.Fill(image.Rect(int(x-w/2), y0, int(x+w/2), y1), f.th.Frontier)
}

// earliestFrontier returns the earliest of the model's capabilities'
// frontiers: up to there every capability is known.
func earliestFrontier(m *timeline.Model) uint64 {
	e := m.End
	for i := range m.HECs {
		e = min(e, m.HECs[i].Frontier())
	}
	return e
}

// unknownTip is the tooltip of time past capability c's frontier fr, for
// a track titled title: "not received yet" while the log is still being
// read, "log ends here" for a cut log, and how far behind the capability
// known furthest it is.
func (f *frame) unknownTip(title string, c int32, fr uint64) []string {
	tip := []string{title}
	if f.m.Growing {
		tip = append(tip, "not received yet: HEC "+itoa(uint32(c))+" known up to "+f.when(fr))
	} else {
		tip = append(tip, "log ends here: no data from HEC "+itoa(uint32(c))+" after "+f.when(fr))
	}
	return append(tip, behindText(f.m, c, fr))
}

// behindText says how far capability c, known up to fr, is behind the
// capability known furthest ("HEC 1: 5.02 s behind HEC 0"), or behind the
// run's latest event when no capability is ahead of it.
func behindText(m *timeline.Model, c int32, fr uint64) string {
	lead, at := m.Lead()
	if lead >= 0 && m.HECs[lead].Cap != c && at > fr {
		return "HEC " + itoa(uint32(c)) + ": " + paint.Duration(at-fr) + " behind HEC " + itoa(uint32(m.HECs[lead].Cap))
	}
	return "HEC " + itoa(uint32(c)) + ": " + paint.Duration(m.End-min(fr, m.End)) + " behind the latest event"
}
