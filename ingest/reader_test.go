package ingest

import (
	"fmt"
	"io"
)

// readAll decodes a whole stream and calls fn for every event. It stops early
// if fn returns an error, and returns that error wrapped.
func readAll(src io.Reader, fn func(*Event) error) (*Header, Status, error) {
	r := NewReader(src)
	var ev Event
	for r.Next(&ev) {
		if err := fn(&ev); err != nil {
			return r.Header(), r.Status(), fmt.Errorf("event at byte %d: %w", ev.Offset, err)
		}
	}
	return r.Header(), r.Status(), r.Err()
}
