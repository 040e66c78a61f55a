package heapview

import (
	"path/filepath"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// hpPairs are .hp files and the eventlog written by the same run.
var hpPairs = []string{
	"../testdata/generated/hT",
	"../testdata/generated/hb",
	"../testdata/generated/hc",
	"../testdata/generated/hd",
	"../testdata/generated/hr",
	"../testdata/generated/hy",
	"../testdata/ghc-9.0.2/heap-hT",
	"../testdata/ghc-9.0.2/heap-hc",
}

// hpStackName cuts a cost-centre stack name the way the RTS does when it
// writes it into a .hp file (fprint_ccs with the default -L25): a name
// longer than 25 bytes becomes its first 21 bytes and "...".
func hpStackName(name []byte) []byte {
	if len(name) <= 25 {
		return name
	}
	return append(append([]byte(nil), name[:21]...), "..."...)
}

// TestHPMatchesEventlog checks that a .hp file and the eventlog of the same
// run give the same bands: same names in the same order, and at the k-th
// non-empty census of the .hp file the values of the eventlog's k-th
// census, for several band limits and every order.
func TestHPMatchesEventlog(t *testing.T) {
	for _, base := range hpPairs {
		t.Run(filepath.Base(base), func(t *testing.T) {
			if !present(t, base+".eventlog") || !present(t, base+".hp") {
				return
			}
			fromLog := readProfile(t, base+".eventlog")
			if fromLog.Breakdown == ingest.BreakdownCostCentreStack {
				fromLog = fromLog.rename(hpStackName)
			}
			d, err := readFile(base + ".hp")
			if err != nil {
				t.Fatal(err)
			}
			fromHP := d.Profile
			if fromHP.Source != FromHP || fromLog.Source != FromEventlog {
				t.Fatalf("sources %d, %d", fromHP.Source, fromLog.Source)
			}
			var match []int // eventlog census k is .hp sample match[k]
			for s := 0; s < fromHP.Len(); s++ {
				if bands, _ := fromHP.Sample(s); len(bands) > 0 {
					match = append(match, s)
				}
			}
			if len(match) != fromLog.Len() || len(match) == 0 {
				t.Fatalf(".hp has %d non-empty censuses, eventlog %d", len(match), fromLog.Len())
			}
			for _, max := range []int{3, 15} {
				for _, o := range []Order{BySize, ByName, ByGrowth} {
					a := NewBands(fromLog, BandOptions{Max: max, Order: o})
					b := NewBands(fromHP, BandOptions{Max: max, Order: o})
					if a.Len() != b.Len() || a.Dropped() != b.Dropped() {
						t.Fatalf("max %d order %d: eventlog %d bands (%d dropped), .hp %d (%d dropped)",
							max, o, a.Len(), a.Dropped(), b.Len(), b.Dropped())
					}
					for i := 0; i < a.Len(); i++ {
						if a.Name(i) != b.Name(i) {
							t.Errorf("max %d order %d band %d: eventlog %q, .hp %q", max, o, i, a.Name(i), b.Name(i))
							continue
						}
						for k, s := range match {
							if a.Value(i, k) != b.Value(i, s) {
								t.Errorf("max %d band %q census %d: eventlog %d, .hp %d", max, a.Name(i), k, a.Value(i, k), b.Value(i, s))
							}
						}
					}
				}
			}
		})
	}
}

// TestHPTimes checks how .hp samples are placed on the time axis: their
// mutator-seconds times become nanoseconds.
func TestHPTimes(t *testing.T) {
	hp := &ingest.HeapProfile{Samples: []ingest.HeapSample{
		{Time: 0, Complete: true},
		{Time: 0.054763, Entries: []ingest.HeapEntry{{Label: "(154)SYSTEM", Bytes: 24}, {Label: "MAIN", Bytes: 160}}, Complete: true},
		{Time: 0.119527, Entries: []ingest.HeapEntry{{Label: "(1)a", Bytes: 1}, {Label: "(2)a", Bytes: 2}}},
	}}
	p, err := FromHeapProfile(hp)
	if err != nil {
		t.Fatal(err)
	}
	if p.Len() != 3 || p.Time(1) != 54_763_000 || p.Time(2) != 119_527_000 {
		t.Fatalf("times %v", p.time)
	}
	if bands, bytes := p.Sample(2); len(bands) != 1 || p.Name(int(bands[0])) != "a" || bytes[0] != 3 {
		t.Errorf("merged sample: %v %v", bands, bytes)
	}
	if _, err := FromHeapProfile(&ingest.HeapProfile{Samples: []ingest.HeapSample{{Time: -1}}}); err == nil {
		t.Errorf("negative time accepted")
	}
}
