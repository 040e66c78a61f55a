package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/paint"
	"github.com/hecscope/hecscope/timeline"
)

// runSummary implements `hecscope summary [--json] FILE`: it prints the run's
// statistics (ThreadScope's definitions, see timeline.Summary) as aligned
// text, or as one JSON object with --json; FILE "-" is standard input. A
// truncated log is summarised as far as it goes and exits 0; a corrupt one
// is summarised up to the damage, reported on stderr, and exits 1; usage
// errors exit 2.
func runSummary(args []string) int {
	if rangeArgs(args) {
		return runSummaryRange(args)
	}
	segment, args, err := cutSegmentArg(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hecscope summary: %v\n%s\n", err, summaryUsage)
		return 2
	}
	asJSON, files, code, ok := jsonAndFiles("summary", summaryUsage, args)
	if !ok {
		return code
	}
	if len(files) != 1 || files[0] == "" {
		fmt.Fprintln(os.Stderr, summaryUsage)
		return 2
	}
	name := files[0]
	if name == "-" {
		if segment > 1 {
			fmt.Fprintln(os.Stderr, "hecscope summary: --segment: standard input is read as one eventlog")
			return 2
		}
		return summary("standard input", os.Stdin, asJSON, os.Stdout, os.Stderr)
	}
	if segment > 0 {
		// One eventlog of several: its summary alone.
		part, err := findPart(name, segment, "--segment", os.Stderr)
		if err != nil {
			fmt.Fprintf(os.Stderr, "hecscope: %v\n", err)
			return 1
		}
		if part.segmented() {
			s, err := readPart(part, timeline.SummarizeAt)
			if part.index > 0 && err == nil {
				first := part
				first.index, first.offset, first.length = 0, 0, part.firstLength
				if f, ferr := readPart(first, timeline.SummarizeAt); ferr == nil {
					s.Inherit(&f, 1)
				}
			}
			s.Status = part.fileStatus(s.Status)
			shiftTimeFaults(&s.TimeFaults, part.offset)
			return report(name, s, err, asJSON, os.Stdout, os.Stderr)
		}
	}
	s, err := timeline.SummarizeFile(name)
	return report(name, s, err, asJSON, os.Stdout, os.Stderr)
}

// shiftTimeFaults moves the byte offsets of t by base: from a segment's
// start to the file's.
func shiftTimeFaults(t *ingest.TimeFaults, base int64) {
	for i := range t.First {
		t.First[i].Offset += base
	}
}

const summaryUsage = "usage: hecscope summary [--json] [--from T] [--to T] [--segment N] FILE   (--from/--to: the figures of that time range, as the app's Selection tab gives them; --segment: only the Nth of the eventlogs a FILE holds one after another)"

// rangeArgs reports whether args ask for the summary of a time range.
func rangeArgs(args []string) bool {
	for _, a := range args {
		for _, f := range []string{"-from", "--from", "-to", "--to"} {
			if a == f || strings.HasPrefix(a, f+"=") {
				return true
			}
		}
	}
	return false
}

// runSummaryRange implements `hecscope summary --from T --to T [--json]
// FILE`: the figures of the time range [T, T] (to the end of the run
// without --to), computed by timeline.SummarizeRange as the app's
// Selection tab computes them.
func runSummaryRange(args []string) int {
	var asJSON *bool
	p, from, to, code, ok := rangeCommand("summary", summaryUsage, args, func(fs *flag.FlagSet) {
		asJSON = fs.Bool("json", false, "print one JSON object")
	})
	if !ok {
		return code
	}
	if to == 0 {
		to = math.MaxUint64 // to the end of the run
	}
	read := func(src io.Reader) (timeline.Summary, error) { return timeline.SummarizeRange(src, from, to) }
	var s timeline.Summary
	var err error
	if p.segmented() {
		s, err = readPart(p, func(r io.ReaderAt, size int64) (timeline.Summary, error) {
			return read(bufio.NewReaderSize(io.NewSectionReader(r, 0, size), 1<<20))
		})
		s.Status = p.fileStatus(s.Status)
		shiftTimeFaults(&s.TimeFaults, p.offset)
	} else {
		var f *os.File
		if f, err = os.Open(p.path); err == nil {
			s, err = read(bufio.NewReaderSize(f, 1<<20))
			f.Close()
		}
	}
	return report(p.path, s, err, *asJSON, os.Stdout, os.Stderr)
}

// jsonAndFiles reads the arguments of a command that takes --json and file
// names (summary, compare). If it returns ok false, the command is over:
// with exit code 0 after printing its usage for -h, or 2 after an unknown
// flag.
func jsonAndFiles(name, usage string, args []string) (asJSON bool, files []string, code int, ok bool) {
	for _, a := range args {
		switch {
		case a == "--json" || a == "-json":
			asJSON = true
		case a == "-h" || a == "--help":
			fmt.Fprintln(os.Stdout, usage)
			return false, nil, 0, false
		case len(a) > 1 && a[0] == '-':
			fmt.Fprintf(os.Stderr, "hecscope %s: unknown flag %s\n%s\n", name, a, usage)
			return false, nil, 2, false
		default:
			files = append(files, a)
		}
	}
	return asJSON, files, 0, true
}

// summary summarises the eventlog read from src, writes the report to stdout
// and problems to stderr naming it name, and returns the exit code.
func summary(name string, src io.Reader, asJSON bool, stdout, stderr io.Writer) int {
	s, err := timeline.Summarize(src)
	return report(name, s, err, asJSON, stdout, stderr)
}

// report writes the summary s of the eventlog name (or err, if reading it
// failed) and returns the exit code.
func report(name string, s timeline.Summary, err error, asJSON bool, stdout, stderr io.Writer) int {
	if err != nil {
		fmt.Fprintf(stderr, "hecscope: %s: %v\n", name, err)
		return 1
	}
	if asJSON {
		err = writeSummaryJSON(stdout, &s)
	} else {
		err = writeSummaryText(stdout, name, &s)
	}
	if err != nil {
		fmt.Fprintf(stderr, "hecscope: %s: writing summary: %v\n", name, err)
		return 1
	}
	if s.TimeFaults.Count > 0 {
		fmt.Fprintf(stderr, "hecscope: %s: %s\n", name, s.TimeFaults)
	}
	if s.CapFaults.Count > 0 {
		fmt.Fprintf(stderr, "hecscope: %s: %s\n", name, s.CapFaults)
	}
	switch s.Status.State {
	case ingest.StateCorrupt:
		fmt.Fprintf(stderr, "hecscope: %s: %s\n", name, s.Status)
		return 1
	case ingest.StateTruncated:
		fmt.Fprintf(stderr, "hecscope: %s: %s\n", name, s.Status)
	}
	return 0
}

// jsonTimeFaults is the JSON report's account of events with impossible
// timestamps.
type jsonTimeFaults struct {
	Count int64           `json:"count"`
	First []jsonTimeFault `json:"first"`
}

// jsonTimeFault is one event whose timestamp lay outside its block's range.
type jsonTimeFault struct {
	Offset       int64  `json:"offset"`
	Type         uint16 `json:"type"`
	Kind         string `json:"kind"`
	TimeNS       uint64 `json:"time_ns"`
	GivenNS      uint64 `json:"given_ns"`
	BlockStartNS uint64 `json:"block_start_ns"`
	BlockEndNS   uint64 `json:"block_end_ns"`
}

// timeFaultsJSON returns tf for the JSON report, nil if there are none.
func timeFaultsJSON(tf ingest.TimeFaults) *jsonTimeFaults {
	if tf.Count == 0 {
		return nil
	}
	j := &jsonTimeFaults{Count: tf.Count, First: []jsonTimeFault{}}
	for _, f := range tf.First {
		j.First = append(j.First, jsonTimeFault{Offset: f.Offset, Type: f.Type, Kind: f.Kind.String(), TimeNS: f.Time,
			GivenNS: f.Given, BlockStartNS: f.BlockStart, BlockEndNS: f.BlockEnd})
	}
	return j
}

// jsonCapFaults is the JSON report's account of blocks that claim
// capabilities the log never created.
type jsonCapFaults struct {
	Count  int64          `json:"count"`
	Events int64          `json:"events"`
	First  []jsonCapFault `json:"first"`
}

// jsonCapFault is one block that claims a capability the log never created.
type jsonCapFault struct {
	Offset int64 `json:"offset"`
	Cap    int32 `json:"cap"`
	Events int64 `json:"events"`
}

// capFaultsJSON returns cf for the JSON report, nil if there are none.
func capFaultsJSON(cf ingest.CapFaults) *jsonCapFaults {
	if cf.Count == 0 {
		return nil
	}
	j := &jsonCapFaults{Count: cf.Count, Events: cf.Events, First: []jsonCapFault{}}
	for _, f := range cf.First {
		j.First = append(j.First, jsonCapFault{Offset: f.Offset, Cap: f.Cap, Events: f.Events})
	}
	return j
}

// jsonSparks is the spark counts object of the JSON report.
type jsonSparks struct {
	Total      uint64 `json:"total"`
	Created    uint64 `json:"created"`
	Converted  uint64 `json:"converted"`
	Overflowed uint64 `json:"overflowed"`
	Dud        uint64 `json:"dud"`
	GCd        uint64 `json:"gcd"`
	Fizzled    uint64 `json:"fizzled"`
	Cap        *int   `json:"cap,omitempty"`
}

func sparksJSON(c timeline.SparkCounts) jsonSparks {
	return jsonSparks{Total: c.Total, Created: c.Created, Converted: c.Converted,
		Overflowed: c.Overflowed, Dud: c.Dud, GCd: c.GCd, Fizzled: c.Fizzled}
}

// jsonGen is one row of the GC table in the JSON report.
type jsonGen struct {
	Gen            int    `json:"gen"`
	Collections    int    `json:"collections"`
	ParCollections int    `json:"par_collections"`
	ElapsedNS      uint64 `json:"elapsed_ns"`
	MeanPauseNS    uint64 `json:"mean_pause_ns"`
	MaxPauseNS     uint64 `json:"max_pause_ns"`
	CopiedBytes    uint64 `json:"copied_bytes"`
}

func genJSON(g timeline.GenStats) jsonGen {
	return jsonGen{Gen: g.Gen, Collections: g.Collections, ParCollections: g.ParCollections,
		ElapsedNS: g.ElapsedNS, MeanPauseNS: g.MeanPauseNS(), MaxPauseNS: g.MaxPauseNS, CopiedBytes: g.Copied}
}

// jsonSummary is the JSON report. events leaves out the block markers,
// counted in block_markers (the text report and the event list show their
// sum, as ghc-events' show lists them). gc_count, par_gc_count, gc_ns and
// gc_max_pause_ns are ThreadScope's count (timeline.GCSummary.Total), null
// for a log without heap events (ThreadScope shows them unavailable);
// gc_time_ns, mutator_ns and productivity use the GC time gc_source names
// ("threadscope", "gc_events" or "none": then they are null); gc_pauses
// are the collections' pauses from the GC events (timeline.GCSummary.
// Pauses); gc_generations are every collection GHC reported
// (GCSummary.Reported, gen -1, then GCSummary.Gens), as the text report's
// table. A figure the log (or the range) has no events for is null, never
// 0. Of a range (--from/--to), range says which, every figure is of it but
// for the run's description (program … capability_numbers), and
// threads_ran counts the threads that ran in it.
type jsonSummary struct {
	Status     string          `json:"status"`
	Offset     *int64          `json:"offset,omitempty"`
	Reason     string          `json:"reason,omitempty"`
	TimeFaults *jsonTimeFaults `json:"time_faults,omitempty"`
	CapFaults  *jsonCapFaults  `json:"cap_faults,omitempty"`
	Range      *jsonRange      `json:"range,omitempty"`
	Program    string          `json:"program"`
	Args       []string        `json:"args"`
	Env        []string        `json:"env,omitempty"`
	RTS        string          `json:"rts"`
	StartWall  string          `json:"start_wall,omitempty"`
	// IdentityFrom is the eventlog of the file (counted from 1) whose
	// program, arguments, RTS, start time and capabilities these are: a
	// restarted eventlog does not repeat them (timeline.Summary.Inherit).
	IdentityFrom    int         `json:"identity_from_segment,omitempty"`
	Events          uint64      `json:"events"`
	BlockMarkers    uint64      `json:"block_markers"`
	Capabilities    int         `json:"capabilities"`
	CapNumbers      []int32     `json:"capability_numbers,omitempty"`
	Threads         uint64      `json:"threads"`
	ThreadsRan      *uint64     `json:"threads_ran,omitempty"`
	ThreadsRanFirst []uint32    `json:"threads_ran_first,omitempty"`
	StartNS         uint64      `json:"start_ns"`
	EndNS           uint64      `json:"end_ns"`
	DurationNS      uint64      `json:"duration_ns"`
	GCSource        string      `json:"gc_source"`
	GCTimeNS        *uint64     `json:"gc_time_ns"`
	GCPauses        *jsonPauses `json:"gc_pauses"`
	GCCount         *int        `json:"gc_count"`
	ParGCCount      *int        `json:"par_gc_count"`
	GCReported      int         `json:"gc_reported"`
	GCNS            *uint64     `json:"gc_ns"`
	GCMaxPauseNS    *uint64     `json:"gc_max_pause_ns"`
	MutatorNS       *uint64     `json:"mutator_ns"`
	Productivity    *float64    `json:"productivity"`
	HasHeap         bool        `json:"has_heap"`
	MaxHeapSize     *uint64     `json:"max_heap_size"`
	MaxHeapLive     *uint64     `json:"max_heap_live"`
	AllocatedBytes  *uint64     `json:"allocated_bytes"`
	AllocRate       *uint64     `json:"alloc_rate"`
	CopiedBytes     *uint64     `json:"copied_bytes"`
	GCGenerations   []jsonGen   `json:"gc_generations"`
	GCParThreads    int         `json:"gc_par_threads"`
	// The figures of `+RTS -s` by the RTS's definitions (timeline.
	// RTSStats): elapsed times in ns, productivity and work balance as
	// fractions; each null when the log lacks what it needs, with the
	// reason in rts_absent under the field's name (or "all").
	RTSElapsedNS        *uint64           `json:"rts_elapsed_ns"`
	RTSInitElapsedNS    *uint64           `json:"rts_init_elapsed_ns"`
	RTSMutatorElapsedNS *uint64           `json:"rts_mutator_elapsed_ns"`
	RTSGCElapsedNS      *uint64           `json:"rts_gc_elapsed_ns"`
	RTSExitElapsedNS    *uint64           `json:"rts_exit_elapsed_ns"`
	RTSProductivity     *float64          `json:"rts_productivity"`
	MaxSlop             *uint64           `json:"max_slop"`
	GCWorkBalance       *float64          `json:"gc_work_balance"`
	RTSAbsent           map[string]string `json:"rts_absent,omitempty"`
	// ThreadScope's definitions of the same: the slop of every
	// collection, and its work balance formula in percent.
	ThreadScopeMaxSlop     *uint64           `json:"threadscope_max_slop"`
	ThreadScopeWorkBalance *float64          `json:"threadscope_gc_work_balance,omitempty"`
	Sparks                 jsonSparks        `json:"sparks"`
	SparksPerCap           []jsonSparks      `json:"sparks_per_cap"`
	PerType                map[string]uint64 `json:"per_type"`
	PerKind                map[string]uint64 `json:"per_kind"`
	Segments               []jsonSegment     `json:"segments,omitempty"`
}

// jsonRange is the time range a range's report is of, in ns (to: the
// range's end, or the run's last event if that is earlier).
type jsonRange struct {
	FromNS uint64 `json:"from_ns"`
	ToNS   uint64 `json:"to_ns"`
}

// jsonPauses is timeline.Pauses in the JSON report.
type jsonPauses struct {
	Count     int    `json:"count"`
	ElapsedNS uint64 `json:"elapsed_ns"`
	MaxNS     uint64 `json:"max_ns"`
}

// some returns a pointer to v if ok, else nil: a figure for the JSON
// report that is null when absent.
func some[T any](v T, ok bool) *T {
	if !ok {
		return nil
	}
	return &v
}

// jsonSegment is one eventlog of a file that holds several, in the JSON
// report: where it lies and its main figures (events and block_markers
// counted as the report's own).
type jsonSegment struct {
	Offset       int64    `json:"offset"`
	End          int64    `json:"end"`
	Status       string   `json:"status"`
	Program      string   `json:"program"`
	Args         []string `json:"args"`
	IdentityFrom int      `json:"identity_from_segment,omitempty"`
	Events       uint64   `json:"events"`
	BlockMarkers uint64   `json:"block_markers"`
	Capabilities int      `json:"capabilities"`
	DurationNS   uint64   `json:"duration_ns"`
	GCSource     string   `json:"gc_source"`
	GCTimeNS     *uint64  `json:"gc_time_ns"`
	Productivity *float64 `json:"productivity"`
	MaxHeapLive  *uint64  `json:"max_heap_live"`
}

func writeSummaryJSON(w io.Writer, s *timeline.Summary) error {
	gc, hasGC := s.GCTime()
	h := &s.Heap
	j := jsonSummary{
		Status:             s.Status.State.String(),
		Program:            s.Program,
		Args:               s.Args,
		Env:                s.Env,
		RTS:                s.RTS,
		Events:             s.Events,
		BlockMarkers:       s.BlockMarkers,
		Capabilities:       s.Capabilities,
		CapNumbers:         s.OddCapNumbers(),
		CapFaults:          capFaultsJSON(s.CapFaults),
		Threads:            s.Threads,
		StartNS:            s.FirstNS,
		EndNS:              s.LastNS,
		DurationNS:         s.TotalNS,
		GCSource:           s.GCFrom.String(),
		GCTimeNS:           some(gc, hasGC),
		GCReported:         s.GC.RTSCollections,
		MutatorNS:          some(s.MutatorNS, hasGC),
		Productivity:       some(s.Productivity, hasGC),
		HasHeap:            s.HasHeap,
		MaxHeapSize:        some(h.MaxSize, h.HasSize),
		MaxHeapLive:        some(h.MaxLive, h.HasLive),
		AllocatedBytes:     some(h.Allocated, h.HasAllocated),
		AllocRate:          some(h.AllocRate, s.HasAllocRate()),
		ThreadScopeMaxSlop: some(h.MaxSlop, h.HasStats),
		CopiedBytes:        some(h.Copied, h.HasStats),
		GCParThreads:       s.GC.ParThreads,
		Sparks:             sparksJSON(s.Sparks.Total),
		SparksPerCap:       []jsonSparks{},
		PerType:            s.PerDesc(),
		PerKind:            s.PerKind(),
	}
	if p := s.GC.Pauses; p.Count > 0 || s.GCFrom == timeline.GCFromPauses {
		j.GCPauses = &jsonPauses{Count: p.Count, ElapsedNS: p.ElapsedNS, MaxNS: p.MaxNS}
	}
	if s.HasHeap || s.Range {
		// ThreadScope's count, which it shows for logs with heap events.
		t := s.GC.Total
		j.GCCount, j.ParGCCount, j.GCNS, j.GCMaxPauseNS = &t.Collections, &t.ParCollections, &t.ElapsedNS, &t.MaxPauseNS
	}
	if s.Range {
		j.Range = &jsonRange{FromNS: s.RangeFrom, ToNS: s.RangeTo}
		j.ThreadsRan, j.ThreadsRanFirst = &s.ThreadsRan, s.ThreadsRanFirst
	}
	if j.Args == nil {
		j.Args = []string{}
	}
	if st := s.Status; st.State == ingest.StateTruncated || st.State == ingest.StateCorrupt {
		off := st.Offset
		j.Offset = &off
		j.Reason = st.Reason
	}
	if !s.StartWall.IsZero() {
		j.StartWall = s.StartWall.Format(time.RFC3339Nano)
	}
	j.IdentityFrom = s.InheritedFrom
	j.TimeFaults = timeFaultsJSON(s.TimeFaults)
	for _, g := range s.Segments {
		gs := &g.Summary
		ggc, ok := gs.GCTime()
		js := jsonSegment{Offset: g.Offset, End: g.End, Status: gs.Status.State.String(), Program: gs.Program, Args: gs.Args,
			Events: gs.Events, BlockMarkers: gs.BlockMarkers, Capabilities: gs.Capabilities, DurationNS: gs.TotalNS,
			GCSource: gs.GCFrom.String(), GCTimeNS: some(ggc, ok), Productivity: some(gs.Productivity, ok),
			MaxHeapLive: some(gs.Heap.MaxLive, gs.Heap.HasLive), IdentityFrom: gs.InheritedFrom}
		if js.Args == nil {
			js.Args = []string{}
		}
		j.Segments = append(j.Segments, js)
	}
	j.GCGenerations = append(j.GCGenerations, genJSON(s.GC.Reported))
	for _, g := range s.GC.Gens {
		j.GCGenerations = append(j.GCGenerations, genJSON(g))
	}
	if s.GC.HasWorkBalance {
		b := s.GC.WorkBalance
		j.ThreadScopeWorkBalance = &b
	}
	setRTSJSON(&j, &s.RTSStats)
	for _, c := range s.Sparks.PerCap {
		cs := sparksJSON(c.SparkCounts)
		capNo := c.Cap
		cs.Cap = &capNo
		j.SparksPerCap = append(j.SparksPerCap, cs)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&j)
}

// setRTSJSON fills the report's RTS figures from r, and rts_absent with
// why those it leaves null are.
func setRTSJSON(j *jsonSummary, r *timeline.RTSStats) {
	if !r.Available {
		j.RTSAbsent = map[string]string{"all": r.Why}
		return
	}
	j.RTSAbsent = map[string]string{}
	j.RTSGCElapsedNS = some(r.GCElapsedNS, r.HasGCElapsed)
	if !r.HasGCElapsed {
		j.RTSAbsent["rts_gc_elapsed_ns"] = r.GCWhy
	}
	if r.HasPhases {
		j.RTSElapsedNS, j.RTSInitElapsedNS = &r.ElapsedNS, &r.InitNS
		j.RTSMutatorElapsedNS, j.RTSExitElapsedNS = &r.MutatorNS, &r.ExitNS
	} else {
		for _, k := range []string{"rts_elapsed_ns", "rts_init_elapsed_ns", "rts_mutator_elapsed_ns", "rts_exit_elapsed_ns"} {
			j.RTSAbsent[k] = r.PhasesWhy
		}
	}
	j.RTSProductivity = some(r.Productivity, r.HasProductivity)
	switch {
	case !r.HasPhases:
		j.RTSAbsent["rts_productivity"] = r.PhasesWhy
	case !r.HasProductivity:
		j.RTSAbsent["rts_productivity"] = r.GCWhy
	}
	j.MaxSlop = some(r.MaxSlop, r.HasMaxSlop)
	if !r.HasMaxSlop {
		j.RTSAbsent["max_slop"] = timeline.WhyNoMaxSlop
	}
	j.GCWorkBalance = some(r.WorkBalance, r.HasWorkBalance)
	if !r.HasWorkBalance {
		j.RTSAbsent["gc_work_balance"] = timeline.WhyNoWorkBalance
	}
	if len(j.RTSAbsent) == 0 {
		j.RTSAbsent = nil
	}
}

// writeSummaryText writes the human-readable report: ThreadScope's tabs in
// its units, then the counts hecscope adds.
func writeSummaryText(w io.Writer, name string, s *timeline.Summary) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	row := func(cells ...string) { fmt.Fprintln(tw, strings.Join(cells, "\t")) }
	unknown := func(v string) string {
		if v == "" {
			return "(unknown)"
		}
		return v
	}

	row("File:", name)
	if len(s.Segments) > 1 {
		row("Segments:", fmt.Sprintf("%d eventlogs one after another (the figures below are the first one's; each one's follows them)", len(s.Segments)))
	}
	if len(s.Segments) > 1 {
		// The bytes after the first end marker are the other segments.
		row("Status:", s.Segments[0].Summary.Status.State.String()+" (then "+paint.CountOf(int64(len(s.Segments)-1), "more eventlog", "more eventlogs")+")")
	} else {
		row("Status:", s.Status.String())
	}
	if s.TimeFaults.Count > 0 {
		row("Impossible times:", s.TimeFaults.String()+"; such events are taken at a time inside their block")
	}
	if s.CapFaults.Count > 0 {
		row("Impossible capabilities:", s.CapFaults.String()+"; such blocks' events are counted on the capability they claim")
	}
	run := "" // marks the run's description in a range's report
	if s.Range {
		row("Range:", fmt.Sprintf("%s – %s (%s): every figure is of the range, but those marked (the run's)",
			paint.ThreadScopeTime(s.RangeFrom), paint.ThreadScopeTime(s.RangeTo), paint.ThreadScopeTime(s.RangeTo-min(s.RangeFrom, s.RangeTo))))
		run = " (the run's)"
	}
	if s.InheritedFrom > 0 {
		row("Identity"+run+":", fmt.Sprintf("from eventlog %d of this file: logging was restarted, and a restarted eventlog does not repeat the program, its RTS and capabilities", s.InheritedFrom))
	}
	row("Program"+run+":", unknown(s.Program))
	row("Arguments"+run+":", strings.Join(s.Args, " "))
	row("RTS"+run+":", unknown(s.RTS))
	start := "(unknown)"
	if !s.StartWall.IsZero() {
		start = s.StartWall.Format("2006-01-02 15:04:05.000000000 UTC")
	}
	row("Start time"+run+":", start)
	if len(s.Env) > 0 {
		row("Environment"+run+":", fmt.Sprintf("%d variables", len(s.Env)))
	}
	row("Capabilities"+run+":", s.CapabilitiesText())
	row("Events:", paint.EventCount(s.Events, s.BlockMarkers))
	row("Threads created:", commas(s.Threads))
	if s.Range {
		ran := commas(s.ThreadsRan)
		if n := len(s.ThreadsRanFirst); n > 0 {
			ids := make([]string, n)
			for i, id := range s.ThreadsRanFirst {
				ids[i] = strconv.FormatUint(uint64(id), 10)
			}
			more := ""
			if uint64(n) < s.ThreadsRan {
				more = ", …"
			}
			ran += " (" + strings.Join(ids, ", ") + more + ")"
		}
		row("Threads ran:", ran)
	}
	row("First/last event:", fmt.Sprintf("%s / %s", paint.ThreadScopeTime(s.FirstNS), paint.ThreadScopeTime(s.LastNS)))
	row("")
	row("Time")
	writeRTSTimes(row, &s.RTSStats)
	gcTime, hasGC := s.GCTime()
	noGC := absent(timeline.GCFromNone.Describe())
	whose := timeOwner(s)
	row("  ThreadScope's total time:", paint.ThreadScopeTime(s.TotalNS))
	row("  "+whose+" mutator time:", or(hasGC, paint.ThreadScopeTime(s.MutatorNS)+" (total time less the GC time below)", noGC))
	row("  "+whose+" GC time:", or(hasGC, paint.ThreadScopeTime(gcTime)+" ("+gcSourceText(s)+")", noGC))
	row("  "+whose+" productivity:", or(hasGC, fmt.Sprintf("%.1f%% (mutator time / total time)", 100*s.Productivity), noGC))
	row("")
	row("Heap")
	h := s.Heap
	lacks := func(kind string) string {
		if s.Range {
			return absent("no " + kind + " event in the range")
		}
		return absent("the log has no " + kind + " events")
	}
	row("  Maximum heap size:", or(h.HasSize, showBytes(h.MaxSize, ""), lacks("HeapSize")))
	live := showBytes(h.MaxLive, "")
	if r := &s.RTSStats; r.Available && r.Generations > 0 {
		live += fmt.Sprintf(" (%s)", paint.CountOf(int64(r.MajorGCs), "sample", "samples"))
	}
	row("  Maximum heap residency:", or(h.HasLive, live, lacks("HeapLive")))
	row("  Total allocated:", or(h.HasAllocated, showBytes(h.Allocated, ""), lacks("HeapAllocated")))
	rateMissing := lacks("HeapAllocated")
	if h.HasAllocated {
		rateMissing = absent("no mutator time to divide by")
	}
	r := &s.RTSStats
	row("  Maximum slop:", rtsFigure(r, r.HasMaxSlop, showBytes(r.MaxSlop, "")+" (the RTS's: of the major collections; exact)", timeline.WhyNoMaxSlop))
	row("  ThreadScope's max slop:", or(h.HasStats, showBytes(h.MaxSlop, "")+" (of every collection)", lacks("GCStatsGHC")))
	row("  "+whose+" alloc rate:", or(s.HasAllocRate(), showBytes(h.AllocRate, "/s")+" of the mutator time above", rateMissing))
	row("")
	row("GC")
	row("  Copied during GC:", or(h.HasStats, showBytes(h.Copied, ""), lacks("GCStatsGHC")))
	rtsBal := fmt.Sprintf("%.2f%% (the RTS's: balanced / copied of the parallel collections; exact)", 100*r.WorkBalance)
	if r.WorkBalance == 0 {
		rtsBal = "0 (no parallel collection: -s prints no work balance)"
	}
	row("  Parallel GC work balance:", rtsFigure(r, r.HasWorkBalance, rtsBal, timeline.WhyNoWorkBalance))
	bal := "N/A"
	if s.GC.HasWorkBalance {
		bal = fmt.Sprintf("%.2f%% (its formula from the max and total par copied)", s.GC.WorkBalance)
	}
	row("  ThreadScope's work balance:", or(h.HasStats, bal, lacks("GCStatsGHC")))
	if s.HasHeap || s.Range {
		the := ""
		if s.GCFrom == timeline.GCFromThreadScope {
			the = " (the GC time above)"
		}
		row("  ThreadScope's count:", fmt.Sprintf("%s, %s%s, max pause %s",
			paint.CountOf(int64(s.GC.Total.Collections), "collection", "collections"), paint.ThreadScopeTime(s.GC.Total.ElapsedNS), the, paint.ThreadScopeTime(s.GC.Total.MaxPauseNS)))
	} else {
		row("  ThreadScope's count:", absent("the log has no heap events, without which ThreadScope counts none"))
	}
	if p := s.GC.Pauses; p.Count > 0 || s.GCFrom == timeline.GCFromPauses {
		the := ""
		if s.GCFrom == timeline.GCFromPauses {
			the = " (the GC time above)"
		}
		row("  Pauses from GC events:", fmt.Sprintf("%s, %s%s, max pause %s",
			paint.CountOf(int64(p.Count), "collection", "collections"), paint.ThreadScopeTime(p.ElapsedNS), the, paint.ThreadScopeTime(p.MaxNS)))
	}
	if h.HasStats {
		row("  Collections GHC reported:", fmt.Sprintf("%d, in the table below", s.GC.RTSCollections))
		rows := timeline.GCRowsDefinition
		if s.RTSStats.Available {
			rows += ": -s's Gen rows, exact"
		}
		row("  The table counts:", rows)
	} else {
		row("  Collections GHC reported:", lacks("GCStatsGHC"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	var gc, sparks, events table
	if h.HasStats {
		gc.add("Generation", "Collections", "Par collections", "Elapsed time", "Avg pause", "Max pause", "Copied")
		gcRow := func(label string, g timeline.GenStats) {
			gc.add(label, strconv.Itoa(g.Collections), strconv.Itoa(g.ParCollections),
				paint.ThreadScopeTime(g.ElapsedNS), paint.ThreadScopeTime(g.MeanPauseNS()), paint.ThreadScopeTime(g.MaxPauseNS), showBytesShort(g.Copied))
		}
		gcRow("GC Total", s.GC.Reported)
		for _, g := range s.GC.Gens {
			gcRow("Gen "+strconv.Itoa(g.Gen), g)
		}
		gc.write(w, false)
	}
	fmt.Fprintln(w, "\nSparks")
	sparks.add("HEC", "Total", "Converted", "Overflowed", "Dud", "GCed", "Fizzled")
	sparkRow := func(label string, c timeline.SparkCounts) {
		sparks.add(label, commas(c.Total), commas(c.Converted), commas(c.Overflowed),
			commas(c.Dud), commas(c.GCd), commas(c.Fizzled))
	}
	sparkRow("Total", s.Sparks.Total)
	for _, c := range s.Sparks.PerCap {
		sparkRow("HEC "+strconv.Itoa(c.Cap), c.SparkCounts)
	}
	sparks.write(w, false)

	fmt.Fprintln(w, "\nEvents per type")
	events.add("Id", "Count", "Description")
	types := append([]timeline.TypeCount(nil), s.Types...)
	sort.SliceStable(types, func(i, j int) bool { return types[i].Count > types[j].Count })
	for _, t := range types {
		desc := t.Desc
		if desc == "" {
			desc = t.Kind.String()
		}
		events.add(strconv.Itoa(int(t.ID)), commas(t.Count), desc)
	}
	if err := events.write(w, true); err != nil {
		return err
	}
	if len(s.Segments) > 1 {
		var segs table
		// Events count the block markers, as the Events row above does.
		fmt.Fprintf(w, "\nSegments: %d\n", len(s.Segments))
		segs.add("#", "Bytes", "Status", "Program", "Events", "Total time", "GC time", "Productivity")
		for i, g := range s.Segments {
			gs := &g.Summary
			ggc, ok := gs.GCTime()
			program := unknown(strings.Join(append([]string{gs.Program}, gs.Args...), " "))
			if gs.InheritedFrom > 0 {
				program = fmt.Sprintf("(restarted: as #%d)", gs.InheritedFrom)
			}
			segs.add(strconv.Itoa(i+1), fmt.Sprintf("%s–%s", commas(uint64(g.Offset)), commas(uint64(g.End))), gs.Status.State.String(),
				program, commas(gs.Events+gs.BlockMarkers), paint.ThreadScopeTime(gs.TotalNS),
				or(ok, paint.ThreadScopeTime(ggc), "—"), or(ok, fmt.Sprintf("%.1f%%", 100*gs.Productivity), "—"))
		}
		return segs.write(w, false)
	}
	return nil
}

// writeRTSTimes writes the Time rows of `+RTS -s` (timeline.RTSStats),
// each in -s's format and to the ns, saying how exact it is.
func writeRTSTimes(row func(...string), r *timeline.RTSStats) {
	if !r.Available {
		row("  +RTS -s figures:", absent(r.Why))
		return
	}
	sec := func(ns uint64) string { return fmt.Sprintf("%.3fs (%.3f ms)", float64(ns)/1e9, float64(ns)/1e6) }
	approx := func(ns uint64, how string) string {
		return or(r.HasPhases, sec(ns)+", approximate: "+how, absent(r.PhasesWhy))
	}
	row("  Total time (elapsed):", approx(r.ElapsedNS, "to the RTS's final report"))
	row("  INIT time (elapsed):", approx(r.InitNS, "to the program's main entering Haskell"))
	row("  MUT time (elapsed):", approx(r.MutatorNS, "main's time in Haskell, less GC"))
	row("  GC time (elapsed):", or(r.HasGCElapsed, sec(r.GCElapsedNS)+", exact: every collection, GC start to end on the HEC that led it", absent(r.GCWhy)))
	row("  EXIT time (elapsed):", approx(r.ExitNS, "from main's return to the report, less GC"))
	why := r.PhasesWhy
	if r.HasPhases {
		why = r.GCWhy
	}
	row("  Productivity:", or(r.HasProductivity, fmt.Sprintf("%.1f%% of total elapsed, approximate", 100*r.Productivity), absent(why)))
	row("  Not in the eventlog:", "-s's CPU (user) times, and its alloc rate and productivity of total user made of them; fragmentation; TASKS")
}

// rtsFigure is the text of one RTS figure: v if the log has it (ok), else
// why not (the whole log's reason, or why).
func rtsFigure(r *timeline.RTSStats, ok bool, v, why string) string {
	switch {
	case !r.Available:
		return absent("no -s figures: see Time")
	case !ok:
		return absent(why)
	}
	return v
}

// timeOwner names whose definition the mutator and GC time of the Time
// figures are: ThreadScope's, or based on the GC events' pauses.
func timeOwner(s *timeline.Summary) string {
	if s.GCFrom == timeline.GCFromPauses {
		return "Pause-based"
	}
	return "ThreadScope's"
}

// or returns v if ok, else missing: a figure, or what stands for it when
// it is absent.
func or(ok bool, v, missing string) string {
	if ok {
		return v
	}
	return missing
}

// absent is how the text report writes a figure the log lacks: a dash and
// what is missing.
func absent(why string) string { return "— (" + why + ")" }

// gcSourceText says in a few words where a summary's GC time comes from.
func gcSourceText(s *timeline.Summary) string {
	switch s.GCFrom {
	case timeline.GCFromThreadScope:
		return "ThreadScope's count"
	case timeline.GCFromPauses:
		if s.Range {
			return "the pauses in the range, from the GC events"
		}
		return "from the GC events: the log has no heap events"
	}
	return ""
}

// table is a small text table: the first column left-aligned, the others
// right-aligned (or the last left-aligned, for a description).
type table struct{ rows [][]string }

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// write prints the table indented by two spaces; lastLeft left-aligns the
// last column.
func (t *table) write(w io.Writer, lastLeft bool) error {
	var width []int
	for _, r := range t.rows {
		for i, c := range r {
			if i == len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range t.rows {
		b.WriteString(" ")
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			b.WriteString(" ")
			if i > 0 && lastLeft && i == len(r)-1 {
				b.WriteString(" ")
			}
			if i == 0 || (lastLeft && i == len(r)-1) {
				b.WriteString(c)
				if i != len(r)-1 {
					b.WriteString(pad)
				}
			} else {
				b.WriteString(" " + pad + c)
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// showBytes formats a byte count as ThreadScope does: one decimal in the
// largest binary unit not above it, then the exact count with commas.
func showBytes(b uint64, suffix string) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	u := 0
	for u+1 < len(units) && b >= 1<<(10*(u+1)) {
		u++
	}
	return fmt.Sprintf("%.1f %s%s (%s bytes%s)", float64(b)/float64(uint64(1)<<(10*u)), units[u], suffix, commas(b), suffix)
}

// showBytesShort formats a byte count with one decimal in the largest binary
// unit not above it.
func showBytesShort(b uint64) string {
	full := showBytes(b, "")
	return full[:strings.Index(full, " (")]
}

// commas writes n with thousands separators, as paint.Count does (no count
// or byte offset of an eventlog comes near 2^63).
func commas(n uint64) string { return paint.Count(int64(min(n, math.MaxInt64))) }
