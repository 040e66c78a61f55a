package spans

import (
	"context"
	"fmt"
	"io"

	"github.com/hecscope/hecscope/ingest"
)

// File measures the spans of the eventlog at path (see Read).
func File(ctx context.Context, path string, opt Options) (*Report, error) {
	c := NewCollector(opt)
	st, err := ingest.EachFile(ctx, path, ingest.MergeOptions{Sorted: true}, collect(c))
	if err != nil {
		return nil, fmt.Errorf("measuring spans: %w", err)
	}
	return report(c, st), nil
}

// Read measures the spans of the eventlog in r (size bytes), streaming its
// events in time order: its memory follows the number of labels and of
// spans open at once, not the log's size. A truncated or corrupt log is
// measured up to the damage (Report.Status says where); an error means the
// log could not be read at all, or ctx was cancelled.
func Read(ctx context.Context, r io.ReaderAt, size int64, opt Options) (*Report, error) {
	c := NewCollector(opt)
	st, err := ingest.Each(ctx, r, size, ingest.MergeOptions{Sorted: true}, collect(c))
	if err != nil {
		return nil, fmt.Errorf("measuring spans: %w", err)
	}
	return report(c, st), nil
}

// collect feeds c each event, until c needs no more.
func collect(c *Collector) func(*ingest.Event) bool {
	return func(ev *ingest.Event) bool {
		c.Add(ev)
		return !c.Done()
	}
}

// report is c's report of a log that ended as st says.
func report(c *Collector, st ingest.Status) *Report {
	rep := c.Report()
	rep.Status = st
	return rep
}
