// Package tracks is the track view: one object, View, that lays out,
// draws and hit-tests every track of a run under one time axis, without
// Fyne. A host (the app's widget) forwards input to it and shows what it
// draws; it never computes geometry of its own.
//
// # Tracks and groups
//
// Tracks come in collapsible groups, in this order: Activity (the whole
// run's utilisation graph, GC as its own layer, then each HEC's), HECs
// (each HEC's states, the running thread's id on wide spans, instant
// events as ticks), GC (pauses), Heap (size, live data, blocks,
// allocation rate, heap-profile bands), Sparks, User events (markers and
// bookmarks in one track; START/STOP spans in one track per thread,
// stacked as a flame chart — a row per nesting depth, each span in its
// label's colour and named where it fits — or, as the group title's
// switch or SetSpansByLabel chooses, in one track per label) and, last because
// a big run has thousands, Threads (one track per thread, coloured by
// state and why it blocked). A group exists
// when the run has something for it. A TrackID (kind and id: a HEC, a
// thread's id, a label) names a track across models and frames. Only the
// tracks in view are computed and drawn, so 100,000 threads scroll as
// smoothly as ten.
//
// # Hosting a View
//
//	v := tracks.New(log)                 // any timeline.Source (eventlog.Log, timeline.Exact(m))
//	v.SetHeap(log.Heap, log.Profile)     // either may be nil
//	v.SetOnReady(func() { refresh() })   // detail decoded for a range: draw again (any goroutine)
//	v.SetSize(w, h, scale)               // device pixels; scale = device pixels per point
//	v.SetDark(dark)
//	img := v.Render()                    // or v.Draw(paint.NewRaster(img)) into your own image
//
// Call a View from one goroutine. Render or Draw after every change.
//
// Input, all in device pixels:
//
//	v.ZoomAt(x, factor)      // wheel: factor > 1 zooms in about x
//	v.Pan(dx)                // drag: positive dx shows earlier times
//	v.ScrollTracks(n)        // wheel without modifier: n thread tracks up/down (3 a notch)
//	v.ScrollBy(dy)           // or by device pixels
//	v.Fit(); v.SetRange(from, to)
//	text := v.Select(x0, x1) // Shift+drag: selects, returns "12.4 ms" for the axis
//	v.ZoomToSelection(); v.ClearSelection(); v.Selection()
//	h := v.Hit(x, y)         // hover and click: see below
//	v.ToggleGroup(h.Group)   // click on a title (h.Part == PartToggle)
//	v.Pin(h.Track)           // click on h.Part == PartPin
//	v.SetSpansByLabel(!v.SpansByLabel()) // click on h.Part == PartSpans
//	v.SetTrackHeight(h.Track, v.TrackHeight(h.Track)+dy) // drag from h.Part == PartResize
//	v.Reveal(id)             // a finder's jump: expands the group, scrolls the track into view
//	v.SetBookmarks(bs)
//	v.SetFindings(fs)        // advise's findings, flagged along the axis's top
//	v.SetHighlight(h)        // a range along the axis; with h.Tracks = v.FindingTracks(&f), a finding's tracks
//
// Hit(x, y) says what is at a point: the Area (axis, header, plot,
// legend, scroll bar), the header Part, the Group and Track, the track's
// full Name (headers cut names to fit), the Time under x (HasTime), and in
// a plot the Element there — a span with its thread, state, start, length
// and why it stopped; a pixel column of several spans; a summarised
// stretch of an overview ("N changes … zoom in for detail"); instant
// events; utilisation; a user span with its thread and Depth among the
// thread's nested spans; a marker or bookmark cluster, or a finding's
// flag (Findings: which, in the list's order); heap values; a band; a
// GC — as the lines of a tooltip (Tip) and the rectangle
// it is about (Anchor). Hit again after every zoom, pan or scroll: it
// answers for the frame as it is now.
//
// Overlays are the host's, placed with the view's geometry and coloured
// from Theme(): the cursor line at x across PlotRect() with its time
// (paint.Time(v.Time(x), 1)) in AxisRect(); the selection's shade over
// PlotRect() from X(from) to X(to) with its length in AxisRect(); each
// text on the axis covering the TickLabelRects() it overlaps; the
// tooltip beside Hit's Anchor. Axis() gives the time↔x mapping, X(t) and
// Time(x) its two directions; HeaderRect, TracksRect, PinnedRect,
// LegendRect and ScrollbarRect the other areas; Scroll() the offset,
// content and viewport heights for a scroll bar.
//
// Everything scales with SetSize's scale: text is rasterised at device
// pixels, track heights and margins are in points.
//
// # Export
//
// Export draws the whole canvas as shown — every track of every expanded
// group, not just the scrolled window, with the axis and the whole
// legend — over the visible range or the selection, onto any
// paint.Canvas: paint.Raster for PNG, paint.SVG for SVG.
//
// # Views and panels
//
// Views() names the views of a run a picture shows ("timeline", "hecs",
// "activity", "sparks", "threads"), each a set of expanded groups:
// SetView shows one (hecscope render --view). A View is also a panel of a
// larger picture, the comparison's, which stacks a View per run: SetTitles(false)
// leaves out the groups' titles (and so the collapsed groups), FitTracks
// sizes the tracks to fill the panel, SetAxis puts the plot on the axis
// the picture lays out for that run on the runs' shared time scale
// (PlotSpan says where the plot of a frame of a width runs), and
// SetCaption names the run in the axis's corner.
package tracks
