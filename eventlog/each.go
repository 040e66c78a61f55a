package eventlog

import (
	"context"
	"errors"
	"fmt"

	"github.com/hecscope/hecscope/ingest"
)

// Each calls fn with the log's events as opt selects them (Sorted for time
// order), reading them again from the file through the log's index, until
// fn returns false or they end: the way for an analysis (span statistics,
// a cost-centre profile, an export) to pass over a log already open without
// indexing it again. It returns how the data section ends, as ingest.Each
// (offsets counted from the start of the file).
func (r *Log) Each(ctx context.Context, opt ingest.MergeOptions, fn func(*ingest.Event) bool) (ingest.Status, error) {
	ix := r.ix()
	if ix == nil || r.closed.Load() {
		return ingest.Status{}, errors.New("reading " + r.Path + ": no events (a .hp heap profile, or closed)")
	}
	st, err := ingest.EachIndexed(ctx, r.data, ix, opt, fn)
	st.Offset += r.base
	if err != nil {
		return st, fmt.Errorf("reading %s: %w", r.Path, err)
	}
	return st, nil
}

// Pass is a time-ordered pass over the log's events through its index (see
// Each): what the app's analyses read an open log with.
func (r *Log) Pass(ctx context.Context) ingest.Pass {
	return func(fn func(*ingest.Event) bool) (ingest.Status, error) {
		return r.Each(ctx, ingest.MergeOptions{Sorted: true}, fn)
	}
}
