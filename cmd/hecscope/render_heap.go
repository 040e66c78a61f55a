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

// renderHeapView draws the heap chart of the eventlog or .hp file at path.
// A truncated input is drawn with a notice; a corrupt eventlog is an error,
// as for the timeline views.
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
	c := heapview.Chart{Heap: d.Heap, Mode: mode, From: o.from, To: o.to, Dark: o.dark}
	title := filepath.Base(path)
	if p := d.Profile; p != nil {
		c.Bands = heapview.NewBands(p, heapview.BandOptions{Max: o.bands, Order: order})
		title += fmt.Sprintf(" — heap by %s, %d censuses", heapview.BreakdownName(p.Breakdown), p.Len())
		if p.Source == heapview.FromHP {
			title = filepath.Base(path) + fmt.Sprintf(" — heap profile (.hp), %d censuses", p.Len())
		}
	} else {
		title += " — heap (no heap profile in this file)"
	}
	c.Title = title
	img, err := c.Render(o.width, o.height)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return img, nil
}
