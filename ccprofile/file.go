package ccprofile

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/hecscope/hecscope/ingest"
)

// File profiles the eventlog at path (see Read).
func File(ctx context.Context, path string, opt Options) (*Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("profiling: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("profiling: %w", err)
	}
	p, err := Read(ctx, f, st.Size(), opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// checkEvery is how many events pass between two looks at the context.
const checkEvery = 1 << 14

// Read profiles the eventlog in r (size bytes), streaming its events in time
// order: its memory follows the number of cost-centre stacks, not the log's
// size. A truncated or corrupt log is profiled up to the damage
// (Profile.Status says where); an error means the log could not be read at
// all, or ctx was cancelled. A log without time profile samples gives a
// profile of 0 samples.
func Read(ctx context.Context, r io.ReaderAt, size int64, opt Options) (*Profile, error) {
	ix, err := ingest.NewIndex(r, size)
	if err != nil {
		return nil, fmt.Errorf("profiling: %w", err)
	}
	m := ingest.NewMerge(r, ix, ingest.MergeOptions{Sorted: true})
	defer m.Close()
	c := NewCollector(opt)
	ended := false
	for n := 0; ; n++ {
		if n%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("profiling: %w", err)
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
		return nil, fmt.Errorf("profiling: %w", err)
	}
	rep := c.Profile()
	rep.Status = ix.Status
	if ended {
		rep.Status = m.Status()
	}
	return rep, nil
}
