package main

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"

	"github.com/hecscope/hecscope/eventlog"
	"github.com/hecscope/hecscope/heapview"
	"github.com/hecscope/hecscope/ingest"
	"github.com/hecscope/hecscope/tracks"
)

// The heap view: `hecscope render FILE --view heap [--mode area|normalised|lines]
// [--bands N] [--sort size|name|growth]`, for an eventlog or a .hp file.
func init() {
	renderViews["heap"] = renderHeapView
}

// parseOrder reads a --sort value.
func parseOrder(s string) (heapview.Order, error) {
	switch strings.ToLower(s) {
	case "", "size":
		return heapview.BySize, nil
	case "name":
		return heapview.ByName, nil
	case "growth":
		return heapview.ByGrowth, nil
	}
	return 0, fmt.Errorf("unknown --sort %q (want size, name or growth)", s)
}

// renderHeapView draws the heap of the eventlog or .hp file at path as the
// window's heap tracks draw it (tracks.View, without a run): the heap
// counters, the allocation rate, the heap profile's bands with their
// legend beside them, and the GC pauses, filling the picture. A truncated
// input is drawn with a notice; a corrupt eventlog is an error, as for the
// timeline views.
func renderHeapView(path string, o renderOptions) (*image.RGBA, error) {
	mode, err := heapview.ParseMode(o.mode)
	if err != nil {
		return nil, err
	}
	order, err := parseOrder(o.sort)
	if err != nil {
		return nil, err
	}
	if o.bands < 0 {
		return nil, fmt.Errorf("--bands %d: must be at least 1", o.bands)
	}
	d, err := eventlog.Open(context.Background(), path, eventlog.Options{NoSummary: true, NoTimeline: true, NoEventList: true, Segment: o.part.index})
	if err != nil {
		return nil, err
	}
	d.Close()
	switch st := d.Status; st.State {
	case ingest.StateCorrupt:
		return nil, fmt.Errorf("%s: %s", path, st)
	case ingest.StateTruncated:
		fmt.Fprintf(os.Stderr, "hecscope: %s: %s; rendering what is there\n", path, st)
	}
	v := tracks.New(nil)
	v.SetBandLimit(o.bands)
	v.SetBandOrder(order)
	v.SetBandMode(mode)
	v.SetHeap(d.Heap, d.Profile)
	if len(v.Tracks()) == 0 {
		return noEventsPicture(filepath.Base(path)+": no heap data (no heap profile, no heap counters)", o), nil
	}
	v.SetSize(o.width, o.height, max(o.scale, 0.1))
	v.SetDark(o.dark)
	v.SetCaption(filepath.Base(path), v.Theme().Text)
	if o.to != 0 || o.from != 0 {
		to := o.to
		if to == 0 {
			_, to = v.Range()
		}
		v.SetRange(o.from, to)
	}
	v.FitTracks()
	return v.Render(), nil
}
