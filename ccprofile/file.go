package ccprofile

import (
	"fmt"

	"github.com/hecscope/hecscope/ingest"
)

// Collect profiles the events pass hands out in time order: its memory
// follows the number of cost-centre stacks, not the log's size. A
// truncated or corrupt log is profiled up to the damage (Profile.Status
// says where); an error means the log could not be read at all, or the
// pass was cancelled. A log without time profile samples gives a profile
// of 0 samples.
func Collect(pass ingest.Pass, opt Options) (*Profile, error) {
	c := NewCollector(opt)
	st, err := pass.Feed(c)
	if err != nil {
		return nil, fmt.Errorf("profiling: %w", err)
	}
	p := c.Profile()
	p.Status = st
	return p, nil
}
