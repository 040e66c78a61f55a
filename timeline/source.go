package timeline

import (
	"cmp"
	"slices"
	"sort"
	"sync"
)

// Source gives the views the models to draw a run with. A small log is one
// exact Model. A large one is an overview whose dense stretches may be
// summarised (a track's busy stretch becomes the time spent in each state
// there), plus exact detail decoded from the log's bytes for the range on
// screen when the view is zoomed in past what the overview resolves.
//
// Threads are identified by id, not by index: a detail model holds only the
// threads alive in its range (Model.ThreadIndex finds one).
type Source interface {
	// Overview returns the model of the whole run known so far: every HEC
	// and thread, the strings, user-span labels, markers and user spans.
	Overview() *Model
	// Detail returns a model exact enough to draw [from, to) at nsPerPixel
	// ns per pixel column, or nil if the overview is exact enough or no
	// such model is ready yet. It never blocks: when it returns nil while
	// detail is being made, it calls ready (from any goroutine) once the
	// detail is there, so that the caller can draw again.
	Detail(from, to uint64, nsPerPixel float64, ready func()) *Model
}

// ModelFor returns the model to draw [from, to) at nsPerPixel with: the
// source's detail if it has it, else its overview.
func ModelFor(s Source, from, to uint64, nsPerPixel float64, ready func()) *Model {
	if m := s.Detail(from, to, nsPerPixel, ready); m != nil {
		return m
	}
	return s.Overview()
}

// Exact returns the Source of a model that is exact everywhere: its
// overview, with no detail to add.
func Exact(m *Model) Source { return exactSource{m} }

type exactSource struct{ m *Model }

func (s exactSource) Overview() *Model                              { return s.m }
func (s exactSource) Detail(uint64, uint64, float64, func()) *Model { return nil }

// threadIndex finds threads by id in Model.Threads; built on first use.
// Threads come in order of first appearance, which is the order of their
// ids in most logs (GHC numbers them upwards): then a binary search over
// the threads themselves needs nothing more, and otherwise byID holds
// their indices sorted by id — 4 bytes a thread where a map took ~40, for
// runs of millions of threads.
type threadIndex struct {
	once   sync.Once
	sorted bool
	byID   []int32
}

// ThreadIndex returns the index into m.Threads of the thread with id, or -1
// if the model has no such thread.
func (m *Model) ThreadIndex(id uint32) int {
	if m.tidx == nil {
		return m.scanThread(id)
	}
	ts := m.Threads
	m.tidx.once.Do(func() {
		m.tidx.sorted = slices.IsSortedFunc(ts, func(a, b Thread) int { return cmp.Compare(a.ID, b.ID) })
		if m.tidx.sorted {
			return
		}
		byID := make([]int32, len(ts))
		for i := range byID {
			byID[i] = int32(i)
		}
		slices.SortStableFunc(byID, func(a, b int32) int { return cmp.Compare(ts[a].ID, ts[b].ID) })
		m.tidx.byID = byID
	})
	if m.tidx.sorted {
		if i, ok := slices.BinarySearchFunc(ts, id, func(t Thread, id uint32) int { return cmp.Compare(t.ID, id) }); ok {
			return i
		}
		return -1
	}
	byID := m.tidx.byID
	k := sort.Search(len(byID), func(k int) bool { return ts[byID[k]].ID >= id })
	if k < len(byID) && ts[byID[k]].ID == id {
		return int(byID[k])
	}
	return -1
}

// ThreadByID returns the thread with the given id, or nil.
func (m *Model) ThreadByID(id uint32) *Thread {
	if i := m.ThreadIndex(id); i >= 0 {
		return &m.Threads[i]
	}
	return nil
}

// scanThread finds a thread by a linear search (models not made by
// Snapshot).
func (m *Model) scanThread(id uint32) int {
	for i := range m.Threads {
		if m.Threads[i].ID == id {
			return i
		}
	}
	return -1
}
