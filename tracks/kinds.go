package tracks

import (
	"image"

	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/timeline"
)

// kind is what a track kind is and does, set out in one place as a row of
// the kinds table: its group, height and name, which tracks of it a run
// has, and how one of them is drawn and hit-tested. The view asks the row
// of a track's kind; nothing else switches on the kind.
type kind struct {
	group Group
	// height is a track's height in points before the user resizes it;
	// rows, if set, gives it in rows of userRowPt instead.
	height float64
	rows   func(v *View, id uint32) int
	// list returns the tracks of the kind the run has, in their order.
	list func(v *View) []TrackID
	// name is a track's full name, as its header shows it.
	name func(v *View, id uint32) string
	// note, if set, is the header's second line, where it has room.
	note func(f *frame, id uint32) string
	// side, if set, draws more of the header in r, under its name and
	// note, where the track is tall enough: the heap profile's legend.
	side func(f *frame, id uint32, r image.Rectangle)
	// heapOnly says the kind's tracks are drawn from the heap alone: they
	// are hit-tested in a view without a run too.
	heapOnly bool
	// columns says which pixel columns frame.prepare computes for the
	// kind's tracks before they are drawn.
	columns columnNeed
	// draw draws a track's content in the plot between y0 and y1; hit
	// fills in the element at plot column col and device y.
	draw func(f *frame, id uint32, y0, y1 int)
	hit  func(f *frame, h *Hit, id uint32, col, y, y0, y1 int)
}

// columnNeed is which state columns a kind's tracks are drawn from.
type columnNeed uint8

const (
	noColumns     columnNeed = iota
	hecColumns               // every HEC's (frame.hecCols)
	threadColumns            // the track's thread's
)

// numKinds bounds the kinds table (the kinds start at 1).
const numKinds = KindGC + 1

// kinds is the kinds table, by Kind; filled in by init, since its
// functions reach back to it.
var kinds [numKinds]kind

// info returns the row of the kinds table of k (a zero row for a kind
// that is none).
func (k Kind) info() *kind {
	if k < numKinds {
		return &kinds[k]
	}
	return &kind{group: GroupGC}
}

// constName returns a name function giving s.
func constName(s string) func(*View, uint32) string { return func(*View, uint32) string { return s } }

// onHEC adapts a drawing function of a HEC's index to one of the track's
// id, drawing nothing for a HEC the model does not have.
func onHEC(draw func(f *frame, c, y0, y1 int)) func(*frame, uint32, int, int) {
	return func(f *frame, id uint32, y0, y1 int) {
		if c := f.hecIndex(id); c >= 0 {
			draw(f, c, y0, y1)
		}
	}
}

// single returns a list function giving the one track of kind k (ID 0)
// when has says the run has it.
func single(k Kind, has func(v *View) bool) func(*View) []TrackID {
	return func(v *View) []TrackID {
		if has(v) {
			return []TrackID{{k, 0}}
		}
		return nil
	}
}

func init() {
	kinds = [numKinds]kind{
		KindActivity: {
			group: GroupActivity, height: 80, columns: hecColumns,
			list: single(KindActivity, func(v *View) bool { ov := v.overview(); return ov != nil && len(ov.HECs) > 0 }),
			name: constName("All HECs"),
			note: func(f *frame, _ uint32) string {
				if f.ov != nil {
					return "0–" + itoa(uint32(len(f.ov.HECs))) + " HECs busy"
				}
				return ""
			},
			draw: func(f *frame, _ uint32, y0, y1 int) { f.drawActivity(-1, y0, y1) },
			hit: func(f *frame, h *Hit, id uint32, col, _, y0, y1 int) {
				f.hitActivity(h, TrackID{KindActivity, id}, col, y0, y1)
			},
		},
		KindHECActivity: {
			group: GroupActivity, height: 30, columns: hecColumns,
			list: func(v *View) []TrackID {
				if ov := v.overview(); ov != nil && len(ov.HECs) > 1 {
					return hecTracks(ov.HECs, KindHECActivity, nil)
				}
				return nil
			},
			name: func(_ *View, id uint32) string { return "HEC " + itoa(id) + " activity" },
			note: func(*frame, uint32) string { return "share of time busy" },
			draw: onHEC((*frame).drawActivity),
			hit: func(f *frame, h *Hit, id uint32, col, _, y0, y1 int) {
				f.hitActivity(h, TrackID{KindHECActivity, id}, col, y0, y1)
			},
		},
		KindHEC: {
			group: GroupHECs, height: 34, columns: hecColumns,
			list: func(v *View) []TrackID {
				if ov := v.overview(); ov != nil {
					return hecTracks(ov.HECs, KindHEC, nil)
				}
				return nil
			},
			name: func(_ *View, id uint32) string { return "HEC " + itoa(id) },
			draw: onHEC((*frame).drawHEC),
			hit:  (*frame).hitHEC,
		},
		KindThread: {
			group: GroupThreads, height: 16, columns: threadColumns,
			list: func(v *View) []TrackID {
				ov := v.overview()
				if ov == nil {
					return nil
				}
				ids := make([]TrackID, 0, ov.NumThreads())
				for _, th := range ov.ThreadRecords() {
					ids = append(ids, TrackID{KindThread, th.ID})
				}
				return ids
			},
			name: func(v *View, id uint32) string { return threadName(v.overview(), id) },
			draw: func(f *frame, id uint32, y0, y1 int) { f.drawThread(TrackID{KindThread, id}, y0, y1) },
			hit:  (*frame).hitThread,
		},
		KindSparks: {
			group: GroupSparks, height: 40,
			list: func(v *View) []TrackID {
				if ov := v.overview(); ov != nil {
					return hecTracks(ov.HECs, KindSparks, func(h *timeline.HEC) bool { return h.HasSparkEvents() || h.NumSparkSamples() > 0 })
				}
				return nil
			},
			name: func(_ *View, id uint32) string { return "HEC " + itoa(id) + " sparks" },
			draw: onHEC((*frame).drawSparks),
			hit: func(f *frame, h *Hit, id uint32, col, _, y0, y1 int) {
				if c := f.hecIndex(id); c >= 0 {
					f.hitSparks(h, c, col, y0, y1)
				}
			},
		},
		KindMarkers: {
			group: GroupUser, height: 24,
			list: single(KindMarkers, func(v *View) bool {
				ov := v.overview()
				return ov != nil && ov.NumMarkers() > 0 || len(v.bookmarks) > 0
			}),
			name: constName("Markers"),
			draw: func(f *frame, _ uint32, y0, y1 int) { f.drawMarkerTrack(y0, y1) },
			hit: func(f *frame, h *Hit, _ uint32, col, y, y0, y1 int) {
				f.hitMarkerTrack(h, f.g.plot.Min.X+col, y, y0, y1)
			},
		},
		KindUserLabel: {
			group: GroupUser, height: userRowPt,
			list: func(v *View) []TrackID {
				ov := v.overview()
				if ov == nil || !v.spansByLabel {
					return nil
				}
				ids := make([]TrackID, 0, len(ov.Labels))
				for i := range ov.Labels {
					ids = append(ids, TrackID{KindUserLabel, uint32(ov.Labels[i].Label)})
				}
				return ids
			},
			name: func(v *View, id uint32) string {
				if ov := v.overview(); ov != nil {
					return ov.String(int32(id))
				}
				return ""
			},
			draw: func(f *frame, id uint32, y0, y1 int) { f.drawUserLabel(int32(id), y0, y1) },
			hit: func(f *frame, h *Hit, id uint32, col, _, y0, y1 int) {
				f.hitSpans(h, f.v.userIndex().label(int32(id)), col, y0, y1)
			},
		},
		KindUserThread: {
			group: GroupUser, height: userRowPt,
			rows: func(v *View, id uint32) int { return v.userIndex().rows(id) },
			list: func(v *View) []TrackID {
				if v.overview() == nil || v.spansByLabel {
					return nil
				}
				var ids []TrackID
				for _, id := range v.userIndex().threads {
					ids = append(ids, TrackID{KindUserThread, id})
				}
				return ids
			},
			name: func(v *View, id uint32) string {
				if id == 0 {
					return "spans outside threads"
				}
				return threadName(v.overview(), id)
			},
			note: func(f *frame, id uint32) string {
				if n := f.v.userIndex().rows(id); n > 1 {
					return itoa(uint32(n)) + " levels of nested spans"
				}
				return ""
			},
			draw: (*frame).drawUserThread,
			hit:  (*frame).hitUserThread,
		},
		KindHeap: {
			group: GroupHeap, height: 64, heapOnly: true,
			list: single(KindHeap, func(v *View) bool {
				h := v.heap
				return h != nil && (h.Size.Len() > 0 || h.Live.Len() > 0 || h.Blocks.Len() > 0)
			}),
			name: constName("Heap"),
			draw: func(f *frame, _ uint32, y0, y1 int) { f.drawHeap(y0, y1) },
			hit:  func(f *frame, h *Hit, _ uint32, col, _, y0, y1 int) { f.hitHeap(h, col, y0, y1) },
		},
		KindAlloc: {
			group: GroupHeap, height: 48, heapOnly: true,
			list: single(KindAlloc, func(v *View) bool { return v.heap != nil && v.heap.Allocated.Len() > 1 }),
			name: constName("Allocation rate"),
			draw: func(f *frame, _ uint32, y0, y1 int) { f.drawAlloc(y0, y1) },
			hit:  func(f *frame, h *Hit, _ uint32, col, _, y0, y1 int) { f.hitAlloc(h, col, y0, y1) },
		},
		KindBands: {
			group: GroupHeap, height: 130, heapOnly: true,
			list: single(KindBands, func(v *View) bool {
				bd := v.bands
				// A .hp file's censuses are on its own clock: shown only
				// in a view of the heap alone (no run).
				return bd != nil && bd.Samples() > 0 && bd.Len() > 0 && (bd.Source == heapview.FromEventlog || v.src == nil)
			}),
			name: func(v *View, _ uint32) string {
				if p := v.profile; p != nil && p.Source == heapview.FromHP {
					return "Heap profile (.hp: mutator time)"
				} else if p != nil {
					return "Heap profile (" + heapview.BreakdownName(p.Breakdown) + ")"
				}
				return "Heap profile"
			},
			note: (*frame).bandNote,
			side: (*frame).drawBandLegend,
			draw: func(f *frame, _ uint32, y0, y1 int) { f.drawBands(y0, y1) },
			hit:  func(f *frame, h *Hit, _ uint32, col, y, y0, y1 int) { f.hitBands(h, col, y, y0, y1) },
		},
		KindGC: {
			group: GroupGC, height: 28, heapOnly: true,
			list: single(KindGC, func(v *View) bool { return v.heap != nil && len(v.heap.GCs) > 0 }),
			name: constName("GC pauses"),
			draw: func(f *frame, _ uint32, y0, y1 int) { f.drawGCs(y0, y1) },
			hit: func(f *frame, h *Hit, _ uint32, col, _, y0, y1 int) {
				if f.v.heap != nil {
					f.hitGC(h, col, y0, y1)
				}
			},
		},
	}
}

// hecTracks returns a track of kind k for each HEC that keep accepts (nil
// keep: every one).
func hecTracks(hecs []timeline.HEC, k Kind, keep func(*timeline.HEC) bool) []TrackID {
	var ids []TrackID
	for c := range hecs {
		if keep == nil || keep(&hecs[c]) {
			ids = append(ids, TrackID{k, uint32(hecs[c].Cap)})
		}
	}
	return ids
}
