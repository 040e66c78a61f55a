package app

import "fyne.io/fyne/v2"

// scroll scrolls at widget point p as the desktop driver does.
func scroll(n *timelineNav, p fyne.Position, dx, dy float32) {
	n.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: p}, Scrolled: fyne.Delta{DX: dx, DY: dy}})
}

// drag drags from widget point p by dx in ten steps, as the desktop driver
// reports a drag (each event at the pointer's new place), then ends it.
func drag(n *timelineNav, p fyne.Position, dx float32) {
	for i := 0; i < 10; i++ {
		p.X += dx / 10
		n.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: p}, Dragged: fyne.Delta{DX: dx / 10}})
	}
	n.DragEnd()
}
