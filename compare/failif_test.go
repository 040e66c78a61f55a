package compare

import "testing"

// TestParseLimit reads the limits CI jobs write and checks them against a
// row.
func TestParseLimit(t *testing.T) {
	c := &Comparison{Rows: []Row{
		{Key: "wall", Name: "Wall time", Unit: UnitNS, A: 100e6, B: 110e6, HasA: true, HasB: true},
		{Key: "productivity", Name: "Productivity", Unit: UnitFraction, A: 0.9, B: 0.85, HasA: true, HasB: true},
		{Key: "gc_max_pause", Name: "Longest", Unit: UnitNS, A: 1e6, B: 3e6, HasA: true, HasB: true},
		{Key: "hec:1.running", Name: "HEC 1", Unit: UnitFraction, B: 0.5, HasB: true},
	}}
	for spec, crossed := range map[string]bool{
		"wall>+5%": true, "wall>+15%": false, "wall<-5%": false, "wall>5%": true,
		"productivity<-2pp": true, "productivity<-10pp": false, "productivity<-5%": true,
		"gc_max_pause>+1ms": true, "gc_max_pause>+2500us": false, "gc_max_pause>1000000": true,
		"hec:1.running>+1%":   true, // A lacks it: cannot be checked, so it fails
		"span:parse.p90>+10%": true,
	} {
		l, err := ParseLimit(spec)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		if x := l.Check(c); x.Crossed != crossed {
			t.Errorf("%s: crossed %v, want %v (%s)", spec, x.Crossed, crossed, x.Reason)
		}
	}
	for _, bad := range []string{"wall", "wall>", ">5%", "wall>+x%", "wall>+5qq", "wall=5%"} {
		if _, err := ParseLimit(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
