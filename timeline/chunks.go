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
	chunks [][]T // full chunks, then the one being filled
	n      int
}

// add appends v.
func (c *chunkList[T]) add(v T) {
	k := len(c.chunks) - 1
	if k < 0 || len(c.chunks[k]) == chunkSize {
		// A first chunk starts small (most lists are short) and grows.
		size := chunkSize
		if k < 0 {
			size = 4
		}
		c.chunks = append(c.chunks, make([]T, 0, size))
		k++
	}
	c.chunks[k] = append(c.chunks[k], v)
	c.n++
}

// addSlice appends the elements of s.
func (c *chunkList[T]) addSlice(s []T) {
	for len(s) > 0 {
		k := len(c.chunks) - 1
		if k < 0 || len(c.chunks[k]) == chunkSize {
			c.add(s[0])
			s = s[1:]
			continue
		}
		n := min(chunkSize-len(c.chunks[k]), len(s))
		c.chunks[k] = append(c.chunks[k], s[:n]...)
		c.n += n
		s = s[n:]
	}
}

// len returns the number of elements.
func (c *chunkList[T]) len() int { return c.n }

// addAll appends every element of o.
func (c *chunkList[T]) addAll(o *chunkList[T]) {
	for _, ch := range o.chunks {
		for i := range ch {
			c.add(ch[i])
		}
	}
}

// view returns a read-only view of the elements stored so far. Later appends
// do not change it. It shares the full chunks and copies the one being
// filled, so that the list may reuse that (reset).
func (c *chunkList[T]) view() chunkView[T] {
	if c.n == 0 {
		return chunkView[T]{}
	}
	tab := make([][]T, len(c.chunks))
	for i, ch := range c.chunks {
		if len(ch) < chunkSize {
			ch = append(make([]T, 0, len(ch)), ch...)
		}
		tab[i] = ch[:len(ch):len(ch)]
	}
	return chunkView[T]{chunks: &tab, n: int32(c.n)}
}

// peek returns a view of the elements stored so far that shares the
// list's storage: to read at once, before the list changes.
func (c *chunkList[T]) peek() chunkView[T] {
	return chunkView[T]{chunks: &c.chunks, n: int32(c.n)}
}

// reset empties the list, keeping the chunk being filled for reuse (views
// never share it) unless full chunks came before it.
func (c *chunkList[T]) reset() {
	if len(c.chunks) == 1 && len(c.chunks[0]) < chunkSize {
		c.chunks[0] = c.chunks[0][:0]
	} else {
		c.chunks = nil
	}
	c.n = 0
}

// chunkView is an immutable sequence: n elements from the off-th on of a
// table of chunks of chunkSize (the last may be shorter), which several views
// can share.
type chunkView[T any] struct {
	chunks *[][]T
	off, n int32
}

// sliceView wraps a plain slice as a view (without copying it).
func sliceView[T any](s []T) chunkView[T] {
	if len(s) == 0 {
		return chunkView[T]{}
	}
	tab := make([][]T, 0, (len(s)+chunkSize-1)/chunkSize)
	for i := 0; i < len(s); i += chunkSize {
		j := min(i+chunkSize, len(s))
		tab = append(tab, s[i:j:j])
	}
	return chunkView[T]{chunks: &tab, n: int32(len(s))}
}

// slice returns the elements as one slice, for reading only: that of
// the chunk they lie in, or a copy if they straddle two.
func (v chunkView[T]) slice() []T {
	if v.n == 0 {
		return nil
	}
	j := int(v.off)
	if k := j >> chunkShift; (j+int(v.n)-1)>>chunkShift == k {
		return (*v.chunks)[k][j&chunkMask : j&chunkMask+int(v.n)]
	}
	out := make([]T, v.n)
	for i := range out {
		out[i] = *v.ptr(i)
	}
	return out
}

// sub returns the n elements from the off-th on.
func (v chunkView[T]) sub(off, n int) chunkView[T] {
	return chunkView[T]{chunks: v.chunks, off: v.off + int32(off), n: int32(n)}
}

// Len returns the number of elements.
func (v chunkView[T]) Len() int { return int(v.n) }

// At returns the i-th element.
func (v chunkView[T]) At(i int) T { return *v.ptr(i) }

// ptr returns a pointer to the i-th element, for reading only.
func (v chunkView[T]) ptr(i int) *T {
	j := int(v.off) + i
	return &(*v.chunks)[j>>chunkShift][j&chunkMask]
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

// timeChunk holds up to chunkSize times: as 32-bit offsets from base while
// they fit (4.29 s), else as full values.
type timeChunk struct {
	base   uint64
	narrow []uint32
	wide   []uint64
}

func (c *timeChunk) len() int { return len(c.narrow) + len(c.wide) }

func (c *timeChunk) at(i int) uint64 {
	if c.wide != nil {
		return c.wide[i]
	}
	return c.base + uint64(c.narrow[i])
}

// timeList is an append-only list of times that never decrease, at 4 bytes
// a time for dense lists.
type timeList struct {
	full []timeChunk
	cur  timeChunk
	n    int
	last uint64
}

// add appends t, which must not be smaller than the last time added.
func (l *timeList) add(t uint64) {
	if l.cur.len() == chunkSize {
		l.full = append(l.full, l.cur)
		l.cur = timeChunk{}
	}
	c := &l.cur
	switch {
	case c.len() == 0:
		c.base = t
		c.narrow = append(c.narrow, 0)
	case c.wide != nil:
		c.wide = append(c.wide, t)
	case t-c.base <= 0xFFFFFFFF:
		c.narrow = append(c.narrow, uint32(t-c.base))
	default:
		w := make([]uint64, len(c.narrow), chunkSize)
		for i, o := range c.narrow {
			w[i] = c.base + uint64(o)
		}
		c.wide, c.narrow = append(w, t), nil
	}
	l.n++
	l.last = t
}

// view returns an immutable view of the times added so far.
func (l *timeList) view() timeView {
	cur := l.cur
	cur.narrow = cur.narrow[:len(cur.narrow):len(cur.narrow)]
	cur.wide = cur.wide[:len(cur.wide):len(cur.wide)]
	return timeView{full: l.full[:len(l.full):len(l.full)], cur: cur, n: l.n}
}

// timeView is an immutable list of non-decreasing times.
type timeView struct {
	full []timeChunk
	cur  timeChunk
	n    int
}

// Len returns the number of times.
func (v timeView) Len() int { return v.n }

// At returns the i-th time.
func (v timeView) At(i int) uint64 {
	if c := i >> chunkShift; c < len(v.full) {
		return v.full[c].at(i & chunkMask)
	}
	return v.cur.at(i - len(v.full)<<chunkShift)
}

// countBefore returns how many times are < t, searching from index lo.
func countBefore(v timeView, lo int, t uint64) int {
	hi := v.Len()
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
