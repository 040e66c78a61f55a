package eventlog

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/spans"
)

// TestUserSpansAgreeWithSpans: the loaded model pairs START and STOP as
// package spans (the Spans tab, `hecscope spans`) does, per thread and
// nested: each user label's count, total, shortest, longest and unmatched
// STOPs are the same. userheavy-N2's two threads are in spans of the same
// labels, and HECSCOPE_SPANS_LOG names a log to check besides (a big one:
// user170's two threads are in spans of the same label at once, where a
// STOP closing the other thread's START shows).
func TestUserSpansAgreeWithSpans(t *testing.T) {
	var paths []string
	for _, g := range []string{"../testdata/ghc-9.0.2/*.eventlog", "../../shared/corpus/public/*.eventlog", os.Getenv("HECSCOPE_SPANS_LOG")} {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	labelled := 0
	for _, path := range paths {
		r, err := Open(context.Background(), path, Options{})
		if err != nil {
			continue // damaged beyond loading: other tests say so
		}
		m := r.Overview()
		rep, err := spans.Collect(ingest.FilePass(context.Background(), path), spans.Options{})
		r.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, s := range m.Labels {
			name := m.String(s.Label)
			l := rep.Label(spans.User, name)
			if l == nil {
				t.Errorf("%s: label %q in the model, not in the spans report", path, name)
				continue
			}
			labelled++
			if s.Count != l.Count || s.Total != l.Total || s.Count > 0 && (s.Min != l.Min || s.Max != l.Max) || s.Unmatched != l.Unmatched {
				t.Errorf("%s: label %q: model %d spans, %d ns in all, %d–%d ns, %d unmatched; spans %d, %d ns, %d–%d ns, %d unmatched",
					path, name, s.Count, s.Total, s.Min, s.Max, s.Unmatched, l.Count, l.Total, l.Min, l.Max, l.Unmatched)
			}
		}
	}
	if labelled == 0 {
		t.Fatal("no user span labels in the logs: the test proves nothing")
	}
}
