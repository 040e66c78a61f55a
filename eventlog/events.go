package eventlog

import (
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/timeline"
)

// listBuckets is how many buckets the event list cuts the run into: each
// holds the number of events with a time in it, so that any row is found
// by decoding one bucket's pieces.
const listBuckets = 1 << 16

// maxListBuckets bounds the buckets of the event list. A grid is no wider
// than 2^32 ns a bucket, so a run's end far off (a block marker declaring
// an absurd end time: a corrupt one) would otherwise cost billions of
// buckets, in every capability's stream; the last bucket holds whatever
// lies past the bound (2^20 buckets: 52 days at the widest).
const maxListBuckets = 1 << 20

// listBucketsTo returns how many buckets of grid g the event list keeps for
// a run ending at end.
func listBucketsTo(g timeline.Grid, end uint64) int { return min(g.Buckets(end), maxListBuckets) }

// Events is every event of a log, block markers included, in the order
// `ghc-events show` prints them (by time, ties in file order), read from
// the file when asked for. It keeps only a count of events per bucket of
// time (a few hundred KB whatever the log's size) and the rows of the last
// buckets read. It is safe for concurrent use.
type Events struct {
	log    *Log
	grid   timeline.Grid
	before []int64 // before[b]: the rows in buckets before b; before[len-1] is the total

	mu    sync.Mutex
	cache []*eventBucket // most recent first
}

// eventBucket is the rows of the buckets [b, end), decoded.
type eventBucket struct {
	b, end int
	rows   []ingest.Event
}

// spanRows is about how many rows Events decodes at a time: buckets are
// read together until they hold this many (a busy bucket alone may hold
// more).
const spanRows = 1 << 14

// keptBuckets is how many decoded buckets Events keeps.
const keptBuckets = 4

// newEvents makes the event list from the number of events per bucket of
// grid g.
func newEvents(l *Log, g timeline.Grid, buckets []uint32) *Events {
	e := &Events{log: l, grid: g, before: make([]int64, len(buckets)+1)}
	for b, n := range buckets {
		e.before[b+1] = e.before[b] + int64(n)
	}
	return e
}

// EventList returns the log's event list (nil for a .hp heap profile).
func (r *Log) EventList() *Events { return r.events }

// Len returns the number of events.
func (e *Events) Len() int64 { return e.before[len(e.before)-1] }

// bucketOf returns the bucket holding row i.
func (e *Events) bucketOf(i int64) int {
	return sort.Search(len(e.before)-1, func(b int) bool { return e.before[b+1] > i })
}

// span returns the times bucket b covers (the last one reaches to the end
// of time, as events later than the run's span are counted in it).
func (e *Events) span(b int) (from, to uint64) {
	from = e.grid.Start(b)
	if b == len(e.before)-2 {
		return from, math.MaxUint64
	}
	return from, e.grid.Start(b+1) - 1
}

// rows returns the decoded rows of a span of buckets holding bucket b,
// and the first bucket of the span. The span reaches forward from b, or
// backward when back is set (a scan in reverse).
func (e *Events) rows(b int, back bool) ([]ingest.Event, int, error) {
	e.mu.Lock()
	for i, c := range e.cache {
		if c.b <= b && b < c.end {
			copy(e.cache[1:i+1], e.cache[:i])
			e.cache[0] = c
			e.mu.Unlock()
			return c.rows, c.b, nil
		}
	}
	e.mu.Unlock()
	nb := len(e.before) - 1
	b0, b1 := b, b+1
	if back {
		for b0 > 0 && e.before[b1]-e.before[b0] < spanRows {
			b0--
		}
	} else {
		for b1 < nb && e.before[b1]-e.before[b0] < spanRows {
			b1++
		}
	}
	from, _ := e.span(b0)
	_, to := e.span(b1 - 1)
	want := e.before[b1] - e.before[b0]
	rows := make([]ingest.Event, 0, want)
	m := ingest.NewMerge(e.log.data, e.log.ix(), ingest.MergeOptions{From: from, To: to, Sorted: true})
	for ev := m.Next(); ev != nil; ev = m.Next() {
		rows = append(rows, ev.Clone())
	}
	if err := m.Err(); err != nil {
		return nil, 0, fmt.Errorf("reading events: %w", err)
	}
	if int64(len(rows)) != want {
		return nil, 0, fmt.Errorf("reading events: %d events in [%d, %d], %d when the log was loaded (did the file change?)", len(rows), from, to, want)
	}
	e.mu.Lock()
	e.cache = append([]*eventBucket{{b: b0, end: b1, rows: rows}}, e.cache...)
	if len(e.cache) > keptBuckets {
		e.cache = e.cache[:keptBuckets]
	}
	e.mu.Unlock()
	return rows, b0, nil
}

// Get returns row i (0 ≤ i < Len); its Data and Raw are its own.
func (e *Events) Get(i int64) (ingest.Event, error) {
	if i < 0 || i >= e.Len() {
		return ingest.Event{}, fmt.Errorf("event %d of %d", i, e.Len())
	}
	rows, b0, err := e.rows(e.bucketOf(i), false)
	if err != nil {
		return ingest.Event{}, err
	}
	return rows[i-e.before[b0]], nil
}

// Search returns the first row at or after time t (Len if none).
func (e *Events) Search(t uint64) (int64, error) {
	b := min(e.grid.Bucket(t), len(e.before)-2)
	rows, b0, err := e.rows(b, false)
	if err != nil {
		return 0, err
	}
	k := sort.Search(len(rows), func(k int) bool { return rows[k].Time >= t })
	return e.before[b0] + int64(k), nil
}

// Scan calls fn with the rows from row i on, in order (forward) or in
// reverse, until fn returns false or the rows run out. A search goes
// through the whole log this way, a bucket at a time.
func (e *Events) Scan(i int64, forward bool, fn func(i int64, ev *ingest.Event) bool) error {
	n := e.Len()
	if n == 0 || (forward && i >= n) || (!forward && i < 0) {
		return nil
	}
	i = min(max(i, 0), n-1)
	step := 1
	if !forward {
		step = -1
	}
	for b := e.bucketOf(i); b >= 0 && b < len(e.before)-1; {
		if e.before[b+1] == e.before[b] {
			b += step
			continue
		}
		rows, b0, err := e.rows(b, !forward)
		if err != nil {
			return err
		}
		k := int(i - e.before[b0])
		if i < e.before[b0] || i >= e.before[b0]+int64(len(rows)) {
			// A span after the first: from its first (or last) row.
			k = 0
			if !forward {
				k = len(rows) - 1
			}
		}
		for ; k >= 0 && k < len(rows); k += step {
			if !fn(e.before[b0]+int64(k), &rows[k]) {
				return nil
			}
		}
		// The next bucket outside the span.
		if forward {
			b = e.bucketOf(e.before[b0] + int64(len(rows)))
		} else {
			b = b0 - 1
		}
		if forward && e.before[b0]+int64(len(rows)) >= e.Len() {
			break
		}
	}
	return nil
}
