// Package heapview models and draws the heap of a GHC program over time.
//
// It holds two kinds of data, both built from ingest's events (or, for heap
// profiles, from a textual .hp file):
//
//   - Heap: the RTS's own counters sampled at every garbage collection —
//     heap size, live bytes, blocks size, bytes allocated (and from them the
//     allocation rate) — and the garbage-collection pauses with their
//     statistics.
//   - Profile: the censuses of a heap profile (-hT, -hc, -hm, -hd, -hy, -hr,
//     -hb, -hi, -he), one list of (band, bytes) entries per sample, with band
//     names kept once in a string table.
//
// Bands reduces a Profile to the N largest bands by integrated size plus an
// OTHER band holding the rest, as one dense matrix ready to draw, and answers
// "what is each band's value at time t" for hover read-outs. Chart draws the
// bands (stacked, normalised to 100 % or as lines), the heap size and live
// lines and the GC pauses into an *image.RGBA, on the same time axis as the
// timeline views (timeline.Axis).
//
// The models are flat slices of plain values: they hold no pointers per
// sample or per band, so that large profiles cost the garbage collector
// nothing to scan.
package heapview
