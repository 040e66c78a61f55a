package ccprofile

import (
	"fmt"

	"github.com/hecscope/hecscope/ingest"
)

// Spread is where in time one cost centre's samples fall: how many of them
// were taken in each of equal bins of [From, To).
type Spread struct {
	From, To uint64
	Counts   []uint32
	// Max is the largest count.
	Max uint32
}

// Bin returns the time range of bin i.
func (s *Spread) Bin(i int) (from, to uint64) {
	w := float64(s.To-s.From) / float64(len(s.Counts))
	return s.From + uint64(float64(i)*w), s.From + uint64(float64(i+1)*w)
}

// SpreadOf reads the log again (pass) and counts the samples in [from, to)
// with the cost centre labelled label in module anywhere on their stack, in
// bins equal bins (the pick of a cost centre shown on a time line).
func SpreadOf(pass ingest.Pass, label, module string, from, to uint64, bins int) (*Spread, error) {
	if bins <= 0 || to <= from {
		return nil, fmt.Errorf("spread of %s.%s: empty range or no bins", module, label)
	}
	s := &Spread{From: from, To: to, Counts: make([]uint32, bins)}
	ids := make(map[uint32]bool)
	w := float64(to-from) / float64(bins)
	_, err := pass(func(ev *ingest.Event) bool {
		if ev.Time >= to {
			return false
		}
		switch ev.Kind {
		case ingest.KindHeapProfCostCentre:
			if f := ev.Strings(); len(f) >= 2 && f[0] == label && f[1] == module && len(ids) < maxCostCentres {
				ids[uint32(ev.Args[0])] = true
			}
		case ingest.KindProfSampleCostCentre:
			if ev.Time < from {
				return true
			}
			for i := range ev.StackLen() {
				if ids[ev.Stack(i)] {
					b := min(int(float64(ev.Time-from)/w), bins-1)
					s.Counts[b]++
					s.Max = max(s.Max, s.Counts[b])
					break
				}
			}
		}
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("spread of %s.%s: %w", module, label, err)
	}
	return s, nil
}
