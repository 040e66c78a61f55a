package timeline

// A track's checkpoints are the time per state from 0 to every 32nd mark
// (the k-th at mark k*32, k ≥ 1; checkpoint 0, all idle until the first
// mark, is not stored), and the times of those marks. The times are kept
// apart from the durations, 8 bytes each: a search for the mark in force
// at some time probes them first, and a pixel column of a dense track spans
// a few dozen of them, one or two cache lines, instead of a few dozen
// 72-byte durations or a few dozen cache lines of marks.

// checkpointList is a track's checkpoints as a builder keeps them: at[i]
// and d[i] are those of checkpoint i+1.
type checkpointList struct {
	d  []Durations
	at []uint64
}

// len returns the number of checkpoints stored.
func (c *checkpointList) len() int { return len(c.d) }

// add appends a checkpoint.
func (c *checkpointList) add(at uint64, d Durations) {
	c.d = append(c.d, d)
	c.at = append(c.at, at)
}

// truncate keeps the first k checkpoints stored; with copy, in new storage
// (a snapshot shares the old).
func (c *checkpointList) truncate(k int, copyOut bool) {
	k = min(k, len(c.d))
	if copyOut {
		c.d = append([]Durations(nil), c.d[:k]...)
		c.at = append([]uint64(nil), c.at[:k]...)
		return
	}
	c.d, c.at = c.d[:k], c.at[:k]
}

// reset empties the list, keeping its storage.
func (c *checkpointList) reset() { c.d, c.at = c.d[:0], c.at[:0] }

// view returns the checkpoints stored so far, sharing their storage (the
// list only ever appends to it, or copies before changing it).
func (c *checkpointList) view() checkpointView {
	if len(c.d) == 0 {
		return checkpointView{}
	}
	d, at := sliceView(c.d[:len(c.d):len(c.d)]), sliceView(c.at[:len(c.at):len(c.at)])
	return checkpointView{d: d.chunks, at: at.chunks, n: int32(len(c.d))}
}

// clone returns a copy of the list in storage of its own.
func (c *checkpointList) clone() checkpointList {
	return checkpointList{d: append([]Durations(nil), c.d...), at: append([]uint64(nil), c.at...)}
}

// checkpointArena holds the checkpoints of finished threads back to back,
// durations and times in two chunk lists filled in step (their chunks
// line up).
type checkpointArena struct {
	d  chunkList[Durations]
	at chunkList[uint64]
}

// len returns the number of checkpoints stored.
func (a *checkpointArena) len() int { return a.d.len() }

// addAll appends the list's checkpoints.
func (a *checkpointArena) addAll(c *checkpointList) {
	for i := range c.d {
		a.d.add(c.d[i])
		a.at.add(c.at[i])
	}
}

// view returns the checkpoints stored so far.
func (a *checkpointArena) view() checkpointView {
	d, at := a.d.view(), a.at.view()
	return checkpointView{d: d.chunks, at: at.chunks, n: d.n}
}

// checkpointView is an immutable run of checkpoints: n from the off-th on
// of two tables of chunks that line up (durations and times).
type checkpointView struct {
	d      *[][]Durations
	at     *[][]uint64
	off, n int32
}

// sub returns the n checkpoints from the off-th on.
func (v checkpointView) sub(off, n int) checkpointView {
	return checkpointView{d: v.d, at: v.at, off: v.off + int32(off), n: int32(n)}
}

// Len returns the number of checkpoints.
func (v checkpointView) Len() int { return int(v.n) }

// durations returns the i-th checkpoint's time per state.
func (v checkpointView) durations(i int) *Durations {
	j := int(v.off) + i
	return &(*v.d)[j>>chunkShift][j&chunkMask]
}

// time returns the i-th checkpoint's mark time.
func (v checkpointView) time(i int) uint64 {
	j := int(v.off) + i
	return (*v.at)[j>>chunkShift][j&chunkMask]
}
