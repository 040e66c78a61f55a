package timeline

import (
	"math"
	"slices"
	"sync"
)

// aliveIndex finds the threads alive at a time without a look at every
// thread: a detail window seeds each thread alive at its start, and a run
// of millions of short-lived threads made every window scan them all.
// Threads come in order of their first mark; those that live longer than
// span (or never finish) are listed apart, so that the others alive at t
// all lie in the threads whose first mark is in [t-span, t).
type aliveIndex struct {
	once   sync.Once
	sorted bool         // the threads' first marks are in order
	span   uint64       // the longest life of a thread not in long
	long   []longThread // threads with marks living longer than span, or not finished
}

// longThread is what the index keeps of a long-lived thread: its index
// and lifetime.
type longThread struct {
	i               int32
	first, finished uint64
}

// alive reports whether the thread of record r has begun before t and not
// finished before it (the threads a window from t starts with).
func alive(r *threadRec, t uint64) bool {
	return r.where != marksNone && r.First < t && (r.Finished == 0 || r.Finished >= t)
}

// ThreadsAliveAt returns, in order, the indices (see Thread) of the
// threads with marks whose first mark is before t and that have not
// finished before t.
func (m *Model) ThreadsAliveAt(t uint64) []int {
	var out []int
	scan := func() []int {
		m.eachRecord(0, func(i int, r *threadRec) bool {
			if alive(r, t) {
				out = append(out, i)
			}
			return true
		})
		return out
	}
	if m.alive == nil {
		return scan()
	}
	ix := m.alive
	ix.once.Do(func() {
		ix.span = max((m.End-m.Start)/4096, 1)
		ix.sorted = true
		prev := uint64(0)
		for k, b := range m.threads.blocks {
			if b.first < prev || b.lastFirst == math.MaxUint64 {
				ix.sorted, ix.long = false, nil
				return
			}
			prev = b.lastFirst
			if b.reach <= ix.span {
				continue // no thread of the block is long-lived
			}
			end := (k + 1) << threadBlockShift
			m.eachRecord(k<<threadBlockShift, func(i int, r *threadRec) bool {
				if ix.longLived(r) && r.where != marksNone {
					ix.long = append(ix.long, longThread{i: int32(i), first: r.First, finished: r.Finished})
				}
				return i+1 < end
			})
		}
	})
	if !ix.sorted {
		return scan()
	}
	end := m.searchFirst(t)
	from := 0
	if t > ix.span {
		from = m.searchFirst(t - ix.span)
	}
	m.eachRecord(from, func(i int, r *threadRec) bool {
		if i >= end {
			return false
		}
		if !ix.longLived(r) && alive(r, t) {
			out = append(out, i)
		}
		return true
	})
	for _, l := range ix.long {
		if int(l.i) >= end {
			break
		}
		if l.first < t && (l.finished == 0 || l.finished >= t) {
			out = append(out, int(l.i))
		}
	}
	slices.Sort(out)
	return out
}

// longLived reports whether the thread of record r lives longer than the
// index's span, or never finishes.
func (ix *aliveIndex) longLived(r *threadRec) bool {
	return r.Finished == 0 || r.Finished-min(r.First, r.Finished) > ix.span
}

// searchFirst returns the index of the first thread whose First is at or
// after t, the threads being in order of First.
func (m *Model) searchFirst(t uint64) int {
	bs := m.threads.blocks
	// The last block whose first thread begins before t.
	k, _ := slices.BinarySearchFunc(bs, t, func(b *threadBlock, t uint64) int {
		if b.first < t {
			return -1
		}
		return 1
	})
	if k == 0 {
		return 0
	}
	k--
	at := min((k+1)<<threadBlockShift, m.threads.n)
	m.eachRecord(k<<threadBlockShift, func(i int, r *threadRec) bool {
		if r.First >= t {
			at = i
			return false
		}
		return i+1 < (k+1)<<threadBlockShift
	})
	return at
}
