package spans

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/hecscope/hecscope/ingest"
)

// File measures the spans of the eventlog at path (see Read).
func File(ctx context.Context, path string, opt Options) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("measuring spans: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("measuring spans: %w", err)
	}
	r, err := Read(ctx, f, st.Size(), opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// checkEvery is how many events pass between two looks at the context.
const checkEvery = 1 << 14

// Read measures the spans of the eventlog in r (size bytes), streaming its
// events in time order: its memory follows the number of labels and of
// spans open at once, not the log's size. A truncated or corrupt log is
// measured up to the damage (Report.Status says where); an error means the
// log could not be read at all, or ctx was cancelled.
func Read(ctx context.Context, r io.ReaderAt, size int64, opt Options) (*Report, error) {
	ix, err := ingest.NewIndex(r, size)
	if err != nil {
		return nil, fmt.Errorf("measuring spans: %w", err)
	}
	m := ingest.NewMerge(r, ix, ingest.MergeOptions{Sorted: true})
	defer m.Close()
	c := NewCollector(opt)
	ended := false
	for n := 0; ; n++ {
		if n%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("measuring spans: %w", err)
			}
			if c.Done() {
				break
			}
		}
		ev := m.Next()
		if ev == nil {
			ended = true
			break
		}
		c.Add(ev)
	}
	if err := m.Err(); err != nil {
		return nil, fmt.Errorf("measuring spans: %w", err)
	}
	rep := c.Report()
	rep.Status = ix.Status
	if ended {
		rep.Status = m.Status()
	}
	return rep, nil
}
