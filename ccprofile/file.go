package ccprofile

import (
	"context"
	"fmt"
	"io"

	"github.com/hecscope/hecscope/ingest"
)

// File profiles the eventlog at path (see Read).
func File(ctx context.Context, path string, opt Options) (*Profile, error) {
	c := NewCollector(opt)
	st, err := ingest.EachFile(ctx, path, ingest.MergeOptions{Sorted: true}, collect(c))
	if err != nil {
		return nil, fmt.Errorf("profiling: %w", err)
	}
	return profile(c, st), nil
}

// Read profiles the eventlog in r (size bytes), streaming its events in time
// order: its memory follows the number of cost-centre stacks, not the log's
// size. A truncated or corrupt log is profiled up to the damage
// (Profile.Status says where); an error means the log could not be read at
// all, or ctx was cancelled. A log without time profile samples gives a
// profile of 0 samples.
func Read(ctx context.Context, r io.ReaderAt, size int64, opt Options) (*Profile, error) {
	c := NewCollector(opt)
	st, err := ingest.Each(ctx, r, size, ingest.MergeOptions{Sorted: true}, collect(c))
	if err != nil {
		return nil, fmt.Errorf("profiling: %w", err)
	}
	return profile(c, st), nil
}

// collect feeds c each event, until c needs no more.
func collect(c *Collector) func(*ingest.Event) bool {
	return func(ev *ingest.Event) bool {
		c.Add(ev)
		return !c.Done()
	}
}

// profile is c's profile of a log that ended as st says.
func profile(c *Collector, st ingest.Status) *Profile {
	p := c.Profile()
	p.Status = st
	return p
}
