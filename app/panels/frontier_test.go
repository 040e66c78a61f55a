package panels

import (
	"strings"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// TestRangeRowsSayNoData: the Selection tab's table of a cut run gives
// the time past each HEC's frontier as "No data" and the shares of the
// time known, not counting it idle; a complete run's table has no such
// column.
func TestRangeRowsSayNoData(t *testing.T) {
	model := func(cut bool) *timeline.Model {
		b := timeline.NewOverviewBuilder(timeline.Grid{})
		add := func(tm uint64, c int32, k ingest.Kind, args ...uint64) {
			ev := ingest.Event{Time: tm, Cap: c, Kind: k}
			copy(ev.Args[:], args)
			b.Add(&ev)
		}
		add(0, 0, ingest.KindRunThread, 1)
		add(100, 1, ingest.KindRunThread, 2)
		add(200, 1, ingest.KindStopThread, 2, 3)
		add(1000, 0, ingest.KindStopThread, 1, 3)
		if cut {
			b.EndCapabilities(b.Frontiers())
		}
		b.Finish()
		return b.Snapshot()
	}
	rows := rangeRows(model(true), 0, 1000)
	want := [][]string{
		{"HEC", "Running", "In GC", "Idle", "Running %", "In GC %", "No data"},
		{"0", "1 µs", "0", "0", "100.0%", "0.0%", "0"},
		{"1", "100 ns", "0", "100 ns", "50.0%", "0.0%", "800 ns"},
		{"All", "1.1 µs", "0", "100 ns", "91.7%", "0.0%", "800 ns"},
	}
	if got, w := rowsText(rows), rowsText(want); got != w {
		t.Errorf("cut run's table:\n%s\nwant\n%s", got, w)
	}
	if rows := rangeRows(model(false), 0, 1000); len(rows[0]) != 6 || rows[2][3] != "900 ns" {
		t.Errorf("complete run's table: %v", rows)
	}
}

func rowsText(rows [][]string) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.Join(r, " | ") + "\n")
	}
	return b.String()
}
