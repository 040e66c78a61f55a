package tracks

// hitLegend fills in the legend entry at (x, y).
func (f *frame) hitLegend(h *Hit, x, y int) {
	items := f.v.legendItems()
	boxes, _ := legendLayout(items, f.g.legend.Dx(), f.s)
	for i, b := range boxes {
		b = b.Add(f.g.legend.Min)
		if x >= b.Min.X && x < b.Max.X && y >= b.Min.Y && y < b.Max.Y {
			h.Name = items[i].name
			h.Tip = []string{items[i].name}
			h.Anchor = b
			return
		}
	}
}

// hitMore fills in the element of the tracks of sparks, user events, heap
// and GC at plot column col and device y, the track drawn from y0 to y1.
func (f *frame) hitMore(h *Hit, id TrackID, col, y, y0, y1 int) {
	switch id.Kind {
	case KindSparks:
		f.hitSparks(h, int(id.ID), col, y0, y1)
	case KindMarkers:
		f.hitMarkerTrack(h, f.g.plot.Min.X+col, y, y0, y1)
	case KindUserLabel:
		f.hitSpans(h, f.v.userIndex().byLabel[int32(id.ID)], col, y0, y1)
	case KindUserThread:
		f.hitSpans(h, f.v.userIndex().byThread[id.ID], col, y0, y1)
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
