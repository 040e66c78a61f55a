package heapview

import (
	"fmt"
	"math"
	"sort"

	"github.com/hecscope/hecscope/ingest"
)

// Source says where a Profile's samples came from, which decides what its
// times mean.
type Source uint8

const (
	// FromEventlog: sample times are elapsed nanoseconds since the RTS
	// started, on the same clock as every other event.
	FromEventlog Source = iota
	// FromHP: sample times come from a textual .hp file, whose clock is the
	// mutator's CPU time in seconds; they are stored as that many
	// nanoseconds, so they do not line up with an eventlog's elapsed time.
	FromHP
)

// Profile is a heap profile: a sequence of censuses (samples), each a list
// of bands (closure types, cost-centre stacks, …) with the bytes attributed
// to them. Band names are kept once in a string table and samples are
// stored as flat slices, so a Profile has no per-sample pointers.
//
// Within one sample a band appears at most once: entries with the same name
// are added together when the profile is built.
type Profile struct {
	// Source says how to read the sample times.
	Source Source
	// Breakdown is how the profile is broken down (ingest.Breakdown); 0
	// when unknown, as for .hp files.
	Breakdown ingest.Breakdown
	// Period is the sampling period in ns as the RTS was asked for it, 0
	// when unknown.
	Period uint64

	names names
	time  []uint64 // sample times, ns, non-decreasing
	era   []uint64 // era of each sample (biographical profiles), else 0
	start []uint32 // entries of sample i are [start[i], start[i+1])
	band  []uint32 // entry → name index
	bytes []uint64 // entry → bytes
}

// BreakdownName describes a heap-profile breakdown with the RTS flag that
// selects it, such as "closure type (-hT)"; "unknown breakdown" for 0 or a
// code heapview does not know (as for .hp files, which do not say).
func BreakdownName(b ingest.Breakdown) string {
	switch b {
	case ingest.BreakdownCostCentreStack:
		return "cost-centre stack (-hc)"
	case ingest.BreakdownModule:
		return "module (-hm)"
	case ingest.BreakdownClosureDescr:
		return "closure description (-hd)"
	case ingest.BreakdownTypeDescr:
		return "type description (-hy)"
	case ingest.BreakdownRetainer:
		return "retainer set (-hr)"
	case ingest.BreakdownBiography:
		return "biography (-hb)"
	case ingest.BreakdownClosureType:
		return "closure type (-hT)"
	case ingest.BreakdownInfoTable:
		return "info table (-hi)"
	case ingest.BreakdownEra:
		return "era (-he)"
	}
	return "unknown breakdown"
}

// Len returns the number of samples.
func (p *Profile) Len() int { return len(p.time) }

// NumNames returns the number of distinct band names.
func (p *Profile) NumNames() int { return p.names.len() }

// Name returns band name i, 0 ≤ i < NumNames.
func (p *Profile) Name(i int) string { return p.names.get(i) }

// Lookup returns the index of the band called name, or -1.
func (p *Profile) Lookup(name string) int {
	if len(p.names.slots) == 0 {
		return -1
	}
	s := []byte(name)
	mask := uint32(len(p.names.slots) - 1)
	for i := hashName(s) & mask; ; i = (i + 1) & mask {
		v := p.names.slots[i]
		if v == 0 {
			return -1
		}
		if string(p.names.bytes(int(v-1))) == name {
			return int(v - 1)
		}
	}
}

// Time returns the time of sample i in ns.
func (p *Profile) Time(i int) uint64 { return p.time[i] }

// Era returns the era of sample i (biographical profiles), 0 when the RTS
// wrote none.
func (p *Profile) Era(i int) uint64 { return p.era[i] }

// Sample returns the entries of sample i: band name indices and bytes, in
// the order the RTS wrote them. The slices alias the profile and must not be
// modified.
func (p *Profile) Sample(i int) (bands []uint32, bytes []uint64) {
	a, b := p.start[i], p.start[i+1]
	return p.band[a:b], p.bytes[a:b]
}

// Total returns the sum of sample i's entries.
func (p *Profile) Total(i int) uint64 {
	_, bytes := p.Sample(i)
	return sumSat(bytes)
}

// sumSat adds v, saturating at the largest uint64.
func sumSat(v []uint64) uint64 {
	var t uint64
	for _, x := range v {
		if t+x < t {
			return math.MaxUint64
		}
		t += x
	}
	return t
}

// profileBuilder assembles a Profile one sample at a time.
type profileBuilder struct {
	p    Profile
	open bool
	// seen[name] is the entry index+1 of name in the open sample, to merge
	// repeated names; it is reset through the open sample's entries.
	seen []uint32
}

func (b *profileBuilder) begin(t, era uint64) {
	if b.open {
		b.end()
	}
	if len(b.p.start) == 0 {
		b.p.start = append(b.p.start, 0)
	}
	b.p.time = append(b.p.time, t)
	b.p.era = append(b.p.era, era)
	b.open = true
}

// add records bytes for the band at name index n in the open sample.
func (b *profileBuilder) add(n int, bytes uint64) {
	if !b.open {
		return
	}
	for len(b.seen) <= n {
		b.seen = append(b.seen, 0)
	}
	if k := b.seen[n]; k != 0 {
		sum := b.p.bytes[k-1] + bytes
		if sum < bytes {
			sum = math.MaxUint64
		}
		b.p.bytes[k-1] = sum
		return
	}
	b.p.band = append(b.p.band, uint32(n))
	b.p.bytes = append(b.p.bytes, bytes)
	b.seen[n] = uint32(len(b.p.band))
}

func (b *profileBuilder) end() {
	if !b.open {
		return
	}
	first := b.p.start[len(b.p.start)-1]
	for _, n := range b.p.band[first:] {
		b.seen[n] = 0
	}
	b.p.start = append(b.p.start, uint32(len(b.p.band)))
	b.open = false
}

// finish closes an open sample, puts samples in time order and returns the
// profile.
func (b *profileBuilder) finish() *Profile {
	b.end()
	p := &b.p
	if len(p.start) == 0 {
		p.start = []uint32{0}
	}
	if !sort.SliceIsSorted(p.time, func(i, j int) bool { return p.time[i] < p.time[j] }) {
		p.sortByTime()
	}
	return p
}

// sortByTime reorders the samples by time, keeping equal times in their
// original order.
func (p *Profile) sortByTime() {
	n := p.Len()
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return p.time[order[i]] < p.time[order[j]] })
	time := make([]uint64, n)
	era := make([]uint64, n)
	start := make([]uint32, 1, n+1)
	band := make([]uint32, 0, len(p.band))
	bytes := make([]uint64, 0, len(p.bytes))
	for k, i := range order {
		time[k], era[k] = p.time[i], p.era[i]
		a, b := p.start[i], p.start[i+1]
		band = append(band, p.band[a:b]...)
		bytes = append(bytes, p.bytes[a:b]...)
		start = append(start, uint32(len(band)))
	}
	p.time, p.era, p.start, p.band, p.bytes = time, era, start, band, bytes
}

// FromHeapProfile converts a parsed .hp file into a Profile. Sample times,
// which the RTS writes as mutator CPU seconds, become that many nanoseconds
// (Source FromHP). Labels lose the "(id)" prefix the RTS puts before
// cost-centre stacks and retainer sets, so that they match the eventlog's
// names for the same bands; entries that then share a name within a sample
// are added together. Every sample is kept, including the empty ones GHC
// writes at the start and end of the run and an incomplete last sample.
func FromHeapProfile(hp *ingest.HeapProfile) (*Profile, error) {
	if hp == nil {
		return nil, fmt.Errorf("heap profile: nil")
	}
	var b profileBuilder
	b.p.Source = FromHP
	for i, s := range hp.Samples {
		if math.IsNaN(s.Time) || s.Time < 0 || s.Time > float64(math.MaxUint64)/1e9 {
			return nil, fmt.Errorf("heap profile: sample %d: time %v out of range", i, s.Time)
		}
		b.begin(uint64(math.Round(s.Time*1e9)), 0)
		for _, e := range s.Entries {
			b.add(b.p.names.intern(stripSetID([]byte(e.Label))), e.Bytes)
		}
		b.end()
	}
	return b.finish(), nil
}

// stripSetID removes a leading "(digits)" from a band label: the id of a
// cost-centre stack (.hp files) or of a retainer set (both files). A label
// that is nothing but such a prefix is kept whole.
func stripSetID(label []byte) []byte {
	if len(label) < 3 || label[0] != '(' {
		return label
	}
	i := 1
	for i < len(label) && label[i] >= '0' && label[i] <= '9' {
		i++
	}
	if i == 1 || i >= len(label)-1 || label[i] != ')' {
		return label
	}
	return label[i+1:]
}
