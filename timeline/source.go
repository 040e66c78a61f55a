package timeline

import (
	"cmp"
	"slices"
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
	//
	// threads says whether the caller shows any thread's track: without
	// them the model may leave the threads out (NumThreads 0), and
	// everything else in it is as in one with them. Most of a window's
	// events are of its threads, so one without is made several times
	// faster.
	Detail(from, to uint64, nsPerPixel float64, threads bool, ready func()) *Model
}

// ModelFor returns the model to draw [from, to) at nsPerPixel with: the
// source's detail if it has it (with its threads, if threads), else its
// overview.
func ModelFor(s Source, from, to uint64, nsPerPixel float64, threads bool, ready func()) *Model {
	if m := s.Detail(from, to, nsPerPixel, threads, ready); m != nil {
		return m
	}
	return s.Overview()
}

// Exact returns the Source of a model that is exact everywhere: its
// overview, with no detail to add.
func Exact(m *Model) Source { return exactSource{m} }

type exactSource struct{ m *Model }

func (s exactSource) Overview() *Model                                    { return s.m }
func (s exactSource) Detail(uint64, uint64, float64, bool, func()) *Model { return nil }

// threadIndex finds threads by id. Threads come in order of first
// appearance, which is the order of their ids in most logs (GHC numbers
// them upwards): a binary search over the blocks of threads by their first
// ids then finds the block that holds a thread, and a thread found there
// is the one, whatever the order elsewhere, since a model holds one thread
// per id. Only an id not found so needs the order known: then, built on
// first use, ids holds every id sorted, with its thread's index in byID —
// 8 bytes a thread where a map took ~40, for runs of millions of threads —
// unless the ids are in order (sorted), and the id is in no thread.
type threadIndex struct {
	once   sync.Once
	sorted bool
	ids    []uint32
	byID   []int32
}

// ThreadIndex returns the index (see Thread) of the thread with id, or -1
// if the model has no such thread.
func (m *Model) ThreadIndex(id uint32) int {
	if m.tidx == nil {
		return m.scanThread(id)
	}
	if i := m.searchBlockByID(id); i >= 0 {
		return i
	}
	ix := m.tidx
	ix.once.Do(func() {
		ix.sorted = true
		prev, any := uint32(0), false
		m.eachRecord(0, func(i int, r *threadRec) bool {
			if any && r.ID < prev {
				ix.sorted = false
				return false
			}
			prev, any = r.ID, true
			return true
		})
		if ix.sorted {
			return
		}
		ids := make([]uint32, 0, m.NumThreads())
		for _, r := range m.ThreadRecords() {
			ids = append(ids, r.ID)
		}
		byID := make([]int32, len(ids))
		for i := range byID {
			byID[i] = int32(i)
		}
		slices.SortStableFunc(byID, func(a, b int32) int { return cmp.Compare(ids[a], ids[b]) })
		sortedIDs := make([]uint32, len(ids))
		for i, k := range byID {
			sortedIDs[i] = ids[k]
		}
		ix.ids, ix.byID = sortedIDs, byID
	})
	if ix.sorted {
		return -1
	}
	k, ok := slices.BinarySearch(ix.ids, id)
	if !ok {
		return -1
	}
	return int(ix.byID[k])
}

// searchBlockByID returns the index of the thread with id if the block
// where the ids' order would put it holds it, -1 if not.
func (m *Model) searchBlockByID(id uint32) int {
	bs := m.threads.blocks
	k, _ := slices.BinarySearchFunc(bs, id, func(b *threadBlock, id uint32) int {
		if b.firstID <= id {
			return -1
		}
		return 1
	})
	if k == 0 {
		return -1
	}
	k--
	at := -1
	m.eachRecord(k<<threadBlockShift, func(i int, r *threadRec) bool {
		if r.ID == id {
			at = i
			return false
		}
		return i+1 < (k+1)<<threadBlockShift
	})
	return at
}

// RecordsByID returns a function that finds a thread's record by id, as
// ThreadIndex and ThreadRecord do, keeping the block of records it decoded
// last: ids looked up near each other in the model's order, as a detail
// window's threads are in its overview's, cost a look through that block
// each, not a search and two decodings of it.
func (m *Model) RecordsByID() func(id uint32) (ThreadRecord, bool) {
	var recs []ThreadRecord
	k := -1
	return func(id uint32) (ThreadRecord, bool) {
		for i := range recs {
			if recs[i].ID == id {
				return recs[i], true
			}
		}
		i := m.ThreadIndex(id)
		if i < 0 {
			return ThreadRecord{}, false
		}
		if i>>threadBlockShift != k {
			k = i >> threadBlockShift
			recs = recs[:0]
			m.eachRecord(k<<threadBlockShift, func(j int, r *threadRec) bool {
				recs = append(recs, r.ThreadRecord)
				return j+1 < (k+1)<<threadBlockShift
			})
		}
		return recs[i&(threadsPerBlock-1)], true
	}
}

// ThreadByID returns the thread with the given id (its record and track),
// or nil.
func (m *Model) ThreadByID(id uint32) *Thread {
	if i := m.ThreadIndex(id); i >= 0 {
		th := m.Thread(i)
		return &th
	}
	return nil
}

// scanThread finds a thread by a linear search (models not made by
// Snapshot).
func (m *Model) scanThread(id uint32) int {
	at := -1
	m.eachRecord(0, func(i int, r *threadRec) bool {
		if r.ID == id {
			at = i
			return false
		}
		return true
	})
	return at
}
