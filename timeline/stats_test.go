package timeline

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// TestSummarizeRangeWhole: the range of the whole run counts what
// Summarize counts (events, threads, the heap, sparks, the collections'
// pauses), and gives the GC time of the pauses, as every range does.
func TestSummarizeRangeWhole(t *testing.T) {
	for _, path := range testLogs(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Summarize(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		got, err := SummarizeRange(bytes.NewReader(data), 0, want.LastNS)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		// The allocation rate is per second of mutator time, whose GC
		// time is the pauses' here and ThreadScope's count there.
		gotRate, wantRate := got.Heap.AllocRate, want.Heap.AllocRate
		got.Heap.AllocRate, want.Heap.AllocRate = 0, 0
		if got.HasAllocRate() && got.MutatorNS >= 1000 && got.Heap.Allocated > 0 {
			if r := uint64(float64(got.Heap.Allocated) / (float64(got.MutatorNS/1000) / 1e6)); gotRate != r {
				t.Errorf("%s: allocation rate %d, want %d", name, gotRate, r)
			}
		} else if gotRate != 0 || wantRate != 0 && got.GC.Pauses.Count > 0 {
			t.Errorf("%s: allocation rate %d without allocation or mutator time (whole run's %d)", name, gotRate, wantRate)
		}
		for _, c := range []struct {
			what      string
			got, want any
		}{
			{"events", got.Events, want.Events},
			{"block markers", got.BlockMarkers, want.BlockMarkers},
			{"threads", got.Threads, want.Threads},
			{"heap", got.Heap, want.Heap},
			{"sparks", got.Sparks, want.Sparks},
			{"pauses", got.GC.Pauses, want.GC.Pauses},
			{"reported", got.GC.Reported, want.GC.Reported},
			{"has heap", got.HasHeap, want.HasHeap},
		} {
			if !reflect.DeepEqual(c.got, c.want) {
				t.Errorf("%s: %s %+v, Summarize's %+v", name, c.what, c.got, c.want)
			}
		}
		if gc, ok := got.GCTime(); ok != (want.GC.Pauses.Count > 0) || gc != want.GC.Pauses.ElapsedNS || !got.Range {
			t.Errorf("%s: the range's GC time %d (%v, from %v), the pauses' %d", name, gc, ok, got.GCFrom, want.GC.Pauses.ElapsedNS)
		}
	}
}

// rangeFacts is what TestSummarizeRangePart works out from the events
// alone, for a range [from, to].
type rangeFacts struct {
	events        uint64
	sparksCreated uint64
	allocated     uint64
	hasLive       bool
	maxLive       uint64
	threadsRan    int
	pauses        uint64 // the GC pauses clipped to the range
	hasGC         bool   // the log has a GC start and its end
}

// factsOf works rangeFacts out from the events, in file order: a
// capability's events are in time order.
func factsOf(evs []ingest.Event, from, to uint64) rangeFacts {
	var f rangeFacts
	sparkBefore, sparkLast := map[int32]uint64{}, map[int32]uint64{}
	allocBefore, allocLast := map[int32]uint64{}, map[int32]uint64{}
	running := map[int32]uint32{}
	ran := map[uint32]bool{}
	gcStart := map[int32]uint64{}
	type iv struct{ start, end uint64 }
	var leads, all []iv
	hasStats := false
	lastGC := map[int32]iv{}
	open := map[int32]bool{}
	pending := map[int32]int{} // GCStatsGHC events of a capability's open GC
	for i := range evs {
		e := &evs[i]
		switch e.Kind {
		case ingest.KindGCStart:
			gcStart[e.Cap], open[e.Cap] = e.Time, true
		case ingest.KindGCEnd:
			if open[e.Cap] {
				open[e.Cap] = false
				lastGC[e.Cap] = iv{gcStart[e.Cap], max(e.Time, gcStart[e.Cap])}
				all = append(all, lastGC[e.Cap])
				for range pending[e.Cap] {
					leads = append(leads, lastGC[e.Cap])
				}
				pending[e.Cap] = 0
			}
		case ingest.KindGCStatsGHC:
			hasStats = true
			if open[e.Cap] {
				pending[e.Cap]++
			} else if l, ok := lastGC[e.Cap]; ok {
				leads = append(leads, l)
			}
		}
		if e.Kind == ingest.KindBlockMarker || e.Time > to {
			continue
		}
		if e.Time < from {
			switch e.Kind {
			case ingest.KindSparkCounters:
				sparkBefore[e.Cap] = e.Args[0]
			case ingest.KindHeapAllocated:
				allocBefore[e.Cap] = e.Args[1]
			case ingest.KindRunThread:
				running[e.Cap] = uint32(e.Args[0])
			case ingest.KindStopThread:
				delete(running, e.Cap)
			}
			continue
		}
		f.events++
		switch e.Kind {
		case ingest.KindSparkCounters:
			sparkLast[e.Cap] = e.Args[0]
		case ingest.KindHeapAllocated:
			allocLast[e.Cap] = e.Args[1]
		case ingest.KindHeapLive:
			f.hasLive, f.maxLive = true, max(f.maxLive, e.Args[1])
		case ingest.KindRunThread:
			ran[uint32(e.Args[0])] = true
		}
	}
	for c, l := range sparkLast {
		f.sparksCreated += l - min(sparkBefore[c], l)
	}
	for c, l := range allocLast {
		f.allocated += l - min(allocBefore[c], l)
	}
	for _, id := range running {
		ran[id] = true
	}
	f.threadsRan = len(ran)
	f.hasGC = len(all) > 0
	ivs := all
	if hasStats {
		ivs = leads
	} else {
		// The union of the capabilities' intervals.
		sort.Slice(ivs, func(i, j int) bool { return ivs[i].start < ivs[j].start })
		var u []iv
		for _, v := range ivs {
			if n := len(u); n > 0 && v.start <= u[n-1].end {
				u[n-1].end = max(u[n-1].end, v.end)
				continue
			}
			u = append(u, v)
		}
		ivs = u
	}
	for _, v := range ivs {
		if v.end >= from && v.start <= to {
			f.pauses += min(v.end, to) - max(v.start, from)
		}
	}
	return f
}

// TestSummarizeRangePart checks a selection's figures against the events:
// each is of the range (the Selection tab said GC time 0 beside a
// HEC table with GC in it, allocated 0 B, 1 thread where three ran).
func TestSummarizeRangePart(t *testing.T) {
	for _, path := range testLogs(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, evs := build(t, path)
		if m.End < 10000 {
			continue
		}
		from, to := m.End/4, m.End/2
		s, err := SummarizeRange(bytes.NewReader(data), from, to)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		f := factsOf(evs, from, to)
		check := func(what string, got, want any) {
			t.Helper()
			if got != want {
				t.Errorf("%s: %s %v in range, want %v", name, what, got, want)
			}
		}
		check("events", s.Events, f.events)
		check("total", s.TotalNS, (Micros(to)-Micros(from))*1000)
		check("sparks created", s.Sparks.Total.Created, f.sparksCreated)
		check("allocated", s.Heap.Allocated, f.allocated)
		check("has live", s.Heap.HasLive, f.hasLive)
		check("max live", s.Heap.MaxLive, f.maxLive)
		check("threads ran", s.ThreadsRan, uint64(f.threadsRan))
		gc, ok := s.GCTime()
		check("GC time", gc, f.pauses)
		if f.hasGC {
			check("GC from", s.GCFrom, GCFromPauses)
			check("mutator", s.MutatorNS, s.TotalNS-min(gc, s.TotalNS))
		} else if ok || s.MutatorNS != 0 || s.Productivity != 0 {
			t.Errorf("%s: no GC events, but GC time %d (%v), mutator %d, productivity %v", name, gc, s.GCFrom, s.MutatorNS, s.Productivity)
		}
		if !s.Range || s.RangeFrom != from || s.RangeTo != to {
			t.Errorf("%s: range %v [%d, %d], want [%d, %d]", name, s.Range, s.RangeFrom, s.RangeTo, from, to)
		}
		if s.MutatorNS > s.TotalNS || s.Productivity < 0 || s.Productivity > 1 {
			t.Errorf("%s: mutator %d of %d, productivity %v", name, s.MutatorNS, s.TotalNS, s.Productivity)
		}
		// The model's figures for the same range add up to its length, and
		// the HEC that ran a collection is in GC for all of its pause: the
		// HECs' GC time is at least the GC time.
		var hecGC uint64
		for c, d := range m.RangeTimes(from, to) {
			if d.Total() != to-from {
				t.Errorf("%s HEC %d: range times add up to %d, want %d", name, c, d.Total(), to-from)
			}
			hecGC += d.GC()
		}
		if gc > hecGC {
			t.Errorf("%s: GC time %d in range, more than the HECs' time in GC, %d", name, gc, hecGC)
		}
	}
	if _, err := SummarizeRange(bytes.NewReader(nil), 5, 4); err == nil {
		t.Errorf("reversed range accepted")
	}
}
