package spans

import (
	"fmt"

	"github.com/hecscope/hecscope/ingest"
)

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
