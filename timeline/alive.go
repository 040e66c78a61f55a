package timeline

import (
	"slices"
	"sort"
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
	sorted bool    // the threads' first marks are in order
	span   uint64  // the longest life of a thread not in long
	long   []int32 // threads living longer than span, or not finished
}

// alive reports whether thread th has begun before t and not finished
// before it (the threads a window from t starts with).
func alive(th *Thread, t uint64) bool {
	return th.Track.Len() > 0 && th.First < t && (th.Finished == 0 || th.Finished >= t)
}

// ThreadsAliveAt returns, in order, the indices in m.Threads of the
// threads with marks whose first mark is before t and that have not
// finished before t.
func (m *Model) ThreadsAliveAt(t uint64) []int {
	ts := m.Threads
	var out []int
	if m.alive == nil {
		for i := range ts {
			if alive(&ts[i], t) {
				out = append(out, i)
			}
		}
		return out
	}
	ix := m.alive
	ix.once.Do(func() {
		ix.sorted = slices.IsSortedFunc(ts, func(a, b Thread) int {
			switch {
			case a.First < b.First:
				return -1
			case a.First > b.First:
				return 1
			}
			return 0
		})
		if !ix.sorted {
			return
		}
		ix.span = max((m.End-m.Start)/4096, 1)
		for i := range ts {
			if th := &ts[i]; th.Finished == 0 || th.Finished-min(th.First, th.Finished) > ix.span {
				ix.long = append(ix.long, int32(i))
			}
		}
	})
	if !ix.sorted {
		for i := range ts {
			if alive(&ts[i], t) {
				out = append(out, i)
			}
		}
		return out
	}
	long := func(th *Thread) bool { return th.Finished == 0 || th.Finished-min(th.First, th.Finished) > ix.span }
	end := sort.Search(len(ts), func(i int) bool { return ts[i].First >= t })
	for i := end - 1; i >= 0 && ts[i].First+ix.span >= t; i-- {
		if th := &ts[i]; !long(th) && alive(th, t) {
			out = append(out, i)
		}
	}
	for _, i := range ix.long {
		if int(i) >= end {
			break
		}
		if alive(&ts[i], t) {
			out = append(out, int(i))
		}
	}
	slices.Sort(out)
	return out
}
