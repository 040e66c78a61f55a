package timeline

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// TestSummarizeRangeWhole checks that the whole range gives exactly the
// summary of `hecscope summary`.
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
		got, err := SummarizeRange(bytes.NewReader(data), 0, ^uint64(0))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: whole-range summary differs from Summarize", filepath.Base(path))
		}
	}
}

// TestSummarizeRangePart checks a selection's figures against the events.
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
		var n uint64
		firstSpark := map[int32]uint64{}
		lastSpark := map[int32]uint64{}
		for i := range evs {
			e := &evs[i]
			if e.Kind == ingest.KindBlockMarker || e.Time < from || e.Time > to {
				continue
			}
			n++
			if e.Kind == ingest.KindSparkCounters {
				if _, ok := firstSpark[e.Cap]; !ok {
					firstSpark[e.Cap] = e.Args[0]
				}
				lastSpark[e.Cap] = e.Args[0]
			}
		}
		if s.Events != n {
			t.Errorf("%s: %d events in range, want %d", name, s.Events, n)
		}
		if want := (Micros(to) - Micros(from)) * 1000; s.TotalNS != want {
			t.Errorf("%s: total %d, want %d", name, s.TotalNS, want)
		}
		var created uint64
		for c, l := range lastSpark {
			created += l - firstSpark[c]
		}
		if s.Sparks.Total.Created != created {
			t.Errorf("%s: %d sparks created in range, want %d", name, s.Sparks.Total.Created, created)
		}
		if s.MutatorNS > s.TotalNS || s.Productivity < 0 || s.Productivity > 1 {
			t.Errorf("%s: mutator %d of %d, productivity %v", name, s.MutatorNS, s.TotalNS, s.Productivity)
		}
		// The model's figures for the same range add up to its length.
		for c, d := range m.RangeTimes(from, to) {
			if d.Total() != to-from {
				t.Errorf("%s HEC %d: range times add up to %d, want %d", name, c, d.Total(), to-from)
			}
		}
	}
	if _, err := SummarizeRange(bytes.NewReader(nil), 5, 4); err == nil {
		t.Errorf("reversed range accepted")
	}
}
