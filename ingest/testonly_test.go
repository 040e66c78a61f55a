package ingest

import (
	"fmt"
	"io"
	"os"
	"slices"
)

// Functions only the tests use.

// Labels returns the distinct entry labels of the profile in order of first
// appearance.
func (p *HeapProfile) Labels() []string {
	seen := make(map[string]struct{})
	var out []string
	for _, s := range p.Samples {
		for _, e := range s.Entries {
			if _, ok := seen[e.Label]; !ok {
				seen[e.Label] = struct{}{}
				out = append(out, e.Label)
			}
		}
	}
	return out
}

// ReadHeapProfileFile opens the named file and parses it with
// ParseHeapProfile. Errors name the file.
func ReadHeapProfileFile(path string) (*HeapProfile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("hp: %w", err)
	}
	defer f.Close()
	size := 64 << 10
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = hpBufferSize(fi.Size())
	}
	p, err := parseHeapProfile(f, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Ended reports whether the stream last read has ended and no other is
// being read, and how it ended.
func (r *Relay) Ended() (Status, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.reading != nil || r.cur == nil {
		return Status{}, false
	}
	return r.cur.status, r.cur.ended
}

// Forgotten returns how many live threads were forgotten to stay within
// the budget.
func (r *Replay) Forgotten() int { return r.forgotten }

// Events returns how many events Prefix would replay (block markers and the
// join mark not counted).
func (r *Replay) Events() int { return len(r.events) - r.gone }

// WriteShow writes the document `ghc-events show` prints to its standard
// output for a log with header h and the given events: the event types, then
// the events stable-sorted by timestamp, then the blank line its final
// newline makes. events itself is not reordered.
func WriteShow(w io.Writer, h *Header, events []Event) error {
	order := make([]int, len(events))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		if c := cmpUint(events[i].Time, events[j].Time); c != 0 {
			return c
		}
		return i - j
	})
	sw := newShowWriter(w, h)
	for _, i := range order {
		sw.event(&events[i])
	}
	return sw.finish()
}

// Len returns the number of events collected.
func (b *ShowBuffer) Len() int { return b.n }

// Skim is SkimFile over the eventlog held in data. The events' Data and
// Raw alias data, which must not change while Skim runs.
func Skim(data []byte, sel Selection, fn func(*Event)) SkimResult {
	r, _ := skim(source{data: data, size: int64(len(data))}, sel, fn)
	return r
}
