package tracks

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// spanScript writes user spans into a builder, a capability at a time,
// with the thread running there (none while running is 0).
type spanScript struct {
	b       *timeline.Builder
	label   string // if set, every tree's spans' label
	tm      uint64
	running [2]uint32
}

func (s *spanScript) add(ev *ingest.Event) { s.b.Add(ev) }

// run makes thread th (0: none) run on capability c.
func (s *spanScript) run(c int32, th uint32) {
	if s.running[c] == th {
		return
	}
	if s.running[c] != 0 {
		s.add(&ingest.Event{Kind: ingest.KindStopThread, Cap: c, Time: s.tm, Args: [9]uint64{uint64(s.running[c]), uint64(ingest.StopYielding)}})
	}
	if s.running[c] = th; th != 0 {
		s.add(&ingest.Event{Kind: ingest.KindRunThread, Cap: c, Time: s.tm, Args: [9]uint64{uint64(th)}})
	}
}

func (s *spanScript) msg(c int32, text string) {
	s.add(&ingest.Event{Kind: ingest.KindUserMsg, Cap: c, Time: s.tm, Data: []byte(text)})
}

// tree writes a span of label "d<depth>" (or s.label) holding fanout spans a level
// deeper, down to depth levels, on capability c; the times step by 0 to
// 2 ns, so that some spans start or end together.
func (s *spanScript) tree(rng *rand.Rand, c int32, depth, fanout int, level int) {
	l := "d" + strconv.Itoa(level)
	if s.label != "" {
		l = s.label
	}
	s.msg(c, "START "+l)
	s.tm += uint64(rng.Intn(3))
	if level < depth {
		for k := 0; k < fanout; k++ {
			s.tree(rng, c, depth, fanout, level+1)
		}
	}
	s.msg(c, "STOP "+l)
	s.tm += uint64(rng.Intn(3))
}

// spansByStart returns the indices of m's user spans sorted by start, the
// longer first of two that start together, then in the model's order.
func spansByStart(m *timeline.Model) []int32 {
	all := make([]int32, numUserSpans(m))
	for i := range all {
		all[i] = int32(i)
	}
	sort.SliceStable(all, func(a, b int) bool {
		x, y := userSpan(m, int(all[a])), userSpan(m, int(all[b]))
		if x.Start != y.Start {
			return x.Start < y.Start
		}
		return x.End > y.End
	})
	return all
}

// sortedRows places the user spans of m as the rows are defined: every
// span sorted by start (the longer first of two that start together, then
// in the model's order), each stacked in the lowest row of its thread free
// when it starts.
func sortedRows(m *timeline.Model) map[uint32][]*spanList {
	all := spansByStart(m)
	rows := map[uint32][]*spanList{}
	ends := map[uint32][]uint64{}
	for _, i := range all {
		sp := userSpan(m, int(i))
		th := spanThread(m, sp)
		e := ends[th]
		d := 0
		for d < len(e) && e[d] > sp.Start {
			d++
		}
		if d == len(e) {
			e = append(e, 0)
			rows[th] = append(rows[th], &spanList{})
		}
		e[d] = sp.End
		ends[th] = e
		rows[th][d].add(i, sp.End)
	}
	for _, r := range rows {
		for _, l := range r {
			l.finish(m)
		}
	}
	return rows
}

// sortedLabels lists the user spans of m by label, every span sorted as
// sortedRows sorts them.
func sortedLabels(m *timeline.Model) map[int32]*spanList {
	all := spansByStart(m)
	out := map[int32]*spanList{}
	for _, i := range all {
		sp := userSpan(m, int(i))
		if out[sp.Label] == nil {
			out[sp.Label] = &spanList{}
		}
		out[sp.Label].add(i, sp.End)
	}
	for _, l := range out {
		l.finish(m)
	}
	return out
}

// sameList says how two lists differ, "" if they hold the same spans the
// same way.
func sameList(a, b *spanList) string {
	switch {
	case a.n != b.n:
		return fmt.Sprintf("%d spans, want %d", a.n, b.n)
	case !slices.Equal(indices(a), indices(b)):
		return "other spans"
	case !slices.Equal(a.first, b.first) || !slices.Equal(a.maxEnd, b.maxEnd) || !slices.Equal(a.far, b.far):
		return "other blocks"
	case a.high != b.high:
		return fmt.Sprintf("largest end %d, want %d", a.high, b.high)
	}
	return ""
}

// sameRows fails t if u's rows are not want's.
func sameRows(t *testing.T, name string, u *userIndex, want map[uint32][]*spanList) {
	t.Helper()
	if len(u.byThread) != len(want) {
		t.Fatalf("%s: %d threads with spans, want %d", name, len(u.byThread), len(want))
	}
	for th, rows := range want {
		got := u.byThread[th]
		if len(got) != len(rows) {
			t.Fatalf("%s: thread %d has %d rows, want %d", name, th, len(got), len(rows))
		}
		for d := range rows {
			if diff := sameList(got[d], rows[d]); diff != "" {
				t.Fatalf("%s: thread %d row %d: %s", name, th, d, diff)
			}
		}
	}
}

// TestThreadRowsRewindAndSetAside: a thread's (and a label's) spans placed as they come,
// those out of order placed by taking back the latest placed after them,
// or set aside and merged in when there are too many to take back (a span
// holding thousands, spans nested thousands deep), are the rows sorting
// them all gives, exactly, with spans begun where no thread ran among
// them.
func TestThreadRowsRewindAndSetAside(t *testing.T) {
	for _, c := range []struct {
		name  string
		write func(s *spanScript, rng *rand.Rand)
		// redo is how many threads set their spans aside
		redo int
	}{
		{"flame charts", func(s *spanScript, rng *rand.Rand) {
			for k := 0; k < 300; k++ {
				c := int32(k % 2)
				s.run(c, uint32(1+c))
				s.tree(rng, c, 3, 5, 0)
			}
		}, 0},
		{"flame charts far apart in the model", func(s *spanScript, rng *rand.Rand) {
			// Thread 1's spans thousands apart among thread 2's: their
			// indices differ by more than 2 bytes within a block.
			s.run(0, 1)
			s.run(1, 2)
			for k := 0; k < 30; k++ {
				s.tree(rng, 0, 1, 3, 0)
				for j := 0; j < 6000; j++ {
					s.tree(rng, 1, 0, 0, 0)
				}
			}
		}, 0},
		{"recursion: one label nested in itself", func(s *spanScript, rng *rand.Rand) {
			s.run(0, 1)
			s.run(1, 2)
			s.label = "r"
			for k := 0; k < 200; k++ {
				s.tree(rng, int32(k%2), 3, 4, 0)
			}
		}, 0},
		{"a span holding thousands", func(s *spanScript, rng *rand.Rand) {
			s.run(0, 1)
			s.run(1, 2)
			s.msg(0, "START all")
			for k := 0; k < 3*maxUndo; k++ {
				s.tree(rng, int32(k%2), 1, 2, 0)
			}
			s.tm++
			s.msg(0, "STOP all")
		}, 1},
		{"nested thousands deep", func(s *spanScript, rng *rand.Rand) {
			s.run(0, 1)
			s.run(1, 2)
			for k := 0; k < 2000; k++ {
				s.msg(0, "START n"+strconv.Itoa(k))
				s.tm += uint64(rng.Intn(2))
			}
			for k := 1999; k >= 0; k-- {
				s.msg(0, "STOP n"+strconv.Itoa(k))
				s.tree(rng, 1, 2, 2, 0)
			}
		}, 1},
		{"overlapping, some without a thread", func(s *spanScript, rng *rand.Rand) {
			labels := []string{"a", "b", "c"}
			s.run(0, 1)
			s.run(1, 2)
			for i := 0; i < 20000; i++ {
				c := int32(rng.Intn(2))
				if rng.Intn(20) == 0 {
					th := uint32(rng.Intn(5))
					if th == s.running[1-c] {
						th = 0
					}
					s.run(c, th)
				}
				msg := "START "
				if rng.Intn(2) == 0 {
					msg = "STOP "
				}
				s.msg(c, msg+labels[rng.Intn(len(labels))])
				s.tm += uint64(rng.Intn(5))
			}
		}, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(5))
			s := &spanScript{b: timeline.NewOverviewBuilder(timeline.Grid{}), tm: 1000}
			r := newThreadRows()
			c.write(s, rng)
			s.b.Finish()
			m := s.b.Snapshot()
			u := r.index(m)
			want := sortedRows(m)
			sameRows(t, c.name, u, want)
			for l, spans := range sortedLabels(m) {
				if diff := sameList(u.label(l), spans); diff != "" {
					t.Fatalf("label %q: %s", m.String(l), diff)
				}
			}
			if c.redo >= 0 && r.order.redo != c.redo {
				t.Errorf("%d threads set spans aside, want %d", r.order.redo, c.redo)
			}
			deep := 0
			for _, rows := range want {
				deep = max(deep, len(rows))
			}
			if deep < 2 {
				t.Fatal("no span nested in another: the test says little")
			}
		})
	}
}
