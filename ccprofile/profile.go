// Package ccprofile builds a cost-centre profile from an eventlog's time
// profile: the ProfSampleCostCentre stack samples a profiled program
// (-prof, run with +RTS -l -p) writes at every profiling tick, named by its
// HeapProfCostCentre definitions. It gives the call tree of cost-centre
// stacks with their sample counts (a flame graph draws it: see Flame) and
// the per-cost-centre table of GHC's .prof file — self share (samples whose
// innermost cost centre it is) and inherited share (samples with it
// anywhere on the stack) — for the whole run or the samples in a range.
//
// Shares are by default of the mutator's samples, as GHC's .prof counts
// them: its report (rts/Profiling.c, countTickss and ignoreCCS) leaves the
// ticks of the RTS's own stacks GC, IDLE, SYSTEM, OVERHEAD_of and
// DONT_CARE out of the total its %time divides by, unless the program ran
// with +RTS -pa. Those samples are counted apart (Profile.Apart);
// Options.Of = AllSamples gives shares of every sample instead.
package ccprofile

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
)

// CostCentre is one cost centre the program defined.
type CostCentre struct {
	// ID is the cost centre's number in the log.
	ID uint32
	// Label, Module and Src are its name, module and source span, as the
	// .prof file prints them.
	Label, Module, Src string
	// CAF says whether it stands for a constant applicative form.
	CAF bool
}

// unknownCostCentre names a stack entry no definition was seen for.
func unknownCostCentre(id uint32) *CostCentre {
	return &CostCentre{ID: id, Label: "?", Module: "?", Src: "<unknown>"}
}

// Node is one cost-centre stack of the call tree: its cost centre called
// from its parent's stack.
type Node struct {
	// CC is the node's cost centre (nil for the root).
	CC *CostCentre
	// Self counts the samples taken with exactly this stack, Total those
	// with this stack or one it called.
	Self, Total uint64
	// Children are the stacks called from this one, by Total, largest
	// first (ties by label), once the profile is finished.
	Children []*Node

	parent *Node
	index  map[uint32]*Node // children by cost centre id while collecting
}

// Row is one line of the cost-centre table.
type Row struct {
	CC *CostCentre
	// Self counts the samples whose innermost cost centre is CC, Inherited
	// those with CC anywhere on the stack (once per sample).
	Self, Inherited uint64
}

// ShareOf says which samples a profile's shares are of.
type ShareOf uint8

const (
	// MutatorSamples: the samples of the program's own cost-centre
	// stacks, as GHC's .prof counts them (without GC, idle, system and
	// profiling-overhead samples).
	MutatorSamples ShareOf = iota
	// AllSamples: every sample, GC's and the rest of the RTS's included.
	AllSamples
)

// String names the kind of share as JSON gives it ("mutator_samples" or
// "all_samples").
func (o ShareOf) String() string {
	if o == AllSamples {
		return "all_samples"
	}
	return "mutator_samples"
}

// Apart counts the samples of the RTS's own cost-centre stacks, which
// GHC's .prof leaves out of its shares.
type Apart struct {
	// GC counts samples taken during garbage collection, Idle while the
	// capability was idle, System in the rest of the RTS (the scheduler),
	// Overhead in the profiler's own bookkeeping (OVERHEAD_of and
	// DONT_CARE).
	GC, Idle, System, Overhead uint64
}

// Total is the number of samples apart.
func (a Apart) Total() uint64 { return a.GC + a.Idle + a.System + a.Overhead }

// builtin is how each of the RTS's own cost centres (rts/Profiling.c's
// CC_DECLAREs: label, module) that .prof leaves out is counted apart.
var builtin = map[[2]string]func(*Apart) *uint64{
	{"GC", "GC"}:                 func(a *Apart) *uint64 { return &a.GC },
	{"IDLE", "IDLE"}:             func(a *Apart) *uint64 { return &a.Idle },
	{"SYSTEM", "SYSTEM"}:         func(a *Apart) *uint64 { return &a.System },
	{"OVERHEAD_of", "PROFILING"}: func(a *Apart) *uint64 { return &a.Overhead },
	{"DONT_CARE", "MAIN"}:        func(a *Apart) *uint64 { return &a.Overhead },
}

// apartCount returns the counter of Apart that samples whose whole stack
// is cc go to (nil: cc is not one of the RTS's own).
func apartCount(a *Apart, cc *CostCentre) *uint64 {
	if cc == nil || cc.Src != "<built-in>" {
		return nil
	}
	if f := builtin[[2]string{cc.Label, cc.Module}]; f != nil {
		return f(a)
	}
	return nil
}

// Profile is a cost-centre profile.
type Profile struct {
	// Samples is the number of stack samples the shares are of (Of says
	// which), From and To the range they were taken from (To 0: the end
	// of the run).
	Samples  uint64
	From, To uint64
	// Of says which samples Samples, the call tree and the table count.
	Of ShareOf
	// All counts every sample in the range, Apart those of the RTS's own
	// stacks (GC, idle, system, overhead): with Of = MutatorSamples,
	// Samples is All minus Apart.Total().
	All   uint64
	Apart Apart
	// Interval is the profiling tick interval in ns, 0 if the log does not
	// say.
	Interval uint64
	// First and Last are the times of the first and last sample.
	First, Last uint64
	// Root is the call tree: a node with no cost centre whose children are
	// the outermost stacks.
	Root *Node
	// Rows is the cost-centre table, by self samples, largest first (ties
	// by inherited samples, then label and module).
	Rows []Row
	// Truncated counts samples whose stacks were cut short because the
	// tree reached its bound of nodes (Options.MaxNodes).
	Truncated uint64
	// Status is how the log ended (set by File and Read).
	Status ingest.Status
}

// SelfShare and InheritedShare return a row's counts as fractions of the
// samples.
func (p *Profile) SelfShare(r Row) float64 { return share(r.Self, p.Samples) }

// InheritedShare returns the fraction of the samples with r's cost centre
// on the stack.
func (p *Profile) InheritedShare(r Row) float64 { return share(r.Inherited, p.Samples) }

func share(n, of uint64) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

// Row returns the table row of the cost centre labelled label in module
// (nil if it has no samples).
func (p *Profile) Row(label, module string) *Row {
	for i := range p.Rows {
		if p.Rows[i].CC.Label == label && p.Rows[i].CC.Module == module {
			return &p.Rows[i]
		}
	}
	return nil
}

// Options says which samples to profile.
type Options struct {
	// From and To select the samples taken in [From, To) (To 0: no end).
	From, To uint64
	// Of says which samples the shares are of (default MutatorSamples).
	Of ShareOf
	// MaxNodes bounds the call tree's nodes (0: DefaultMaxNodes): deeper
	// stacks of a profile that reaches it count at their deepest node
	// already in the tree.
	MaxNodes int
}

// DefaultMaxNodes is the default bound on the call tree's nodes.
const DefaultMaxNodes = 1 << 20

// maxCostCentres bounds the cost centre definitions kept.
const maxCostCentres = 1 << 20

// Collector builds a profile from events given in time order.
type Collector struct {
	opt      Options
	ccs      map[uint32]*CostCentre
	root     *Node
	nodes    int
	samples  uint64
	trunc    uint64
	interval uint64
	first    uint64
	last     uint64
	rows     map[*CostCentre]*Row
	seen     map[*CostCentre]uint64 // which sample last counted a cost centre's inherited
	end      uint64
}

// NewCollector returns a collector of the samples opt selects.
func NewCollector(opt Options) *Collector {
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = DefaultMaxNodes
	}
	return &Collector{opt: opt, ccs: make(map[uint32]*CostCentre), root: &Node{},
		rows: make(map[*CostCentre]*Row), seen: make(map[*CostCentre]uint64)}
}

// Done reports whether no later event can change the profile (the range
// has ended).
func (c *Collector) Done() bool { return c.opt.To != 0 && c.end >= c.opt.To }

// Add takes the next event.
func (c *Collector) Add(ev *ingest.Event) {
	c.end = max(c.end, ev.Time)
	switch ev.Kind {
	case ingest.KindHeapProfCostCentre:
		id := uint32(ev.Args[0])
		if len(c.ccs) >= maxCostCentres && c.ccs[id] == nil {
			return
		}
		s := ev.Strings()
		s = append(s, "", "", "")
		cc := c.costCentre(id)
		cc.Label, cc.Module, cc.Src, cc.CAF = s[0], s[1], s[2], ev.CAF()
	case ingest.KindProfBegin:
		c.interval = ev.Args[0]
	case ingest.KindProfSampleCostCentre:
		if ev.Time < c.opt.From || (c.opt.To != 0 && ev.Time >= c.opt.To) {
			return
		}
		c.sample(ev)
	}
}

// costCentre returns the cost centre id, made unnamed if not yet defined
// (a definition that comes later names it).
func (c *Collector) costCentre(id uint32) *CostCentre {
	cc := c.ccs[id]
	if cc == nil {
		cc = unknownCostCentre(id)
		if len(c.ccs) < maxCostCentres {
			c.ccs[id] = cc
		}
	}
	return cc
}

// sample adds one stack sample: its stack is innermost first.
func (c *Collector) sample(ev *ingest.Event) {
	if c.samples == 0 {
		c.first = ev.Time
	}
	c.last = ev.Time
	c.samples++
	n := c.root
	n.Total++
	depth := ev.StackLen()
	cut := false
	for i := depth - 1; i >= 0; i-- {
		cc := c.costCentre(ev.Stack(i))
		if c.seen[cc] != c.samples {
			c.seen[cc] = c.samples
			c.row(cc).Inherited++
		}
		if cut {
			continue
		}
		child := n.index[cc.ID]
		if child == nil {
			if c.nodes >= c.opt.MaxNodes {
				cut = true
				continue
			}
			if n.index == nil {
				n.index = make(map[uint32]*Node)
			}
			child = &Node{CC: cc, parent: n}
			n.index[cc.ID] = child
			n.Children = append(n.Children, child)
			c.nodes++
		}
		n = child
		n.Total++
	}
	if cut {
		c.trunc++
	}
	n.Self++
	if depth > 0 {
		c.row(c.costCentre(ev.Stack(0))).Self++
	}
}

// row returns cc's table row.
func (c *Collector) row(cc *CostCentre) *Row {
	r := c.rows[cc]
	if r == nil {
		r = &Row{CC: cc}
		c.rows[cc] = r
	}
	return r
}

// Profile returns the profile of the samples so far, with shares of the
// samples Options.Of says. The collector must not be used afterwards.
func (c *Collector) Profile() *Profile {
	p := &Profile{Samples: c.samples, All: c.samples, Of: AllSamples, From: c.opt.From, To: c.opt.To,
		Interval: c.interval, First: c.first, Last: c.last, Root: c.root, Truncated: c.trunc}
	sortTree(c.root)
	for _, n := range c.root.Children {
		if k := apartCount(&p.Apart, n.CC); k != nil {
			*k += n.Self
		}
	}
	for _, r := range c.rows {
		p.Rows = append(p.Rows, *r)
	}
	slices.SortFunc(p.Rows, compareRows)
	if c.opt.Of == MutatorSamples {
		return p.Mutator()
	}
	return p
}

// Mutator returns the profile of the mutator's samples, as GHC's .prof
// counts them: p without the samples of the RTS's own stacks (GC, IDLE,
// SYSTEM, OVERHEAD_of, DONT_CARE; see Apart), which leave the call tree and
// the table. p is left as it is; a profile of the mutator's samples
// returns itself.
func (p *Profile) Mutator() *Profile {
	if p.Of == MutatorSamples {
		return p
	}
	q := *p
	q.Of = MutatorSamples
	q.Samples = p.All - p.Apart.Total()
	q.Root = &Node{Self: p.Root.Self, Total: q.Samples}
	drop := make(map[*CostCentre]uint64)
	var scratch Apart
	for _, n := range p.Root.Children {
		var apart uint64
		if apartCount(&scratch, n.CC) != nil {
			apart = n.Self
			drop[n.CC] += apart
		}
		if n.Total == apart {
			continue
		}
		m := cloneTree(n, q.Root)
		m.Self -= apart
		m.Total -= apart
		q.Root.Children = append(q.Root.Children, m)
	}
	slices.SortFunc(q.Root.Children, compareNodes)
	q.Rows = make([]Row, 0, len(p.Rows))
	for _, r := range p.Rows {
		if n := drop[r.CC]; n > 0 {
			r.Self -= n
			r.Inherited -= n
			if r.Inherited == 0 {
				continue
			}
		}
		q.Rows = append(q.Rows, r)
	}
	slices.SortFunc(q.Rows, compareRows)
	return &q
}

// cloneTree copies the subtree at n, called from parent.
func cloneTree(n, parent *Node) *Node {
	m := &Node{CC: n.CC, Self: n.Self, Total: n.Total, parent: parent}
	if len(n.Children) > 0 {
		m.Children = make([]*Node, len(n.Children))
		for i, c := range n.Children {
			m.Children[i] = cloneTree(c, m)
		}
	}
	return m
}

// compareRows orders table rows by self samples, largest first, ties by
// inherited samples, then label and module.
func compareRows(a, b Row) int {
	return cmp.Or(cmp.Compare(b.Self, a.Self), cmp.Compare(b.Inherited, a.Inherited),
		cmp.Compare(a.CC.Label, b.CC.Label), cmp.Compare(a.CC.Module, b.CC.Module))
}

// compareNodes orders a node's children by Total, largest first, ties by
// label.
func compareNodes(a, b *Node) int {
	return cmp.Or(cmp.Compare(b.Total, a.Total), cmp.Compare(a.CC.Label, b.CC.Label))
}

// sortTree orders every node's children by Total and drops the lookup maps.
func sortTree(root *Node) {
	stack := []*Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n.index = nil
		slices.SortFunc(n.Children, compareNodes)
		stack = append(stack, n.Children...)
	}
}

// Parent returns the node's caller (nil for the root).
func (n *Node) Parent() *Node { return n.parent }

// Basis says in words what the shares are of: "Shares of the 245 mutator
// samples (of 477), as GHC's .prof counts them" or "Shares of all 477
// samples, GC's and the RTS's included".
func (p *Profile) Basis() string {
	if p.Of == AllSamples {
		if p.Apart.Total() == 0 {
			return fmt.Sprintf("Shares of all %d samples", p.All)
		}
		return fmt.Sprintf("Shares of all %d samples, GC's and the RTS's included (GHC's .prof leaves them out)", p.All)
	}
	if p.Apart.Total() == 0 {
		return fmt.Sprintf("Shares of the %d samples, as GHC's .prof counts them", p.Samples)
	}
	return fmt.Sprintf("Shares of the %d mutator samples (of %d), as GHC's .prof counts them", p.Samples, p.All)
}

// ApartText says which of the RTS's own samples the range has, as shares
// of all samples, and whether the shares count them, e.g. "GC 47% (226),
// system 1.3% (6) of all samples: not in the shares" ("" if none).
func (p *Profile) ApartText() string {
	var kinds []string
	for _, k := range []struct {
		name string
		n    uint64
	}{{"GC", p.Apart.GC}, {"idle", p.Apart.Idle}, {"system", p.Apart.System}, {"profiling overhead", p.Apart.Overhead}} {
		if k.n > 0 {
			kinds = append(kinds, fmt.Sprintf("%s %s (%d)", k.name, paint.Percent(share(k.n, p.All)), k.n))
		}
	}
	if len(kinds) == 0 {
		return ""
	}
	in := "not in the shares"
	if p.Of == AllSamples {
		in = "in the shares"
	}
	return strings.Join(kinds, ", ") + " of all samples: " + in
}
