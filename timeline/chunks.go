package timeline

// Long sequences (marks, instants, spark times) are kept in chunks of a fixed
// size instead of one growing slice: appending never copies what is already
// stored, so memory stays close to the data itself, and a chunk that is full
// never changes again, so a snapshot can share it with the builder.

const (
	chunkShift = 12
	chunkSize  = 1 << chunkShift
	chunkMask  = chunkSize - 1
)

// chunkList is an append-only sequence stored in chunks of chunkSize.
type chunkList[T any] struct {
	full [][]T // full chunks, never modified again
	cur  []T   // the chunk being filled
}

// add appends v.
func (c *chunkList[T]) add(v T) {
	if len(c.cur) == chunkSize {
		c.full = append(c.full, c.cur)
		c.cur = make([]T, 0, chunkSize)
	}
	c.cur = append(c.cur, v)
}

// len returns the number of elements.
func (c *chunkList[T]) len() int { return len(c.full)<<chunkShift + len(c.cur) }

// last returns a pointer to the last element, which must exist. Only the
// builder may use it, and only on elements no snapshot has seen.
func (c *chunkList[T]) last() *T { return &c.cur[len(c.cur)-1] }

// view returns a read-only view of the elements stored so far. Later appends
// do not change it.
func (c *chunkList[T]) view() chunkView[T] {
	return chunkView[T]{full: c.full[:len(c.full):len(c.full)], cur: c.cur[:len(c.cur):len(c.cur)]}
}

// chunkView is an immutable sequence: full chunks of chunkSize followed by a
// tail of any length. A plain slice is a view with no full chunks.
type chunkView[T any] struct {
	full [][]T
	cur  []T
}

// sliceView wraps a plain slice as a view.
func sliceView[T any](s []T) chunkView[T] { return chunkView[T]{cur: s[:len(s):len(s)]} }

// Len returns the number of elements.
func (v chunkView[T]) Len() int { return len(v.full)<<chunkShift + len(v.cur) }

// At returns the i-th element.
func (v chunkView[T]) At(i int) T {
	if c := i >> chunkShift; c < len(v.full) {
		return v.full[c][i&chunkMask]
	}
	return v.cur[i-len(v.full)<<chunkShift]
}

// ptr returns a pointer to the i-th element, for reading only.
func (v chunkView[T]) ptr(i int) *T {
	if c := i >> chunkShift; c < len(v.full) {
		return &v.full[c][i&chunkMask]
	}
	return &v.cur[i-len(v.full)<<chunkShift]
}

// search returns the smallest i in [lo, Len()) for which f(i) is true, or
// Len() if there is none; f must be false then true along the sequence.
func (v chunkView[T]) search(lo int, f func(*T) bool) int {
	hi := v.Len()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !f(v.ptr(m)) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// timeList is an append-only list of times that never decrease.
type timeList = chunkList[uint64]

// timeView is an immutable list of non-decreasing times.
type timeView = chunkView[uint64]

// countBefore returns how many times are < t, searching from index lo.
func countBefore(v timeView, lo int, t uint64) int {
	return v.search(lo, func(x *uint64) bool { return *x >= t })
}

// gallop returns how many times are < t, given that at least lo are. It
// probes lo+1, lo+3, lo+7, … before searching, so walking a list in order
// costs the logarithm of each step rather than of the whole list.
func gallop(v timeView, lo int, t uint64) int {
	n := v.Len()
	step := 1
	hi := lo
	for hi < n && v.At(hi) < t {
		lo = hi + 1
		hi += step
		step <<= 1
	}
	if hi > n {
		hi = n
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if v.At(m) < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
