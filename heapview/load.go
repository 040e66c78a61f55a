package heapview

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/hecscope/hecscope/ingest"
)

// Data is everything heapview takes from one input file.
type Data struct {
	// Heap holds the RTS's heap counters and GCs; empty for a .hp file.
	Heap *Heap
	// Profile holds the heap-profile samples; nil if there are none.
	Profile *Profile
	// Status says how the eventlog ended (complete, truncated, corrupt);
	// for a .hp file it is StateComplete, or StateTruncated if the file
	// was cut off.
	Status ingest.Status
}

// ReadEventlog decodes a whole eventlog from r. A truncated or corrupt log
// is not an error: the events before the problem are used and Status says
// what happened. Errors come only from reading r.
func ReadEventlog(r io.Reader) (*Data, error) {
	c := NewCollector()
	rd := ingest.NewReader(r)
	var ev ingest.Event
	for rd.Next(&ev) {
		c.Add(&ev)
	}
	if err := rd.Err(); err != nil {
		return nil, fmt.Errorf("heapview: %w", err)
	}
	h, p := c.Result()
	return &Data{Heap: h, Profile: p, Status: rd.Status()}, nil
}

// ReadHeapProfile parses a textual .hp heap profile from r.
func ReadHeapProfile(r io.Reader) (*Data, error) {
	hp, err := ingest.ParseHeapProfile(r)
	if err != nil {
		return nil, fmt.Errorf("heapview: %w", err)
	}
	return fromHP(hp)
}

func fromHP(hp *ingest.HeapProfile) (*Data, error) {
	p, err := FromHeapProfile(hp)
	if err != nil {
		return nil, fmt.Errorf("heapview: %w", err)
	}
	d := &Data{Heap: &Heap{}, Status: ingest.Status{State: ingest.StateComplete}}
	if hp.Truncated {
		d.Status.State = ingest.StateTruncated
	}
	if p.Len() > 0 {
		d.Profile = p
	}
	return d, nil
}

// eventlogMagic is how every eventlog starts (EVENT_HEADER_BEGIN, "hdrb").
var eventlogMagic = []byte("hdrb")

// ReadFile reads an eventlog or a .hp file, telling them apart by their
// first bytes (an eventlog starts with "hdrb"). Errors name the file. A
// .hp file gives an empty Heap: the RTS counters are only in eventlogs.
func ReadFile(path string) (*Data, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("heapview: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	head, _ := br.Peek(len(eventlogMagic))
	var d *Data
	if bytes.Equal(head, eventlogMagic) {
		d, err = ReadEventlog(br)
	} else if d, err = ReadHeapProfile(br); err != nil {
		err = fmt.Errorf("not an eventlog (no \"hdrb\" header), and as a .hp file: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}
