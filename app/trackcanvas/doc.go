// Package trackcanvas is the timeline widget of hecscope's windows: the
// track canvas (Canvas) that draws a tracks.View and lays its overlays over
// it (the cursor line, the selection, the tooltip, the findings' and
// spans' marks), the picture widget that shows a rendered image (Picture),
// and the export of what the canvas shows to PNG and SVG. The file, live
// and compare windows build on it; it knows nothing of them.
package trackcanvas
