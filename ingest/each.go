package ingest

import (
	"context"
	"fmt"
	"io"
	"os"
)

// eachCheckEvery is how many events Each hands out between two looks at
// its context.
const eachCheckEvery = 1 << 14

// Each reads the eventlog in r (size bytes) and calls fn with each of its
// events as opt selects them (MergeOptions; Sorted for time order), until fn
// returns false or the events end. The event is valid only during the call.
// Memory follows the merge's batches, not the log's size. It returns how
// the data section ends (the whole log's status if every event was read,
// else the index's, since not all was looked at); a truncated or corrupt log
// is read up to the damage and is no error. The error says why the log
// could not be read at all, or that ctx was cancelled.
func Each(ctx context.Context, r io.ReaderAt, size int64, opt MergeOptions, fn func(*Event) bool) (Status, error) {
	ix, err := NewIndex(r, size)
	if err != nil {
		return Status{}, err
	}
	return EachIndexed(ctx, r, ix, opt, fn)
}

// EachIndexed is Each over a log already indexed (ix).
func EachIndexed(ctx context.Context, r io.ReaderAt, ix *Index, opt MergeOptions, fn func(*Event) bool) (Status, error) {
	m := NewMerge(r, ix, opt)
	defer m.Close()
	for n := 0; ; n++ {
		if n%eachCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return ix.Status, err
			}
		}
		ev := m.Next()
		if ev == nil {
			break
		}
		if !fn(ev) {
			if err := m.Err(); err != nil {
				return ix.Status, err
			}
			return ix.Status, nil
		}
	}
	if err := m.Err(); err != nil {
		return ix.Status, err
	}
	return m.Status(), nil
}

// EachFile is Each over the file at path; errors name the file.
func EachFile(ctx context.Context, path string, opt MergeOptions, fn func(*Event) bool) (Status, error) {
	f, err := os.Open(path)
	if err != nil {
		return Status{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Status{}, err
	}
	s, err := Each(ctx, f, st.Size(), opt, fn)
	if err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Pass is one time-ordered pass over a log's events: it calls fn with each
// until fn returns false or they end, and returns how the data section
// ends, as Each does. FilePass makes one over a file; an open
// eventlog.Log makes one over its file without indexing it again.
type Pass func(fn func(*Event) bool) (Status, error)

// FilePass is a time-ordered pass over the eventlog file at path.
func FilePass(ctx context.Context, path string) Pass {
	return func(fn func(*Event) bool) (Status, error) {
		return EachFile(ctx, path, MergeOptions{Sorted: true}, fn)
	}
}

// ReaderPass is a time-ordered pass over the eventlog in r (size bytes).
func ReaderPass(ctx context.Context, r io.ReaderAt, size int64) Pass {
	return func(fn func(*Event) bool) (Status, error) {
		return Each(ctx, r, size, MergeOptions{Sorted: true}, fn)
	}
}

// A Consumer takes events one at a time until it has what it needs.
type Consumer interface {
	Add(ev *Event)
	Done() bool
}

// Feed hands the events of pass to c until c is done or the pass ends,
// and returns how the pass ended.
func (pass Pass) Feed(c Consumer) (Status, error) {
	return pass(func(ev *Event) bool {
		c.Add(ev)
		return !c.Done()
	})
}
