package loaded

import (
	"context"
	"errors"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/hecscope/hecscope/eventlog"
)

func TestProgress(t *testing.T) {
	p := Progress{Bytes: 25_000_000, Total: 100_000_000, events: 3_000_000, elapsed: 1500 * time.Millisecond}
	if f := p.Fraction(); f != 0.25 {
		t.Errorf("Fraction = %g", f)
	}
	if r := p.EventsPerSecond(); r != 2e6 {
		t.Errorf("EventsPerSecond = %g", r)
	}
	if s, want := p.String(), "23.8 MiB of 95.4 MiB · 3 M events · 2 M events/s"; s != want {
		t.Errorf("String = %q, want %q", s, want)
	}
	if (Progress{}).Fraction() != 0 || (Progress{}).EventsPerSecond() != 0 {
		t.Error("empty progress is not zero")
	}
}

// TestLoadReportsProgress loads a log of more than 4096 events with a
// report: the last report is of the whole file and every event, some
// report carries a partial model, and a cancelled load fails as such.
func TestLoadReportsProgress(t *testing.T) {
	path := "../../testdata/corpus/ghc-events-history__warshall0-trace-7.8.2_8.eventlog"
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var reports []Progress
	ev, err := LoadEventlog(context.Background(), path, eventlog.Options{}, func(p Progress) { reports = append(reports, p) })
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Log.Close()
	if len(reports) == 0 {
		t.Fatal("no progress reports")
	}
	last := reports[len(reports)-1]
	if last.Bytes != st.Size() || last.Total != st.Size() || last.events != ev.Events || last.Fraction() != 1 {
		t.Errorf("last report %+v (%d bytes, %d of %d, fraction %g) for %d bytes, %d events", last, last.Bytes, last.events, last.Total, last.Fraction(), st.Size(), ev.Events)
	}
	if !slices.ContainsFunc(reports, func(p Progress) bool { return p.Model != nil && p.Model.End > 0 }) {
		t.Error("no report has a partial model")
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := LoadEventlog(ctx, path, eventlog.Options{}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled load: %v", err)
	}
}
