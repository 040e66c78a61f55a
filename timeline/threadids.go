package timeline

// A builder finds a thread's index (its order of first appearance) by its
// id for every event of a thread. GHC numbers threads from 1 upwards in
// the order it creates them, and they first appear in nearly that order:
// a table of one int32 an id (38 MB for the 9.6 M threads of a GC storm,
// held to the end of its load, when its peak is) stores little but that
// order. denseIDs keeps it by pages of idPageSize ids, each an index of
// its own and every id's one byte from it, widened to an int32 an id only
// in a page where the order strays further.

const (
	idPageShift = 8
	idPageSize  = 1 << idPageShift
	// idAbsent is the byte of an id the page has not seen.
	idAbsent = -128
)

// denseIDs maps thread ids below len(pages)*idPageSize to indexes.
type denseIDs struct {
	pages []*idPage
}

// idPage is the indexes of idPageSize consecutive ids: id base+j has index
// base+j+delta[j] (idAbsent: none), or, once widened, wide[j]-1 (-1: none).
type idPage struct {
	base  int32
	delta [idPageSize]int8
	wide  *[idPageSize]int32
}

// covers reports whether id lies in a page the table has room for.
func (d *denseIDs) covers(id uint32) bool { return int(id>>idPageShift) < len(d.pages) }

// get returns the index of id, false if it has none.
func (d *denseIDs) get(id uint32) (int32, bool) {
	k := int(id >> idPageShift)
	if k >= len(d.pages) {
		return 0, false
	}
	p := d.pages[k]
	if p == nil {
		return 0, false
	}
	j := id & (idPageSize - 1)
	if p.wide != nil {
		if i := p.wide[j]; i > 0 {
			return i - 1, true
		}
		return 0, false
	}
	dl := p.delta[j]
	if dl == idAbsent {
		return 0, false
	}
	return p.base + int32(j) + int32(dl), true
}

// grow makes room for ids below n.
func (d *denseIDs) grow(n int) {
	if k := (n + idPageSize - 1) >> idPageShift; k > len(d.pages) {
		d.pages = append(d.pages, make([]*idPage, k-len(d.pages))...)
	}
}

// set gives id, which the table covers, the index i.
func (d *denseIDs) set(id uint32, i int32) {
	k := int(id >> idPageShift)
	j := int32(id & (idPageSize - 1))
	p := d.pages[k]
	if p == nil {
		p = &idPage{base: i - j}
		for x := range p.delta {
			p.delta[x] = idAbsent
		}
		d.pages[k] = p
	}
	if p.wide == nil {
		if dl := i - p.base - j; dl > idAbsent && dl <= 127 {
			p.delta[j] = int8(dl)
			return
		}
		p.wide = new([idPageSize]int32)
		for x, dl := range p.delta {
			if dl != idAbsent {
				p.wide[x] = p.base + int32(x) + int32(dl) + 1
			}
		}
	}
	p.wide[j] = i + 1
}
