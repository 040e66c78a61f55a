package ccprofile

import (
	"fmt"
	"image"
	"image/color"

	"github.com/hecscope/hecscope/paint"
)

// FlameOptions says how to draw a flame graph.
type FlameOptions struct {
	// Theme gives the background and text colours.
	Theme paint.Theme
	// Scale is the device pixel ratio (0: 1).
	Scale float64
	// Focus, if set, is the node drawn across the whole width (a zoom into
	// its subtree); its callers are drawn above it, full width too.
	Focus *Node
	// Highlight, if set, says which nodes to draw strongly; the others
	// are faded (a search, or a cost centre picked in the table).
	Highlight func(*Node) bool
	// Color, if set, gives a node's colour (a differential flame graph
	// colours by change); by default each cost centre's colour comes from
	// its name.
	Color func(*Node) color.RGBA
	// Title, if set, gives the text a frame shows (default NodeTitle).
	Title func(*Node) string
}

// FlameBox is one drawn node of a flame graph.
type FlameBox struct {
	Node *Node
	Rect image.Rectangle
}

// FlameLayout is where a flame graph drew its nodes, for hit-testing.
type FlameLayout struct {
	Boxes []FlameBox
	// RowHeight is the height of one level in device pixels.
	RowHeight int
}

// At returns the node drawn at (x, y), or nil.
func (l *FlameLayout) At(x, y int) *Node {
	p := image.Pt(x, y)
	for _, b := range l.Boxes {
		if p.In(b.Rect) {
			return b.Node
		}
	}
	return nil
}

// Height returns the height the layout's deepest row reaches.
func (l *FlameLayout) Height() int {
	h := 0
	for _, b := range l.Boxes {
		h = max(h, b.Rect.Max.Y)
	}
	return h
}

// RowHeight returns the height of one flame graph level at scale.
func RowHeight(scale float64) int {
	if !(scale > 0) {
		scale = 1
	}
	return int(20*scale + 0.5)
}

// DrawFlame draws p's call tree as an icicle into c's bounds: the root ("all
// samples") on top, each stack's callees below it, widths in proportion to
// samples, the largest first from the left. Nodes narrower than a pixel
// are left out. It returns where it drew each node.
func DrawFlame(c paint.Canvas, p *Profile, opt FlameOptions) *FlameLayout {
	b := c.Bounds()
	th := opt.Theme
	if th.Background == (color.RGBA{}) {
		th = paint.Light
	}
	c.Fill(b, th.Background)
	rowH := RowHeight(opt.Scale)
	lay := &FlameLayout{RowHeight: rowH}
	face := paint.FaceFor(paint.Regular, 10, opt.Scale)
	if p == nil || p.Samples == 0 {
		paint.TextCentered(c, face, "no cost-centre samples (build with -prof, run with +RTS -l -p)",
			float64(b.Min.X+b.Dx()/2), float64(b.Min.Y+rowH), th.Dim)
		return lay
	}
	focus := opt.Focus
	if focus == nil {
		focus = p.Root
	}
	// The focus's callers, outermost first, each across the whole width.
	var chain []*Node
	for n := focus; n != nil; n = n.parent {
		chain = append([]*Node{n}, chain...)
	}
	y := b.Min.Y
	for _, n := range chain[:len(chain)-1] {
		drawBox(c, face, p, n, image.Rect(b.Min.X, y, b.Max.X, y+rowH-1), th, opt, lay)
		y += rowH
	}
	type item struct {
		n      *Node
		x0, x1 float64
		y      int
	}
	perSample := float64(b.Dx()) / float64(max(focus.Total, 1))
	stack := []item{{focus, float64(b.Min.X), float64(b.Max.X), y}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.y >= b.Max.Y {
			continue
		}
		r := image.Rect(int(it.x0+0.5), it.y, int(it.x1+0.5), it.y+rowH-1)
		drawBox(c, face, p, it.n, r, th, opt, lay)
		x := it.x0
		for _, ch := range it.n.Children {
			w := float64(ch.Total) * perSample
			if w >= 1 {
				stack = append(stack, item{ch, x, x + w, it.y + rowH})
			}
			x += w
		}
	}
	return lay
}

// drawBox draws one node and records it.
func drawBox(c paint.Canvas, face *paint.Face, p *Profile, n *Node, r image.Rectangle, th paint.Theme, opt FlameOptions, lay *FlameLayout) {
	if r.Dx() < 1 {
		return
	}
	col := nodeColor(n, th)
	if opt.Color != nil {
		col = opt.Color(n)
	}
	if opt.Highlight != nil && !opt.Highlight(n) {
		col = paint.Mix(col, th.Background, 0.7)
	}
	inner := r
	if r.Dx() > 2 {
		inner.Max.X-- // a pixel of background between neighbours
	}
	c.Fill(inner, col)
	lay.Boxes = append(lay.Boxes, FlameBox{Node: n, Rect: r})
	if r.Dx() < 12 {
		return
	}
	var s string
	if opt.Title != nil {
		s = opt.Title(n)
	} else {
		s = NodeTitle(p, n)
	}
	s = face.Fit(s, r.Dx()-6)
	if s == "" {
		return
	}
	c.PushClip(inner)
	c.Text(face, s, r.Min.X+3, face.Baseline(float64(r.Min.Y)+float64(r.Dy())/2), th.Text)
	c.PopClip()
}

// nodeColor is a node's colour: its cost centre's band colour, lightened
// towards the background so that text reads on it; the root is grey.
func nodeColor(n *Node, th paint.Theme) color.RGBA {
	if n.CC == nil {
		return th.Idle
	}
	return paint.Mix(paint.BandColorFor(n.CC.Module+"."+n.CC.Label), th.Background, 0.45)
}

// NodeTitle is how a node is named: "label (module) share", or "all
// samples" for the root.
func NodeTitle(p *Profile, n *Node) string {
	share := paint.Percent(float64(n.Total) / float64(max(p.Samples, 1)))
	if n.CC == nil {
		return fmt.Sprintf("all %d samples", p.Samples)
	}
	return fmt.Sprintf("%s (%s) %s", n.CC.Label, n.CC.Module, share)
}
