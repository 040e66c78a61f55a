package advise

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/timeline"
)

// analyzeLog loads an eventlog and analyses the whole run.
func analyzeLog(t *testing.T, path string) ([]Finding, *timeline.Model) {
	t.Helper()
	l, err := eventlog.Open(context.Background(), path, eventlog.Options{NoEventList: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	in := Input{Model: l.Overview(), Heap: l.Heap}
	if l.SummaryErr == nil {
		in.Summary = &l.Summary
	}
	return Analyze(in), l.Overview()
}

// adviseLog is one of the purpose-made logs (testdata/haskell/Advise.hs).
func adviseLog(mode string) string {
	return filepath.Join("..", "testdata", "ghc-9.0.2", "advise-"+mode+".eventlog")
}

// marker returns the time of the user marker text in m.
func marker(t *testing.T, m *timeline.Model, text string) uint64 {
	t.Helper()
	for i := range m.NumMarkers() {
		if mk := m.Marker(i); m.String(int32(mk.Arg)) == text {
			return mk.Time
		}
	}
	t.Fatalf("no marker %q", text)
	return 0
}

// one returns the only finding of kind k at severity at least min.
func one(t *testing.T, fs []Finding, k Kind, min Severity) Finding {
	t.Helper()
	var got []Finding
	for _, f := range of(fs, k) {
		if f.Severity >= min {
			got = append(got, f)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d %s findings of severity %v or more, want 1; all: %v", len(got), k, min, fs)
	}
	return got[0]
}

// says reports whether the finding's evidence or suggestion holds s.
func says(f Finding, s string) bool {
	return strings.Contains(strings.Join(f.Evidence, "\n")+"\n"+f.Suggestion+"\n"+f.Title, s)
}

// TestHealthyRunHasNoWarning: balanced parallel work with a large nursery
// draws no warning and no problem.
func TestHealthyRunHasNoWarning(t *testing.T) {
	fs, _ := analyzeLog(t, adviseLog("healthy"))
	for _, f := range fs {
		if f.Severity > Info {
			t.Errorf("healthy run: %v %s: %s", f.Severity, f.Kind, f.Title)
		}
	}
}

// TestSequentialBottleneck: the long computation of the main thread alone,
// between the markers "sequential" and "parallel again", is a sequential
// problem over that range.
func TestSequentialBottleneck(t *testing.T) {
	fs, m := analyzeLog(t, adviseLog("sequential"))
	f := one(t, fs, KindSequential, Warning)
	from, to := marker(t, m, "sequential"), marker(t, m, "parallel again")
	// The HECs take a few ms to change over at either end (more on a busy
	// machine, where the OS is slow to run a HEC's thread).
	slack := (m.End - m.Start) / 20
	if f.From > from+slack || f.From+slack < from || f.To+slack < to || f.To > to+slack {
		t.Errorf("sequential period %s, want about %s", between(f.From, f.To), between(from, to))
	}
	if f.Severity != Problem || !says(f, "main (thread") {
		t.Errorf("sequential: %v %q %q, want a problem naming the main thread", f.Severity, f.Title, f.Evidence)
	}
	// Its tracks: both HECs, and the main thread that ran alone.
	if !slices.Equal(f.Tracks.Caps, []int32{0, 1}) || len(f.Tracks.Threads) != 1 || label(m, f.Tracks.Threads[0]) != "main" {
		t.Errorf("sequential tracks %+v, want HECs 0 and 1 and the main thread", f.Tracks)
	}
}

// label returns the label of thread id in m ("" if none).
func label(m *timeline.Model, id uint32) string {
	if th := m.ThreadByID(id); th != nil && th.Label >= 0 {
		return m.String(th.Label)
	}
	return ""
}

// TestGCPressure: a tiny nursery (-A16k) makes GC a problem, and the
// suggestion is a bigger one.
func TestGCPressure(t *testing.T) {
	fs, _ := analyzeLog(t, adviseLog("gc"))
	f := one(t, fs, KindGC, Warning)
	for _, s := range []string{"16.0 KiB per HEC", "+RTS -A16k", "-A64m", "generation 0"} {
		if !says(f, s) {
			t.Errorf("gc finding does not say %q: %q %q", s, f.Evidence, f.Suggestion)
		}
	}
	if tr := f.Tracks; !tr.GC || len(tr.Caps) == 0 || tr.Heap || tr.Sparks || len(tr.Threads) != 0 {
		t.Errorf("gc finding's tracks %+v, want the GC pauses and the HECs", tr)
	}
}

// TestUselessSparks: duds, fizzles and an overflowing burst, with the
// second HEC idle, are a sparks warning or worse naming each pattern.
func TestUselessSparks(t *testing.T) {
	fs, _ := analyzeLog(t, adviseLog("sparks"))
	f := one(t, fs, KindSparks, Warning)
	for _, s := range []string{"dud (", "fizzled (", "overflowed (", "mostly dud"} {
		if !says(f, s) {
			t.Errorf("sparks finding does not say %q: %q %q", s, f.Title, f.Evidence)
		}
	}
	if tr := f.Tracks; !tr.Sparks || !slices.Equal(tr.Caps, []int32{0, 1}) || tr.GC {
		t.Errorf("sparks finding's tracks %+v, want the spark tracks of HECs 0 and 1", tr)
	}
}

// TestMVarLock: four workers serialised by one MVar are a blocking
// warning or worse about an MVar, naming the workers.
func TestMVarLock(t *testing.T) {
	fs, m := analyzeLog(t, adviseLog("mvar"))
	f := one(t, fs, KindBlocking, Warning)
	if !says(f, "an MVar") || !says(f, "worker-") {
		t.Errorf("blocking finding: %q %q, want the MVar and the workers", f.Title, f.Evidence)
	}
	// Its tracks are the blocked threads: the workers, whose thread
	// tracks show them blocked.
	workers := 0
	for _, id := range f.Tracks.Threads {
		if strings.HasPrefix(label(m, id), "worker-") {
			workers++
		}
	}
	if workers < 3 || len(f.Tracks.Caps) != 0 {
		t.Errorf("blocking finding's tracks %+v: %d workers, want the workers' threads", f.Tracks, workers)
	}
	for _, s := range of(fs, KindSequential) {
		if !strings.Contains(s.Suggestion, "blocked on an MVar") {
			t.Errorf("sequential period of the MVar run does not point at the MVar: %q", s.Suggestion)
		}
	}
}

// TestLazyAccumulator: a chain of thunks grows the live data until it is
// forced: a heap-growth warning.
func TestLazyAccumulator(t *testing.T) {
	fs, _ := analyzeLog(t, adviseLog("leak"))
	f := one(t, fs, KindHeapGrowth, Warning)
	if !says(f, "modifyIORef") || !says(f, "then it fell to") {
		t.Errorf("heap-growth finding: %q %q", f.Evidence, f.Suggestion)
	}
	if !f.Tracks.Heap {
		t.Errorf("heap-growth finding's tracks %+v, want the heap", f.Tracks)
	}
}

// TestOtherLogsAreSane runs advise on every log of the repository's
// testdata (real logs of GHC 6.12 to 9.2, some cut or damaged) and checks
// that each finding is well formed: a known kind and severity, a range
// inside the run, a title, evidence and a suggestion.
func TestOtherLogsAreSane(t *testing.T) {
	var logs []string
	for _, pat := range []string{"../testdata/ghc-9.0.2/*.eventlog", "../testdata/corpus/*.eventlog", "../testdata/generated/*.eventlog"} {
		m, _ := filepath.Glob(pat)
		logs = append(logs, m...)
	}
	if len(logs) < 10 {
		t.Fatalf("only %d logs found", len(logs))
	}
	for _, path := range logs {
		fs, m := analyzeLog(t, path)
		for _, f := range fs {
			name := filepath.Base(path) + ": " + string(f.Kind)
			if !strings.Contains(strings.Join(kindNames(), " "), string(f.Kind)) || f.Severity > Problem {
				t.Errorf("%s: kind or severity %v unknown", name, f.Severity)
			}
			if f.From > f.To || f.To > m.End || f.From < m.Start {
				t.Errorf("%s: range %d–%d outside the run %d–%d", name, f.From, f.To, m.Start, m.End)
			}
			if f.Title == "" || len(f.Evidence) == 0 || f.Suggestion == "" {
				t.Errorf("%s: empty title, evidence or suggestion: %+v", name, f)
			}
			// Its tracks are the run's: HECs it has and threads it ran.
			if len(f.Tracks.Threads) > MaxThreads || !slices.IsSorted(f.Tracks.Caps) {
				t.Errorf("%s: tracks %+v", name, f.Tracks)
			}
			for _, c := range f.Tracks.Caps {
				if m.HEC(c) == nil {
					t.Errorf("%s: HEC %d is not the run's", name, c)
				}
			}
			for _, id := range f.Tracks.Threads {
				if m.ThreadByID(id) == nil {
					t.Errorf("%s: thread %d is not the run's", name, id)
				}
			}
			if len(f.Tracks.Caps)+len(f.Tracks.Threads) == 0 && !f.Tracks.GC && !f.Tracks.Heap {
				t.Errorf("%s: no tracks", name)
			}
			for _, e := range append(f.Evidence, f.Title) {
				if strings.Contains(e, "NaN") || strings.Contains(e, "Inf") || strings.Contains(e, "%!") {
					t.Errorf("%s: %q", name, e)
				}
			}
		}
	}
}

// kindNames returns the names of the kinds.
func kindNames() []string {
	var out []string
	for _, k := range Kinds {
		out = append(out, string(k))
	}
	return out
}

// TestRange checks that a range analyses only its part: the sequential
// run's last parallel phase has no sequential finding, and its sequential
// stretch alone is all sequential.
func TestRange(t *testing.T) {
	l, err := eventlog.Open(context.Background(), adviseLog("sequential"), eventlog.Options{NoEventList: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	m := l.Overview()
	seq, again := marker(t, m, "sequential"), marker(t, m, "parallel again")
	fs := Analyze(Input{Model: m, Heap: l.Heap, From: seq, To: again})
	f := one(t, fs, KindSequential, Problem)
	if f.From < seq || f.To > again || !strings.Contains(f.Title, "of the range") || f.To-f.From < (again-seq)*9/10 {
		t.Errorf("range %s: %s %q", between(seq, again), between(f.From, f.To), f.Title)
	}
	done := marker(t, m, "advise done")
	for _, f := range Analyze(Input{Model: m, Heap: l.Heap, From: again, To: done}) {
		if f.Kind == KindSequential {
			t.Errorf("last parallel phase %s: %s %q", between(again, done), f.Kind, f.Title)
		}
	}
}

// TestCutLogKeepsToWhatIsKnown: the healthy run cut short after its
// first HEC's block but before its second's knows the second HEC only at
// the start. It is left out, rather than taken as idle while the threads
// it ran wait runnable for ever.
func TestCutLogKeepsToWhatIsKnown(t *testing.T) {
	data, err := os.ReadFile(adviseLog("healthy"))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.eventlog")
	if err := os.WriteFile(cut, data[:len(data)*61/100], 0o644); err != nil {
		t.Fatal(err)
	}
	fs, m := analyzeLog(t, cut)
	if m.HEC(1) == nil || m.HEC(1).Track.End() >= m.End/2 {
		t.Fatalf("the cut log knows HEC 1 until %d of %d: not the case tested", m.HEC(1).Track.End(), m.End)
	}
	for _, f := range fs {
		if f.Severity > Info {
			t.Errorf("cut healthy run: %v %s: %s", f.Severity, f.Kind, f.Title)
		}
	}
}
