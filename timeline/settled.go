package timeline

import (
	"iter"
	"math"
)

// SettledStates sums up the settled threads of a model: those that
// finished with a short track (no summarised stretch, at most
// checkpointEvery marks), which the builder packed once for all when they
// retired — nearly every thread of a thread-heavy run. It is what their
// tracks hold between their first mark and their last, added up as each
// one retired, so that what asks which states a run's threads spend time
// in need not decode millions of tracks after the load: it reads this and
// goes through the other threads only (Model.UnsettledThreads).
type SettledStates struct {
	// Threads is how many threads it sums up.
	Threads int
	// Spent has bit 1<<s set when one of them spent time in state s
	// between its first mark and its last: a mark of state s followed by
	// one at another time.
	Spent uint16
	// Last has bit 1<<s set when one of their tracks ends with a mark of
	// state s.
	Last uint16
	// FirstMin and FirstMax are the earliest and latest times of their
	// first marks; LastMin and LastMax those of their last marks.
	FirstMin, FirstMax, LastMin, LastMax uint64
	// BlockedStops has the Reasons of the marks of state StateBlocked
	// (Mark.Stop) of those that spent time blocked (Spent's StateBlocked),
	// a bit each.
	BlockedStops [4]uint64
}

// add sums up the track of marks of a thread that has just retired.
func (s *SettledStates) add(marks []Mark) {
	n := len(marks)
	if n == 0 {
		return
	}
	if s.Threads == 0 {
		s.FirstMin, s.LastMin = math.MaxUint64, math.MaxUint64
	}
	s.Threads++
	first, last := &marks[0], &marks[n-1]
	s.FirstMin, s.FirstMax = min(s.FirstMin, first.Time), max(s.FirstMax, first.Time)
	s.LastMin, s.LastMax = min(s.LastMin, last.Time), max(s.LastMax, last.Time)
	s.Last |= 1 << last.State
	var spent uint16
	for j := range n - 1 {
		// A difference, as Track.Durations adds up.
		if marks[j+1].Time-marks[j].Time != 0 {
			spent |= 1 << marks[j].State
		}
	}
	s.Spent |= spent
	if spent&(1<<StateBlocked) == 0 {
		return
	}
	for j := range marks {
		if m := &marks[j]; m.State == StateBlocked {
			s.BlockedStops[m.Reason>>6] |= 1 << (m.Reason & 63)
		}
	}
}

// HasStop reports whether BlockedStops holds stop status reason.
func (s *SettledStates) HasStop(reason uint8) bool {
	return s.BlockedStops[reason>>6]&(1<<(reason&63)) != 0
}

// SettledStates returns the sum of the model's settled threads (see
// SettledStates); its Threads is 0 if it has none.
func (m *Model) SettledStates() SettledStates { return m.threads.settled }

// settledRec reports whether a record is of a settled thread, one that
// SettledStates sums up: it finished, and its marks were packed in the
// arena when it retired (Builder.retire adds those to the sum).
func settledRec(r *threadRec) bool { return r.where == marksArena && r.Finished != 0 }

// UnsettledThreads is Threads without the settled threads, those that
// SettledStates sums up; it decodes only the tracks of those it yields.
func (m *Model) UnsettledThreads() iter.Seq2[int, *Thread] {
	return m.threadsWhere(0, m.threads.n, true)
}
