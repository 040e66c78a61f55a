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
	for i := tableHash(s) & mask; ; i = (i + 1) & mask {
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

// profileBuilder assembles a Profile one sample at a time. Entries are
// kept in fixed-size chunks while the profile grows, so that millions of
// them are never copied to make room, and laid out flat once, by profile.
type profileBuilder struct {
	p    Profile // everything but band and bytes, which are in the chunks
	open bool

	bands   [][]uint32 // chunks of entry band indices
	bytes   [][]uint64 // chunks of entry byte counts
	entries int        // number of entries in the chunks

	// seen[name] is the entry index+1 of name in the open sample, to merge
	// repeated names; it is reset through the open sample's entries.
	seen []uint32
}

// chunkBits sets the chunk size: 1<<chunkBits entries.
const chunkBits = 16

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
	if k := int(b.seen[n]) - 1; k >= 0 {
		v := &b.bytes[k>>chunkBits][k&(1<<chunkBits-1)]
		if sum := *v + bytes; sum >= bytes {
			*v = sum
		} else {
			*v = math.MaxUint64
		}
		return
	}
	if b.entries&(1<<chunkBits-1) == 0 {
		b.bands = append(b.bands, make([]uint32, 0, 1<<chunkBits))
		b.bytes = append(b.bytes, make([]uint64, 0, 1<<chunkBits))
	}
	last := len(b.bands) - 1
	b.bands[last] = append(b.bands[last], uint32(n))
	b.bytes[last] = append(b.bytes[last], bytes)
	b.entries++
	b.seen[n] = uint32(b.entries)
}

func (b *profileBuilder) end() {
	if !b.open {
		return
	}
	for k := int(b.p.start[len(b.p.start)-1]); k < b.entries; k++ {
		b.seen[b.bands[k>>chunkBits][k&(1<<chunkBits-1)]] = 0
	}
	b.p.start = append(b.p.start, uint32(b.entries))
	b.open = false
}

// profile returns the profile built so far, with an open sample closed,
// as a new Profile that shares nothing with b; samples are in time order.
func (b *profileBuilder) profile() *Profile {
	src := &b.p
	p := &Profile{
		Source:    src.Source,
		Breakdown: src.Breakdown,
		Period:    src.Period,
		names: names{
			text:  append([]byte(nil), src.names.text...),
			end:   append([]uint32(nil), src.names.end...),
			slots: append([]uint32(nil), src.names.slots...),
		},
		time:  append([]uint64(nil), src.time...),
		era:   append([]uint64(nil), src.era...),
		start: append(make([]uint32, 0, len(src.start)+1), src.start...),
		band:  make([]uint32, 0, b.entries),
		bytes: make([]uint64, 0, b.entries),
	}
	if len(p.start) == 0 {
		p.start = append(p.start, 0)
	}
	if b.open {
		p.start = append(p.start, uint32(b.entries))
	}
	for i := range b.bands {
		p.band = append(p.band, b.bands[i]...)
		p.bytes = append(p.bytes, b.bytes[i]...)
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
	return b.profile(), nil
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
