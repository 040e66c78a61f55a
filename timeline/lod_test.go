package timeline

import (
	"os"
	"path/filepath"
	"testing"
)

// naiveColumns computes columns by visiting every mark: the reference the
// level-of-detail query must agree with.
func naiveColumns(t *Track, ax Axis, n int) []Durations {
	out := make([]Durations, n)
	for i := 0; i < t.Len(); i++ {
		m := t.Mark(i)
		end := t.End()
		if i+1 < t.Len() {
			end = t.Mark(i + 1).Time
		}
		start := m.Time
		if i == 0 && start > 0 {
			// idle before the first mark
			naiveAdd(out, ax, n, 0, start, StateIdle)
		}
		naiveAdd(out, ax, n, start, end, m.State)
	}
	if t.Len() == 0 {
		naiveAdd(out, ax, n, 0, t.End(), StateIdle)
	}
	return out
}

func naiveAdd(out []Durations, ax Axis, n int, a, b uint64, s State) {
	for c := 0; c < n; c++ {
		lo, hi := ax.ColumnTime(c), ax.ColumnTime(c+1)
		x, y := max(a, lo), min(b, hi)
		if y > x {
			out[c][s] += y - x
		}
	}
}

func TestColumnsMatchNaive(t *testing.T) {
	for _, path := range testLogs(t) {
		m, _ := build(t, path)
		name := filepath.Base(path)
		views := []Axis{
			NewAxis(0, m.End, 0, 300),
			NewAxis(m.End/3, m.End/3+m.End/50, 0, 257),
			NewAxis(m.End/2, m.End/2+2000, 0, 100),
			NewAxis(0, m.End+m.End/4, 0, 64), // past the end
		}
		for vi, ax := range views {
			n := int(ax.Width)
			tracks := []*Track{}
			for c := range m.HECs {
				tracks = append(tracks, &m.HECs[c].Track)
			}
			for i := range m.NumThreads() {
				if i < 40 {
					tracks = append(tracks, new(m.Thread(i).Track))
				}
			}
			for ti, tr := range tracks {
				got := tr.Columns(ax, n, nil)
				want := naiveColumns(tr, ax, n)
				var sum Durations
				for c := range got {
					if got[c].Time != want[c] {
						t.Fatalf("%s view %d track %d column %d: %v, naive %v", name, vi, ti, c, got[c].Time, want[c])
					}
					sum.add(&got[c].Time)
					if tot := got[c].Time.Total(); tot > 0 {
						st, share := got[c].Time.Dominant()
						if st != got[c].State || float32(share) != got[c].Share {
							t.Fatalf("dominant state wrong")
						}
					}
				}
				if whole := tr.Durations(ax.From, ax.ColumnTime(n)); whole != sum {
					t.Errorf("%s view %d track %d: columns sum to %v, range has %v", name, vi, ti, sum, whole)
				}
			}
			for c := range m.HECs {
				h := &m.HECs[c]
				ic := h.InstantColumns(ax, n, nil)
				total := 0
				for _, col := range ic {
					total += int(col.Count)
				}
				if want := h.CountInstants(ax.From, ax.ColumnTime(n)); total != want {
					t.Errorf("%s view %d HEC %d: %d instants in columns, %d in range", name, vi, c, total, want)
				}
				for k := SparkKind(0); k < NumSparkKinds; k++ {
					sc := h.SparkColumns(ax, n, k, nil)
					s := 0
					for _, v := range sc {
						s += int(v)
					}
					if want := h.Sparks(k, ax.From, ax.ColumnTime(n)); s != want {
						t.Errorf("%s view %d HEC %d: %d %v sparks in columns, %d in range", name, vi, c, s, k, want)
					}
				}
			}
			for i, a := range m.Activity(ax, n) {
				d := ax.ColumnTime(i+1) - ax.ColumnTime(i)
				if a.Running+a.GC > a.Known || a.Known+a.Unknown > uint64(len(m.HECs))*d {
					t.Fatalf("%s column %d: activity %+v out of %d HECs × %d ns", name, i, a, len(m.HECs), d)
				}
			}
		}
	}
}

// bigLog returns the ≥100 MB eventlog, or skips.
func bigLog(b *testing.B) string {
	const p = "/tmp/hecscope-gen/big.eventlog"
	if _, err := os.Stat(p); err != nil {
		b.Skip("no big eventlog at " + p)
	}
	return p
}

var bigModel *Model

func loadBig(b *testing.B) *Model {
	if bigModel == nil {
		bigModel, _ = buildQuiet(b, bigLog(b))
	}
	return bigModel
}

func buildQuiet(b testing.TB, path string) (*Model, int64) {
	f, err := ingestOpen(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	bl := NewOverviewBuilder(Grid{})
	for f.Next(&evScratch) {
		bl.Add(&evScratch)
	}
	bl.Finish()
	return bl.Snapshot(), f.Size
}

// benchColumns measures all HEC rows plus 64 thread rows at 1920 columns.
func benchColumns(b *testing.B, window func(m *Model) Axis) {
	m := loadBig(b)
	ax := window(m)
	var cols []Column
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for c := range m.HECs {
			cols = m.HECs[c].Track.Columns(ax, 1920, cols)
		}
		for t := 0; t < 64 && t < m.NumThreads(); t++ {
			cols = new(m.Thread(t).Track).Columns(ax, 1920, cols)
		}
	}
}

func BenchmarkColumnsWholeRun(b *testing.B) {
	benchColumns(b, func(m *Model) Axis { return NewAxis(0, m.End, 0, 1920) })
}

func BenchmarkColumns1ms(b *testing.B) {
	benchColumns(b, func(m *Model) Axis { return NewAxis(m.End/2, m.End/2+1e6, 0, 1920) })
}

// BenchmarkColumnsNaiveWholeRun is the alternative the query replaces:
// visiting every mark of the view and adding it to its columns (what a
// renderer merging sub-pixel spans does), for the HEC rows only.
func BenchmarkColumnsNaiveWholeRun(b *testing.B) {
	m := loadBig(b)
	ax := NewAxis(0, m.End, 0, 1920)
	out := make([]Durations, 1920)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for c := range m.HECs {
			tr := &m.HECs[c].Track
			for j := 0; j < tr.Len(); j++ {
				mk := tr.marks.ptr(j)
				end := tr.end
				if j+1 < tr.Len() {
					end = tr.marks.ptr(j + 1).Time
				}
				x := int(ax.X(mk.Time))
				if x >= 0 && x < 1920 {
					out[x][mk.State] += end - mk.Time
				}
			}
		}
	}
}
