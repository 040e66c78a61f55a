package ccprofile

import (
	"cmp"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hecscope/hecscope/paint"
)

// Diff is how a profile B differs from a profile A: for B's call tree, the
// change of each stack's share of the samples, and for every cost centre
// of either, the change of its self and inherited shares. Shares, not
// sample counts, are compared, so runs of different lengths compare.
type Diff struct {
	A, B *Profile
	// Stack maps each node of B's call tree to its stack's share in B minus
	// its share in A (the same cost centres, by label and module, from the
	// root down; 0 share in A if A has no such stack).
	Stack map[*Node]float64
	// MaxStack is the largest |Stack[n]| over B's nodes.
	MaxStack float64
	// Rows has a line per cost centre of A or B, by the size of the change
	// of its inherited share, largest first.
	Rows []DiffRow
}

// DiffRow is one cost centre's shares in A and B (0 where it is absent).
type DiffRow struct {
	Label, Module, Src     string
	SelfA, SelfB           float64
	InheritedA, InheritedB float64
}

// SelfChange and InheritedChange are B's share minus A's.
func (r DiffRow) SelfChange() float64 { return r.SelfB - r.SelfA }

// InheritedChange is B's inherited share minus A's.
func (r DiffRow) InheritedChange() float64 { return r.InheritedB - r.InheritedA }

// Compare returns how profile b differs from profile a.
func Compare(a, b *Profile) *Diff {
	d := &Diff{A: a, B: b, Stack: make(map[*Node]float64)}
	// A's stacks by path.
	shareA := make(map[string]float64)
	var walkA func(n *Node, path string)
	walkA = func(n *Node, path string) {
		shareA[path] = share(n.Total, a.Samples)
		for _, ch := range n.Children {
			walkA(ch, path+"\x00"+ccKey(ch.CC))
		}
	}
	if a != nil && a.Root != nil {
		walkA(a.Root, "")
	}
	var walkB func(n *Node, path string)
	walkB = func(n *Node, path string) {
		c := share(n.Total, b.Samples) - shareA[path]
		d.Stack[n] = c
		d.MaxStack = math.Max(d.MaxStack, math.Abs(c))
		for _, ch := range n.Children {
			walkB(ch, path+"\x00"+ccKey(ch.CC))
		}
	}
	if b != nil && b.Root != nil {
		walkB(b.Root, "")
	}
	rows := make(map[string]*DiffRow)
	row := func(cc *CostCentre) *DiffRow {
		k := ccKey(cc)
		r := rows[k]
		if r == nil {
			r = &DiffRow{Label: cc.Label, Module: cc.Module, Src: cc.Src}
			rows[k] = r
		}
		return r
	}
	if a != nil {
		for _, r := range a.Rows {
			dr := row(r.CC)
			dr.SelfA, dr.InheritedA = a.SelfShare(r), a.InheritedShare(r)
		}
	}
	if b != nil {
		for _, r := range b.Rows {
			dr := row(r.CC)
			dr.SelfB, dr.InheritedB = b.SelfShare(r), b.InheritedShare(r)
		}
	}
	for _, r := range rows {
		d.Rows = append(d.Rows, *r)
	}
	slices.SortFunc(d.Rows, func(x, y DiffRow) int {
		return cmp.Or(cmp.Compare(math.Abs(y.InheritedChange()), math.Abs(x.InheritedChange())),
			cmp.Compare(math.Abs(y.SelfChange()), math.Abs(x.SelfChange())),
			strings.Compare(x.Module, y.Module), strings.Compare(x.Label, y.Label))
	})
	return d
}

// ccKey identifies a cost centre across profiles: module and label.
func ccKey(cc *CostCentre) string {
	if cc == nil {
		return ""
	}
	return cc.Module + "." + cc.Label
}

// Grew and Shrank are the hues of a differential flame graph: red for a
// stack whose share grew, blue for one whose share shrank.
var (
	Grew   = paint.OKLCH(0.62, 0.19, 25*math.Pi/180)
	Shrank = paint.OKLCH(0.62, 0.15, 255*math.Pi/180)
)

// Colors returns the colouring of a differential flame graph of d.B: each
// frame from the theme's neutral grey towards Grew or Shrank in proportion
// to its stack's change of share, the largest change fully coloured
// (changes under half a percentage point stay grey).
func (d *Diff) Colors(th paint.Theme) func(*Node) color.RGBA {
	neutral := paint.Mix(th.Idle, th.Background, 0.3)
	return func(n *Node) color.RGBA {
		c := d.Stack[n]
		if math.Abs(c) < 0.005 || d.MaxStack == 0 {
			return neutral
		}
		f := math.Min(math.Abs(c)/d.MaxStack, 1)
		ink := Grew
		if c < 0 {
			ink = Shrank
		}
		return paint.Mix(ink, neutral, 0.25+0.75*(1-f))
	}
}

// Title names a frame of the differential flame graph: its cost centre,
// its share in B and the change from A in percentage points.
func (d *Diff) Title(n *Node) string {
	return NodeTitle(d.B, n) + " " + signedPoints(d.Stack[n])
}

// signedPoints writes a change of share in percentage points: "+12.3pp".
func signedPoints(c float64) string {
	s := strconv.FormatFloat(100*c, 'f', 1, 64)
	if c >= 0 {
		s = "+" + s
	}
	return s + "pp"
}
