package heapview

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/ingest"
)

// profileLogs are real GHC 9.0.2 eventlogs with heap profiles, one per
// breakdown the corpus has. Those under testdata/ghc-9.0.2 are made by
// testdata/haskell's generator; tests skip them where they are absent.
var profileLogs = []string{
	"../testdata/generated/hT.eventlog",
	"../testdata/generated/hb.eventlog",
	"../testdata/generated/hc.eventlog",
	"../testdata/generated/hd.eventlog",
	"../testdata/generated/hr.eventlog",
	"../testdata/generated/hy.eventlog",
	"../testdata/ghc-9.0.2/heap-hT.eventlog",
	"../testdata/ghc-9.0.2/heap-hc.eventlog",
}

// setID matches a retainer set's "(id)" prefix.
var setID = regexp.MustCompile(`^\(\d+\)(.+)$`)

// refSample is one census as the test reads it on its own: band name →
// bytes, and the time and era.
type refSample struct {
	time, era uint64
	bytes     map[string]uint64
}

// referenceSamples decodes path's censuses without heapview, resolving
// cost-centre stacks the way the RTS names them in .hp files.
func referenceSamples(t *testing.T, path string) []refSample {
	t.Helper()
	f, err := ingest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cc := map[uint32]string{}
	var out []refSample
	var cur *refSample
	var ev ingest.Event
	for f.Next(&ev) {
		switch ev.Kind {
		case ingest.KindHeapProfCostCentre:
			s := ev.Strings()
			if ev.CAF() {
				cc[uint32(ev.Args[0])] = s[1] + ".CAF"
			} else {
				cc[uint32(ev.Args[0])] = s[0]
			}
		case ingest.KindHeapProfSampleBegin:
			out = append(out, refSample{time: ev.Time, era: ev.Args[0], bytes: map[string]uint64{}})
			cur = &out[len(out)-1]
		case ingest.KindHeapBioProfSampleBegin:
			out = append(out, refSample{time: ev.Args[1], era: ev.Args[0], bytes: map[string]uint64{}})
			cur = &out[len(out)-1]
		case ingest.KindHeapProfSampleEnd:
			cur = nil
		case ingest.KindHeapProfSampleString:
			label := ev.Text()
			if m := setID.FindStringSubmatch(label); m != nil {
				label = m[1]
			}
			cur.bytes[label] += ev.Args[1]
		case ingest.KindHeapProfSampleCostCentre:
			var parts []string
			for i := 0; i < ev.StackLen(); i++ {
				parts = append(parts, cc[ev.Stack(i)])
			}
			name := strings.Join(parts, "/")
			if name == "" {
				name = "MAIN"
			}
			cur.bytes[name] += ev.Args[1]
		}
	}
	if f.Status().State != ingest.StateComplete {
		t.Fatalf("%s: %v", path, f.Status())
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].time < out[j].time })
	return out
}

// present reports whether path exists; a missing generated log is logged
// and skipped, any other missing file fails the test.
func present(t *testing.T, path string) bool {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		if strings.Contains(path, "testdata/ghc-9.0.2/") {
			t.Logf("skipping %s: %v", path, err)
			return false
		}
		t.Fatal(err)
	}
	return true
}

func readProfile(t *testing.T, path string) *Profile {
	t.Helper()
	d, err := readFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d.Profile == nil {
		t.Fatalf("%s: no heap profile", path)
	}
	return d.Profile
}

// TestProfileFromEventlog checks that every census of the real logs is in
// the Profile with the same time, era and bytes per band.
func TestProfileFromEventlog(t *testing.T) {
	for _, path := range profileLogs {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			if !present(t, path) {
				return
			}
			ref := referenceSamples(t, path)
			p := readProfile(t, path)
			if p.Len() != len(ref) || len(ref) == 0 {
				t.Fatalf("profile has %d samples, reference %d", p.Len(), len(ref))
			}
			for s, r := range ref {
				if p.Time(s) != r.time || p.Era(s) != r.era {
					t.Errorf("sample %d: time/era %d/%d, want %d/%d", s, p.Time(s), p.Era(s), r.time, r.era)
				}
				bands, bytes := p.Sample(s)
				got := map[string]uint64{}
				for k, n := range bands {
					name := p.Name(int(n))
					if _, dup := got[name]; dup {
						t.Errorf("sample %d: band %q twice", s, name)
					}
					got[name] = bytes[k]
				}
				if !equalMaps(got, r.bytes) {
					t.Errorf("sample %d:\n got %v\nwant %v", s, got, r.bytes)
				}
			}
		})
	}
}

func equalMaps(a, b map[string]uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestBandsEqualSamples checks, on the real logs and for several band
// limits, that at each sample time every named band has the census's value
// for that name and OTHER has the sum of all the names it gathers, and that
// the kept names are the largest by integrated size.
func TestBandsEqualSamples(t *testing.T) {
	for _, path := range profileLogs {
		if !present(t, path) {
			continue
		}
		ref := referenceSamples(t, path)
		p := readProfile(t, path)
		totals := map[string]float64{}
		for _, r := range ref {
			for k, v := range r.bytes {
				totals[k] += float64(v)
			}
		}
		for _, max := range []int{1, 3, 15, 1000} {
			bd := NewBands(p, BandOptions{Max: max})
			named := map[string]bool{}
			for b := 0; b < bd.Len(); b++ {
				if b != bd.Other() {
					named[bd.Name(b)] = true
				}
			}
			wantNamed := min(max, len(totals))
			if len(named) != wantNamed || bd.Dropped() != len(totals)-wantNamed {
				t.Errorf("%s max %d: %d named, %d dropped; want %d, %d", path, max, len(named), bd.Dropped(), wantNamed, len(totals)-wantNamed)
			}
			if (bd.Other() >= 0) != (bd.Dropped() > 0) || bd.Other() >= 0 && bd.Other() != bd.Len()-1 {
				t.Errorf("%s max %d: OTHER at %d of %d, %d dropped", path, max, bd.Other(), bd.Len(), bd.Dropped())
			}
			for name := range totals {
				if named[name] {
					continue
				}
				for k := range named {
					if totals[name] > totals[k] {
						t.Errorf("%s max %d: dropped %q (%g) is bigger than kept %q (%g)", path, max, name, totals[name], k, totals[k])
					}
				}
			}
			var vals []uint64
			for s, r := range ref {
				unique := (s == 0 || ref[s-1].time != r.time) && (s == len(ref)-1 || ref[s+1].time != r.time)
				if unique {
					var ok bool
					vals, ok = bd.ValuesAt(r.time, vals)
					if !ok {
						t.Fatalf("%s: ValuesAt(%d) outside the span", path, r.time)
					}
				}
				var other uint64
				for name, v := range r.bytes {
					if !named[name] {
						other += v
					}
				}
				for b := 0; b < bd.Len(); b++ {
					want := r.bytes[bd.Name(b)]
					if b == bd.Other() {
						want = other
					}
					if got := bd.Value(b, s); got != want {
						t.Errorf("%s max %d sample %d band %q: %d, want %d", path, max, s, bd.Name(b), got, want)
					}
					if unique && vals[b] != want {
						t.Errorf("%s max %d: ValuesAt(%d) band %q: %d, want %d", path, max, r.time, bd.Name(b), vals[b], want)
					}
				}
			}
		}
	}
}

// TestBandOrders checks the three orders on a real profile: OTHER last, the
// named bands by size, name or growth.
func TestBandOrders(t *testing.T) {
	p := readProfile(t, "../testdata/generated/hd.eventlog")
	for _, o := range []Order{BySize, ByName, ByGrowth} {
		bd := NewBands(p, BandOptions{Max: 8, Order: o})
		if bd.Len() != 9 || bd.Other() != 8 || bd.Name(8) != OtherName {
			t.Fatalf("order %d: %d bands, OTHER at %d", o, bd.Len(), bd.Other())
		}
		for b := 1; b < 8; b++ {
			var ok bool
			switch o {
			case BySize:
				ok = bd.Integral(b-1) >= bd.Integral(b)
			case ByName:
				ok = bd.Name(b-1) < bd.Name(b)
			case ByGrowth:
				ok = bd.Growth(b-1) >= bd.Growth(b)
			}
			if !ok {
				t.Errorf("order %d: band %d %q before band %d %q", o, b-1, bd.Name(b-1), b, bd.Name(b))
			}
		}
	}
	// Same set of bands whatever the order.
	a, b := NewBands(p, BandOptions{Max: 8}), NewBands(p, BandOptions{Max: 8, Order: ByName})
	var na, nb []string
	for i := 0; i < a.Len(); i++ {
		na, nb = append(na, a.Name(i)), append(nb, b.Name(i))
	}
	sort.Strings(na)
	sort.Strings(nb)
	if strings.Join(na, "\n") != strings.Join(nb, "\n") {
		t.Errorf("orders keep different bands:\n%v\n%v", na, nb)
	}
}

// ev builds an event for the synthetic tests.
func ev(kind ingest.Kind, time uint64, cap int32, data []byte, args ...uint64) *ingest.Event {
	e := &ingest.Event{Kind: kind, Type: uint16(kind), Time: time, Cap: cap, Data: data}
	copy(e.Args[:], args)
	return e
}

func stack(ids ...uint32) []byte {
	b := make([]byte, 4*len(ids))
	for i, id := range ids {
		binary.BigEndian.PutUint32(b[4*i:], id)
	}
	return b
}

// TestCollectorSynthetic covers what the real logs lack: samples out of
// order, a name twice in one sample, an unknown cost centre, an open sample
// at the end, and -hi names from IPE events.
func TestCollectorSynthetic(t *testing.T) {
	c := NewCollector()
	c.Add(ev(ingest.KindHeapProfBegin, 1, ingest.NoCap, nil, 0, 100, uint64(ingest.BreakdownCostCentreStack)))
	c.Add(ev(ingest.KindHeapProfCostCentre, 2, ingest.NoCap, []byte("f\x00M\x00M.hs:1\x00\x00"), 7, 0))
	c.Add(ev(ingest.KindHeapProfCostCentre, 2, ingest.NoCap, []byte("CAF\x00Lib\x00<entire-module>\x00\x01"), 8, 1))
	// Bio sample at 500 written after a sample at 900.
	c.Add(ev(ingest.KindHeapProfSampleBegin, 900, ingest.NoCap, nil, 0))
	c.Add(ev(ingest.KindHeapProfSampleCostCentre, 901, ingest.NoCap, stack(7, 8), 0, 40, 2))
	c.Add(ev(ingest.KindHeapProfSampleCostCentre, 901, ingest.NoCap, stack(7, 8), 0, 2, 2))
	c.Add(ev(ingest.KindHeapProfSampleCostCentre, 901, ingest.NoCap, stack(), 0, 5, 0))
	c.Add(ev(ingest.KindHeapProfSampleEnd, 902, ingest.NoCap, nil, 0))
	c.Add(ev(ingest.KindHeapBioProfSampleBegin, 2000, ingest.NoCap, nil, 3, 500))
	c.Add(ev(ingest.KindHeapProfSampleCostCentre, 2001, ingest.NoCap, stack(99), 0, 9, 1))
	c.Add(ev(ingest.KindHeapProfSampleEnd, 2002, ingest.NoCap, nil, 3))
	c.Add(ev(ingest.KindHeapProfSampleBegin, 3000, ingest.NoCap, nil, 0))
	c.Add(ev(ingest.KindHeapProfSampleCostCentre, 3001, ingest.NoCap, stack(8), 0, 1, 1))

	_, p := c.Result()
	want := []struct {
		time, era uint64
		entries   string
	}{
		{500, 3, "cc#99=9"},
		{900, 0, "f/Lib.CAF=42 MAIN=5"},
		{3000, 0, "Lib.CAF=1"},
	}
	if p == nil || p.Len() != len(want) {
		t.Fatalf("profile %v, want %d samples", p, len(want))
	}
	for s, w := range want {
		bands, bytes := p.Sample(s)
		var parts []string
		for k, n := range bands {
			parts = append(parts, p.Name(int(n))+"="+itoa(bytes[k]))
		}
		if got := strings.Join(parts, " "); p.Time(s) != w.time || p.Era(s) != w.era || got != w.entries {
			t.Errorf("sample %d: %d era %d %q, want %d era %d %q", s, p.Time(s), p.Era(s), got, w.time, w.era, w.entries)
		}
	}
	if p.Breakdown != ingest.BreakdownCostCentreStack || p.Period != 100 {
		t.Errorf("breakdown %d period %d", p.Breakdown, p.Period)
	}
	// The collector goes on after Result, and the first result is unchanged.
	c.Add(ev(ingest.KindHeapProfSampleEnd, 3002, ingest.NoCap, nil, 0))
	c.Add(ev(ingest.KindHeapProfSampleBegin, 4000, ingest.NoCap, nil, 0))
	_, p2 := c.Result()
	if p.Len() != 3 || p2.Len() != 4 || p2.Total(2) != 1 || p2.Total(3) != 0 {
		t.Errorf("after more events: %d and %d samples", p.Len(), p2.Len())
	}

	// -hi: addresses become info-table names, and two addresses with one
	// name share a band.
	c = NewCollector()
	c.Add(ev(ingest.KindHeapProfBegin, 1, ingest.NoCap, nil, 0, 100, uint64(ingest.BreakdownInfoTable)))
	c.Add(ev(ingest.KindIPE, 1, ingest.NoCap, []byte("Foo_con_info\x002\x00Foo\x00Foo\x00Main\x00a.hs:1\x00"), 0x4a7b28))
	c.Add(ev(ingest.KindIPE, 1, ingest.NoCap, []byte("Foo_con_info\x002\x00Foo\x00Foo\x00Main\x00a.hs:2\x00"), 0x4a7b40))
	c.Add(ev(ingest.KindHeapProfSampleBegin, 10, ingest.NoCap, nil, 0))
	c.Add(ev(ingest.KindHeapProfSampleString, 11, ingest.NoCap, []byte("0x4a7b28"), 0, 16))
	c.Add(ev(ingest.KindHeapProfSampleString, 11, ingest.NoCap, []byte("0x4a7b40"), 0, 32))
	c.Add(ev(ingest.KindHeapProfSampleString, 11, ingest.NoCap, []byte("0x999"), 0, 8))
	c.Add(ev(ingest.KindHeapProfSampleEnd, 12, ingest.NoCap, nil, 0))
	_, p = c.Result()
	bands, bytes := p.Sample(0)
	if len(bands) != 2 || p.Name(int(bands[0])) != "Foo_con_info :: Foo" || bytes[0] != 48 || p.Name(int(bands[1])) != "0x999" {
		t.Errorf("-hi sample: %v %v (%d names)", bands, bytes, p.NumNames())
	}
}

func itoa(v uint64) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + v%10)}, b...)
		v /= 10
		if v == 0 {
			return string(b)
		}
	}
}

// TestStripSetID pins down which labels lose a leading "(id)".
func TestStripSetID(t *testing.T) {
	for in, want := range map[string]string{
		"(12)main/f":  "main/f",
		"(3)CAF,MAIN": "CAF,MAIN",
		"(12)":        "(12)",
		"(,)":         "(,)",
		"()x":         "()x",
		"(1a)x":       "(1a)x",
		"MAIN":        "MAIN",
		"":            "",
	} {
		if got := string(stripSetID([]byte(in))); got != want {
			t.Errorf("stripSetID(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNamesTable checks interning across table growth.
func TestNamesTable(t *testing.T) {
	var n names
	for round := 0; round < 2; round++ {
		for i := 0; i < 5000; i++ {
			s := "name-" + itoa(uint64(i))
			if got := n.internString(s); got != i {
				t.Fatalf("round %d: intern(%q) = %d, want %d", round, s, got, i)
			}
		}
	}
	if n.len() != 5000 || n.get(4321) != "name-4321" {
		t.Errorf("len %d, name 4321 = %q", n.len(), n.get(4321))
	}
}
