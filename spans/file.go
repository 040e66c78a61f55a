package spans

import (
	"context"
	"fmt"
	"io"

	"github.com/hecscope/hecscope/ingest"
)

// File measures the spans of the eventlog at path (see Collect).
func File(ctx context.Context, path string, opt Options) (*Report, error) {
	return Collect(ingest.FilePass(ctx, path), opt)
}

// Read measures the spans of the eventlog in r (size bytes) (see Collect).
func Read(ctx context.Context, r io.ReaderAt, size int64, opt Options) (*Report, error) {
	return Collect(ingest.ReaderPass(ctx, r, size), opt)
}

// Collect measures the spans of the events pass hands out in time order:
// its memory follows the number of labels and of spans open at once, not
// the log's size. A truncated or corrupt log is measured up to the damage
// (Report.Status says where); an error means the log could not be read at
// all, or the pass was cancelled.
func Collect(pass ingest.Pass, opt Options) (*Report, error) {
	c := NewCollector(opt)
	st, err := pass.Feed(c)
	if err != nil {
		return nil, fmt.Errorf("measuring spans: %w", err)
	}
	rep := c.Report()
	rep.Status = st
	return rep, nil
}
