package timeline

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// sFigures are what `+RTS -s` printed at the end of a run: the .s.txt
// saved beside each testdata/ghc-9.0.2/rts-*.eventlog (gen.sh rts).
type sFigures struct {
	allocated, copied, maxLive, maxSlop, memMiB uint64
	samples                                     int
	gens                                        []sGen
	// balance is the work balance line's percentage, "" without one;
	// sparks the SPARKS line's six counts, nil without one.
	balance string
	sparks  []uint64
	// The elapsed times as printed (seconds, three decimals), and the
	// productivity of total elapsed (percent, one decimal).
	init, mut, gc, exit, total string
	productivity               string
}

// sGen is one "Gen N" row of -s: its counts, and its elapsed time, average
// and maximum pause as printed.
type sGen struct {
	colls, par           int
	elapsed, avg, maxPse string
}

var (
	sBytes = regexp.MustCompile(`([\d,]+) bytes (allocated in the heap|copied during GC|maximum residency|maximum slop)`)
	sLive  = regexp.MustCompile(`bytes maximum residency \((\d+) sample`)
	sMem   = regexp.MustCompile(`(\d+) MiB total memory in use`)
	sGenRe = regexp.MustCompile(`Gen +(\d+) +(\d+) colls, +(\d+) par +[\d.]+s +([\d.]+)s +([\d.]+)s +([\d.]+)s`)
	sBal   = regexp.MustCompile(`Parallel GC work balance: ([\d.]+)%`)
	sSpark = regexp.MustCompile(`SPARKS: (\d+) \((\d+) converted, (\d+) overflowed, (\d+) dud, (\d+) GC'd, (\d+) fizzled\)`)
	sTime  = regexp.MustCompile(`(INIT|MUT|GC|EXIT|Total) +time +[\d.]+s +\( *([\d.]+)s elapsed\)`)
	sProd  = regexp.MustCompile(`([\d.]+)% of total elapsed`)
)

// parseS reads the -s output at path; it fails the test if a line every
// -s prints is missing.
func parseS(t *testing.T, path string) sFigures {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	var f sFigures
	num := func(s string) uint64 {
		n, err := strconv.ParseUint(strings.ReplaceAll(s, ",", ""), 10, 64)
		if err != nil {
			t.Fatalf("%s: %q: %v", path, s, err)
		}
		return n
	}
	for _, m := range sBytes.FindAllStringSubmatch(text, -1) {
		switch m[2] {
		case "allocated in the heap":
			f.allocated = num(m[1])
		case "copied during GC":
			f.copied = num(m[1])
		case "maximum residency":
			f.maxLive = num(m[1])
		case "maximum slop":
			f.maxSlop = num(m[1])
		}
	}
	m := sLive.FindStringSubmatch(text)
	mem := sMem.FindStringSubmatch(text)
	prod := sProd.FindStringSubmatch(text)
	if m == nil || mem == nil || prod == nil || f.allocated == 0 {
		t.Fatalf("%s is not the output of +RTS -s:\n%s", path, text)
	}
	f.samples, f.memMiB, f.productivity = int(num(m[1])), num(mem[1]), prod[1]
	for _, g := range sGenRe.FindAllStringSubmatch(text, -1) {
		if int(num(g[1])) != len(f.gens) {
			t.Fatalf("%s: Gen rows out of order", path)
		}
		f.gens = append(f.gens, sGen{int(num(g[2])), int(num(g[3])), g[4], g[5], g[6]})
	}
	if b := sBal.FindStringSubmatch(text); b != nil {
		f.balance = b[1]
	}
	if sp := sSpark.FindStringSubmatch(text); sp != nil {
		for _, c := range sp[1:] {
			f.sparks = append(f.sparks, num(c))
		}
	}
	times := map[string]*string{"INIT": &f.init, "MUT": &f.mut, "GC": &f.gc, "EXIT": &f.exit, "Total": &f.total}
	for _, tm := range sTime.FindAllStringSubmatch(text, -1) {
		*times[tm[1]] = tm[2]
	}
	for k, v := range times {
		if *v == "" {
			t.Fatalf("%s: no %s time", path, k)
		}
	}
	return f
}

// Tolerances of the approximate figures. -s prints elapsed times to the
// ms and productivity to 0.1 %, rounded: a figure exact to the ns lies
// within half a unit of what it prints. hecscope's INIT, MUT, EXIT and
// total elapsed times come from events written a few μs from the RTS's
// own clock readings: against `+RTS -t --machine-readable`, which prints
// them to the μs, they were within 18.4 μs in 11 runs (-N1, -N2, -N4 ×
// -A64k, -A1m, -A64m, and the non-threaded RTS; README.md), and the
// productivity within 0.0056 percentage points. The tolerances add 20 μs
// and 0.01 points to the rounding.
const (
	approxSeconds = 0.0005 + 20e-6
	approxPercent = 0.05 + 0.01
)

// TestRTSStatsMatchS checks the RTS figures of real GHC 9.0.2 runs against
// what their `+RTS -s` printed: those the eventlog gives exactly must print
// alike, the approximate ones lie within the tolerances above. The skim
// (SummarizeFile) and the stream (every event through a Summarizer) agree.
func TestRTSStatsMatchS(t *testing.T) {
	logs, err := filepath.Glob("../testdata/ghc-9.0.2/rts-*.eventlog")
	if err != nil || len(logs) < 4 {
		t.Fatalf("the rts-*.eventlog fixtures: %v %v", logs, err)
	}
	for _, path := range logs {
		name := filepath.Base(path)
		want := parseS(t, strings.TrimSuffix(path, ".eventlog")+".s.txt")
		s, err := SummarizeFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if streamed := summarizeFile(t, path); !reflect.DeepEqual(streamed.RTSStats, s.RTSStats) {
			t.Errorf("%s: streamed %+v, skimmed %+v", name, streamed.RTSStats, s.RTSStats)
		}
		r := &s.RTSStats
		if !r.Available || !r.HasPhases || !r.HasMaxSlop || !r.HasWorkBalance {
			t.Fatalf("%s: RTS figures %+v", name, r)
		}
		exact := func(what string, got, want any) {
			t.Helper()
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: %s %v, -s %v", name, what, got, want)
			}
		}
		sec := func(ns uint64, decimals int) string { return strconv.FormatFloat(float64(ns)/1e9, 'f', decimals, 64) }
		exact("bytes allocated", s.Heap.Allocated, want.allocated)
		exact("bytes copied", s.Heap.Copied, want.copied)
		exact("maximum residency", s.Heap.MaxLive, want.maxLive)
		exact("residency samples", r.MajorGCs, want.samples)
		exact("maximum slop", r.MaxSlop, want.maxSlop)
		exact("generations", r.Generations, len(want.gens))
		for g, wg := range want.gens {
			if g >= len(s.GC.Gens) {
				t.Errorf("%s: no Gen %d", name, g)
				continue
			}
			hg := s.GC.Gens[g]
			exact(fmt.Sprintf("Gen %d", g), []any{hg.Collections, hg.ParCollections, sec(hg.ElapsedNS, 3), sec(hg.MeanPauseNS(), 4), sec(hg.MaxPauseNS, 4)},
				[]any{wg.colls, wg.par, wg.elapsed, wg.avg, wg.maxPse})
		}
		balance := ""
		if r.WorkBalance > 0 {
			balance = strconv.FormatFloat(100*r.WorkBalance, 'f', 2, 64)
		}
		exact("work balance", balance, want.balance)
		if want.sparks != nil {
			c := s.Sparks.Total
			exact("SPARKS", []uint64{c.Total, c.Converted, c.Overflowed, c.Dud, c.GCd, c.Fizzled}, want.sparks)
		}
		// The heap size after each collection is at most the peak -s
		// prints as total memory in use.
		if s.Heap.MaxSize>>20 > want.memMiB {
			t.Errorf("%s: largest heap size %d bytes, -s's total memory in use %d MiB", name, s.Heap.MaxSize, want.memMiB)
		}

		if profiledRTS(s.RTS) {
			// -s moves the heap censuses' time out of GC time, the Gen rows
			// keep it.
			if r.HasGCElapsed || r.HasProductivity || r.GCWhy == "" {
				t.Errorf("%s: a profiled run with heap censuses has GC elapsed %v, productivity %v", name, r.HasGCElapsed, r.HasProductivity)
			}
		} else {
			exact("GC elapsed", sec(r.GCElapsedNS, 3), want.gc)
			if !r.HasProductivity {
				t.Errorf("%s: no productivity", name)
			}
			p, _ := strconv.ParseFloat(want.productivity, 64)
			if d := math.Abs(100*r.Productivity - p); d > approxPercent {
				t.Errorf("%s: productivity %.4f%%, -s %s%%", name, 100*r.Productivity, want.productivity)
			}
		}
		for _, a := range []struct {
			what string
			ns   uint64
			s    string
		}{{"INIT", r.InitNS, want.init}, {"MUT", r.MutatorNS, want.mut}, {"EXIT", r.ExitNS, want.exit}, {"Total", r.ElapsedNS, want.total}} {
			w, _ := strconv.ParseFloat(a.s, 64)
			if d := math.Abs(float64(a.ns)/1e9 - w); d > approxSeconds {
				t.Errorf("%s: %s elapsed %.6fs, -s %ss", name, a.what, float64(a.ns)/1e9, a.s)
			}
		}
	}
}

// TestRTSStatsWithheld: the RTS figures are of a whole run, as -s is, and
// say why they are absent where they cannot be: a range, a cut log, the
// eventlogs of a program that restarted its logging, a log from a GHC
// before 9.0.
func TestRTSStatsWithheld(t *testing.T) {
	const path = "../testdata/ghc-9.0.2/rts-N2-A1m.eventlog"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Summarize(bytes.NewReader(data))
	if err != nil || !whole.RTSStats.Available {
		t.Fatalf("the whole run: %v %+v", err, whole.RTSStats)
	}
	rng, err := SummarizeRange(bytes.NewReader(data), 0, whole.LastNS)
	if err != nil {
		t.Fatal(err)
	}
	cut, _ := Summarize(bytes.NewReader(data[:len(data)-len(data)/3]))
	restarted, err := SummarizeFile("../testdata/ghc-9.0.2/restart4.eventlog")
	if err != nil || len(restarted.Segments) != 4 {
		t.Fatalf("restart4: %v, %d segments", err, len(restarted.Segments))
	}
	old, err := SummarizeFile("../testdata/corpus/ghc-events__hello-ghc-8.6.5.eventlog")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		s    *Summary
		why  string
	}{
		{"a range of the whole run", &rng, "range"},
		{"the log cut", &cut, "not complete"},
		{"the eventlog before a restart", &restarted, "final report"},
		{"a restarted eventlog", &restarted.Segments[1].Summary, WhyRestarted},
		{"the last, restarted eventlog", &restarted.Segments[3].Summary, WhyRestarted},
		{"GHC 8.6.5's log", &old, "GHC-8.6.5"},
	} {
		r := c.s.RTSStats
		if r.Available || !strings.Contains(r.Why, c.why) || r.HasPhases || r.HasGCElapsed || r.HasMaxSlop {
			t.Errorf("%s: RTS figures %+v, want none because of %q", c.name, r, c.why)
		}
	}
}

// TestRTSIdentifier: the RTS identifier's version and ways.
func TestRTSIdentifier(t *testing.T) {
	for _, c := range []struct {
		id                   string
		from90, thr, profile bool
	}{
		{"GHC-9.0.2 rts_thr_l", true, true, false},
		{"GHC-9.0.2 rts_p", true, false, true},
		{"GHC-9.5.20220630 rts_debug", true, false, false},
		{"GHC-10.1 rts_thr_debug_p", true, true, true},
		{"GHC-8.10.7 rts_thr_l", false, true, false},
		{"GHC-7.10.20150612 rts_l_pm", false, false, false},
		{"mmc-DEV", false, false, false},
		{"", false, false, false},
	} {
		if got := [3]bool{ghcAtLeast(c.id, 9, 0), threadedRTS(c.id), profiledRTS(c.id)}; got != [3]bool{c.from90, c.thr, c.profile} {
			t.Errorf("%q: GHC ≥ 9.0, threaded, profiled = %v", c.id, got)
		}
	}
}
