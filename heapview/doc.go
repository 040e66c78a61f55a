// Package heapview models the heap of a GHC program over time; package
// tracks draws it.
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
// "what is each band's value at time t" for hover read-outs (ValuesAt,
// Nearest); Mode says how they are drawn (stacked, normalised to 100 % or
// as lines) and BandColors colours them. A band's colour comes from a hash
// of its name, so it is the same in every file.
//
// Eventlog censuses are placed at their elapsed time. A .hp file records
// mutator CPU seconds instead; its censuses are placed at that many
// seconds, so a .hp picture's time axis is mutator time (the track's name
// says so).
// The eventlog and the .hp file of one run list the same censuses in the
// same order and give the same bands, except that in .hp files the RTS cuts
// cost-centre stack names longer than 25 bytes to 21 bytes and "...", so
// such -hc bands are named (and coloured) differently.
//
// The models are flat slices of plain values: they hold no pointers per
// sample or per band, so that large profiles cost the garbage collector
// nothing to scan.
package heapview
