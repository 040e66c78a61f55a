package tracks

import "image"

// hitLegend fills in the legend entry at (x, y).
func (f *frame) hitLegend(h *Hit, x, y int) {
	items, boxes, shown, more, moreBox := f.legendShown()
	in := func(b image.Rectangle) bool { return x >= b.Min.X && x < b.Max.X && y >= b.Min.Y && y < b.Max.Y }
	for i, b := range boxes[:shown] {
		if in(b) {
			h.Name = items[i].name
			h.Tip = []string{items[i].name}
			if items[i].hatch {
				h.Tip = append(h.Tip, "a HEC's state past the last time its events are known (its frontier):",
					"neither busy nor idle, and left out of the activity and its figures")
			}
			h.Anchor = b
			return
		}
	}
	if more != "" && in(moreBox) {
		// What the legend leaves out, a line each.
		h.Tip = []string{more + ":"}
		for _, it := range items[shown:] {
			h.Tip = append(h.Tip, it.name)
		}
		h.Anchor = moreBox
	}
}

// hitMore fills in the element of the tracks of sparks, user events, heap
// and GC at plot column col and device y, the track drawn from y0 to y1.
func (f *frame) hitMore(h *Hit, id TrackID, col, y, y0, y1 int) {
	switch id.Kind {
	case KindSparks:
		if c := f.hecIndex(id); c >= 0 {
			f.hitSparks(h, c, col, y0, y1)
		}
	case KindMarkers:
		f.hitMarkerTrack(h, f.g.plot.Min.X+col, y, y0, y1)
	case KindUserLabel:
		f.hitSpans(h, f.v.userIndex().byLabel[int32(id.ID)], col, y0, y1)
	case KindUserThread:
		f.hitUserThread(h, id.ID, col, y, y0, y1)
	case KindHeap:
		f.hitHeap(h, col, y0, y1)
	case KindAlloc:
		f.hitAlloc(h, col, y0, y1)
	case KindBands:
		f.hitBands(h, col, y, y0, y1)
	case KindGC:
		if f.v.heap != nil {
			f.hitGC(h, col, y0, y1)
		}
	}
}
