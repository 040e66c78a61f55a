package tracks

// hitAxis fills in what lies on the axis at (x, y).
func (f *frame) hitAxis(h *Hit, x, y int) {}

// hitLegend fills in the legend entry at (x, y).
func (f *frame) hitLegend(h *Hit, x, y int) {
	items := f.v.legendItems()
	boxes, _ := legendLayout(items, f.g.legend.Dx(), f.s)
	for i, b := range boxes {
		if b.Add(f.g.legend.Min).Min.X <= x && x < b.Add(f.g.legend.Min).Max.X && b.Add(f.g.legend.Min).Min.Y <= y && y < b.Add(f.g.legend.Min).Max.Y {
			h.Name = items[i].name
			h.Tip = []string{items[i].name}
			h.Anchor = b.Add(f.g.legend.Min)
			return
		}
	}
}

// hitMore fills in the element of the tracks of sparks, user events, heap
// and GC.
func (f *frame) hitMore(h *Hit, id TrackID, col, y, y0, y1 int) {}
