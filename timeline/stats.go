package timeline

import (
	"fmt"
	"io"

	"github.com/hecscope/hecscope/ingest"
)

// SummarizeRange decodes an eventlog from src and returns the Summary of a
// selection [from, to] (ns): the figures of `hecscope summary` restricted to
// the events with from ≤ time ≤ to, by the rules ThreadScope applies to a
// selection (see Summary):
//
//   - TotalNS is the range's length, from and to rounded up to whole
//     microseconds; MutatorNS, Productivity and AllocRate follow from it;
//   - Heap.Allocated and the spark counts are, per capability, its last
//     HeapAllocated or SparkCounters value in the range minus its first;
//   - the earliest GCStatsGHC in the range is left out of Copied (as it
//     already is of the par-copied sums), though not of GC.Gens;
//   - a collection a capability had begun before from is not counted (the
//     summariser counts a collection from its GCStart, which the range then
//     lacks).
//
// The run's description (Program, Args, Env, RTS, StartWall, Capabilities)
// is the whole log's. A range that leaves out no event is the whole run, and
// its Summary is exactly Summarize's. The error is non-nil only if reading
// src failed or the range is empty.
func SummarizeRange(src io.Reader, from, to uint64) (Summary, error) {
	if to < from {
		return Summary{}, fmt.Errorf("summarising range: empty range [%d, %d]", from, to)
	}
	r := ingest.NewReader(src)
	whole, part := NewSummarizer(), NewSummarizer()
	type capRange struct {
		hasAlloc              bool
		allocFirst, allocLast uint64
		hasSparks             bool
		sparkFirst, sparkLast [6]uint64
	}
	var caps []capRange
	capOf := func(c int32) *capRange {
		for int(c) >= len(caps) {
			caps = append(caps, capRange{})
		}
		return &caps[c]
	}
	excluded := false
	var firstStats ingest.Event
	hasFirstStats := false
	var ev ingest.Event
	for r.Next(&ev) {
		whole.Add(&ev)
		if ev.Kind == ingest.KindBlockMarker {
			if from <= ev.Time && ev.Time <= to {
				part.Add(&ev) // counted, in BlockMarkers only
			}
			continue
		}
		if ev.Time < from || ev.Time > to {
			excluded = true
			continue
		}
		if ev.Cap >= 0 && ev.Cap < maxCaps {
			c := capOf(ev.Cap)
			switch ev.Kind {
			case ingest.KindHeapAllocated:
				if !c.hasAlloc {
					c.hasAlloc, c.allocFirst = true, ev.Args[1]
				}
				c.allocLast = ev.Args[1]
			case ingest.KindSparkCounters:
				cur := sparkOrder(ev.SparkCounters())
				if !c.hasSparks {
					c.hasSparks, c.sparkFirst = true, cur
				}
				c.sparkLast = cur
			}
		}
		if ev.Kind == ingest.KindGCStatsGHC && (!hasFirstStats || Micros(ev.Time) < Micros(firstStats.Time)) {
			firstStats, hasFirstStats = ev, true
			firstStats.Data, firstStats.Raw = nil, nil
		}
		part.Add(&ev)
	}
	if err := r.Err(); err != nil {
		return Summary{}, fmt.Errorf("summarising range: %w", err)
	}
	w := whole.Summary(r.Header(), r.Status())
	if !excluded {
		return w, nil
	}
	s := part.Summary(r.Header(), r.Status())
	s.Program, s.Args, s.Env, s.RTS, s.StartWall = w.Program, w.Args, w.Env, w.RTS, w.StartWall
	s.Capabilities = w.Capabilities

	s.TotalNS = (Micros(to) - Micros(from)) * 1000
	s.MutatorNS = s.TotalNS - min(s.GC.Total.ElapsedNS, s.TotalNS)
	s.Productivity = 0
	if s.TotalNS > 0 {
		s.Productivity = float64(s.MutatorNS) / float64(s.TotalNS)
	}
	if hasFirstStats {
		cp := firstStats.Args[2]
		s.Heap.Copied -= min(cp, s.Heap.Copied)
		s.GC.Total.Copied = s.Heap.Copied
	}
	s.Heap.Allocated, s.Heap.AllocRate = 0, 0
	s.Sparks = SparkSummary{}
	for i := range caps {
		c := &caps[i]
		if c.hasAlloc {
			s.Heap.Allocated += c.allocLast - min(c.allocFirst, c.allocLast)
		}
		if c.hasSparks {
			var d [6]uint64
			for k := range d {
				d[k] = c.sparkLast[k] - min(c.sparkFirst[k], c.sparkLast[k])
			}
			s.Sparks.addCap(i, d)
		}
	}
	s.setAllocRate()
	return s, nil
}

// RangeTimes returns, per HEC, the time it spent in each state during
// [from, to): the model's own figures for a selection, exact to the ns.
func (m *Model) RangeTimes(from, to uint64) []Durations {
	out := make([]Durations, len(m.HECs))
	for c := range m.HECs {
		out[c] = m.HECs[c].Track.Durations(from, to)
	}
	return out
}
