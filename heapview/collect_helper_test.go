package heapview

import (
	"bytes"
	"io"
	"os"

	"github.com/hecscope/hecscope/ingest"
)

// collected is what a Collector made of a whole eventlog.
type collected struct {
	Heap    *Heap
	Profile *Profile
	Status  ingest.Status
}

// collect feeds every event of the eventlog in r to a Collector (the
// loader, package eventlog, does the same for the events Wants).
func collect(r io.Reader) (*collected, error) {
	c := NewCollector()
	rd := ingest.NewReader(r)
	var ev ingest.Event
	for rd.Next(&ev) {
		c.Add(&ev)
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	h, p := c.Result()
	return &collected{Heap: h, Profile: p, Status: rd.Status()}, nil
}

// readFile reads an eventlog (through collect) or a .hp file (through
// FromHeapProfile), as the loader does.
func readFile(path string) (*collected, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(data, []byte("hdrbhetb")) {
		return collect(bytes.NewReader(data))
	}
	hp, err := ingest.ParseHeapProfile(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	p, err := FromHeapProfile(hp)
	if err != nil {
		return nil, err
	}
	d := &collected{Heap: &Heap{}, Status: ingest.Status{State: ingest.StateComplete}}
	if p.Len() > 0 {
		d.Profile = p
	}
	if hp.Truncated {
		d.Status.State = ingest.StateTruncated
	}
	return d, nil
}
