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
